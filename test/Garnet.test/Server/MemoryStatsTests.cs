using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>MEMORY STATS, MEMORY DOCTOR and INFO memory: reply shapes byte for byte, values that follow from the state.</summary>
public class MemoryStatsTests : ServerTestBase
{
    private static readonly string[] RedisNames =
    [
        "peak.allocated", "total.allocated", "startup.allocated", "replication.backlog", "clients.slaves", "clients.normal",
        "cluster.links", "aof.buffer", "lua.caches", "functions.caches",
    ];

    private static readonly string[] RedisNamesAfterDatabases =
    [
        "overhead.total", "keys.count", "keys.bytes-per-key", "dataset.bytes", "dataset.percentage", "peak.percentage",
        "allocator.allocated", "allocator.active", "allocator.resident", "allocator-fragmentation.ratio",
        "allocator-fragmentation.bytes", "allocator.rss-ratio", "allocator.rss-bytes", "rss-overhead.ratio", "rss-overhead.bytes",
        "fragmentation", "fragmentation.bytes", "log.bytes-reclaimed", "log.evicted-records", "log.expired-records",
    ];

    /// <summary>store.db.N of a database in use that holds nothing, with the test servers' 1 MB index (16384 buckets).</summary>
    private static readonly (string, object)[] EmptyStore =
    [
        ("log.begin-address", 64L), ("log.head-address", 64L), ("log.read-only-address", 64L), ("log.tail-address", 64L),
        ("log.mutable-bytes", 0L), ("log.read-only-bytes", 0L), ("log.pages-in-memory", 0L), ("log.bytes", 0L), ("log.full", 0L),
        ("log.pages-evicted", 0L), ("log.records-copied-forward", 0L), ("index.bytes", 0L), ("index.buckets", 16384L),
        ("index.overflow-buckets", 0L), ("index.entries", 0L), ("index.fill", "0"), ("index.resizes", 0L),
        ("objects.count", 0L), ("objects.heap-bytes", 0L),
    ];

    private static List<(string Name, object Value)> Stats(RawClient client) => Pairs(Resp.Parse(client.Execute("MEMORY", "STATS")));

    private static List<(string Name, object Value)> Pairs(object reply)
    {
        var items = (List<object>)reply;
        var pairs = new List<(string, object)>();
        for (int i = 0; i < items.Count; i += 2)
            pairs.Add(((string)items[i], items[i + 1]));
        return pairs;
    }

    private static object Value(List<(string Name, object Value)> pairs, string name) => pairs.Single(p => p.Name == name).Value;

    private static long Integer(List<(string Name, object Value)> pairs, string name) => (long)Value(pairs, name);

    private static List<(string Name, object Value)> Store(List<(string Name, object Value)> stats, int database)
        => Pairs(Value(stats, "store.db." + database));

    [Test]
    public void StatsOfAFreshServerHaveRedisShapeThenTheEnginesEntries()
    {
        using var client = ConnectRaw();
        string reply = client.Execute("MEMORY", "STATS");
        // Nothing written: every allocation figure is 0, and database 0 (in use by this connection) holds no keys.
        Assert.That(reply, Does.StartWith("*62\r\n$14\r\npeak.allocated\r\n:0\r\n$15\r\ntotal.allocated\r\n:0\r\n$17\r\nstartup.allocated\r\n:0\r\n"
            + "$19\r\nreplication.backlog\r\n:0\r\n$14\r\nclients.slaves\r\n:0\r\n$14\r\nclients.normal\r\n:0\r\n$13\r\ncluster.links\r\n:0\r\n"
            + "$10\r\naof.buffer\r\n:0\r\n$10\r\nlua.caches\r\n:0\r\n$16\r\nfunctions.caches\r\n:0\r\n$14\r\noverhead.total\r\n:0\r\n"
            + "$10\r\nkeys.count\r\n:0\r\n$18\r\nkeys.bytes-per-key\r\n:0\r\n$13\r\ndataset.bytes\r\n:0\r\n$18\r\ndataset.percentage\r\n$1\r\n0\r\n"));

        var stats = Pairs(Resp.Parse(reply));
        Assert.That(stats.Select(p => p.Name), Is.EqualTo(RedisNames.Concat(RedisNamesAfterDatabases).Append("store.db.0")));
        Assert.That(Store(stats, 0), Is.EqualTo(EmptyStore));
        Assert.That(Value(stats, "peak.percentage"), Is.EqualTo("0"), "a double, as a bulk string in RESP2");
        Assert.That(Integer(stats, "allocator.resident"), Is.GreaterThan(0));
    }

