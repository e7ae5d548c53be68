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

    /// <summary>Stops a node before the test ends (a crash or a restart).</summary>
    protected void StopNode(GarnetServer server)
    {
        server.Dispose();
        _servers.Remove(server);
    }
}
