using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Streams;

/// <summary>XCLAIM and XAUTOCLAIM, and a group whose consumers die mid-work recovered by XAUTOCLAIM.</summary>
public class StreamClaimTests : ServerTestBase
{
    private static void Fill(RawClient client)
    {
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "2-1", "b", "2");
        client.Execute("XADD", "s", "3-1", "c", "3");
        client.Execute("XGROUP", "CREATE", "s", "g", "0");
        client.Execute("XREADGROUP", "GROUP", "g", "c1", "STREAMS", "s", ">");
    }

    [Test]
    public void Claim()
    {
        using var client = ConnectRaw();
        Fill(client);
        Assert.That(client.Execute("XCLAIM", "s", "g", "c9", "0", "3-1", "JUSTID"), Is.EqualTo("*1\r\n$3\r\n3-1\r\n"));
        client.Execute("XDEL", "s", "2-1");
        Assert.That(client.Execute("XCLAIM", "s", "g", "c9", "0", "3-1", "2-1", "1-1"), Is.EqualTo("*2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g"), Is.EqualTo("*4\r\n:2\r\n$3\r\n1-1\r\n$3\r\n3-1\r\n*1\r\n*2\r\n$2\r\nc9\r\n$1\r\n2\r\n"), "the deleted entry left the PEL");
        Assert.That(client.Execute("XCLAIM", "s", "g", "c9", "100000", "1-1"), Is.EqualTo("*0\r\n"), "not idle long enough");
        client.Execute("XADD", "s", "4-1", "d", "4");
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "0", "4-1", "JUSTID"), Is.EqualTo("*0\r\n"), "not pending, no FORCE");
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "0", "4-1", "FORCE", "JUSTID"), Is.EqualTo("*1\r\n$3\r\n4-1\r\n"));
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "0", "4-1", "RETRYCOUNT", "7", "IDLE", "0", "JUSTID"), Is.EqualTo("*1\r\n$3\r\n4-1\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "4-1", "4-1", "1"), Does.Match(@"^\*1\r\n\*4\r\n\$3\r\n4-1\r\n\$2\r\nc8\r\n:\d+\r\n:7\r\n$"));
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "0", "4-1", "foo"), Is.EqualTo("-ERR Unrecognized XCLAIM option 'foo'\r\n"));
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "x", "4-1"), Is.EqualTo("-ERR Invalid min-idle-time argument for XCLAIM\r\n"));
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "0", "4-1", "IDLE", "x"), Is.EqualTo("-ERR Invalid IDLE option argument for XCLAIM\r\n"));
        Assert.That(client.Execute("XCLAIM", "s", "nog", "c8", "0", "4-1"), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'nog'\r\n"));
        Assert.That(client.Execute("XCLAIM", "nokey", "g", "c8", "0", "4-1"), Is.EqualTo("-NOGROUP No such key 'nokey' or consumer group 'g'\r\n"));
        Assert.That(client.Execute("XCLAIM", "s", "g", "c8", "0", "4-1", "LASTID", "9-0", "JUSTID"), Is.EqualTo("*1\r\n$3\r\n4-1\r\n"));
        Assert.That(client.Execute("XINFO", "GROUPS", "s"), Does.Contain("$17\r\nlast-delivered-id\r\n$3\r\n9-0\r\n"));
    }

    [Test]
    public void AutoClaim()
    {
        using var client = ConnectRaw();
        Fill(client);
        client.Execute("XDEL", "s", "2-1");
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "0", "0", "COUNT", "1"), Is.EqualTo("*3\r\n$3\r\n2-1\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*0\r\n"));
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "0", "2-1", "COUNT", "1"), Is.EqualTo("*3\r\n$3\r\n3-1\r\n*0\r\n*1\r\n$3\r\n2-1\r\n"), "a deleted entry counts and is listed");
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "0", "0", "JUSTID"), Is.EqualTo("*3\r\n$3\r\n0-0\r\n*2\r\n$3\r\n1-1\r\n$3\r\n3-1\r\n*0\r\n"));
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "0", "0", "COUNT", "0"), Is.EqualTo("-ERR COUNT must be > 0\r\n"));
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "x", "0"), Is.EqualTo("-ERR Invalid min-idle-time argument for XAUTOCLAIM\r\n"));
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "0", "x"), Is.EqualTo("-ERR Invalid stream ID specified as stream command argument\r\n"));
        Assert.That(client.Execute("XAUTOCLAIM", "s", "g", "c7", "0", "0", "foo"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("XAUTOCLAIM", "s", "nog", "c7", "0", "0"), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'nog'\r\n"));
    }

    /// <summary>
    /// A producer and four consumers of one group; two consumers die holding unacknowledged entries while the other two
    /// work concurrently with the producer. XAUTOCLAIM hands the dead ones' entries to a rescuer: every entry is
    /// acknowledged exactly once, and nothing is delivered again after its ACK.
    /// </summary>
    [Test]
    public void DeadConsumersEntriesAreRecoveredByAutoClaim()
    {
        const int Entries = 400;
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StreamCreateConsumerGroup("jobs", "workers", StreamPosition.NewMessages, createStream: true);
        var acknowledged = new ConcurrentDictionary<string, string>();
        int duplicates = 0;
        var producerDone = new ManualResetEventSlim();

        void Acknowledge(StreamEntry entry, string by)
        {
            if (acknowledged.ContainsKey(entry.Id!))
                Interlocked.Increment(ref duplicates);
            Assert.That(db.StreamAcknowledge("jobs", "workers", entry.Id), Is.EqualTo(1));
            acknowledged[entry.Id!] = by;
        }

        // The first entries go to c1, which dies holding its batch, and c2, which finishes one batch and dies holding
        // the next; then the producer and the two live consumers run concurrently.
        for (int i = 0; i < 20; i++)
            db.StreamAdd("jobs", "n", i);
        Assert.That(db.StreamReadGroup("jobs", "workers", "c1", ">", count: 5), Has.Length.EqualTo(5));
        foreach (var entry in db.StreamReadGroup("jobs", "workers", "c2", ">", count: 5))
            Acknowledge(entry, "c2");
        Assert.That(db.StreamReadGroup("jobs", "workers", "c2", ">", count: 5), Has.Length.EqualTo(5));

        var producer = Task.Run(() =>
        {
            for (int i = 20; i < Entries; i++)
                db.StreamAdd("jobs", "n", i);
            producerDone.Set();
        });

        Task Worker(string name) => Task.Run(() =>
        {
            while (true)
            {
                // Whether the producer was done is read before the stream: an empty read after that means nothing more comes.
                bool done = producerDone.IsSet;
                var entries = db.StreamReadGroup("jobs", "workers", name, ">", count: 5);
                if (entries.Length == 0)
                {
                    if (done)
                        return;
                    Thread.Sleep(1);
                    continue;
                }
                foreach (var entry in entries)
                    Acknowledge(entry, name);
            }
        });

        var workers = new[] { Worker("c3"), Worker("c4") };
        producer.Wait();
        Task.WaitAll(workers);

        var pending = db.StreamPendingMessages("jobs", "workers", 1000, RedisValue.Null);
        Assert.That(pending.Select(p => p.ConsumerName.ToString()).Distinct(), Is.EquivalentTo(new[] { "c1", "c2" }), "only the dead consumers left entries pending");
        Assert.That(pending.Length, Is.EqualTo(10));

        RedisValue start = "0-0";
        while (true)
        {
            var claim = db.StreamAutoClaim("jobs", "workers", "rescuer", 0, start, 7);
            foreach (var entry in claim.ClaimedEntries)
                Acknowledge(entry, "rescuer");
            Assert.That(claim.DeletedIds, Is.Empty);
            start = claim.NextStartId;
            if (start == "0-0")
                break;
        }

        Assert.That(duplicates, Is.EqualTo(0), "an entry was delivered again after its ACK");
        Assert.That(acknowledged.Count, Is.EqualTo(Entries), "an entry was lost");
        Assert.That(db.StreamPending("jobs", "workers").PendingMessageCount, Is.EqualTo(0));
        Assert.That(acknowledged.Values.Count(by => by == "rescuer"), Is.EqualTo(10));
    }
}
