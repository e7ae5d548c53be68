using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using Garnet.server;
using NUnit.Framework;
using StackExchange.Redis;

using static Garnet.test.Cluster.ClusterTestKit;

namespace Garnet.test.Cluster;

/// <summary>
/// Several in-process cluster nodes on loopback ports: CLUSTER MEET and gossip bring them to one configuration, a key on
/// another node's slot gets -MOVED, cluster clients (StackExchange.Redis, redis-cli --cluster) drive them, the
/// configuration survives a restart, and a node that stops answering is failed by the majority.
/// </summary>
[TestFixture]
public sealed class MultiNodeClusterTests : ClusterNodesTestBase
{
    private GarnetServer StartNode(string? directory = null, int timeoutSeconds = 5, string? password = null, string? clusterPassword = null)
        => StartNode(directory, options =>
        {
            options.ClusterTimeout = timeoutSeconds;
            options.Password = password;
            options.ClusterPassword = clusterPassword;
        });

    /// <summary>Three primaries with a third of the slots each, met through the first one.</summary>
    private List<GarnetServer> StartThreeNodes(int timeoutSeconds = 5)
    {
        var nodes = new List<GarnetServer> { StartNode(timeoutSeconds: timeoutSeconds), StartNode(timeoutSeconds: timeoutSeconds), StartNode(timeoutSeconds: timeoutSeconds) };
        string[][] ranges = [["0", "5460"], ["5461", "10922"], ["10923", "16383"]];
        for (int i = 0; i < 3; i++)
        {
            Assert.That(Run(nodes[i], "CLUSTER", "ADDSLOTSRANGE", ranges[i][0], ranges[i][1]), Is.EqualTo("+OK\r\n"));
            Assert.That(Run(nodes[i], "CLUSTER", "SET-CONFIG-EPOCH", (i + 1).ToString()), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(Run(nodes[1], "CLUSTER", "MEET", "127.0.0.1", nodes[0].Port.ToString()), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(nodes[2], "CLUSTER", "MEET", "127.0.0.1", nodes[0].Port.ToString()), Is.EqualTo("+OK\r\n"));
        foreach (var node in nodes)
            WaitFor(node, "cluster_state:ok\r\n", "cluster_known_nodes:3\r\n");
        return nodes;
    }

    private static void WaitForNodes(GarnetServer node, Func<string, bool> condition, string what)
    {
        string nodes = "";
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromSeconds(30))
        {
            nodes = Run(node, "CLUSTER", "NODES");
            if (condition(nodes))
                return;
            Thread.Sleep(50);
        }
        Assert.Fail($"node {node.Port} never showed {what}:\n{nodes}");
    }

    [Test]
    public void MetNodesAgreeOnEverySlotAndRedirectKeysToTheirOwner()
    {
        var nodes = StartThreeNodes();
        // foo hashes to 12182 (the third node's), bar to 5061 (the first's).
        Assert.That(Run(nodes[0], "SET", "foo", "1"), Is.EqualTo($"-MOVED 12182 127.0.0.1:{nodes[2].Port}\r\n"));
        Assert.That(Run(nodes[2], "SET", "foo", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(nodes[1], "GET", "bar"), Is.EqualTo($"-MOVED 5061 127.0.0.1:{nodes[0].Port}\r\n"));
        // Sharded pub/sub's channels live in slots as keys do.
        Assert.That(Run(nodes[0], "SPUBLISH", "foo", "m"), Is.EqualTo($"-MOVED 12182 127.0.0.1:{nodes[2].Port}\r\n"));
        Assert.That(Run(nodes[2], "SPUBLISH", "foo", "m"), Is.EqualTo(":0\r\n"));
        Assert.That(Run(nodes[2], "SSUBSCRIBE", "foo", "bar"), Is.EqualTo("-CROSSSLOT Keys in request don't hash to the same slot\r\n"));
        Assert.That(Run(nodes[0], "SSUBSCRIBE", "{foo}a", "{foo}b"), Is.EqualTo($"-MOVED 12182 127.0.0.1:{nodes[2].Port}\r\n"));
        // Every node lists the same three nodes with the same slots.
        var signatures = nodes.Select(node => Signature(Run(node, "CLUSTER", "NODES"))).ToList();
        Assert.That(signatures.Distinct().Count(), Is.EqualTo(1), string.Join("\n", signatures));
        Assert.That(signatures[0].Split('|').Length, Is.EqualTo(3));
        string slots = Run(nodes[1], "CLUSTER", "SLOTS");
        foreach (var node in nodes)
            Assert.That(slots, Does.Contain($":{node.Port}\r\n"));
        Assert.That(Run(nodes[0], "CLUSTER", "INFO"), Does.Contain("cluster_size:3\r\n").And.Contain("cluster_current_epoch:3\r\n").And.Contain("cluster_my_epoch:1\r\n"));
    }

    /// <summary>What redis-cli compares between nodes: each node's id and slot ranges, sorted.</summary>
    private static string Signature(string nodes)
    {
        // After the bulk string's header.
        var lines = nodes.Substring(nodes.IndexOf('\n') + 1).Replace("txt:", "").Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var entries = new List<string>();
        foreach (var line in lines)
        {
            var fields = line.Split(' ');
            if (fields.Length > 8 && fields[0].Length == 40)
                entries.Add(fields[0] + ":" + string.Join(",", fields.Skip(8)));
        }
        entries.Sort(StringComparer.Ordinal);
        return string.Join("|", entries);
    }

    [Test]
    public void AClusterClientSpreadsKeysOverTheNodes()
    {
        var nodes = StartThreeNodes();
        using var redis = ConnectionMultiplexer.Connect($"127.0.0.1:{nodes[0].Port}");
        var db = redis.GetDatabase();
        for (int i = 0; i < 300; i++)
            Assert.That(db.StringSet($"key:{i}", i.ToString()), Is.True);
        for (int i = 0; i < 300; i++)
            Assert.That((string?)db.StringGet($"key:{i}"), Is.EqualTo(i.ToString()));
        long total = 0;
        foreach (var node in nodes)
        {
            string size = Run(node, "DBSIZE");
            long count = long.Parse(size.AsSpan(1, size.Length - 3));
            Assert.That(count, Is.GreaterThan(50), "each node holds about a third of the keys");
            total += count;
        }
        Assert.That(total, Is.EqualTo(300), "every key is on exactly one node");
    }

    [Test]
    public void ARestartedNodeKeepsItsClusterAndTheOthersLearnItsNewPort()
    {
        var nodes = StartThreeNodes();
        string id = Run(nodes[2], "CLUSTER", "MYID");
        string directory = Directories[2];
        StopNode(nodes[2]);
        var restarted = StartNode(directory);
        Assert.That(Run(restarted, "CLUSTER", "MYID"), Is.EqualTo(id));
        WaitFor(restarted, "cluster_state:ok\r\n", "cluster_known_nodes:3\r\n");
        WaitForNodes(nodes[0], text => text.Contains($"{id[5..^2]} 127.0.0.1:{restarted.Port}@"), "the restarted node's new port");
        WaitFor(nodes[0], "cluster_state:ok\r\n");
        Assert.That(Run(nodes[0], "GET", "foo"), Is.EqualTo($"-MOVED 12182 127.0.0.1:{restarted.Port}\r\n"));
    }

    [Test]
    public void ANodeThatStopsAnsweringIsFailedByTheMajority()
    {
        var nodes = StartThreeNodes(timeoutSeconds: 1);
        string id = Run(nodes[2], "CLUSTER", "MYID");
        id = id.Substring(id.IndexOf('\n') + 1, 40);
        StopNode(nodes[2]);
        foreach (var node in nodes.Take(2))
        {
            WaitForNodes(node, text => text.Split('\n').Any(line => line.StartsWith(id) && line.Split(' ')[2].Split(',').Contains("fail")), "the stopped node failed");
            WaitFor(node, "cluster_state:fail\r\n");
        }
        Assert.That(Run(nodes[0], "CLUSTER", "SHARDS"), Does.Contain("$6\r\nhealth\r\n$6\r\nfailed\r\n"));
        // The failed node's slots are down; the cluster as a whole refuses commands then, as Redis's does.
        Assert.That(Run(nodes[0], "GET", "bar"), Is.EqualTo("-CLUSTERDOWN The cluster is down\r\n"));
    }

    [Test]
    public void AForgottenNodeIsNotBroughtBackByGossip()
    {
        var nodes = StartThreeNodes();
        string id = Run(nodes[2], "CLUSTER", "MYID");
        id = id.Substring(id.IndexOf('\n') + 1, 40);
        Assert.That(Run(nodes[0], "CLUSTER", "FORGET", id), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(nodes[0], "CLUSTER", "FORGET", id), Is.EqualTo($"-ERR Unknown node {id}\r\n"));
        Thread.Sleep(2500); // several rounds of gossip from the node that still knows it
        string info = Run(nodes[0], "CLUSTER", "INFO");
        Assert.That(info, Does.Contain("cluster_known_nodes:2\r\n").And.Contain("cluster_state:fail\r\n"));
        Assert.That(Run(nodes[0], "CLUSTER", "NODES"), Does.Not.Contain(id));
    }

    [Test]
    public void MeetChecksItsArguments()
    {
        var node = StartNode();
        Assert.That(Run(node, "CLUSTER", "MEET", "not-an-ip", "7000"), Is.EqualTo("-ERR Invalid node address specified: not-an-ip:7000\r\n"));
        Assert.That(Run(node, "CLUSTER", "MEET", "127.0.0.1", "x"), Is.EqualTo("-ERR Invalid base port specified: x\r\n"));
        Assert.That(Run(node, "CLUSTER", "MEET", "127.0.0.1", "7000", "y"), Is.EqualTo("-ERR Invalid bus port specified: y\r\n"));
        Assert.That(Run(node, "CLUSTER", "MEET", "127.0.0.1", "70000"), Is.EqualTo("-ERR Invalid node address specified: 127.0.0.1:70000\r\n"));
        // A message that is not a node's: an error, and the connection goes on.
        using var client = new RawClient(node.Port);
        Assert.That(client.Execute("CLUSTER", "GOSSIP", "garbage"), Does.StartWith("-ERR invalid cluster message"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void LinksAuthenticateWithTheClusterPassword()
    {
        var first = StartNode(password: "secret", clusterPassword: "secret");
        var second = StartNode(password: "secret", clusterPassword: "secret");
        var stranger = StartNode(password: null, clusterPassword: "wrong");
        using (var client = new RawClient(second.Port))
        {
            client.Execute("AUTH", "secret");
            Assert.That(client.Execute("CLUSTER", "MEET", "127.0.0.1", first.Port.ToString()), Is.EqualTo("+OK\r\n"));
        }
        using (var client = new RawClient(stranger.Port))
            Assert.That(client.Execute("CLUSTER", "MEET", "127.0.0.1", first.Port.ToString()), Is.EqualTo("+OK\r\n"));
        using (var client = new RawClient(first.Port))
        {
            client.Execute("AUTH", "secret");
            var deadline = Stopwatch.StartNew();
            while (!client.Execute("CLUSTER", "INFO").Contains("cluster_known_nodes:2\r\n") && deadline.Elapsed < TimeSpan.FromSeconds(30))
                Thread.Sleep(50);
            Thread.Sleep(1500);
            Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_known_nodes:2\r\n"), "the node with the wrong password never joins");
        }
        WaitFor(stranger, "cluster_known_nodes:1\r\n");
    }

    [Test]
    public void RedisCliCreatesAndChecksACluster()
    {
        var nodes = new List<GarnetServer> { StartNode(), StartNode(), StartNode() };
        string addresses = string.Join(" ", nodes.Select(node => $"127.0.0.1:{node.Port}"));
        var (output, exitCode) = RunRedisCli($"--cluster create {addresses} --cluster-yes");
        Assert.That(exitCode, Is.EqualTo(0), output);
        Assert.That(output, Does.Contain("[OK] All 16384 slots covered."));
        foreach (var node in nodes)
            WaitFor(node, "cluster_state:ok\r\n", "cluster_known_nodes:3\r\n");
        (output, exitCode) = RunRedisCli($"--cluster check 127.0.0.1:{nodes[1].Port}");
        Assert.That(output, Does.Contain("[OK] All nodes agree about slots configuration.").And.Contain("[OK] All 16384 slots covered."));
        Assert.That(exitCode, Is.EqualTo(0), output);
        // redis-cli -c follows the redirection.
        (output, _) = RunRedisCli($"-c -p {nodes[0].Port} SET foo bar");
        Assert.That(output.Trim(), Is.EqualTo("OK"));
        Assert.That(Run(nodes.Single(node => Run(node, "CLUSTER", "COUNTKEYSINSLOT", "12182") == ":1\r\n"), "GET", "foo"), Is.EqualTo("$3\r\nbar\r\n"));
    }

}
