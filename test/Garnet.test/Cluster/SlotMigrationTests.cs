using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;
using StackExchange.Redis;

using static Garnet.test.Cluster.ClusterTestKit;

namespace Garnet.test.Cluster;

/// <summary>
/// Moving a slot between nodes as Redis Cluster does: SETSLOT IMPORTING/MIGRATING, -ASK for keys already moved, ASKING
/// on the target, -TRYAGAIN for keys split between the two, MIGRATE (RESTORE-ASKING on the target), SETSLOT NODE; and
/// `redis-cli --cluster reshard` under a cluster client's live traffic.
/// </summary>
[TestFixture]
public sealed class SlotMigrationTests : ClusterNodesTestBase
{
    // {bar} hashes to slot 5061.
    private const string Slot = "5061";
    [Test]
    public void ASlotMovesKeyByKeyWithAskAndTryAgainMeanwhile()
    {
        var (source, target) = StartTwoNodes();
        for (int i = 1; i <= 4; i++)
            Assert.That(Run(source, "SET", $"{{bar}}k{i}", $"v{i}"), Is.EqualTo("+OK\r\n"));
        string sourceId = Id(source), targetId = Id(target);

        Assert.That(Run(target, "CLUSTER", "SETSLOT", Slot, "IMPORTING", sourceId), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "MIGRATING", targetId), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Contain($" [{Slot}->-{targetId}]"));
        Assert.That(Run(target, "CLUSTER", "NODES"), Does.Contain($" [{Slot}-<-{sourceId}]"));

