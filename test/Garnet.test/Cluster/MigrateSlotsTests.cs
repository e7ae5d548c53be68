using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Garnet.common;
using NUnit.Framework;
using StackExchange.Redis;

using static Garnet.test.Cluster.ClusterTestKit;

namespace Garnet.test.Cluster;

/// <summary>
/// Garnet's slot migration: MIGRATE host port "" 0 timeout SLOTS | SLOTSRANGE moves whole slots from this node to
/// another in the background (batches of keys as RESTORE-BATCH, IMPORTING/MIGRATING meanwhile, SETSLOTSRANGE NODE at the
/// end); CLUSTER MTASKS counts the migrations running.
/// </summary>
[TestFixture]
public sealed class MigrateSlotsTests : ClusterNodesTestBase
{
    /// <summary>Keys named key:i whose slots the first node of <see cref="ClusterNodesTestBase.StartTwoNodes"/> serves (0-8191).</summary>
    private static List<string> SourceKeys(int count)
    {
        var keys = new List<string>(count);
        for (int i = 0; keys.Count < count; i++)
        {
            string key = $"key:{i}";
            if (HashSlot.Of(Encoding.ASCII.GetBytes(key)) < 8192)
                keys.Add(key);
        }
        return keys;
    }

    /// <summary>Waits until the node runs no slot migration; fails after 60 s.</summary>
    private static void WaitForMigrations(GarnetServer node)
    {
        var deadline = Stopwatch.StartNew();
        while (Run(node, "CLUSTER", "MTASKS") != ":0\r\n")
        {
            Assert.That(deadline.Elapsed, Is.LessThan(TimeSpan.FromSeconds(120)), "the migration did not end");
            Thread.Sleep(20);
        }
    }

    /// <summary>Waits until <paramref name="count"/> reaches <paramref name="least"/>; fails after 30 s.</summary>
    private static void WaitForWrites(ref long count, long least)
    {
        var deadline = Stopwatch.StartNew();
        while (Interlocked.Read(ref count) < least)
        {
            Assert.That(deadline.Elapsed, Is.LessThan(TimeSpan.FromSeconds(30)), "the writers stalled");
            Thread.Sleep(10);
        }
    }

    private static long Integer(string reply) => long.Parse(reply.AsSpan(1, reply.Length - 3));

