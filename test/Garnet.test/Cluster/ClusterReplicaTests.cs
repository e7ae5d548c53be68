using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using Garnet.common;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Cluster;

/// <summary>
/// CLUSTER REPLICATE: a node becomes a replica of a primary, follows its data (a checkpoint, then its operation log), is
/// shown as its replica everywhere, redirects to it (MOVED) and serves reads after READONLY; it follows again after a restart.
/// </summary>
[TestFixture]
public sealed class ClusterReplicaTests : ClusterNodesTestBase
{
    private static void WithAof(ServerOptions options) => options.EnableAof = true;

    [Test]
    public void AReplicaFollowsItsPrimaryAndServesReadsAfterReadOnly()
    {
        var (primary, other) = StartTwoNodes(WithAof);
        string replicaDirectory = NewDirectory();
        var replica = StartNode(replicaDirectory, WithAof);
        string primaryId = ClusterTestKit.Id(primary);
        string replicaId = ClusterTestKit.Id(replica);
        // Keys of the primary's slots (0-8191), written before and after the replica joins.
        string[] keys = Enumerable.Range(0, 400).Select(i => "key:" + i).Where(k => HashSlot.Of(System.Text.Encoding.ASCII.GetBytes(k)) < 8192).ToArray();
        using (var c = new RawClient(primary.Port))
        {
            foreach (string key in keys.Take(100))
                Assert.That(c.Execute("SET", key, "v1:" + key), Is.EqualTo("+OK\r\n"));
        }

        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "MEET", "127.0.0.1", primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        ClusterTestKit.WaitFor(replica, "cluster_known_nodes:3\r\n", "cluster_state:ok\r\n");
        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "REPLICATE", replicaId), Is.EqualTo("-ERR Can't replicate myself\r\n"));
        Assert.That(ClusterTestKit.Run(other, "CLUSTER", "REPLICATE", primaryId), Is.EqualTo("-ERR To set a master the node must be empty and without assigned slots.\r\n"));
        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "REPLICATE", primaryId), Is.EqualTo("+OK\r\n"));

        using (var c = new RawClient(primary.Port))
        {
            foreach (string key in keys.Skip(100))
                Assert.That(c.Execute("SET", key, "v2:" + key), Is.EqualTo("+OK\r\n"));
            Assert.That(c.Execute("DEL", keys[0]), Is.EqualTo(":1\r\n"));
        }
        WaitUntilCaughtUp(primary, replica);

        using (var r = new RawClient(replica.Port))
        {
            int slot = HashSlot.Of(System.Text.Encoding.ASCII.GetBytes(keys[1]));
            Assert.That(r.Execute("GET", keys[1]), Is.EqualTo($"-MOVED {slot} 127.0.0.1:{primary.Port}\r\n"), "without READONLY a replica redirects");
            Assert.That(r.Execute("READONLY"), Is.EqualTo("+OK\r\n"));
            Assert.That(r.Execute("GET", keys[0]), Is.EqualTo("$-1\r\n"), "the delete was replayed");
            Assert.That(r.Execute("GET", keys[1]), Is.EqualTo($"${("v1:" + keys[1]).Length}\r\nv1:{keys[1]}\r\n"), "from the checkpoint");
            string last = keys[^1];
            Assert.That(r.Execute("GET", last), Is.EqualTo($"${("v2:" + last).Length}\r\nv2:{last}\r\n"), "from the log");
            Assert.That(r.Execute("SET", keys[1], "x"), Is.EqualTo($"-MOVED {slot} 127.0.0.1:{primary.Port}\r\n"), "writes go to the primary");
            Assert.That(r.Execute("READWRITE"), Is.EqualTo("+OK\r\n"));
            Assert.That(r.Execute("GET", keys[1]), Does.StartWith("-MOVED"));
            // A key of the other primary's slots is that primary's.
            Assert.That(r.Execute("GET", "{a}"), Does.StartWith($"-MOVED {HashSlot.Of("a"u8)} 127.0.0.1:{other.Port}"));
        }

        // Every node sees the replica as the primary's.
        foreach (var node in new[] { primary, other, replica })
            WaitForNodesLine(node, replicaId, $"slave {primaryId}");
        Assert.That(ClusterTestKit.Run(primary, "CLUSTER", "REPLICAS", primaryId), Does.Contain(replicaId));
        Assert.That(ClusterTestKit.Run(replica, "ROLE"), Does.StartWith($"*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:{primary.Port}\r\n"));

        // Restarted, the replica follows its primary again (nodes.conf says whose replica it is), from where its own
        // checkpoint and log (a copy of the primary's stream) left it: no second full sync.
        StopNode(replica);
        using (var c = new RawClient(primary.Port))
            Assert.That(c.Execute("SET", keys[2], "while the replica was down"), Is.EqualTo("+OK\r\n"));
        var restarted = StartNode(replicaDirectory, options => { options.EnableAof = true; options.Recover = true; });
        WaitUntilCaughtUp(primary, restarted);
        Assert.That(ClusterTestKit.Run(primary, "INFO", "stats"), Does.Contain("sync_full:1\r\n"));
        using (var r = new RawClient(restarted.Port))
        {
            Assert.That(r.Execute("READONLY"), Is.EqualTo("+OK\r\n"));
            Assert.That(r.Execute("GET", keys[2]), Is.EqualTo("$26\r\nwhile the replica was down\r\n"));
        }
    }

    [Test]
    public void RedisCliCreatesAClusterWithAReplicaPerPrimary()
    {
        var nodes = Enumerable.Range(0, 6).Select(_ => StartNode(configure: WithAof)).ToList();
        string addresses = string.Join(" ", nodes.Select(node => $"127.0.0.1:{node.Port}"));
        var (output, exitCode) = ClusterTestKit.RunRedisCli($"--cluster create {addresses} --cluster-replicas 1 --cluster-yes");
        Assert.That(exitCode, Is.EqualTo(0), output);
        Assert.That(output, Does.Contain("[OK] All 16384 slots covered."));
        foreach (var node in nodes)
            ClusterTestKit.WaitFor(node, "cluster_state:ok\r\n", "cluster_known_nodes:6\r\n", "cluster_size:3\r\n");
        (output, exitCode) = ClusterTestKit.RunRedisCli($"--cluster check 127.0.0.1:{nodes[0].Port}");
        Assert.That(output, Does.Contain("[OK] All nodes agree about slots configuration.").And.Contain("[OK] All 16384 slots covered."));
        Assert.That(output, Does.Contain("3 masters"), output);
        Assert.That(exitCode, Is.EqualTo(0), output);

        // A write through redis-cli -c reaches a primary, and that primary's replica has it.
        (output, _) = ClusterTestKit.RunRedisCli($"-c -p {nodes[0].Port} SET foo bar");
        Assert.That(output.Trim(), Is.EqualTo("OK"));
        var primary = nodes.Single(node => ClusterTestKit.Run(node, "CLUSTER", "COUNTKEYSINSLOT", "12182") == ":1\r\n" && ClusterTestKit.Run(node, "ROLE").Contains("master"));
        string primaryId = ClusterTestKit.Id(primary);
        var replica = nodes.Single(node => ClusterTestKit.Run(node, "CLUSTER", "NODES").Split('\n').Any(line => line.Contains("myself,slave " + primaryId)));
        WaitUntilCaughtUp(primary, replica);
        using var r = new RawClient(replica.Port);
        Assert.That(r.Execute("READONLY"), Is.EqualTo("+OK\r\n"));
        Assert.That(r.Execute("GET", "foo"), Is.EqualTo("$3\r\nbar\r\n"));
    }

    [Test]
    public void AManualFailoverPromotesTheReplicaWithEveryAcknowledgedWrite()
    {
        var (primary, other) = StartTwoNodes(WithAof);
        var replica = StartNode(configure: WithAof);
        string primaryId = ClusterTestKit.Id(primary);
        string replicaId = ClusterTestKit.Id(replica);
        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "MEET", "127.0.0.1", primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        ClusterTestKit.WaitFor(replica, "cluster_known_nodes:3\r\n", "cluster_state:ok\r\n");
        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "REPLICATE", primaryId), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp(primary, replica);
        Assert.That(ClusterTestKit.Run(primary, "CLUSTER", "FAILOVER"), Is.EqualTo("-ERR You should send CLUSTER FAILOVER to a replica\r\n"));
        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "FAILOVER", "NOW"), Is.EqualTo("-ERR syntax error\r\n"));

        // A writer keeps writing to the primary right up to the failover; every write it had acknowledged is kept.
        string[] keys = Enumerable.Range(0, 2000).Select(i => "k" + i).Where(k => HashSlot.Of(System.Text.Encoding.ASCII.GetBytes(k)) < 8192).ToArray();
        int acknowledged = 0;
        var writer = new Thread(() =>
        {
            using var c = new RawClient(primary.Port);
            foreach (string key in keys)
            {
                if (c.Execute("SET", key, "v") != "+OK\r\n")
                    break;
                acknowledged++;
            }
        });
        writer.Start();
        while (Volatile.Read(ref acknowledged) < 200)
            Thread.Sleep(1);
        Assert.That(ClusterTestKit.Run(replica, "CLUSTER", "FAILOVER"), Is.EqualTo("+OK\r\n"));
        writer.Join();

        WaitForNodesLine(replica, replicaId, "myself,master");
        WaitForNodesLine(primary, primaryId, $"myself,slave {replicaId}");
        WaitForNodesLine(other, primaryId, $"slave {replicaId}");
        using (var n = new RawClient(replica.Port))
        {
            for (int i = 0; i < acknowledged; i++)
                Assert.That(n.Execute("GET", keys[i]), Is.EqualTo("$1\r\nv\r\n"), $"acknowledged write {i} of {acknowledged}");
            Assert.That(n.Execute("SET", keys[0], "after"), Is.EqualTo("+OK\r\n"), "the new primary takes writes");
        }
        // The old primary redirects to the new one and follows it.
        int slot = HashSlot.Of(System.Text.Encoding.ASCII.GetBytes(keys[0]));
        Assert.That(ClusterTestKit.Run(primary, "GET", keys[0]), Is.EqualTo($"-MOVED {slot} 127.0.0.1:{replica.Port}\r\n"));
        WaitUntilCaughtUp(replica, primary);
        using (var o = new RawClient(primary.Port))
        {
            Assert.That(o.Execute("READONLY"), Is.EqualTo("+OK\r\n"));
            Assert.That(o.Execute("GET", keys[0]), Is.EqualTo("$5\r\nafter\r\n"));
        }
    }

    private string NewDirectory()
    {
        string directory = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "garnet-cluster-" + Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(directory);
        Directories.Add(directory);
        return directory;
    }

    private static void WaitForNodesLine(GarnetServer node, string id, string text)
    {
        var watch = Stopwatch.StartNew();
        string nodes = "";
        while (watch.Elapsed < TimeSpan.FromSeconds(30))
        {
            nodes = ClusterTestKit.Run(node, "CLUSTER", "NODES");
            if (nodes.Split('\n').Any(line => line.StartsWith(id) && line.Contains(text)))
                return;
            Thread.Sleep(50);
        }
        Assert.Fail($"node {node.Port} never showed {id} with '{text}':\n{nodes}");
    }

    /// <summary>Waits until the replica's link is up and it applied everything the primary logged.</summary>
    private static void WaitUntilCaughtUp(GarnetServer primary, GarnetServer replica)
    {
        var watch = Stopwatch.StartNew();
        string info = "";
        while (watch.Elapsed < TimeSpan.FromSeconds(30))
        {
            ClusterTestKit.Run(primary, "WAIT", "0", "0");
            long primaryOffset = Offset(ClusterTestKit.Run(primary, "INFO", "replication"), "master_repl_offset");
            info = ClusterTestKit.Run(replica, "INFO", "replication");
            if (info.Contains("master_link_status:up\r\n") && Offset(info, "slave_repl_offset") == primaryOffset)
                return;
            Thread.Sleep(20);
        }
        Assert.Fail("the replica never caught up:\n" + info);
    }

    private static long Offset(string info, string field)
    {
        int at = info.IndexOf(field + ":", StringComparison.Ordinal);
        if (at < 0)
            return -1;
        int start = at + field.Length + 1;
        int end = info.IndexOf('\r', start);
        return long.Parse(info.AsSpan(start, end - start));
    }
}
