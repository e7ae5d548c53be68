using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>
/// Databases cost nothing until written and give everything back when flushed, however many connections hold
/// them: checked on the server's own memory accounting (the budget's used bytes and its registered stores), never on timing.
/// </summary>
public class DatabaseLifecycleTests : ServerTestBase
{
    private const int Connections = 50;

    private long Used => Server.Store.MemoryBudget.Used;

    private int StoreCount => Server.Store.MemoryBudget.Stores.Count;

    private static long UsedMemory(RawClient client) => long.Parse(ReplyText.InfoFields(client.Execute("INFO", "memory"))["used_memory"]);

    /// <summary>Waits for the background release of flushed databases (ASYNC) to bring the accounting to <paramref name="used"/>.</summary>
    private void WaitForAccounting(long used, int stores)
    {
        var clock = Stopwatch.StartNew();
        while ((Used != used || StoreCount != stores) && clock.Elapsed < TimeSpan.FromSeconds(30))
            Thread.Sleep(10);
    }

    private List<RawClient> OpenConnections()
    {
        var clients = new List<RawClient>();
        for (int i = 0; i < Connections; i++)
        {
            var client = ConnectRaw();
            Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
            clients.Add(client);
        }
        return clients;
    }

    private static void FillSomeData(RawClient client)
    {
        for (int i = 0; i < 2000; i++)
            client.Execute("SET", "key:" + i, new string('v', 100));
        for (int i = 0; i < 50; i++)
            client.Execute("RPUSH", "list:" + i, "a", "b", "c");
    }

