using System;
using System.Collections.Generic;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Strings;

/// <summary>
/// Values many times larger than a log page (1 MB here): they live out of line, in blocks of their own, and every
/// string command sees them as ordinary values. The memory figures come from the server's accounting, which
/// counts a block from its write until its record gives it up.
/// </summary>
[TestFixture]
public sealed class LargeValueTests : ServerTestBase
{
    private const int MB = 1 << 20;

    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 20, MemorySize = 1L << 30 };

    private ConnectionMultiplexer ConnectPatient()
    {
        var options = ClientOptions();
        options.SyncTimeout = 120_000;
        options.AsyncTimeout = 120_000;
        return Connect(options);
    }

    internal static byte[] Pattern(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    internal Dictionary<string, string> Memory()
    {
        using var client = ConnectRaw();
        return Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
    }

    private long LargeValueBytes() => long.Parse(Memory()["used_memory_large_values"]);

    private long LargeValues() => long.Parse(Memory()["large_values"]);

    [TestCase(1)]
    [TestCase(33)]
    [TestCase(100)]
    public void ValuesLargerThanAPageRoundTrip(int megabytes)
    {
        using var redis = ConnectPatient();
        var db = redis.GetDatabase();
        byte[] value = Pattern(megabytes * MB, megabytes);
        Assert.That(db.StringSet("k", value), Is.True);
        Assert.That(((byte[])db.StringGet("k")!).AsSpan().SequenceEqual(value), Is.True, "the value comes back byte for byte");
        Assert.That(db.StringLength("k"), Is.EqualTo(value.Length));
        Assert.That((byte[])db.StringGetRange("k", -3, -1)!, Is.EqualTo(value[^3..]));
        Assert.That((byte[])db.StringGetRange("k", 1000, 1009)!, Is.EqualTo(value[1000..1010]));
        Assert.That(db.StringAppend("k", "end"), Is.EqualTo(value.Length + 3));
        Assert.That((byte[])db.StringGetRange("k", -5, -1)!, Is.EqualTo((byte[])[.. value[^2..], (byte)'e', (byte)'n', (byte)'d']));
        Assert.That(db.StringSetRange("k", 0, "abc"), Is.EqualTo(value.Length + 3));
        Assert.That(LargeValues(), Is.EqualTo(1));
        Assert.That(LargeValueBytes(), Is.GreaterThanOrEqualTo(value.Length));
        long usage = (long)db.Execute("MEMORY", "USAGE", "k");
        Assert.That(usage, Is.GreaterThanOrEqualTo(value.Length));
        Assert.That(db.KeyDelete("k"), Is.True);
        Assert.That(db.StringGet("k").IsNull, Is.True);
        Assert.That(LargeValues(), Is.Zero);
        Assert.That(LargeValueBytes(), Is.Zero);
    }

    [Test]
    public void AppendAndSetRangeChangeALargeValue()
    {
        using var redis = ConnectPatient();
        var db = redis.GetDatabase();
        // Starts inline, crosses the threshold (a quarter of a page) and keeps growing out of line.
        var expected = new List<byte>();
        for (int i = 0; i < 40; i++)
        {
            byte[] chunk = Pattern(100_000, i);
            expected.AddRange(chunk);
            Assert.That(db.StringAppend("k", chunk), Is.EqualTo(expected.Count));
        }
        Assert.That(((byte[])db.StringGet("k")!).AsSpan().SequenceEqual(expected.ToArray()), Is.True);

        // In the middle, then past the end (zero-filled gap).
        Assert.That(db.StringSetRange("k", 2_000_000, "hello"), Is.EqualTo(expected.Count));
        Assert.That((string?)db.StringGetRange("k", 2_000_000, 2_000_004), Is.EqualTo("hello"));
        long end = 20L * MB;
        Assert.That((long)db.StringSetRange("k", end, "tail"), Is.EqualTo(end + 4));
        Assert.That(db.StringLength("k"), Is.EqualTo(end + 4));
        Assert.That((byte[])db.StringGetRange("k", end - 2, end + 3)!, Is.EqualTo(new byte[] { 0, 0, (byte)'t', (byte)'a', (byte)'i', (byte)'l' }));
        Assert.That(LargeValues(), Is.EqualTo(1), "the superseded blocks were given up");
    }

    [Test]
    public void GetDelAndSetGetReturnTheLargeValue()
    {
        using var redis = ConnectPatient();
        var db = redis.GetDatabase();
        byte[] first = Pattern(5 * MB, 1);
        byte[] second = Pattern(3 * MB, 2);
        db.StringSet("k", first);
        byte[] old = (byte[])db.StringSetAndGet("k", second)!;
        Assert.That(old.AsSpan().SequenceEqual(first), Is.True);
        Assert.That(((byte[])db.StringGetDelete("k")!).AsSpan().SequenceEqual(second), Is.True);
        Assert.That(db.KeyExists("k"), Is.False);
        Assert.That(LargeValues(), Is.Zero);
    }

    [Test]
    public void RenameAndCopyCarryTheLargeValue()
    {
        using var redis = ConnectPatient();
        var db = redis.GetDatabase();
        byte[] value = Pattern(6 * MB, 9);
        db.StringSet("a", value);
        Assert.That(db.KeyRename("a", "b"), Is.True);
        Assert.That(((byte[])db.StringGet("b")!).AsSpan().SequenceEqual(value), Is.True);
        Assert.That(LargeValues(), Is.EqualTo(1));
        Assert.That(db.KeyCopy("b", "c"), Is.True);
        Assert.That(((byte[])db.StringGet("c")!).AsSpan().SequenceEqual(value), Is.True);
        Assert.That(LargeValues(), Is.EqualTo(2));
        byte[] dump = (byte[])db.KeyDump("c")!;
        Assert.That(db.KeyDelete("c"), Is.True);
        db.KeyRestore("c", dump);
        Assert.That(((byte[])db.StringGet("c")!).AsSpan().SequenceEqual(value), Is.True, "DUMP and RESTORE");
        db.KeyDelete(["b", "c"]);
        Assert.That(LargeValueBytes(), Is.Zero);
    }

    [Test]
    public void MemoryComesBackAfterOverwriteDeleteAndFlush()
    {
        using var redis = ConnectPatient();
        var db = redis.GetDatabase();
        for (int i = 0; i < 8; i++)
            db.StringSet($"k{i}", Pattern(4 * MB, i));
        Assert.That(LargeValues(), Is.EqualTo(8));
        Assert.That(LargeValueBytes(), Is.EqualTo(32L * MB));

        // A small value in place of a large one gives its block back; a large one of the same size reuses it.
        db.StringSet("k0", "small");
        db.StringSet("k1", Pattern(4 * MB, 100));
        Assert.That(LargeValues(), Is.EqualTo(7));
        Assert.That((string?)db.StringGet("k0"), Is.EqualTo("small"));

        db.KeyDelete("k2");
        Assert.That(LargeValues(), Is.EqualTo(6));
        Assert.That(LargeValueBytes(), Is.EqualTo(24L * MB));
        long used = long.Parse(Memory()["used_memory"]);
        Assert.That(used, Is.GreaterThanOrEqualTo(24L * MB), "used_memory counts the blocks");

        db.Execute("FLUSHDB", "SYNC");
        Assert.That(LargeValues(), Is.Zero);
        Assert.That(LargeValueBytes(), Is.Zero);
    }

    [Test]
    public void AValueOfTheMaximumLengthWorks()
    {
        // 512 MB made on the server (SETRANGE zero-fills), so the test does not ship it over the socket.
        using var client = ConnectRaw();
        const long max = 512L * MB;
        Assert.That(client.Execute("SETRANGE", "k", (max - 4).ToString(System.Globalization.CultureInfo.InvariantCulture), "last"), Is.EqualTo($":{max}\r\n"));
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo($":{max}\r\n"));
        Assert.That(client.Execute("GETRANGE", "k", "-6", "-1"), Is.EqualTo("$6\r\n\0\0last\r\n"));
        Assert.That(client.Execute("APPEND", "k", "x"), Does.StartWith("-ERR string exceeds maximum allowed size"));
        Assert.That(client.Execute("DEL", "k"), Is.EqualTo(":1\r\n"));
        Assert.That(LargeValueBytes(), Is.Zero);
    }
}

