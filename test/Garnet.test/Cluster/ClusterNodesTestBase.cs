using System;
using System.Collections.Generic;
using System.IO;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Cluster;

/// <summary>Tests that start several in-process cluster nodes, each with a directory of its own, all stopped and removed after each test.</summary>
public abstract class ClusterNodesTestBase
{
    /// <summary>The nodes' directories, in the order they were made.</summary>
    protected readonly List<string> Directories = [];

    private readonly List<GarnetServer> _servers = [];

    /// <summary>The nodes running now.</summary>
    protected IReadOnlyList<GarnetServer> Servers => _servers;

    [TearDown]
    public void StopNodes()
    {
        foreach (var server in _servers)
            server.Dispose();
        _servers.Clear();
        foreach (var directory in Directories)
            Directory.Delete(directory, recursive: true);
        Directories.Clear();
    }

    /// <summary>Starts a node in <paramref name="directory"/> (a new one when null), with <paramref name="configure"/> applied to its options.</summary>
    protected GarnetServer StartNode(string? directory = null, Action<ServerOptions>? configure = null)
    {
        if (directory == null)
        {
            directory = Path.Combine(Path.GetTempPath(), "garnet-cluster-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(directory);
            Directories.Add(directory);
        }
        var options = ClusterTestKit.Options(directory);
        configure?.Invoke(options);
        var server = new GarnetServer(options);
        server.Start();
        _servers.Add(server);
        return server;
    }

    /// <summary>Two nodes met and up: the first serves slots 0-8191, the second 8192-16383.</summary>
    protected (GarnetServer Source, GarnetServer Target) StartTwoNodes(Action<ServerOptions>? configure = null)
    {
        var source = StartNode(configure: configure);
        var target = StartNode(configure: configure);
        Assert.That(ClusterTestKit.Run(source, "CLUSTER", "ADDSLOTSRANGE", "0", "8191"), Is.EqualTo("+OK\r\n"));
        Assert.That(ClusterTestKit.Run(target, "CLUSTER", "ADDSLOTSRANGE", "8192", "16383"), Is.EqualTo("+OK\r\n"));
        ClusterTestKit.Run(source, "CLUSTER", "SET-CONFIG-EPOCH", "1");
        ClusterTestKit.Run(target, "CLUSTER", "SET-CONFIG-EPOCH", "2");
        Assert.That(ClusterTestKit.Run(target, "CLUSTER", "MEET", "127.0.0.1", source.Port.ToString()), Is.EqualTo("+OK\r\n"));
        ClusterTestKit.WaitFor(source, "cluster_state:ok\r\n", "cluster_known_nodes:2\r\n");
        ClusterTestKit.WaitFor(target, "cluster_state:ok\r\n", "cluster_known_nodes:2\r\n");
        return (source, target);
    }

    /// <summary>Stops a node before the test ends (a crash or a restart).</summary>
    protected void StopNode(GarnetServer server)
    {
        server.Dispose();
        _servers.Remove(server);
    }
}