        // Keys still on the source are served there; a missing one is asked of the target.
        Assert.That(Run(source, "GET", "{bar}k1"), Is.EqualTo("$2\r\nv1\r\n"));
        Assert.That(Run(source, "GET", "{bar}new"), Is.EqualTo($"-ASK {Slot} 127.0.0.1:{target.Port}\r\n"));
        // The target serves the slot only after ASKING, for the one command after it.
        Assert.That(Run(target, "GET", "{bar}k1"), Is.EqualTo($"-MOVED {Slot} 127.0.0.1:{source.Port}\r\n"));
        using (var client = new RawClient(target.Port))
        {
            Assert.That(client.Execute("ASKING"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("SET", "{bar}new", "n"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("GET", "{bar}new"), Is.EqualTo($"-MOVED {Slot} 127.0.0.1:{source.Port}\r\n"));
        }

        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "KEYS", "{bar}k1", "{bar}k2"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "GET", "{bar}k1"), Is.EqualTo($"-ASK {Slot} 127.0.0.1:{target.Port}\r\n"));
        Assert.That(Run(source, "MGET", "{bar}k1", "{bar}k3"), Is.EqualTo("-TRYAGAIN Multiple keys request during rehashing of slot\r\n"));
        Assert.That(Run(source, "MGET", "{bar}k3", "{bar}k4"), Is.EqualTo("*2\r\n$2\r\nv3\r\n$2\r\nv4\r\n"));
        using (var client = new RawClient(target.Port))
        {
            client.Execute("ASKING");
            Assert.That(client.Execute("GET", "{bar}k1"), Is.EqualTo("$2\r\nv1\r\n"));
            client.Execute("ASKING");
            Assert.That(client.Execute("MGET", "{bar}k1", "{bar}k3"), Is.EqualTo("-TRYAGAIN Multiple keys request during rehashing of slot\r\n"));
        }

        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "NODE", targetId),
            Is.EqualTo($"-ERR Can't assign hashslot {Slot} to a different node while I still hold keys for this hash slot.\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "KEYS", "{bar}k3", "{bar}k4"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "COUNTKEYSINSLOT", Slot), Is.EqualTo(":0\r\n"));
        Assert.That(Run(target, "CLUSTER", "SETSLOT", Slot, "NODE", targetId), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "NODE", targetId), Is.EqualTo("+OK\r\n"));

        Assert.That(Run(source, "GET", "{bar}k1"), Is.EqualTo($"-MOVED {Slot} 127.0.0.1:{target.Port}\r\n"));
        Assert.That(Run(target, "MGET", "{bar}k1", "{bar}k2", "{bar}k3", "{bar}k4", "{bar}new"), Is.EqualTo("*5\r\n$2\r\nv1\r\n$2\r\nv2\r\n$2\r\nv3\r\n$2\r\nv4\r\n$1\r\nn\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Not.Contain("->-"));
        Assert.That(Run(target, "CLUSTER", "NODES"), Does.Not.Contain("-<-"));
        // The target took a new epoch with the slot: its claim is the newest.
        Assert.That(Run(target, "CLUSTER", "INFO"), Does.Contain("cluster_my_epoch:3\r\n"));
    }

    [Test]
    public void SetSlotChecksTheMigrationStates()
    {
        var (source, target) = StartTwoNodes();
        string sourceId = Id(source), targetId = Id(target);
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "IMPORTING", targetId), Is.EqualTo($"-ERR I'm already the owner of hash slot {Slot}\r\n"));
        Assert.That(Run(target, "CLUSTER", "SETSLOT", Slot, "MIGRATING", sourceId), Is.EqualTo($"-ERR I'm not the owner of hash slot {Slot}\r\n"));
        string stranger = new('c', 40);
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "MIGRATING", stranger), Is.EqualTo($"-ERR I don't know about node {stranger}\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "NODE", stranger), Is.EqualTo($"-ERR Unknown node {stranger}\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "MIGRATING", targetId), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "STABLE"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Not.Contain("->-"));
        Assert.That(Run(source, "GET", "{bar}none"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void MigrationStatesSurviveARestart()
    {
        var (source, target) = StartTwoNodes();
        string targetId = Id(target);
        Assert.That(Run(source, "CLUSTER", "SETSLOT", Slot, "MIGRATING", targetId), Is.EqualTo("+OK\r\n"));
        string directory = Directories[0];
        StopNode(source);
        var restarted = StartNode(directory);
        Assert.That(Run(restarted, "CLUSTER", "NODES"), Does.Contain($" [{Slot}->-{targetId}]"));
        WaitFor(restarted, "cluster_state:ok\r\n");
        Assert.That(Run(restarted, "GET", "{bar}gone"), Is.EqualTo($"-ASK {Slot} 127.0.0.1:{target.Port}\r\n"));
    }

    [Test]
    public void RedisCliRebalancesAnUnevenCluster()
    {
        var nodes = CreateThreeNodesWithRedisCli();
        string output;
        int exitCode;
        for (int i = 0; i < 500; i++)
            Assert.That(Run(nodes[i % 3], "SET", $"{{k{i}}}", "v"), Does.StartWith("+OK").Or.StartWith("-MOVED"));
        (output, exitCode) = RunRedisCli(
            $"--cluster reshard 127.0.0.1:{nodes[0].Port} --cluster-from {Id(nodes[0])} --cluster-to {Id(nodes[1])} --cluster-slots 1200 --cluster-yes");
        Assert.That(exitCode, Is.EqualTo(0), output);
        (output, exitCode) = RunRedisCli($"--cluster rebalance 127.0.0.1:{nodes[2].Port} --cluster-yes");
        Assert.That(exitCode, Is.EqualTo(0), output);
        Assert.That(output, Does.Contain("Moving"));
        // Balanced again: each node serves about a third of the slots (redis-cli's default threshold is 2%).
        foreach (var node in nodes)
        {
            var deadline = Stopwatch.StartNew();
            int served;
            while ((served = ServedSlots(node)) is < 5300 or > 5600 && deadline.Elapsed < TimeSpan.FromSeconds(30))
                Thread.Sleep(100);
            Assert.That(served, Is.InRange(5300, 5600), Run(node, "CLUSTER", "NODES"));
        }
        (output, exitCode) = RunRedisCli($"--cluster check 127.0.0.1:{nodes[0].Port}");
        Assert.That(output, Does.Contain("[OK] All nodes agree about slots configuration.").And.Contain("[OK] All 16384 slots covered."));
        Assert.That(exitCode, Is.EqualTo(0), output);
    }

    /// <summary>Three nodes joined by `redis-cli --cluster create`, each with a third of the slots, all up.</summary>
    private List<GarnetServer> CreateThreeNodesWithRedisCli()
    {
        var nodes = new List<GarnetServer> { StartNode(), StartNode(), StartNode() };
        var (output, exitCode) = RunRedisCli($"--cluster create {string.Join(" ", nodes.Select(node => $"127.0.0.1:{node.Port}"))} --cluster-yes");
        Assert.That(exitCode, Is.EqualTo(0), output);
        foreach (var node in nodes)
            WaitFor(node, "cluster_state:ok\r\n", "cluster_known_nodes:3\r\n");
        return nodes;
    }

    /// <summary>How many slots the node's own line of CLUSTER NODES lists.</summary>
    private static int ServedSlots(GarnetServer node)
    {
        string nodes = Run(node, "CLUSTER", "NODES");
        string line = nodes.Split('\n').First(text => text.Contains("myself"));
        int served = 0;
        foreach (var field in line.Split(' ').Skip(8))
        {
            if (field.Length == 0 || field[0] == '[')
                continue;
            var range = field.Trim().Split('-');
            served += range.Length == 1 ? 1 : int.Parse(range[1]) - int.Parse(range[0]) + 1;
        }
        return served;
    }

    [Test]
    public void RedisCliReshardsUnderLiveTrafficWithoutAFailedCommand()
    {
        var nodes = CreateThreeNodesWithRedisCli();
        string output;
        int exitCode;

        using var redis = ConnectionMultiplexer.Connect($"127.0.0.1:{nodes[0].Port}");
        var db = redis.GetDatabase();
        const int Keys = 2000;
        for (int i = 0; i < Keys; i++)
            db.StringSet($"key:{i}", i.ToString());

        long operations = 0;
        var failures = new List<string>();
        using var stop = new CancellationTokenSource();
        var traffic = Task.Run(() =>
        {
            var random = new Random(7);
            while (!stop.IsCancellationRequested)
            {
                int i = random.Next(Keys);
                try
                {
                    if ((i & 1) == 0)
                        db.StringSet($"key:{i}", i.ToString());
                    else if ((string?)db.StringGet($"key:{i}") != i.ToString())
                        lock (failures)
                            failures.Add($"key:{i} read wrong");
                    Interlocked.Increment(ref operations);
                }
                catch (Exception e) when (e is RedisException or TimeoutException)
                {
                    lock (failures)
                        failures.Add(e.Message);
                }
            }
        });

        (output, exitCode) = RunRedisCli(
            $"--cluster reshard 127.0.0.1:{nodes[0].Port} --cluster-from {Id(nodes[0])} --cluster-to {Id(nodes[1])} --cluster-slots 2000 --cluster-yes");
        stop.Cancel();
        traffic.Wait();
        Assert.That(exitCode, Is.EqualTo(0), output);
        Assert.That(failures, Is.Empty, string.Join("\n", failures.Take(10)));
        Assert.That(Interlocked.Read(ref operations), Is.GreaterThan(100));

        long total = 0;
        foreach (var node in nodes)
        {
            string size = Run(node, "DBSIZE");
            total += long.Parse(size.AsSpan(1, size.Length - 3));
        }
        Assert.That(total, Is.EqualTo(Keys), "every key is on exactly one node");
        for (int i = 0; i < Keys; i++)
            Assert.That((string?)db.StringGet($"key:{i}"), Is.EqualTo(i.ToString()));
        (output, exitCode) = RunRedisCli($"--cluster check 127.0.0.1:{nodes[2].Port}");
        Assert.That(output, Does.Contain("[OK] All nodes agree about slots configuration.").And.Contain("[OK] All 16384 slots covered."));
        Assert.That(exitCode, Is.EqualTo(0), output);
    }

}