/// <summary>
/// Large values on a log of sixteen 1 MB pages that the head keeps passing: records copied forward take their blocks
/// along, and superseded ones on passed pages give theirs up. The blocks take their bytes from the log's 16 MB.
/// </summary>
[TestFixture]
public sealed class LargeValuesUnderHeadMovesTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 20, MemorySize = 1L << 24 };

    [Test]
    public void LargeValuesOutliveThePagesTheirRecordsWereOn()
    {
        var options = ClientOptions();
        options.SyncTimeout = 60_000;
        using var redis = Connect(options);
        var db = redis.GetDatabase();
        var large = new byte[8][];
        for (int round = 0; round < 2000; round++)
        {
            // Inline fillers that grow, so each write is a new record at the tail and the log keeps moving.
            db.StringSet($"filler:{round % 10}", LargeValueTests.Pattern(60_000 + 8 * round, round));
            if (round % 250 == 0)
            {
                int i = round / 250;
                large[i] = LargeValueTests.Pattern(1 << 20, 1000 + i);
                db.StringSet($"large:{i}", large[i]);
            }
        }
        for (int i = 0; i < large.Length; i++)
            Assert.That(((byte[])db.StringGet($"large:{i}")!).AsSpan().SequenceEqual(large[i]), Is.True, $"large:{i}");
        using var client = ConnectRaw();
        var memory = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(memory["log_pages_evicted"]), Is.GreaterThan(10), "the head passed many pages");
        Assert.That(long.Parse(memory["large_values"]), Is.EqualTo(8));
        Assert.That(long.Parse(memory["used_memory_large_values"]), Is.EqualTo(8L << 20));
    }

    [Test]
    public void AValueLargerThanTheLogsMemoryIsRefusedWithOutOfMemory()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", new string('x', 20 << 20)), Does.StartWith("-OOM "));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SET", "k", new string('y', 4 << 20)), Is.EqualTo("+OK\r\n"));
    }
}