    [TestCase("FLUSHALL", "")]
    [TestCase("FLUSHALL", "ASYNC")]
    [TestCase("FLUSHDB", "")]
    [TestCase("FLUSHDB", "SYNC")]
    [TestCase("FLUSHDB", "ASYNC")]
    public void ManyConnectionsThatFlushLeaveTheAccountingWhereItStarted(string command, string mode)
    {
        var clients = OpenConnections();
        try
        {
            long used = Used;
            int stores = StoreCount;
            Assert.That(used, Is.EqualTo(0), "database 0 is in use but was never written");
            Assert.That(UsedMemory(clients[0]), Is.EqualTo(used));

            FillSomeData(clients[0]);
            Assert.That(Used, Is.GreaterThan(used));
            foreach (var client in clients)
            {
                client.Execute("SET", "mine", "value");
                client.Execute("RPUSH", "objects", "x");
                Assert.That(mode.Length == 0 ? client.Execute(command) : client.Execute(command, mode), Is.EqualTo("+OK\r\n"));
            }

            // Every connection stays open and idle, each still referring to a database it flushed.
            if (mode == "ASYNC")
                WaitForAccounting(used, stores);
            Assert.That((Used, StoreCount), Is.EqualTo((used, stores)));
            Assert.That(UsedMemory(clients[^1]), Is.EqualTo(used));
            Assert.That(clients[0].Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
    }

    [Test]
    public void ManyConnectionsThatSelectWriteAndFlushTheirDatabaseLeaveTheAccountingWhereItStarted()
    {
        var clients = OpenConnections();
        try
        {
            for (int i = 0; i < clients.Count; i++)
                Assert.That(clients[i].Execute("SELECT", (i % 16).ToString()), Is.EqualTo("+OK\r\n"));
            long used = Used;
            int stores = StoreCount;
            Assert.That(used, Is.EqualTo(0), "databases selected but never written count nothing");

            for (int i = 0; i < clients.Count; i++)
            {
                clients[i].Execute("SET", "k" + i, "v");
                clients[i].Execute("SADD", "s" + i, "m");
                Assert.That(Used, Is.GreaterThan(0));
                Assert.That(clients[i].Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
            }
            Assert.That((Used, StoreCount), Is.EqualTo((used, stores)));
            Assert.That(UsedMemory(clients[0]), Is.EqualTo(used));
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
    }

    [Test]
    public void ADatabaseSelectedButNeverWrittenAddsNothing()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        long used = Used;
        Assert.That(UsedMemory(client), Is.EqualTo(used));
        int stores = StoreCount;

        Assert.That(client.Execute("SELECT", "9"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(StoreCount, Is.EqualTo(stores + 1), "the database is in use");
        Assert.That(Used, Is.EqualTo(used));
        Assert.That(UsedMemory(client), Is.EqualTo(used));

        // Its first write makes it count.
        client.Execute("SET", "k", "nine");
        Assert.That(Used, Is.GreaterThan(used));
    }

    [Test]
    public void FlushOfADatabaseNeverWrittenReplacesNothing()
    {
        using var client = ConnectRaw();
        client.Execute("SELECT", "3");
        var database = Server.Store.PeekDatabase(3);
        Assert.That(database, Is.Not.Null);
        Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
        Assert.That(Server.Store.PeekDatabase(3), Is.SameAs(database), "nothing to free, nothing replaced");
        Assert.That(database!.Retired, Is.False);
        Assert.That(Server.Store.PeekDatabase(5), Is.Null, "a database never used stays unused");

        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That((database.Retired, database.Freed), Is.EqualTo((true, true)), "a SYNC flush frees before it replies");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
    }

    [TestCase("FLUSHALL", "SYNC")]
    [TestCase("FLUSHALL", "ASYNC")]
    [TestCase("FLUSHDB", "SYNC")]
    [TestCase("FLUSHDB", "ASYNC")]
    public void ASessionIdleAcrossAFlushSeesAnEmptyDatabase(string command, string mode)
    {
        using var idle = ConnectRaw();
        using var flusher = ConnectRaw();
        idle.Execute("SET", "k", "v");
        idle.Execute("HSET", "h", "f", "v");
        var database = Server.Store.PeekDatabase(0)!;

        Assert.That(flusher.Execute(command, mode), Is.EqualTo("+OK\r\n"));
        if (mode == "ASYNC")
            WaitForAccounting(0, 1);
        Assert.That(database.Freed, Is.True, "freed while the idle session still refers to it");
        Assert.That(database.Objects.Count, Is.EqualTo(0), "its objects are garbage");

        Assert.That(idle.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(idle.Execute("HGET", "h", "f"), Is.EqualTo("$-1\r\n"));
        Assert.That(idle.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(idle.Execute("SET", "k", "w"), Is.EqualTo("+OK\r\n"));
        Assert.That(flusher.Execute("GET", "k"), Is.EqualTo("$1\r\nw\r\n"));
        Assert.That(ReplyText.InfoFields(flusher.Execute("INFO", "keyspace"))["db0"], Is.EqualTo("keys=1,expires=0,avg_ttl=0"));
    }

    [Test]
    public void WritersOnOtherConnectionsDuringFlushesLoseNothingOfTheNewDatabase()
    {
        const int writers = 4;
        using var flusher = ConnectRaw();
        var flushesDone = new ManualResetEventSlim();
        var lastReplies = new long[writers];
        var after = new long[writers];
        var tasks = new Task[writers];
        for (int w = 0; w < writers; w++)
        {
            int id = w;
            tasks[w] = Task.Run(() =>
            {
                using var client = ConnectRaw();
                // A pipelined burst now and then: batches that straddle a flush.
                while (!flushesDone.IsSet)
                {
                    client.SendRaw(RawClient.Encode("INCR", "counter" + id) + RawClient.Encode("RPUSH", "list" + id, "x") + RawClient.Encode("INCR", "counter" + id));
                    for (int r = 0; r < 3; r++)
                        client.ReadReply();
                }
                for (int i = 0; i < 200; i++)
                {
                    lastReplies[id] = Resp.Integer(client.Execute("INCR", "counter" + id));
                    client.Execute("RPUSH", "list" + id, "y");
                    after[id]++;
                }
            });
        }
        var modes = new[] { "SYNC", "ASYNC" };
        for (int i = 0; i < 40; i++)
            Assert.That(flusher.Execute(i % 3 == 0 ? "FLUSHDB" : "FLUSHALL", modes[i % 2]), Is.EqualTo("+OK\r\n"));
        flushesDone.Set();
        Task.WaitAll(tasks);

        for (int w = 0; w < writers; w++)
        {
            long value = long.Parse(Resp.Bulk(flusher.Execute("GET", "counter" + w))!);
            Assert.That(value, Is.EqualTo(lastReplies[w]), "every acknowledged increment since the last flush is there");
            Assert.That(value, Is.GreaterThanOrEqualTo(after[w]));
            Assert.That(Resp.Integer(flusher.Execute("LLEN", "list" + w)), Is.GreaterThanOrEqualTo(after[w]));
        }
        // Nothing but the live database is left counting.
        WaitForAccounting(Server.Store.PeekDatabase(0)!.MainStore.MemoryBytes, 1);
        Assert.That((Used, StoreCount), Is.EqualTo((Server.Store.PeekDatabase(0)!.MainStore.MemoryBytes, 1)));
    }

    [Test]
    public void MoveAndCopyIntoADatabaseBeingFlushed()
    {
        using var mover = ConnectRaw();
        using var flusher = ConnectRaw();
        flusher.Execute("SELECT", "1");
        for (int i = 0; i < 200; i++)
        {
            mover.Execute("SET", "m" + i, "v");
            mover.Execute("LPUSH", "l" + i, "v");
            Assert.That(mover.Execute("MOVE", "m" + i, "1"), Is.AnyOf(":1\r\n", ":0\r\n"));
            Assert.That(mover.Execute("COPY", "l" + i, "l" + i, "DB", "1"), Is.AnyOf(":1\r\n", ":0\r\n"));
            if (i % 10 == 0)
                Assert.That(flusher.Execute("FLUSHDB", i % 20 == 0 ? "ASYNC" : "SYNC"), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(flusher.Execute("GET", "m199"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(flusher.Execute("LRANGE", "l199", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nv\r\n"));
    }
}
