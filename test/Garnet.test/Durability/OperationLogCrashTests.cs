using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using Garnet.test.Host;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Durability;

/// <summary>The server executable with the operation log, killed as a crash would end it, then recovered.</summary>
[TestFixture]
public sealed class OperationLogCrashTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static ExternalProcess StartServer(string directory, int port, params string[] options)
    {
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        var arguments = new List<string> { ServerDll(), "--warm-up", "0", "--port", port.ToString(), "--memory", "64m", "--page", "1m", "--index", "1m", "--aof", "--checkpointdir", directory };
        arguments.AddRange(options);
        var server = ExternalProcess.Start(dotnet, arguments);
        Assert.That(server.WaitForOutput($"listening on 127.0.0.1:{port}", Timeout), Is.True, $"startup line; output: {server.Output} error: {server.Error}");
        return server;
    }

    /// <summary>
    /// Commit-before-ack (at frequency 0, or at a frequency N with --aof-commit-wait): four writers pipeline RPUSHes until the
    /// server is killed (SIGKILL); every push a writer got a reply for is in the list after recovery, each writer's in its
    /// order, none twice.
    /// </summary>
    [TestCase("0")]
    [TestCase("20", "--aof-commit-wait")]
    // Checkpoints every second (killed maybe in the middle of one), the log's files before each removed.
    [TestCase("0", "--checkpoint-freq", "1", "--aof-size-limit", "4m")]
    public void EveryAcknowledgedWriteSurvivesAKill(params string[] commitOptions)
    {
        string directory = Path.Combine(Path.GetTempPath(), "garnet-aof-crash-" + Guid.NewGuid().ToString("N"));
        using var recovered = new OperationLogTestServer(directory);
        int port = FreePort();
        const int Writers = 4;
        var acknowledged = new int[Writers];
        using (var server = StartServer(directory, port, ["--aof-commit-freq", .. commitOptions]))
        {
            var stop = new CancellationTokenSource();
            // Threads of their own: on two cores the pool would start the last writers only after a delay.
            var writers = new Thread[Writers];
            for (int w = 0; w < Writers; w++)
            {
                int writer = w;
                writers[w] = new Thread(() =>
                {
                    try
                    {
                        using var client = new RawClient(port);
                        for (int next = 0; !stop.IsCancellationRequested;)
                        {
                            for (int i = 0; i < 16; i++)
                                client.Send("RPUSH", "list", $"{writer}:{next + i}");
                            for (int i = 0; i < 16; i++)
                            {
                                Assert.That(client.ReadReply(), Does.StartWith(":"));
                                Volatile.Write(ref acknowledged[writer], next + i + 1);
                            }
                            next += 16;
                        }
                    }
                    catch (Exception e) when (e is IOException or System.Net.Sockets.SocketException or InvalidOperationException)
                    {
                        // The server died under the writer.
                    }
                });
                writers[w].Start();
            }
            // Until every writer has had replies, then a little longer.
            var deadline = DateTime.UtcNow + Timeout;
            while (Array.Exists(acknowledged, count => count < 64) && DateTime.UtcNow < deadline)
                Thread.Sleep(50);
            Thread.Sleep(Array.IndexOf(commitOptions, "--checkpoint-freq") >= 0 ? 2500 : 500);
            server.Kill();
            stop.Cancel();
            foreach (var writer in writers)
                writer.Join();
        }
        for (int w = 0; w < Writers; w++)
            Assert.That(acknowledged[w], Is.GreaterThan(16), $"writer {w} got replies before the kill");

        recovered.Start(recover: true);
        using var reader = recovered.Connect();
        var seen = new int[Writers];
        foreach (string element in Keyspace.Resp.Strings(reader.Execute("LRANGE", "list", "0", "-1")))
        {
            int colon = element.IndexOf(':');
            int writer = int.Parse(element.AsSpan(0, colon));
            int index = int.Parse(element.AsSpan(colon + 1));
            Assert.That(index, Is.EqualTo(seen[writer]), $"writer {writer}'s pushes come back in order, once each");
            seen[writer]++;
        }
        for (int w = 0; w < Writers; w++)
            Assert.That(seen[w], Is.GreaterThanOrEqualTo(acknowledged[w]), $"writer {w}: every acknowledged push survived the kill");
    }

    /// <summary>SIGTERM is a clean shutdown: what the log holds is committed even when commits are left to COMMITAOF.</summary>
    [Test]
    public void SigtermCommitsTheLog()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
            Assert.Ignore("sends SIGTERM");
        string directory = Path.Combine(Path.GetTempPath(), "garnet-aof-term-" + Guid.NewGuid().ToString("N"));
        using var recovered = new OperationLogTestServer(directory);
        int port = FreePort();
        using (var server = StartServer(directory, port, "--aof-commit-freq", "-1"))
        {
            using (var client = new RawClient(port))
            {
                for (int i = 0; i < 50; i++)
                    Assert.That(client.Execute("SET", "key" + i, "value" + i), Is.EqualTo("+OK\r\n"));
            }
            server.Terminate();
            server.WaitForExit(Timeout);
            Assert.That(server.ExitCode, Is.Zero, server.Error);
        }
        recovered.Start(recover: true);
        using var reader = recovered.Connect();
        Assert.That(reader.Execute("DBSIZE"), Is.EqualTo(":50\r\n"));
        Assert.That(reader.Execute("GET", "key49"), Is.EqualTo("$7\r\nvalue49\r\n"));
    }

    /// <summary>A damaged log stops the start with a clear message and a non-zero exit, never an empty server.</summary>
    [Test]
    public void ADamagedLogFailsTheStart()
    {
        string directory = Path.Combine(Path.GetTempPath(), "garnet-aof-bad-" + Guid.NewGuid().ToString("N"));
        using var cleanup = new OperationLogTestServer(directory);
        Directory.CreateDirectory(Path.Combine(directory, "AOF"));
        // Two files, the first shorter than a file must be: not a crash's torn end.
        File.WriteAllBytes(Path.Combine(directory, "AOF", "aof.000000"), new byte[64]);
        File.WriteAllBytes(Path.Combine(directory, "AOF", "aof.000001"), new byte[64]);
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        using var server = ExternalProcess.Run(dotnet, new[] { ServerDll(), "--warm-up", "0", "--port", FreePort().ToString(), "--aof", "--checkpointdir", directory, "--recover" }, Timeout);
        Assert.That(server.ExitCode, Is.Not.Zero);
        Assert.That(server.Error, Does.StartWith("error: cannot recover: The operation log file aof.000000"));
    }
}