/// <summary>
/// Large values under maxmemory (64 MB): an evicting policy drops the oldest of them to make room, so memory stays
/// near the limit; with noeviction a write that does not fit is refused with out-of-memory, at once.
/// </summary>
[TestFixture]
public sealed class LargeValuesUnderMaxMemoryTests : ServerTestBase
{
    private const int MB = 1 << 20;

    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 20, MemorySize = 1L << 28, MaxMemory = 64L << 20 };

    [Test]
    public void AnEvictingPolicyKeepsLargeValuesWithinMaxMemory()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-policy", "allkeys-lru"), Is.EqualTo("+OK\r\n"));
        for (int i = 0; i < 20; i++)
        {
            Assert.That(client.Execute("SETRANGE", $"k{i}", (10 * MB - 1).ToString(System.Globalization.CultureInfo.InvariantCulture), "x"),
                Is.EqualTo($":{10 * MB}\r\n"), $"write {i}");
            var memory = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
            Assert.That(long.Parse(memory["used_memory"]), Is.LessThanOrEqualTo(64L * MB), $"after write {i}");
        }
        var stats = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "stats"));
        Assert.That(long.Parse(stats["evicted_keys"]), Is.GreaterThanOrEqualTo(14));
        Assert.That(client.Execute("STRLEN", "k19"), Is.EqualTo($":{10 * MB}\r\n"), "the newest stays");
        Assert.That(client.Execute("EXISTS", "k0"), Is.EqualTo(":0\r\n"), "the oldest went");
    }

    [Test]
    public void NoEvictionRefusesWhatDoesNotFit()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-policy", "noeviction"), Is.EqualTo("+OK\r\n"));
        var clock = System.Diagnostics.Stopwatch.StartNew();
        int written = 0;
        string reply;
        while ((reply = client.Execute("SETRANGE", $"k{written}", (10 * MB - 1).ToString(System.Globalization.CultureInfo.InvariantCulture), "x")).StartsWith(':'))
            written++;
        Assert.That(reply, Does.StartWith("-OOM "));
        Assert.That(written, Is.InRange(3, 6));
        Assert.That(clock.Elapsed, Is.LessThan(System.TimeSpan.FromSeconds(20)));
        Assert.That(client.Execute("SET", "small", "v"), Is.EqualTo("+OK\r\n"), "small writes that fit go on");
        Assert.That(client.Execute("DEL", "k0"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("SETRANGE", "again", "100", "x"), Is.EqualTo(":101\r\n"));
    }
}
