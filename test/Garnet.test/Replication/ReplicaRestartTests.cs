using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using Garnet.test.Durability;
using Garnet.test.Host;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Replication;

/// <summary>
/// A replica that restarts: with the operation log on, its log copies the primary's stream and its checkpoints note where
/// in the stream they stand, so after a restart it recovers as a primary does and continues where it stood (a partial
/// sync), while a replica whose data is no longer the stream's (it wrote as a primary) starts over from a checkpoint.
/// </summary>
[TestFixture]
public sealed class ReplicaRestartTests : PrimaryAndReplicaTestBase
{
    [Test]
    public void AReplicaWithTheLogRestartsAndContinuesWhereItStood()
    {
        Primary.Start();
        Replica.Start();
        using (var p = Primary.Connect())
        {
            Write(p, "before", 20);
            using var r = Replica.Connect();
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
            WaitUntilCaughtUp();
            // The full sync left a checkpoint of the replica's own, from which its log copies the stream.
            Assert.That(Directory.GetFiles(Replica.Directory, "*", SearchOption.AllDirectories), Has.Some.Contains("checkpoint"));

            // Entries that are not idempotent (INCR, LPUSH), a transaction, an expiration, another database; a checkpoint of
            // the replica's in the middle, after which its log goes on.
            Write(p, "after", 20);
            Assert.That(r.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            Write(p, "later", 20);
            WaitUntilCaughtUp();
            Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()));
        }

        var held = Replica.Snapshot();
        Replica.Stop();
        using (var p = Primary.Connect())
            Write(p, "while down", 10);
        Replica.Start(recover: true);
        Assert.That(Replica.Snapshot(), Is.EqualTo(held), "the checkpoint and the log bring back what the replica held");

