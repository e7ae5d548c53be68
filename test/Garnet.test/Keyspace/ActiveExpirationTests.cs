using System;
using System.Diagnostics;
using System.Text;
using System.Threading;
using Garnet.server;
using NUnit.Framework;
using Tsavorite;

namespace Garnet.test.Keyspace;

/// <summary>
/// The active expiration task (every second with the fixture's default options): it deletes expired
/// keys nobody reads, so their records are unlinked and their space reused.
/// </summary>
public class ActiveExpirationTests : ServerTestBase
{
    private static readonly TimeSpan PollLimit = TimeSpan.FromSeconds(20);

    /// <summary>Records (expired or not) whose key starts with <paramref name="prefix"/> that the engine still holds in database <paramref name="index"/>.</summary>
    private long RecordsInStore(int index, string prefix)
    {
        var database = Server.Store.GetDatabase(index);
        using var session = database.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects));
        var counter = new PrefixCounter(Encoding.ASCII.GetBytes(prefix));
        session.Scan(ref counter, 0, -1, ScanFlags.IncludeExpired);
        return counter.Count;
    }

    private static void WaitUntil(Func<bool> condition, string what)
    {
        var watch = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.That(watch.Elapsed, Is.LessThan(PollLimit), what);
            Thread.Sleep(50);
        }
    }

    private static void SetMany(RawClient client, string prefix, int count, params string[] options)
    {
        var batch = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            var arguments = new string[3 + options.Length];
            arguments[0] = "SET";
            arguments[1] = prefix + i;
            arguments[2] = "value" + i;
            options.CopyTo(arguments, 3);
            batch.Append(RawClient.Encode(arguments));
        }
        client.SendRaw(batch.ToString());
        for (int i = 0; i < count; i++)
            Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void ExpiredKeysAreDeletedWithoutBeingRead()
    {
        using var client = ConnectRaw();
        long before = Server.Store.Statistics.ExpiredKeys;
        SetMany(client, "short:", 200, "PX", "50");
        SetMany(client, "long:", 20, "EX", "1000");
        SetMany(client, "forever:", 50);
        Assert.That(RecordsInStore(0, "short:"), Is.EqualTo(200));

        WaitUntil(() => RecordsInStore(0, "short:") == 0, "expired records are removed");
        Assert.That(Server.Store.Statistics.ExpiredKeys - before, Is.EqualTo(200));
        Assert.That(RecordsInStore(0, "long:"), Is.EqualTo(20));
        Assert.That(RecordsInStore(0, "forever:"), Is.EqualTo(50));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":70\r\n"));

        // The deleted records' space is reused by new records of the same size.
        var store = Server.Store.GetDatabase(0).MainStore;
        long reusedBefore = store.RevivifiedRecordCount;
        SetMany(client, "short:", 200);
        Assert.That(store.RevivifiedRecordCount, Is.GreaterThan(reusedBefore));
    }

    [Test]
    public void AWalkThatFindsNoExpiringKeyClearsTheNoteAndLaterExpiringKeysStillGo()
    {
        using var client = ConnectRaw();
        var store = Server.Store.GetDatabase(0).MainStore;
        SetMany(client, "plain:", 20);
        SetMany(client, "short:", 50, "PX", "50");
        Assert.That(store.MayHoldExpirations, Is.True);

        WaitUntil(() => RecordsInStore(0, "short:") == 0, "expired records are removed");
        WaitUntil(() => !store.MayHoldExpirations, "a walk that meets no expiring record clears the note");

        // Both ways of giving a key an expiration mark the store again: a write with one, and EXPIRE.
        SetMany(client, "again:", 10, "PX", "50");
        Assert.That(store.MayHoldExpirations, Is.True);
        WaitUntil(() => RecordsInStore(0, "again:") == 0, "keys written with an expiration after the note cleared are removed");
        WaitUntil(() => !store.MayHoldExpirations, "the note clears again");

        Assert.That(client.Execute("PEXPIRE", "plain:3", "50"), Is.EqualTo(":1\r\n"));
        Assert.That(store.MayHoldExpirations, Is.True);
        WaitUntil(() => RecordsInStore(0, "plain:3") == 0, "a key given an expiration by EXPIRE is removed");
        Assert.That(RecordsInStore(0, "plain:"), Is.EqualTo(19));
    }

    [Test]
    public void ExpiredKeysInEveryDatabaseAreDeleted()
    {
        using var client = ConnectRaw();
        foreach (int db in new[] { 1, 7 })
        {
            client.Execute("SELECT", db.ToString());
            SetMany(client, "k", 100, "PX", "20");
        }
        WaitUntil(() => RecordsInStore(1, "k") == 0 && RecordsInStore(7, "k") == 0, "expired records are removed from databases 1 and 7");
    }

    [Test]
    public void RewrittenKeysSurvive()
    {
        using var client = ConnectRaw();
        SetMany(client, "k", 50, "PX", "300");
        SetMany(client, "k", 50);
        // Past the first expiration: a pass after this point would delete the keys had they kept it.
        Thread.Sleep(400);
        long before = Server.Store.Statistics.ExpiredKeys;
        SetMany(client, "marker", 1, "PX", "1");
        WaitUntil(() => RecordsInStore(0, "marker") == 0, "a pass ran");
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":50\r\n"));
        Assert.That(client.Execute("GET", "k7"), Is.EqualTo("$6\r\nvalue7\r\n"));
        Assert.That(Server.Store.Statistics.ExpiredKeys - before, Is.EqualTo(1));
    }

    [Test]
    public void DisabledActiveExpirationLeavesExpiredRecordsUntilEnabled()
    {
        Server.Store.ActiveExpirationEnabled = false;
        // Let a pass that was already running finish before writing.
        Thread.Sleep(300);
        using var client = ConnectRaw();
        SetMany(client, "k", 50, "PX", "10");
        Thread.Sleep(2500);
        Assert.That(RecordsInStore(0, "k"), Is.EqualTo(50), "nothing deleted while disabled");
        Assert.That(client.Execute("GET", "k0"), Is.EqualTo("$-1\r\n"), "nobody sees them");
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":50\r\n"), "yet DBSIZE counts them until they are reclaimed, as Redis does");

        Server.Store.ActiveExpirationEnabled = true;
        WaitUntil(() => RecordsInStore(0, "k") == 0, "expired records are removed once enabled");
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void FlushesWhileTheTaskRunsAreSafe()
    {
        using var client = ConnectRaw();
        var watch = Stopwatch.StartNew();
        int round = 0;
        while (watch.Elapsed < TimeSpan.FromSeconds(3))
        {
            client.Execute("SELECT", (round % 4).ToString());
            SetMany(client, "r" + round + ":", 300, "PX", "1");
            if (round % 3 == 0)
                Assert.That(client.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
            else
                Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
            SetMany(client, "after" + round + ":", 50, "PX", "1");
            round++;
        }
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        client.Execute("SELECT", "0");
        SetMany(client, "last:", 100, "PX", "20");
        WaitUntil(() => RecordsInStore(0, "last:") == 0, "the task still works after the flushes");
    }

    private struct PrefixCounter : IScanFunctions
    {
        private readonly byte[] _prefix;

        public PrefixCounter(byte[] prefix)
        {
            _prefix = prefix;
            Count = 0;
        }

        public long Count { get; private set; }

        public bool OnRecord(in LogRecord record, long address)
        {
            if (record.Key.StartsWith(_prefix))
                Count++;
            return true;
        }
    }
}