    [Test]
    public void MigrateSlotsRangeMovesEveryKeyWithItsTypeAndTimeToLive()
    {
        var (source, target) = StartTwoNodes();
        var keys = SourceKeys(3000);
        using (var client = new RawClient(source.Port))
        {
            foreach (var key in keys)
                Assert.That(client.Execute("SET", key, key + ":v"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("SET", "{bar}ttl", "t", "PX", "100000"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("HSET", "{bar}h", "f1", "a", "f2", "b"), Is.EqualTo(":2\r\n"));
            Assert.That(client.Execute("RPUSH", "{bar}l", "x", "y", "z"), Is.EqualTo(":3\r\n"));
            Assert.That(client.Execute("SADD", "{bar}s", "m"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("ZADD", "{bar}z", "1.5", "m"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("PFADD", "{bar}hll", "a", "b"), Is.EqualTo(":1\r\n"));
        }
        // A key of the target's own slots, which stays where it is.
        Assert.That(Run(target, "SET", "{foo}own", "o"), Is.EqualTo("+OK\r\n"));
        long moving = keys.Count + 6;

        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "SLOTSRANGE", "0", "8191"), Is.EqualTo("+OK\r\n"));
        WaitForMigrations(source);

        Assert.That(Run(source, "INFO", "cluster"), Does.Contain("slot_migrations_succeeded:1\r\n")
            .And.Contain($"slot_migration_keys_moved:{moving}\r\n").And.Contain("slot_migration_last_error:\r\n"));
        Assert.That(Run(source, "DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(Integer(Run(target, "DBSIZE")), Is.EqualTo(moving + 1));
        string targetId = Id(target);
        Assert.That(Run(target, "CLUSTER", "NODES"), Does.Contain("myself,master - 0 0 3 connected 0-16383"));
        var deadline = Stopwatch.StartNew();
        while (!Run(source, "CLUSTER", "NODES").Contains($"{targetId} 127.0.0.1:{target.Port}") || Run(source, "GET", keys[0]).StartsWith("$"))
        {
            Assert.That(deadline.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)));
            Thread.Sleep(20);
        }
        Assert.That(Run(source, "GET", "{bar}h"), Is.EqualTo($"-MOVED 5061 127.0.0.1:{target.Port}\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Not.Contain("->-"));
        Assert.That(Run(target, "CLUSTER", "NODES"), Does.Not.Contain("-<-"));

        using (var client = new RawClient(target.Port))
        {
            foreach (var key in keys)
                Assert.That(client.Execute("GET", key), Is.EqualTo($"${key.Length + 2}\r\n{key}:v\r\n"));
            long ttl = Integer(client.Execute("PTTL", "{bar}ttl"));
            Assert.That(ttl, Is.InRange(1, 100000));
            Assert.That(client.Execute("HGET", "{bar}h", "f2"), Is.EqualTo("$1\r\nb\r\n"));
            Assert.That(client.Execute("LRANGE", "{bar}l", "0", "-1"), Is.EqualTo("*3\r\n$1\r\nx\r\n$1\r\ny\r\n$1\r\nz\r\n"));
            Assert.That(client.Execute("SISMEMBER", "{bar}s", "m"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("ZSCORE", "{bar}z", "m"), Is.EqualTo("$3\r\n1.5\r\n"));
            Assert.That(client.Execute("PFCOUNT", "{bar}hll"), Is.EqualTo(":2\r\n"));
            Assert.That(client.Execute("GET", "{foo}own"), Is.EqualTo("$1\r\no\r\n"));
        }
    }

    [Test]
    public void MigrateSlotsUnderLiveWritesLosesNoAcknowledgedWrite()
    {
        var (source, target) = StartTwoNodes();
        var keys = SourceKeys(50000);
        using var redis = ConnectionMultiplexer.Connect($"127.0.0.1:{source.Port},127.0.0.1:{target.Port}");
        var db = redis.GetDatabase();
        var loads = keys.Select(key => db.StringSetAsync(key, "0")).ToArray();
        Task.WaitAll(loads);

        // Each writer increments keys of its own and counts the increments acknowledged.
        const int Writers = 4;
        var acknowledged = new long[keys.Count];
        long total = 0;
        var failures = new List<string>();
        using var stop = new CancellationTokenSource();
        var writers = Enumerable.Range(0, Writers).Select(w => new Thread(() =>
        {
            var random = new Random(w);
            while (!stop.IsCancellationRequested)
            {
                int i = random.Next(keys.Count / Writers) * Writers + w;
                try
                {
                    db.StringIncrement(keys[i]);
                    acknowledged[i]++;
                    Interlocked.Increment(ref total);
                }
                catch (Exception e) when (e is RedisException or TimeoutException)
                {
                    lock (failures)
                        failures.Add(e.Message);
                }
            }
        })).ToArray();
        foreach (var writer in writers)
            writer.Start();
        WaitForWrites(ref total, 500);
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "SLOTSRANGE", "0", "8191"), Is.EqualTo("+OK\r\n"));
        WaitForMigrations(source);
        long atEnd = Interlocked.Read(ref total);
        WaitForWrites(ref total, atEnd + 500);
        stop.Cancel();
        foreach (var writer in writers)
            writer.Join();

        Assert.That(Run(source, "INFO", "cluster"), Does.Contain("slot_migrations_succeeded:1\r\n"));
        Assert.That(failures, Is.Empty, string.Join("\n", failures.Take(10)));
        Assert.That(Run(source, "DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(Integer(Run(target, "DBSIZE")), Is.EqualTo(keys.Count));
        using var client = new RawClient(target.Port);
        for (int i = 0; i < keys.Count; i++)
        {
            string value = acknowledged[i].ToString();
            Assert.That(client.Execute("GET", keys[i]), Is.EqualTo($"${value.Length}\r\n{value}\r\n"), keys[i]);
        }
    }

    [Test]
    public void MigrateSlotsMissesNoKeyWhileTheSourceReclaimsItsDeadPages()
    {
        // As batches are deleted, the head pages die and the head mover empties them, copying their few live records
        // forward: none of the keys still to migrate may be carried past the migration's scan (MEMORY PURGE asks the
        // head mover to look again and again).
        var (source, target) = StartTwoNodes();
        var keys = SourceKeys(150000);
        using (var redis = ConnectionMultiplexer.Connect($"127.0.0.1:{source.Port}"))
        {
            var db = redis.GetDatabase();
            Task.WaitAll(keys.Select(key => db.StringSetAsync(key, "v")).ToArray());
        }
        using var stop = new CancellationTokenSource();
        var purger = new Thread(() =>
        {
            using var client = new RawClient(source.Port);
            // Every 20 ms: MEMORY PURGE also runs a blocking, compacting collection of the whole process (both nodes and
            // this test), and back to back those starved the migration for minutes on a loaded machine.
            while (!stop.IsCancellationRequested)
            {
                client.Execute("MEMORY", "PURGE");
                Thread.Sleep(20);
            }
        });
        purger.Start();
        // A step may wait long for the CPU here (the purger runs flat out beside both nodes): a generous timeout per step,
        // so that what is checked is where the keys end up, not how fast a loaded machine answers.
        try
        {
            Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "60000", "SLOTSRANGE", "0", "8191"), Is.EqualTo("+OK\r\n"));
            WaitForMigrations(source);
        }
        finally
        {
            stop.Cancel();
            purger.Join();
        }
        string clusterInfo = Run(source, "INFO", "cluster");
        Assert.That(clusterInfo, Does.Contain("slot_migrations_failed:0\r\n"), clusterInfo);
        Assert.That(Run(source, "DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(Integer(Run(target, "DBSIZE")), Is.EqualTo(keys.Count));
    }

    [Test]
    public void AMigrationThatFailsLeavesEveryKeyOnOneNodeAndGoesOnWhenRunAgain()
    {
        var (source, target) = StartTwoNodes();
        for (int i = 0; i < 100; i++)
            Assert.That(Run(source, "SET", $"{{bar}}k{i}", $"v{i}"), Is.EqualTo("+OK\r\n"));
        // The target already has one of the keys (a copy left by an earlier attempt): without REPLACE it refuses it.
        Assert.That(Run(target, "RESTORE-BATCH", Batch(true, ("{bar}k7", "old"))), Does.Contain("neither serves nor imports"));
        string sourceId = Id(source);
        Assert.That(Run(target, "CLUSTER", "SETSLOT", "5061", "IMPORTING", sourceId), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(target, "RESTORE-BATCH", Batch(true, ("{bar}k7", "old"))), Is.EqualTo("+OK\r\n"));

        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "SLOTS", "5061"), Is.EqualTo("+OK\r\n"));
        WaitForMigrations(source);
        Assert.That(Run(source, "INFO", "cluster"), Does.Contain("slot_migrations_failed:1\r\n")
            .And.Contain("slot_migration_last_error:ERR Target instance replied with error: BUSYKEY Target key name already exists.\r\n"));
        // The refused batch stayed here whole: every key is still served, by the source.
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Contain($" [5061->-{Id(target)}]"));
        Assert.That(Run(source, "GET", "{bar}k7"), Is.EqualTo("$2\r\nv7\r\n"));
        Assert.That(Run(source, "CLUSTER", "COUNTKEYSINSLOT", "5061"), Is.EqualTo(":100\r\n"));

        // Run again with REPLACE: it takes up the slot where it was and finishes.
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "REPLACE", "SLOTS", "5061"), Is.EqualTo("+OK\r\n"));
        WaitForMigrations(source);
        Assert.That(Run(source, "INFO", "cluster"), Does.Contain("slot_migrations_succeeded:1\r\n"));
        Assert.That(Run(source, "DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(Run(target, "DBSIZE"), Is.EqualTo(":100\r\n"));
        Assert.That(Run(target, "GET", "{bar}k7"), Is.EqualTo("$2\r\nv7\r\n"));
        Assert.That(Run(target, "CLUSTER", "NODES"), Does.Not.Contain("-<-"));
    }

    [Test]
    public void AClientBlockedOnAKeyOfAMovedSlotGetsMovedAndGoesOn()
    {
        var (source, target) = StartTwoNodes();
        using var blocked = new RawClient(source.Port);
        blocked.Send("BLPOP", "{bar}queue", "0");
        var deadline = Stopwatch.StartNew();
        while (!Run(source, "INFO", "clients").Contains("blocked_clients:1\r\n"))
        {
            Assert.That(deadline.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)), "the client never blocked");
            Thread.Sleep(10);
        }

        // The push that would wake it can no longer come to the source: as in Redis, the wait ends with -MOVED.
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "SLOTS", "5061"), Is.EqualTo("+OK\r\n"));
        WaitForMigrations(source);
        Assert.That(blocked.ReadReply(), Is.EqualTo($"-MOVED 5061 127.0.0.1:{target.Port}\r\n"));
        Assert.That(blocked.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection goes on");
        Assert.That(Run(source, "INFO", "clients"), Does.Contain("blocked_clients:0\r\n"));

        // A client blocked on a key of a slot its node serves stays blocked through the sweeps, until a push wakes it.
        using var served = new RawClient(target.Port);
        served.Send("BLPOP", "{foo}queue", "0");
        deadline.Restart();
        while (!Run(target, "INFO", "clients").Contains("blocked_clients:1\r\n"))
        {
            Assert.That(deadline.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)), "the client never blocked");
            Thread.Sleep(10);
        }
        Thread.Sleep(300);
        Assert.That(Run(target, "RPUSH", "{foo}queue", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(served.ReadReply(), Is.EqualTo("*2\r\n$10\r\n{foo}queue\r\n$1\r\nx\r\n"), "woken by the push, not redirected");
    }

    [Test]
    public void MigrateSlotsChecksItsArguments()
    {
        var (source, target) = StartTwoNodes();
        string port = target.Port.ToString();
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "k", "0", "5000", "SLOTS", "1"),
            Is.EqualTo("-ERR When using MIGRATE SLOTS or SLOTSRANGE option, the key argument must be set to the empty string\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "SLOTSRANGE", "1"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "COPY", "SLOTS", "1"), Does.StartWith("-ERR COPY does not apply"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "1", "5000", "SLOTS", "1"), Does.StartWith("-ERR MIGRATE SLOTS moves keys of database 0"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "SLOTS", "16384"), Is.EqualTo("-ERR Invalid or out of range slot\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "SLOTS", "1", "1"), Is.EqualTo("-ERR Slot 1 specified multiple times\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "SLOTSRANGE", "9", "3"), Is.EqualTo("-ERR start slot number 9 is greater than end slot number 3\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "SLOTS", "9000"), Is.EqualTo("-ERR I'm not the owner of hash slot 9000\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", "1", "", "0", "5000", "SLOTS", "1"), Is.EqualTo("-ERR I don't know about a node at 127.0.0.1:1\r\n"));
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", source.Port.ToString(), "", "0", "5000", "SLOTS", "1"), Does.StartWith("-ERR Target node is the current node"));
        // Nothing started, and the connection goes on.
        Assert.That(Run(source, "CLUSTER", "MTASKS"), Is.EqualTo(":0\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Not.Contain("->-"));

        var standalone = StartNode(configure: options => options.EnableCluster = false);
        Assert.That(Run(standalone, "MIGRATE", "127.0.0.1", port, "", "0", "5000", "SLOTS", "1"), Is.EqualTo("-ERR This instance has cluster support disabled\r\n"));
    }

    [Test]
    public void SetSlotsRangeChangesManySlotsAtOnce()
    {
        var (source, target) = StartTwoNodes();
        string sourceId = Id(source), targetId = Id(target);
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "MIGRATING", targetId, "0", "9", "20", "20"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Contain($" [0->-{targetId}]").And.Contain($" [9->-{targetId}]").And.Contain($" [20->-{targetId}]"));
        Assert.That(Run(target, "CLUSTER", "SETSLOTSRANGE", "IMPORTING", sourceId, "0", "9"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(target, "CLUSTER", "NODES"), Does.Contain($" [5-<-{sourceId}]"));
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "STABLE", "0", "20"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Not.Contain("->-"));
        // All or nothing: slot 9000 is not the source's, so no slot changes.
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "MIGRATING", targetId, "8000", "9000"), Is.EqualTo("-ERR I'm not the owner of hash slot 8192\r\n"));
        Assert.That(Run(source, "CLUSTER", "NODES"), Does.Not.Contain("->-"));
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "STABLE", "0"), Is.EqualTo("-ERR wrong number of arguments for 'cluster|setslotsrange' command\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "MOVE", targetId, "0", "1"),
            Is.EqualTo("-ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "STABLE", "5", "1"), Is.EqualTo("-ERR start slot number 5 is greater than end slot number 1\r\n"));
        // NODE to another node is refused while a slot of the ranges holds keys here (one scan finds them).
        Assert.That(Run(source, "SET", "{bar}k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "NODE", targetId, "5000", "5100"),
            Is.EqualTo("-ERR Can't assign hashslot 5061 to a different node while I still hold keys for this hash slot.\r\n"));
        Assert.That(Run(source, "CLUSTER", "SETSLOTSRANGE", "NODE", targetId, "5000", "5060"), Is.EqualTo("+OK\r\n"));
        Assert.That(Run(source, "GET", "{foo}"), Does.StartWith("-MOVED").Or.StartWith("$"));
        Assert.That(Run(source, "CLUSTER", "COUNTKEYSINSLOT", "5061"), Is.EqualTo(":1\r\n"));
    }

    /// <summary>A RESTORE-BATCH payload (the format of SlotKeyBatch) of string keys without a time to live, as Latin-1 text.</summary>
    private static string Batch(bool replace, params (string Key, string Value)[] entries)
    {
        var bytes = new List<byte> { (byte)(replace ? 1 : 0) };
        foreach (var (key, value) in entries)
        {
            bytes.Add(0);
            bytes.AddRange(BitConverter.GetBytes(key.Length));
            bytes.AddRange(BitConverter.GetBytes(value.Length));
            bytes.AddRange(BitConverter.GetBytes(0L));
            bytes.AddRange(Encoding.ASCII.GetBytes(key));
            bytes.AddRange(Encoding.ASCII.GetBytes(value));
        }
        return Encoding.Latin1.GetString(bytes.ToArray());
    }

    [Test]
    public void RestoreBatchRestoresOrRefusesAndTheConnectionGoesOn()
    {
        var (source, _) = StartTwoNodes();
        using var client = new RawClient(source.Port);
        Assert.That(client.Execute("RESTORE-BATCH", Batch(false, ("{bar}a", "1"), ("{bar}b", "2"))), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MGET", "{bar}a", "{bar}b"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("RESTORE-BATCH", Batch(false, ("{bar}a", "3"))), Is.EqualTo("-BUSYKEY Target key name already exists.\r\n"));
        Assert.That(client.Execute("RESTORE-BATCH", Batch(true, ("{bar}a", "3"))), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "{bar}a"), Is.EqualTo("$1\r\n3\r\n"));
        // {foo} hashes to slot 12182, which this node neither serves nor imports.
        Assert.That(client.Execute("RESTORE-BATCH", Batch(true, ("{foo}x", "1"))), Does.Contain("neither serves nor imports"));
        Assert.That(client.Execute("RESTORE-BATCH", "\u0002"), Is.EqualTo("-ERR RESTORE-BATCH payload is not valid\r\n"));
        Assert.That(client.Execute("RESTORE-BATCH", Batch(true, ("{bar}c", "1")).Substring(0, 12)), Is.EqualTo("-ERR RESTORE-BATCH payload is not valid\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void MigratedKeysStayGoneWhenTheSourceRecoversItsLog()
    {
        var (source, target) = StartTwoNodes(options => options.EnableAof = true);
        var keys = SourceKeys(500);
        using (var client = new RawClient(source.Port))
        {
            foreach (var key in keys)
                Assert.That(client.Execute("SET", key, "v"), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(Run(source, "MIGRATE", "127.0.0.1", target.Port.ToString(), "", "0", "5000", "SLOTSRANGE", "0", "8191"), Is.EqualTo("+OK\r\n"));
        WaitForMigrations(source);
        Assert.That(Run(source, "DBSIZE"), Is.EqualTo(":0\r\n"));

        string sourceDirectory = Directories[0], targetDirectory = Directories[1];
        StopNode(source);
        StopNode(target);
        var recoveredSource = StartNode(sourceDirectory, options => { options.EnableAof = true; options.Recover = true; });
        var recoveredTarget = StartNode(targetDirectory, options => { options.EnableAof = true; options.Recover = true; });
        Assert.That(Run(recoveredSource, "DBSIZE"), Is.EqualTo(":0\r\n"), "the log replays the migration's deletes");
        Assert.That(Integer(Run(recoveredTarget, "DBSIZE")), Is.EqualTo(keys.Count), "and the target's, its RESTORE-BATCHes");
    }
}