        using (var r = Replica.Connect())
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()), "the writes made while it was down arrived");
        using (var p = Primary.Connect())
        {
            string stats = p.Execute("INFO", "stats");
            Assert.That(stats, Does.Contain("sync_full:1\r\n"), "no second full sync");
            Assert.That(stats, Does.Contain("sync_partial_ok:1\r\n"), "it continued where it stood");
        }

        // And again, with the writes that followed the restart in its log too.
        using (var p = Primary.Connect())
            Write(p, "after restart", 10);
        WaitUntilCaughtUp();
        held = Replica.Snapshot();
        Replica.Restart();
        Assert.That(Replica.Snapshot(), Is.EqualTo(held));
        using (var r = Replica.Connect())
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        using (var p = Primary.Connect())
            Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:1\r\n").And.Contain("sync_partial_ok:2\r\n"));
    }

    [Test]
    public void AReplicaWithoutTheLogContinuesFromItsOwnCheckpoint()
    {
        Primary.Start();
        Replica.Start(configure: o => o.EnableAof = false);
        using (var p = Primary.Connect())
        {
            Write(p, "before", 10);
            using var r = Replica.Connect();
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
            WaitUntilCaughtUp();
            Write(p, "after", 10);
            WaitUntilCaughtUp();
            Assert.That(r.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        var saved = Replica.Snapshot();
        Replica.Stop();
        using (var p = Primary.Connect())
            Write(p, "while down", 10);

        Replica.Start(recover: true, configure: o => o.EnableAof = false);
        Assert.That(Replica.Snapshot(), Is.EqualTo(saved));
        using (var r = Replica.Connect())
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        WaitUntilCaughtUp();
        Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()));
        using (var p = Primary.Connect())
            Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:1\r\n").And.Contain("sync_partial_ok:1\r\n"));
    }

    [Test]
    public void AReplicaThatWroteAsAPrimarySyncsAgainFromACheckpoint()
    {
        Primary.Start();
        Replica.Start();
        using (var p = Primary.Connect())
        {
            Write(p, "before", 10);
            using var r = Replica.Connect();
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
            WaitUntilCaughtUp();
        }

        // Restarted, a standalone server is a primary until told otherwise: a write of its own ends its place in the stream.
        Replica.Restart();
        using (var r = Replica.Connect())
        {
            Assert.That(r.Execute("SET", "own", "write"), Is.EqualTo("+OK\r\n"));
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        }
        WaitUntilCaughtUp();
        Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()), "its own write is gone");
        using (var p = Primary.Connect())
            Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:2\r\n"));

        // Promoted, it writes as a primary and stops: its log then holds writes of its own, and it syncs in full again.
        using (var r = Replica.Connect())
        {
            Assert.That(r.Execute("REPLICAOF", "NO", "ONE"), Is.EqualTo("+OK\r\n"));
            Assert.That(r.Execute("INCR", "own counter"), Is.EqualTo(":1\r\n"));
        }
        Replica.Restart();
        using (var r = Replica.Connect())
        {
            Assert.That(r.Execute("GET", "own counter"), Is.EqualTo("$1\r\n1\r\n"), "its own writes recover");
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        }
        WaitUntilCaughtUp();
        Assert.That(Replica.Snapshot(), Is.EqualTo(Primary.Snapshot()));
        using (var p = Primary.Connect())
            Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:3\r\n"));
    }

    [Test]
    public void AReplicaKilledWhileItFollowsRecoversItsLogAndContinues()
    {
        // The replica is the executable, killed (SIGKILL) while a writer keeps the primary's stream coming; recovered in
        // this process from its directory, it continues from where its log's durable part ends.
        Primary.Start();
        string directory = Path.Combine(Path.GetTempPath(), "garnet-replica-kill-" + Guid.NewGuid().ToString("N"));
        using var recovered = new OperationLogTestServer(directory);
        int port = FreePort();
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        var arguments = new List<string> { ServerDll(), "--warm-up", "0", "--port", port.ToString(), "--memory", "64m", "--page", "1m", "--index", "1m",
            "--aof", "--checkpointdir", directory };
        int written = 0;
        using (var replica = ExternalProcess.Start(dotnet, arguments))
        {
            Assert.That(replica.WaitForOutput($"listening on 127.0.0.1:{port}", TimeSpan.FromSeconds(30)), Is.True, replica.Error);
            using (var r = new RawClient(port))
                Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
            using var p = Primary.Connect();
            using var stop = new CancellationTokenSource();
            var writer = new Thread(() =>
            {
                using var w = Primary.Connect();
                while (!stop.IsCancellationRequested)
                {
                    for (int i = 0; i < 32; i++)
                        w.Send("RPUSH", "list", (written + i).ToString());
                    for (int i = 0; i < 32; i++)
                        Assert.That(w.ReadReply(), Does.StartWith(":"));
                    written += 32;
                }
            });
            writer.Start();
            // Until the replica has synced and applied a good part of the stream, then killed in the middle of it.
            var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
            using (var r = new RawClient(port))
            {
                while (DateTime.UtcNow < deadline && long.Parse(r.Execute("LLEN", "list").AsSpan(1).TrimEnd()) < 2000)
                    Thread.Sleep(20);
            }
            replica.Kill();
            stop.Cancel();
            writer.Join();
        }
        Assert.That(written, Is.GreaterThan(1000));

        recovered.Start(recover: true);
        using (var r = recovered.Connect())
        {
            // What it recovered is a prefix of the primary's list, in order.
            var held = Keyspace.Resp.Strings(r.Execute("LRANGE", "list", "0", "-1"));
            for (int i = 0; i < held.Count; i++)
                Assert.That(held[i], Is.EqualTo(i.ToString()));
            Assert.That(held.Count, Is.GreaterThan(0), "the replica's log held part of the stream");
            Assert.That(r.Execute("REPLICAOF", "127.0.0.1", Primary.Port.ToString()), Is.EqualTo("+OK\r\n"));
        }
        ReplicationTestSupport.WaitUntilCaughtUp(Primary, recovered);
        Assert.That(recovered.Snapshot(), Is.EqualTo(Primary.Snapshot()));
        using (var p = Primary.Connect())
            Assert.That(p.Execute("INFO", "stats"), Does.Contain("sync_full:1\r\n"), "it continued where its log ended");
    }

    /// <summary>Writes of several kinds under <paramref name="prefix"/>, <paramref name="count"/> of each.</summary>
    private static void Write(RawClient p, string prefix, int count)
    {
        for (int i = 0; i < count; i++)
        {
            OperationLogTestServer.Ok(p, "SET", $"{prefix}:s:{i}", $"value {i}");
            OperationLogTestServer.Ok(p, "INCR", "counter");
            OperationLogTestServer.Ok(p, "LPUSH", "list", $"{prefix} {i}");
            OperationLogTestServer.Ok(p, "HSET", $"{prefix}:h", $"f{i}", $"{i}");
        }
        OperationLogTestServer.Ok(p, "SET", $"{prefix}:ttl", "expires later", "PX", "600000");
        OperationLogTestServer.Ok(p, "MULTI");
        p.Execute("INCRBY", "counter", "100");
        p.Execute("ZADD", "zset", count.ToString(), prefix);
        Assert.That(p.Execute("EXEC"), Does.StartWith("*2\r\n"));
        p.Execute("SELECT", "2");
        OperationLogTestServer.Ok(p, "INCR", "counter in 2");
        p.Execute("SELECT", "0");
    }
}
