using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Server;

/// <summary>
/// A long-running cache under maxmemory, as a Redis user runs one: workloads many times the budget keep being
/// served, what a policy may not evict is never evicted, the budget and policy change at run time, and the
/// counters tell what happened. Pages of 16 KB so that a budget of a few megabytes holds hundreds of pages.
/// </summary>
[TestFixture]
public sealed class EvictionServerTests : ServerTestBase
{
    private const string OutOfMemory = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";

    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 14, MemorySize = 1L << 25, IndexSize = 1L << 16, Databases = 1 };

    /// <summary>Sends <paramref name="commands"/> in one pipeline and returns the replies that were not <paramref name="expected"/>.</summary>
    private static List<string> Pipeline(RawClient client, List<string[]> commands, string expected)
        => client.Pipeline(commands.ToArray()).Where(reply => reply != expected).ToList();

    private static long InfoNumber(RawClient client, string field)
        => long.Parse(ReplyText.InfoFields(client.Execute("INFO", "all"))[field], CultureInfo.InvariantCulture);

    /// <summary>
    /// Waits until the head of the log rests (it may go on a little after the last write), so that counters and
    /// DBSIZE read together agree.
    /// </summary>
    private static void WaitForHeadToRest(RawClient client)
    {
        long passed = -1;
        for (int i = 0; i < 100; i++)
        {
            long now = InfoNumber(client, "log_pages_evicted");
            if (now == passed)
                return;
            passed = now;
            Thread.Sleep(50);
        }
    }

    private static long DbSize(RawClient client) => long.Parse(client.Execute("DBSIZE").AsSpan(1).TrimEnd("\r\n"), CultureInfo.InvariantCulture);

    /// <summary>Counts the keys SCAN walks, each once.</summary>
    private static int ScanCount(RawClient client)
    {
        var seen = new HashSet<string>();
        string cursor = "0";
        do
        {
            var lines = client.Execute("SCAN", cursor, "COUNT", "1000").Split("\r\n");
            cursor = lines[2];
            for (int i = 5; i < lines.Length; i += 2)
            {
                if (lines[i].Length > 0)
                    seen.Add(lines[i]);
            }
        }
        while (cursor != "0");
        return seen.Count;
    }

    [Test]
    public void AllKeysLruServesTwentyTimesItsBudgetAndCountsEveryKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "4mb", "maxmemory-policy", "allkeys-lru"), Is.EqualTo(Ok));
        var random = new Random(15);
        int written = 0;
        long bytes = 0;
        while (bytes < 80L << 20)
        {
            var batch = new List<string[]>();
            for (int i = 0; i < 500; i++, written++)
            {
                int length = random.Next(10, 600);
                bytes += length;
                batch.Add(["SET", "key:" + written, Pattern(length, seed: written)]);
            }
            Assert.That(Pipeline(client, batch, Ok), Is.Empty, $"after {written} writes");
        }

        WaitForHeadToRest(client);
        long evicted = InfoNumber(client, "evicted_keys");
        long keys = DbSize(client);
        Assert.That(evicted, Is.GreaterThan(written / 2));
        Assert.That(keys + evicted, Is.EqualTo(written), "every key written is either there or counted as evicted");
        Assert.That(ScanCount(client), Is.EqualTo(keys), "DBSIZE counts what SCAN finds");
        Assert.That(InfoNumber(client, "used_memory_log"), Is.LessThanOrEqualTo(4L << 20));

        // The newest keys are there with their values.
        for (int i = written - 100; i < written; i++)
            Assert.That(client.Execute("STRLEN", "key:" + i), Does.Not.EqualTo(":0\r\n"), $"key:{i}");
    }

    [Test]
    public void RandomSizeOverwritesOfLessThanTheBudgetAreServedForever([Values("noeviction", "allkeys-lru")] string policy)
    {
        // The issue's workload scaled down: values of 10-600 bytes over a fixed set of keys whose live data is
        // about half the budget, written twenty times over. Nothing is refused and nothing is evicted.
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "8mb", "maxmemory-policy", policy), Is.EqualTo(Ok));
        const int Keys = 10_000;
        var random = new Random(16);
        var lengths = new int[Keys];
        long written = 0;
        while (written < 160L << 20)
        {
            var batch = new List<string[]>();
            for (int i = 0; i < 500; i++)
            {
                int key = random.Next(Keys);
                int length = random.Next(10, 600);
                lengths[key] = length;
                written += length;
                batch.Add(["SET", "k" + key, Pattern(length, seed: key)]);
            }
            Assert.That(Pipeline(client, batch, Ok), Is.Empty, $"after {written} bytes");
        }
        Assert.That(InfoNumber(client, "evicted_keys"), Is.Zero, $"copied {InfoNumber(client, "log_records_copied_forward")} passed {InfoNumber(client, "log_pages_evicted")} index {InfoNumber(client, "index_memory")} pages {InfoNumber(client, "log_pages_in_memory")}");
        Assert.That(InfoNumber(client, "log_pages_evicted"), Is.GreaterThan(1000), "the head of the log went round many times");
        int present = 0;
        for (int key = 0; key < Keys; key++)
        {
            if (lengths[key] == 0)
                continue;
            present++;
            Assert.That(client.Execute("STRLEN", "k" + key), Is.EqualTo(Integer(lengths[key])), $"k{key}");
        }
        Assert.That(DbSize(client), Is.EqualTo(present));
        Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo(Ok));
    }

    [Test]
    public void KeysWithShortTimesToLiveGiveTheirSpaceBack()
    {
        // Rounds of keys that expire within a second, each round about the budget: without eviction, only
        // reclaiming the expired records lets the next round in.
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "4mb", "maxmemory-policy", "noeviction"), Is.EqualTo(Ok));
        for (int round = 0; round < 6; round++)
        {
            var batch = new List<string[]>();
            for (int i = 0; i < 8000; i++)
                batch.Add(["SET", $"r{round}:{i}", Pattern(300, seed: i), "PX", "300"]);
            Assert.That(Pipeline(client, batch, Ok), Is.Empty, $"round {round}");
            Thread.Sleep(400);
        }
        Assert.That(InfoNumber(client, "expired_keys"), Is.GreaterThan(20_000));
        Assert.That(InfoNumber(client, "evicted_keys"), Is.Zero);
        Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo(Ok));
    }

    [Test]
    public void ExpiredKeysGiveTheirMemoryBackWithoutPressure()
    {
        // No maxmemory, and far less data than the log may hold: only the idle head mover gives the pages back.
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "persistent", "value"), Is.EqualTo(Ok));
        var batch = new List<string[]>();
        for (int i = 0; i < 60_000; i++)
            batch.Add(["SET", "shortlived:" + i, Pattern(300, seed: i), "PX", "200"]);
        Assert.That(Pipeline(client, batch, Ok), Is.Empty);
        long before = InfoNumber(client, "used_memory_log");
        Assert.That(before, Is.GreaterThan(16L << 20));

        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (InfoNumber(client, "used_memory_log") > before / 10 && DateTime.UtcNow < deadline)
            Thread.Sleep(100);
        Assert.That(InfoNumber(client, "used_memory_log"), Is.LessThanOrEqualTo(before / 10));
        Assert.That(InfoNumber(client, "evicted_keys"), Is.Zero);
        Assert.That(client.Execute("GET", "persistent"), Is.EqualTo(Bulk("value")));
        // DBSIZE counts expired keys until they are deleted, as Redis's does: the pages the head mover kept may still
        // hold a few, which active expiration deletes within its next passes.
        while (DbSize(client) > 1 && DateTime.UtcNow < deadline.AddSeconds(5))
            Thread.Sleep(100);
        Assert.That(DbSize(client), Is.EqualTo(1));
    }

    [Test]
    public void VolatilePoliciesNeverEvictKeysWithoutATimeToLive([Values("volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl")] string policy)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "4mb", "maxmemory-policy", policy), Is.EqualTo(Ok));
        for (int i = 0; i < 500; i++)
            Assert.That(client.Execute("SET", "persistent:" + i, Pattern(200, seed: i)), Is.EqualTo(Ok));
        for (int round = 0; round < 40; round++)
        {
            var batch = new List<string[]>();
            for (int i = 0; i < 1000; i++)
                batch.Add(["SET", $"volatile:{round}:{i}", Pattern(300, seed: i), "EX", "3600"]);
            var failures = Pipeline(client, batch, Ok);
            if (failures.Count > 0)
                Assert.Fail($"round {round}: {failures.Count} refused; evicted {InfoNumber(client, "evicted_keys")} pages {InfoNumber(client, "log_pages_in_memory")} passed {InfoNumber(client, "log_pages_evicted")} copied {InfoNumber(client, "log_records_copied_forward")} full {InfoNumber(client, "log_full_databases")} used {InfoNumber(client, "used_memory")}");
        }
        Assert.That(InfoNumber(client, "evicted_keys"), Is.GreaterThan(10_000));
        for (int i = 0; i < 500; i++)
            Assert.That(client.Execute("STRLEN", "persistent:" + i), Is.EqualTo(Integer(200)), $"persistent:{i}");
    }

    [Test]
    public void NoEvictionRefusesWritesUntilDeletesMakeRoom()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "4mb", "maxmemory-policy", "noeviction"), Is.EqualTo(Ok));
        int written = 0;
        string reply;
        while ((reply = client.Execute("SET", "key:" + written, Pattern(500, seed: written))) == Ok)
            written++;
        Assert.That(reply, Is.EqualTo(OutOfMemory));
        Assert.That(written, Is.GreaterThan(3000));

        // Reads work, and deletes always do, however full memory is.
        Assert.That(client.Execute("GET", "key:0"), Is.EqualTo(Bulk(Pattern(500, seed: 0))));
        var deletes = new List<string[]>();
        for (int i = 0; i < written; i += 2)
            deletes.Add(["DEL", "key:" + i]);
        Assert.That(Pipeline(client, deletes, Integer(1)), Is.Empty);

        // Once the head of the log has been round, new keys fit in the space the deleted ones gave back.
        var deadline = DateTime.UtcNow.AddSeconds(30);
        int added = 0;
        while (added < written / 4 && DateTime.UtcNow < deadline)
        {
            reply = client.Execute("SET", "new:" + added, Pattern(500, seed: added));
            if (reply == Ok)
                added++;
            else
            {
                Assert.That(reply, Is.EqualTo(OutOfMemory));
                Thread.Sleep(20);
            }
        }
        Assert.That(added, Is.EqualTo(written / 4), "the deleted keys' space came back");
        Assert.That(DbSize(client), Is.EqualTo((written / 2) + added));
        Assert.That(InfoNumber(client, "evicted_keys"), Is.Zero);
    }

    [Test]
    public void LoweringMaxmemoryAtRunTimeEvictsDownToIt()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-policy", "allkeys-lru"), Is.EqualTo(Ok));
        var batch = new List<string[]>();
        for (int i = 0; i < 40_000; i++)
            batch.Add(["SET", "key:" + i, Pattern(300, seed: i)]);
        Assert.That(Pipeline(client, batch, Ok), Is.Empty);
        Assert.That(InfoNumber(client, "used_memory_log"), Is.GreaterThan(12L << 20));
        Assert.That(InfoNumber(client, "evicted_keys"), Is.Zero);

        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "4mb"), Is.EqualTo(Ok));
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory"), Is.EqualTo("*2\r\n$9\r\nmaxmemory\r\n$7\r\n4194304\r\n"));
        // Writes go on, and the log comes down to the new budget.
        var deadline = DateTime.UtcNow.AddSeconds(30);
        int more = 0;
        while ((more < 1000 || InfoNumber(client, "used_memory_log") > 4L << 20) && DateTime.UtcNow < deadline)
        {
            Assert.That(client.Execute("SET", "more:" + more, Pattern(300, seed: more)), Is.EqualTo(Ok));
            more++;
        }
        Assert.That(InfoNumber(client, "used_memory_log"), Is.LessThanOrEqualTo(4L << 20));
        Assert.That(client.Execute("GET", "more:" + (more - 1)), Is.EqualTo(Bulk(Pattern(300, seed: more - 1))), $"more:{more - 1} at once");
        WaitForHeadToRest(client);
        long evicted = InfoNumber(client, "evicted_keys");
        Assert.That(evicted, Is.GreaterThan(20_000));
        Assert.That(DbSize(client) + evicted, Is.EqualTo(40_000 + more));
        Assert.That(client.Execute("GET", "more:" + (more - 1)), Is.EqualTo(Bulk(Pattern(300, seed: more - 1))));

        // Raising it again lets the log grow past the old budget without evicting.
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "0"), Is.EqualTo(Ok));
        batch.Clear();
        for (int i = 0; i < 30_000; i++)
            batch.Add(["SET", "again:" + i, Pattern(300, seed: i)]);
        Assert.That(Pipeline(client, batch, Ok), Is.Empty);
        Assert.That(InfoNumber(client, "evicted_keys"), Is.EqualTo(evicted));
        Assert.That(InfoNumber(client, "used_memory_log"), Is.GreaterThan(8L << 20));
    }
}
