using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Cluster;

/// <summary>What the cluster tests share: a small node's options, a command to a node, waiting for its state, redis-cli.</summary>
internal static class ClusterTestKit
{
    /// <summary>The options of a small cluster node: loopback, a free port, little memory, its files in <paramref name="directory"/>.</summary>
    public static ServerOptions Options(string directory) => new()
    {
        Address = "127.0.0.1",
        Port = 0,
        IndexSize = 1L << 20,
        MemorySize = 1L << 26,
        PageSize = 1L << 20,
        CheckpointDir = directory,
        EnableCluster = true,
    };

    /// <summary>The raw reply of one command on a new connection.</summary>
    public static string Run(GarnetServer server, params string[] args)
    {
        using var client = new RawClient(server.Port);
        return client.Execute(args);
    }

    public static string Id(GarnetServer server)
    {
        string reply = Run(server, "CLUSTER", "MYID");
        return reply.Substring(reply.IndexOf('\n') + 1, 40);
    }

    /// <summary>Waits until the node's CLUSTER INFO contains every one of <paramref name="lines"/>.</summary>
    public static void WaitFor(GarnetServer node, params string[] lines)
    {
        string info = "";
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(30))
        {
            info = Run(node, "CLUSTER", "INFO");
            if (lines.All(info.Contains))
                return;
            Thread.Sleep(50);
        }
        Assert.Fail($"node {node.Port} never reported {string.Join(", ", lines)}:\n{info}\n{Run(node, "CLUSTER", "NODES")}");
    }

    /// <summary>The path of redis-cli; fails the test when it is not installed.</summary>
    public static string RedisCli()
    {
        string? redisCli = Garnet.test.Host.ExternalProcess.FindOnPath("redis-cli");
        if (redisCli == null)
            Assert.Fail("redis-cli is not installed: apt-get install -y redis-tools (.ci/run does this)");
        return redisCli!;
    }

    /// <summary>Runs redis-cli with <paramref name="arguments"/>: its output (standard and error) and exit code.</summary>
    public static (string Output, int ExitCode) RunRedisCli(string arguments)
    {
        var start = new ProcessStartInfo(RedisCli(), arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(300_000))
        {
            process.Kill();
            Assert.Fail($"redis-cli {arguments} did not finish:\n{output}");
        }
        return (output + error.Result, process.ExitCode);
    }
}