    [Test]
    public void StatsFollowTheStateAndComeBackAfterAFlush()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 1000; i++)
            client.Execute("SET", "key:" + i, new string('v', 50));
        client.Execute("RPUSH", "list", "a", "b", "c");
        client.Execute("SELECT", "2");
        client.Execute("SET", "two", "2");

        var stats = Stats(client);
        long used = Server.Store.MemoryBudget.Used;
        long total = Integer(stats, "total.allocated");
        Assert.That(total, Is.EqualTo(used), "what the budget counts");
        Assert.That(long.Parse(ReplyText.InfoFields(client.Execute("INFO", "memory"))["used_memory"]), Is.EqualTo(used));
        Assert.That(Integer(stats, "peak.allocated"), Is.GreaterThanOrEqualTo(total));
        Assert.That(Integer(stats, "keys.count"), Is.EqualTo(1002));
        Assert.That(Integer(stats, "overhead.total"), Is.EqualTo(2L << 20), "two written databases' indexes of 1 MB");
        Assert.That(Integer(stats, "dataset.bytes"), Is.EqualTo(total - (2L << 20)));
        Assert.That(Integer(stats, "keys.bytes-per-key"), Is.EqualTo(total / 1002));
        Assert.That(Pairs(Value(stats, "db.0")), Is.EqualTo(new (string, object)[] { ("overhead.hashtable.main", 1L << 20), ("overhead.hashtable.expires", 0L) }));
        Assert.That(stats.Select(p => p.Name).Where(n => n.StartsWith("db.", StringComparison.Ordinal)), Is.EqualTo(new[] { "db.0", "db.2" }));

        var store = Store(stats, 0);
        long head = Integer(store, "log.head-address");
        long readOnly = Integer(store, "log.read-only-address");
        long tail = Integer(store, "log.tail-address");
        Assert.That(tail, Is.GreaterThan(head));
        Assert.That(Integer(store, "log.mutable-bytes"), Is.EqualTo(tail - readOnly));
        Assert.That(Integer(store, "log.read-only-bytes"), Is.EqualTo(readOnly - head));
        Assert.That(Integer(store, "log.pages-in-memory"), Is.GreaterThanOrEqualTo(1));
        Assert.That(Integer(store, "index.bytes"), Is.EqualTo(1L << 20));
        Assert.That(Integer(store, "index.entries"), Is.InRange(900, 1001), "one entry per key, or per keys sharing a tag");
        Assert.That(Integer(store, "objects.count"), Is.EqualTo(1));
        Assert.That(Integer(store, "objects.heap-bytes"), Is.GreaterThan(0));
        Assert.That(Integer(Store(stats, 2), "log.tail-address"), Is.GreaterThan(64));

        Assert.That(client.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
        stats = Stats(client);
        Assert.That(Integer(stats, "total.allocated"), Is.EqualTo(0));
        Assert.That(Integer(stats, "keys.count"), Is.EqualTo(0));
        Assert.That(stats.Select(p => p.Name).Where(n => n.StartsWith("db.", StringComparison.Ordinal)), Is.Empty);
        Assert.That(stats.Select(p => p.Name).Where(n => n.StartsWith("store.db.", StringComparison.Ordinal)), Is.EqualTo(new[] { "store.db.2" }),
            "only the connection's database is in use again");
        Assert.That(Store(stats, 2), Is.EqualTo(EmptyStore));
    }

    [Test]
    public void StatsInResp3AreMapsAndDoubles()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("SET", "k", "v");
        string reply = client.Execute("MEMORY", "STATS");
        Assert.That(reply, Does.StartWith("%32\r\n$14\r\npeak.allocated\r\n:"));
        Assert.That(reply, Does.Contain("$4\r\ndb.0\r\n%2\r\n$23\r\noverhead.hashtable.main\r\n:1048576\r\n$26\r\noverhead.hashtable.expires\r\n:0\r\n"));
        Assert.That(reply, Does.Contain("$18\r\ndataset.percentage\r\n,"));
        Assert.That(reply, Does.Contain("$10\r\nstore.db.0\r\n%19\r\n$17\r\nlog.begin-address\r\n:64\r\n"));
        Assert.That(reply, Does.Contain("$10\r\nindex.fill\r\n,"));
    }

    [Test]
    public void DoctorFindsNothingWrongOnAHealthyServer()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        string reply = client.Execute("MEMORY", "DOCTOR");
        Assert.That(ReplyText.Payload(reply), Does.StartWith("Hi Sam, I can't find any memory issue in this instance"));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("MEMORY", "DOCTOR"), Does.Match(@"^=\d+\r\ntxt:Hi Sam, "));
    }

    [Test]
    public void DoctorWarnsWhenUsedMemoryNearsMaxmemoryWithNoeviction()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 100; i++)
            client.Execute("SET", "key:" + i, "value");
        long used = Server.Store.MemoryBudget.Used;
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", (used + (used / 20)).ToString(CultureInfo.InvariantCulture)), Is.EqualTo("+OK\r\n"));
        string text = ReplyText.Payload(client.Execute("MEMORY", "DOCTOR"));
        Assert.That(text, Does.StartWith("Sam, I found "));
        Assert.That(text, Does.Contain("maxmemory-policy is noeviction"));

        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-policy", "allkeys-lru"), Is.EqualTo("+OK\r\n"));
        Assert.That(ReplyText.Payload(client.Execute("MEMORY", "DOCTOR")), Does.Not.Contain("noeviction"));
        client.Execute("CONFIG", "SET", "maxmemory", "0");
    }

    [Test]
    public void HelpListsStatsAndDoctor()
    {
        using var client = ConnectRaw();
        string help = client.Execute("MEMORY", "HELP");
        Assert.That(help, Does.Contain("\r\n+STATS\r\n").And.Contain("\r\n+DOCTOR\r\n+    Return memory problems reports.\r\n"));
        Assert.That(client.Execute("MEMORY", "STATS", "x"), Is.EqualTo("-ERR wrong number of arguments for 'memory|stats' command\r\n"));
        Assert.That(client.Execute("MEMORY", "DOCTOR", "x"), Is.EqualTo("-ERR wrong number of arguments for 'memory|doctor' command\r\n"));
    }

    [Test]
    public void InfoMemoryReportsEachDatabasesLog()
    {
        using var client = ConnectRaw();
        var fields = ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(fields["db0_log"], Is.EqualTo("begin=64,head=64,read_only=64,tail=64,mutable_bytes=0,read_only_bytes=0,pages=0,full=0"));
        Assert.That((fields["used_memory"], fields["log_pages_in_memory"], fields["log_full_databases"]), Is.EqualTo(("0", "0", "0")));

        for (int i = 0; i < 100; i++)
            client.Execute("SET", "key:" + i, "value");
        fields = ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(fields["used_memory"]), Is.EqualTo(Server.Store.MemoryBudget.Used));
        Assert.That(fields["db0_log"], Does.Match(@"^begin=64,head=64,read_only=64,tail=(\d+),mutable_bytes=\d+,read_only_bytes=0,pages=1,full=0$"));
        Assert.That(long.Parse(fields["log_mutable_bytes"]), Is.EqualTo(Server.Store.PeekDatabase(0)!.MainStore.Log.TailAddress - 64));
        Assert.That(fields.Keys, Is.SupersetOf(new[] { "log_read_only_bytes", "log_pages_evicted", "log_records_copied_forward", "log_bytes_reclaimed", "log_evicted_records", "log_expired_records" }));

        client.Execute("FLUSHDB");
        fields = ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(fields["db0_log"], Is.EqualTo("begin=64,head=64,read_only=64,tail=64,mutable_bytes=0,read_only_bytes=0,pages=0,full=0"));
        Assert.That(fields["used_memory"], Is.EqualTo("0"));
    }

    /// <summary>A RESP reply as strings (bulk and simple), longs, doubles as their text, and lists (arrays and maps flattened).</summary>
    private static class Resp
    {
        public static object Parse(string reply)
        {
            int position = 0;
            return Read(reply, ref position);
        }

        private static object Read(string reply, ref int position)
        {
            char type = reply[position];
            int end = reply.IndexOf("\r\n", position, StringComparison.Ordinal);
            string header = reply.Substring(position + 1, end - position - 1);
            position = end + 2;
            switch (type)
            {
                case ':':
                    return long.Parse(header, CultureInfo.InvariantCulture);
                case '+':
                case ',':
                    return header;
                case '$':
                    {
                        int length = int.Parse(header, CultureInfo.InvariantCulture);
                        string value = reply.Substring(position, length);
                        position += length + 2;
                        return value;
                    }
                case '*':
                case '%':
                    {
                        int count = int.Parse(header, CultureInfo.InvariantCulture) * (type == '%' ? 2 : 1);
                        var items = new List<object>(count);
                        for (int i = 0; i < count; i++)
                            items.Add(Read(reply, ref position));
                        return items;
                    }
                default:
                    throw new FormatException($"Unexpected RESP type '{type}'.");
            }
        }
    }
}

/// <summary>MEMORY DOCTOR on a server whose hash index cannot grow.</summary>
public class MemoryDoctorIndexTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { IndexSize = 1L << 10, IndexMaxSize = 1L << 10 };

    [Test]
    public void DoctorWarnsAboutAFullIndexAtItsLargestSize()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 400; i++)
            client.Execute("SET", "key:" + i, "v");
        string text = ReplyText.Payload(client.Execute("MEMORY", "DOCTOR"));
        Assert.That(text, Does.StartWith("Sam, I found one memory issue in this instance:\n\n * The hash index of database 0 is "));
        Assert.That(text, Does.Contain("at its largest size (16 buckets, "));
    }
}
