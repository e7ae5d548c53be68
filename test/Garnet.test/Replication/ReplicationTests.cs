using System;
using System.Diagnostics;
using System.Threading;
using Garnet.test.Durability;
using NUnit.Framework;

namespace Garnet.test.Replication;

/// <summary>
/// REPLICAOF between two in-process servers: a replica starts from a checkpoint of its primary, then follows its
/// operation log; it refuses writes, reports its link and offset, and is promoted by REPLICAOF NO ONE. WAIT counts the
/// replicas that acknowledged a connection's writes.
/// </summary>
[TestFixture]
public sealed class ReplicationTests : PrimaryAndReplicaTestBase
{
    [Test]
    public void AReplicaStartsFromACheckpointAndFollowsTheLog()
    {
        Primary.Start();
        using var p = Primary.Connect();
        WriteMixedData(p, "before");
        Replica.Start(configure: o => o.EnableAof = false);
        using var r = Replica.Connect();
        r.Execute("SET", "stale", "gone after the sync");

        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK Already connected to specified master\r\n"));
        WaitUntilCaughtUp();
        Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()), "the checkpoint holds everything");
        Assert.That(r.Execute("EXISTS", "stale"), Is.EqualTo(":0\r\n"), "what the replica held before is gone");

        // What follows arrives by the log: writes, deletes, expirations, a transaction, a flush of one database.
        WriteMixedData(p, "after");
        OperationLogTestServer.Ok(p, "DEL", "before:string");
        OperationLogTestServer.Ok(p, "PEXPIRE", "before:hash", "600000");
        OperationLogTestServer.Ok(p, "MULTI");
        p.Execute("INCRBY", "counter", "5");
        p.Execute("LPUSH", "after:list", "x");
        Assert.That(p.Execute("EXEC"), Does.StartWith("*2\r\n"));
        p.Execute("SELECT", "3");
        OperationLogTestServer.Ok(p, "FLUSHDB");
        p.Execute("SELECT", "0");
        WaitUntilCaughtUp();
        Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()), "the log's writes are replayed");
        Assert.That(r.Execute("GET", "counter"), Is.EqualTo("$1\r\n5\r\n"));

        // Reads are served; writes are refused and the connection goes on.
        Assert.That(r.Execute("SET", "k", "v"), Is.EqualTo("-READONLY You can't write against a read only replica.\r\n"));
        Assert.That(r.Execute("INCR", "counter"), Does.StartWith("-READONLY"));
        Assert.That(r.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(r.Execute("DEL", "counter"), Does.StartWith("-READONLY"));
        Assert.That(r.Execute("EXEC"), Does.StartWith("-EXECABORT"));
        Assert.That(r.Execute("GET", "after:string"), Is.EqualTo("$5\r\nafter\r\n"));

        // The roles as ROLE and INFO tell them.
        string role = r.Execute("ROLE");
        Assert.That(role, Does.StartWith($"*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:{Primary.Port}\r\n$9\r\nconnected\r\n:"));
        string primaryRole = p.Execute("ROLE");
        Assert.That(primaryRole, Does.StartWith("*3\r\n$6\r\nmaster\r\n:"));
        Assert.That(primaryRole, Does.Contain($"*1\r\n*3\r\n$9\r\n127.0.0.1\r\n${Replica.Port.ToString().Length}\r\n{Replica.Port}\r\n"));
        string info = r.Execute("INFO", "replication");
        Assert.That(info, Does.Contain("role:slave\r\n").And.Contain("master_link_status:up\r\n").And.Contain($"master_port:{Primary.Port}\r\n"));
        Assert.That(Field(info, "master_replid"), Is.EqualTo(Field(p.Execute("INFO", "replication"), "master_replid")));
        string primaryInfo = p.Execute("INFO", "replication");
        Assert.That(primaryInfo, Does.Contain("connected_slaves:1\r\n").And.Contain($"slave0:ip=127.0.0.1,port={Replica.Port},state=online,"));
        Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:1\r\n"));
    }

    [Test]
    public void WaitCountsTheReplicasThatAcknowledgedTheConnectionsWrites()
    {
        Primary.Start(configure: o => o.AofCommitFrequencyMs = 1000);
        Replica.Start(configure: o => o.EnableAof = false);
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();

        Assert.That(p.Execute("SET", "k", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(p.Execute("WAIT", "1", "0"), Is.EqualTo(":1\r\n"), "the one replica acknowledges the write");
        Assert.That(r.Execute("GET", "k"), Is.EqualTo("$1\r\n1\r\n"), "WAIT answered once the replica applied it");

        // Two replicas asked for, one exists: the wait lasts its timeout and answers how many did.
        var watch = Stopwatch.StartNew();
        Assert.That(p.Execute("WAIT", "2", "300"), Is.EqualTo(":1\r\n"));
        Assert.That(watch.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(290));
        Assert.That(p.Execute("WAIT", "0", "0"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void WaitAofCountsTheReplicasWhoseOwnLogHoldsTheWrites()
    {
        Primary.Start();
        Replica.Start(); // the operation log on: it copies the stream and reports its commits
        using var withoutLog = new OperationLogTestServer();
        withoutLog.Start(configure: o => o.EnableAof = false);
        using var p = Primary.Connect();
        foreach (var replica in new[] { Replica, withoutLog })
        {
            using var r = replica.Connect();
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
            ReplicationTestSupport.WaitUntilCaughtUp(Primary, replica);
        }

        Assert.That(p.Execute("SET", "k", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(p.Execute("WAITAOF", "1", "1", "0"), Is.EqualTo("*2\r\n:1\r\n:1\r\n"), "the replica with the log has it on its disk");
        Assert.That(p.Execute("WAIT", "2", "0"), Is.EqualTo(":2\r\n"), "both applied it");
        using (var r = Replica.Connect())
            Assert.That(r.Execute("GET", "k"), Is.EqualTo("$1\r\n1\r\n"));

        // The replica without a log never counts: a wait for two lasts its timeout and answers how many did.
        var watch = Stopwatch.StartNew();
        Assert.That(p.Execute("WAITAOF", "0", "2", "300"), Is.EqualTo("*2\r\n:1\r\n:1\r\n"));
        Assert.That(watch.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(290));

        // A transaction's writes, then WAITAOF from another connection that wrote nothing: counted from the files' end.
        OperationLogTestServer.Ok(p, "MULTI");
        p.Execute("INCR", "n");
        p.Execute("LPUSH", "l", "x");
        Assert.That(p.Execute("EXEC"), Does.StartWith("*2\r\n"));
        Assert.That(p.Execute("WAITAOF", "0", "1", "0"), Is.EqualTo("*2\r\n:1\r\n:1\r\n"));
        using var other = Primary.Connect();
        Assert.That(other.Execute("WAITAOF", "1", "1", "0"), Is.EqualTo("*2\r\n:1\r\n:1\r\n"));

        // The replica stops: a wait for it lasts the timeout.
        Replica.Stop();
        Assert.That(p.Execute("SET", "k", "2"), Is.EqualTo("+OK\r\n"));
        Assert.That(p.Execute("WAITAOF", "1", "1", "200"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
    }

    [Test]
    public void ReplicaOfNoOnePromotesTheReplicaWithAHistoryOfItsOwn()
    {
        Primary.Start();
        Replica.Start(configure: o => o.EnableAof = false);
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        OperationLogTestServer.Ok(p, "SET", "k", "from the primary");
        Assert.That(r.Execute("SLAVEOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        string primaryId = Field(p.Execute("INFO", "replication"), "master_replid");

        Assert.That(r.Execute("REPLICAOF", "NO", "ONE"), Is.EqualTo("+OK\r\n"));
        Assert.That(r.Execute("ROLE"), Does.StartWith("*3\r\n$6\r\nmaster\r\n"));
        Assert.That(r.Execute("SET", "k", "on the replica"), Is.EqualTo("+OK\r\n"), "a primary takes writes");
        Assert.That(Field(r.Execute("INFO", "replication"), "master_replid"), Is.Not.EqualTo(primaryId));
        OperationLogTestServer.Ok(p, "SET", "k2", "not streamed any more");
        Thread.Sleep(200);
        Assert.That(r.Execute("EXISTS", "k2"), Is.EqualTo(":0\r\n"));
        Assert.That(r.Execute("REPLICAOF", "NO", "ONE"), Is.EqualTo("+OK\r\n"), "already a primary");

        // Back to being a replica: another history, so it starts over from a checkpoint.
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        Assert.That(r.Execute("GET", "k"), Is.EqualTo("$16\r\nfrom the primary\r\n"));
        Assert.That(r.Execute("GET", "k2"), Is.EqualTo("$21\r\nnot streamed any more\r\n"));
        Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:2\r\n"));
    }

    [Test]
    public void FailoverHandsThePrimaryRoleToAReplicaWithEveryWrite()
    {
        Primary.Start();
        Replica.Start();
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        Assert.That(p.Execute("FAILOVER"), Is.EqualTo("-ERR FAILOVER requires connected replicas.\r\n"));
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        Assert.That(r.Execute("FAILOVER"), Is.EqualTo("-ERR FAILOVER is not valid when server is a replica.\r\n"));
        Assert.That(p.Execute("FAILOVER", "ABORT"), Is.EqualTo("-ERR No failover in progress.\r\n"));
        Assert.That(p.Execute("FAILOVER", "TO", "127.0.0.1", "1"), Is.EqualTo("-ERR FAILOVER target HOST and PORT is not a replica.\r\n"));
        Assert.That(p.Execute("FAILOVER", "TO", "127.0.0.1", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(p.Execute("FAILOVER", "TIMEOUT", "0"), Is.EqualTo("-ERR FAILOVER timeout must be greater than 0\r\n"));
        Assert.That(p.Execute("FAILOVER", "FORCE", "TIMEOUT", "100"), Is.EqualTo("-ERR FAILOVER with force option requires both a timeout and target HOST and IP.\r\n"));
        Assert.That(p.Execute("FAILOVER", "NOW"), Is.EqualTo("-ERR syntax error\r\n"));

        // A writer keeps writing up to the failover: every write it had a reply for is on the new primary.
        int acknowledged = 0;
        var writer = new Thread(() =>
        {
            using var c = Primary.Connect();
            for (int i = 0; i < 100_000; i++)
            {
                if (c.Execute("SET", "k" + i, "v") != "+OK\r\n")
                    return;
                Volatile.Write(ref acknowledged, i + 1);
            }
        });
        writer.Start();
        while (Volatile.Read(ref acknowledged) < 200)
            Thread.Sleep(1);
        Assert.That(p.Execute("FAILOVER", "TO", "127.0.0.1", Replica.Port.ToString(), "TIMEOUT", "10000"), Is.EqualTo("+OK\r\n"));
        Assert.That(p.Execute("FAILOVER"), Is.AnyOf("-ERR FAILOVER already in progress.\r\n", "-ERR FAILOVER is not valid when server is a replica.\r\n",
            "-ERR FAILOVER requires connected replicas.\r\n"));
        writer.Join();

        var watch = Stopwatch.StartNew();
        while (!p.Execute("ROLE").StartsWith("*5\r\n$5\r\nslave\r\n") && watch.Elapsed < TimeSpan.FromSeconds(30))
            Thread.Sleep(20);
        Assert.That(r.Execute("ROLE"), Does.StartWith("*3\r\n$6\r\nmaster\r\n"));
        Assert.That(p.Execute("ROLE"), Does.StartWith($"*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:{Replica.Port}\r\n"));
        Assert.That(Field(p.Execute("INFO", "replication"), "master_failover_state"), Is.EqualTo("no-failover"));
        int written = Volatile.Read(ref acknowledged);
        for (int i = 0; i < written; i++)
            Assert.That(r.Execute("GET", "k" + i), Is.EqualTo("$1\r\nv\r\n"), $"acknowledged write {i} of {written}");
        Assert.That(p.Execute("SET", "k0", "x"), Is.EqualTo("-READONLY You can't write against a read only replica.\r\n"));

        // The old primary follows the new one.
        OperationLogTestServer.Ok(r, "SET", "after", "the failover");
        watch.Restart();
        while (p.Execute("GET", "after") != "$12\r\nthe failover\r\n" && watch.Elapsed < TimeSpan.FromSeconds(30))
            Thread.Sleep(20);
        Assert.That(p.Execute("GET", "after"), Is.EqualTo("$12\r\nthe failover\r\n"));
    }

    [Test]
    public void AFailoverWhoseReplicaDoesNotCatchUpInTimeEndsAndWritersGoOn()
    {
        Primary.Start();
        Replica.Start();
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        // The replica stops applying: it is paused for everything, its stream's connection among them.
        OperationLogTestServer.Ok(r, "CLIENT", "PAUSE", "5000", "ALL");
        OperationLogTestServer.Ok(p, "SET", "k", "not applied yet");
        Assert.That(p.Execute("FAILOVER", "TIMEOUT", "300"), Is.EqualTo("+OK\r\n"));
        Assert.That(Field(p.Execute("INFO", "replication"), "master_failover_state"), Is.EqualTo("waiting-for-sync"));
        var watch = Stopwatch.StartNew();
        while (Field(p.Execute("INFO", "replication"), "master_failover_state") != "no-failover" && watch.Elapsed < TimeSpan.FromSeconds(10))
            Thread.Sleep(20);
        Assert.That(p.Execute("ROLE"), Does.StartWith("*3\r\n$6\r\nmaster\r\n"), "still the primary");
        Assert.That(p.Execute("SET", "k2", "v"), Is.EqualTo("+OK\r\n"), "writers go on");

        // ABORT ends one that waits.
        Assert.That(p.Execute("FAILOVER"), Is.EqualTo("+OK\r\n"));
        Assert.That(p.Execute("FAILOVER", "ABORT"), Is.EqualTo("+OK\r\n"));
        watch.Restart();
        while (Field(p.Execute("INFO", "replication"), "master_failover_state") != "no-failover" && watch.Elapsed < TimeSpan.FromSeconds(10))
            Thread.Sleep(20);
        Assert.That(p.Execute("SET", "k3", "v"), Is.EqualTo("+OK\r\n"));
        OperationLogTestServer.Ok(r, "CLIENT", "UNPAUSE");
    }

    [Test]
    public void AReplicaRunsScriptsAsRedis7DoesAndRefusesTheirWrites()
    {
        Primary.Start();
        Replica.Start();
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        OperationLogTestServer.Ok(p, "SET", "k", "v");
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        const string ReadOnly = "-READONLY You can't write against a read only replica.";

        // Without a shebang (compatibility mode) a script runs: reads work, a write it calls fails.
        Assert.That(r.Execute("EVAL", "return redis.call('GET', KEYS[1])", "1", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(r.Execute("EVAL", "return redis.call('SET', KEYS[1], 'x')", "1", "k"), Does.StartWith(ReadOnly));
        Assert.That(r.Execute("EVAL", "local e = redis.pcall('DEL', KEYS[1]); return e['err']", "1", "k"), Does.StartWith("$").And.Contain("READONLY"));
        string sha = r.Execute("SCRIPT", "LOAD", "return redis.call('GET', KEYS[1])").Split("\r\n")[1];
        Assert.That(r.Execute("EVALSHA", sha, "1", "k"), Is.EqualTo("$1\r\nv\r\n"));
        // With flags, only a no-writes script runs (Redis refuses the others before they start).
        Assert.That(r.Execute("EVAL", "#!lua\nreturn redis.call('GET', KEYS[1])", "1", "k"), Is.EqualTo(ReadOnly + "\r\n"));
        Assert.That(r.Execute("EVAL", "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])", "1", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(r.Execute("EVAL_RO", "return redis.call('GET', KEYS[1])", "1", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(r.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"), "nothing was written");

        // The primary's scripts reach the replica.
        Assert.That(p.Execute("EVAL", "return redis.call('SET', KEYS[1], 'from a script')", "1", "k"), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        Assert.That(r.Execute("GET", "k"), Is.EqualTo("$13\r\nfrom a script\r\n"));
    }

    [Test]
    public void AReplicaWhoseLinkDropsContinuesWhereItStood()
    {
        Primary.Start();
        Replica.Start(configure: o => o.EnableAof = false);
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        OperationLogTestServer.Ok(p, "SET", "a", "1");
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();

        // The primary closes every connection of the replica's (its link and the stream's) but this one.
        Assert.That(p.Execute("CLIENT", "KILL", "SKIPME", "yes"), Does.StartWith(":"));
        // The link finds out at its next PING (within a second) and asks again, with the offset it stands at.
        var watch = Stopwatch.StartNew();
        string stats = p.Execute("INFO", "stats");
        while (!stats.Contains("sync_partial_ok:1\r\n") && watch.Elapsed < TimeSpan.FromSeconds(15))
        {
            Thread.Sleep(50);
            stats = p.Execute("INFO", "stats");
        }
        Assert.That(stats, Does.Contain("sync_partial_ok:1\r\n"), "the reconnected link continued from its offset");
        Assert.That(stats, Does.Contain("sync_full:1\r\n"));
        OperationLogTestServer.Ok(p, "SET", "b", "2");
        WaitUntilCaughtUp();
        Assert.That(r.Execute("GET", "b"), Is.EqualTo("$1\r\n2\r\n"));
        Assert.That(r.Execute("GET", "a"), Is.EqualTo("$1\r\n1\r\n"));
    }

    [Test]
    public void AReplicaFollowsMoreWritesThanTheInMemoryBacklogHolds()
    {
        // About 100 MB of log: the primary's 64 MB in-memory copy of recent entries wraps around while the replica follows.
        Primary.Start(configure: o => o.MemorySize = 1L << 28);
        Replica.Start(configure: o => { o.EnableAof = false; o.MemorySize = 1L << 28; });
        using var p = Primary.Connect();
        using var r = Replica.Connect();
        Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        string value = new('v', 1000);
        const int Keys = 1000, Rounds = 100;
        for (int round = 0; round < Rounds; round++)
        {
            var pipeline = new System.Text.StringBuilder();
            for (int i = 0; i < Keys; i++)
                pipeline.Append(RawClient.Encode("SET", "key:" + i, round + ":" + i + ":" + value));
            p.SendRaw(pipeline.ToString());
            for (int i = 0; i < Keys; i++)
                Assert.That(p.ReadReply(), Is.EqualTo("+OK\r\n"));
        }
        WaitUntilCaughtUp();
        Assert.That(r.Execute("DBSIZE"), Is.EqualTo($":{Keys}\r\n"));
        for (int i = 0; i < Keys; i += 97)
            Assert.That(r.Execute("GET", "key:" + i), Is.EqualTo(p.Execute("GET", "key:" + i)));
        Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:1\r\n"), "no resync was needed");
    }

    [Test]
    public void TheInternalCommandsRefuseWhatTheyDoNotExpect()
    {
        Primary.Start(configure: o => o.EnableAof = false);
        using var p = Primary.Connect();
        Assert.That(p.Execute("REPLSYNC", "127.0.0.1", "1", "token", "?", "-1"), Is.EqualTo("-ERR replication streams the operation log: start the primary with --aof\r\n"));
        Assert.That(p.Execute("REPLSYNC", "127.0.0.1", "x", "token", "?", "-1"), Does.StartWith("-ERR REPLSYNC needs"));
        Assert.That(p.Execute("REPLATTACH", "token", "id"), Is.EqualTo("-ERR no replication stream is expected with this token\r\n"));
        Assert.That(p.Execute("REPLAPPEND", "id", "0", ""), Is.EqualTo("-ERR this connection does not own the replication stream\r\n"));
        Assert.That(p.Execute("REPLFULL", "END"), Is.EqualTo("-ERR this connection does not own the replication stream\r\n"));
        Assert.That(p.Execute("REPLPROMOTE", "id", "0"), Is.EqualTo("-ERR this connection does not own the replication stream\r\n"));
        Assert.That(p.Execute("REPLFAILOVER", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(p.Execute("REPLFAILOVER", "0"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(p.Execute("REPLFAILOVER", "100"), Is.EqualTo("-ERR this server is not a primary with an operation log\r\n"));
        Assert.That(p.Execute("REPLFACK", "127.0.0.1", "x", "0"), Is.EqualTo("-ERR REPLFACK needs host port offset\r\n"));
        Assert.That(p.Execute("REPLFACK", "127.0.0.1", "1", "-5"), Is.EqualTo("-ERR REPLFACK needs host port offset\r\n"));
        Assert.That(p.Execute("REPLFACK", "127.0.0.1", "1", "0"), Is.EqualTo("-ERR this server streams to no replica at that address\r\n"));
        Assert.That(p.Execute("REPLFACK", "127.0.0.1", "1"), Is.EqualTo("-ERR wrong number of arguments for 'replfack' command\r\n"));
        Assert.That(p.Execute("REPLICAOF", "127.0.0.1", "70000"), Is.EqualTo("-ERR Invalid master port\r\n"));
        Assert.That(p.Execute("REPLICAOF", "127.0.0.1", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(p.Execute("REPLICAOF", "127.0.0.1"), Is.EqualTo("-ERR wrong number of arguments for 'replicaof' command\r\n"));
        Assert.That(p.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    /// <summary>Strings (one with a TTL), every object type and HLL, in databases 0 and 3, under <paramref name="prefix"/>.</summary>
    private static void WriteMixedData(RawClient c, string prefix)
    {
        OperationLogTestServer.Ok(c, "SET", prefix + ":string", prefix);
        OperationLogTestServer.Ok(c, "SET", prefix + ":ttl", "v", "PX", "3600000");
        OperationLogTestServer.Ok(c, "HSET", prefix + ":hash", "f1", "v1", "f2", "v2");
        OperationLogTestServer.Ok(c, "RPUSH", prefix + ":list", "a", "b", "c");
        OperationLogTestServer.Ok(c, "SADD", prefix + ":set", "x", "y");
        OperationLogTestServer.Ok(c, "ZADD", prefix + ":zset", "1", "one", "2", "two");
        OperationLogTestServer.Ok(c, "PFADD", prefix + ":hll", "a", "b", "c");
        OperationLogTestServer.Ok(c, "SETBIT", prefix + ":bits", "100", "1");
        c.Execute("SELECT", "3");
        OperationLogTestServer.Ok(c, "SET", prefix + ":db3", "three");
        c.Execute("SELECT", "0");
    }

    private static string Field(string info, string name) => ReplicationTestSupport.Field(info, name);
}
