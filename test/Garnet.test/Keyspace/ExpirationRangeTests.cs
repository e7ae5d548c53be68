using System;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>
/// The whole range of expirations Redis 7.2 accepts: any absolute Unix time in milliseconds up to 2^63-1, refused only
/// when seconds * 1000 or now + a relative time overflows; kept and reported exactly.
/// </summary>
[TestFixture]
public sealed class ExpirationRangeTests : ServerTestBase
{
    private const string MaxMilliseconds = "9223372036854775807";
    private const string MaxSeconds = "9223372036854775"; // the largest whose * 1000 fits
    private const string MinSeconds = "-9223372036854775";

    private static long NowMilliseconds => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    private static string InvalidExpireTime(string command) => Resp.Error($"ERR invalid expire time in '{command}' command");

    [Test]
    public void ExpireAtTheLargestSecondsIsKeptExactly()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("EXPIREAT", "k", MaxSeconds), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXPIRETIME", "k"), Is.EqualTo($":{MaxSeconds}\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "k"), Is.EqualTo($":{MaxSeconds}000\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        long ttl = Resp.Integer(client.Execute("TTL", "k"));
        Assert.That(ttl, Is.InRange(long.Parse(MaxSeconds) - (NowMilliseconds / 1000) - 2, long.Parse(MaxSeconds) - (NowMilliseconds / 1000) + 1));
    }

    [Test]
    public void PexpireAtTheLargestMillisecondsIsKeptExactly()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("PEXPIREAT", "k", MaxMilliseconds), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "k"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
        // Rounded to the nearest second (807 ms rounds up) without the overflow Redis's (ms + 500) / 1000 would have.
        Assert.That(client.Execute("EXPIRETIME", "k"), Is.EqualTo(":9223372036854776\r\n"));
        long before = NowMilliseconds;
        long pttl = Resp.Integer(client.Execute("PTTL", "k"));
        Assert.That(pttl, Is.InRange(long.MaxValue - NowMilliseconds, long.MaxValue - before));
        Assert.That(client.Execute("PERSIST", "k"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
    }

    [TestCase("EXPIREAT", "9223372036854776")]
    [TestCase("EXPIREAT", "-9223372036854776")]
    [TestCase("EXPIRE", MaxSeconds)] // * 1000 fits, but now + it does not
    [TestCase("EXPIRE", "-9223372036854776")]
    [TestCase("PEXPIRE", "9223372036854775000")]
    public void OverflowsAreRefusedAndTheKeyKept(string command, string time)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "100000");
        Assert.That(client.Execute(command, "k", time), Is.EqualTo(InvalidExpireTime(command.ToLowerInvariant())));
        Assert.That(Resp.Integer(client.Execute("PTTL", "k")), Is.InRange(1, 100000));
    }

    [Test]
    public void RelativeTimesUpToTheOverflowAreKeptExactly()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        // Room of an hour below the overflow: accepted, and the absolute time is now + the amount.
        long amount = long.MaxValue - NowMilliseconds - 3_600_000;
        long before = NowMilliseconds;
        Assert.That(client.Execute("PEXPIRE", "k", amount.ToString()), Is.EqualTo(":1\r\n"));
        long after = NowMilliseconds;
        Assert.That(Resp.Integer(client.Execute("PEXPIRETIME", "k")), Is.InRange(before + amount, after + amount));

        const long seconds = 9_000_000_000_000_000 / 1000; // 9e15 s: * 1000 + now still fits
        Assert.That(client.Execute("EXPIRE", "k", seconds.ToString()), Is.EqualTo(":1\r\n"));
        Assert.That(Resp.Integer(client.Execute("TTL", "k")), Is.InRange(seconds - 2, seconds));
    }

    [TestCase("EXPIREAT", MinSeconds)]
    [TestCase("PEXPIREAT", "-9223372036854775808")]
    [TestCase("EXPIRE", MinSeconds)]
    [TestCase("PEXPIRE", "-9223372036854775808")]
    [TestCase("EXPIREAT", "0")]
    public void TimesAlreadyPastDeleteTheKey(string command, string time)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute(command, "k", time), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void GtAndLtCompareFarFutureTimes()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        client.Execute("PEXPIREAT", "k", "9223372036854775000");
        Assert.That(client.Execute("PEXPIREAT", "k", "9223372036854774999", "GT"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("PEXPIREAT", "k", MaxMilliseconds, "GT"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXPIREAT", "k", MaxSeconds, "LT"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "k"), Is.EqualTo(":9223372036854775000\r\n"));
    }

    [Test]
    public void SetTakesTheWholeRangeOfAbsoluteTimes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "a", "v", "EXAT", MaxSeconds), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXPIRETIME", "a"), Is.EqualTo($":{MaxSeconds}\r\n"));
        Assert.That(client.Execute("SET", "b", "v", "PXAT", MaxMilliseconds), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "b"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
        Assert.That(client.Execute("SET", "b", "w", "KEEPTTL"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "b"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
        Assert.That(client.Execute("SET", "c", "v", "PXAT", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXISTS", "c"), Is.EqualTo(":0\r\n"));
    }

    [TestCase("EXAT", "9223372036854776")] // * 1000 overflows
    [TestCase("EX", MaxSeconds)] // now + it overflows
    [TestCase("PX", MaxMilliseconds)]
    [TestCase("PX", "9223372036854775000")]
    [TestCase("PXAT", "0")]
    [TestCase("EXAT", "-1")]
    [TestCase("PX", "-9223372036854775808")]
    public void SetRefusesWhatRedisRefuses(string option, string time)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "v", option, time), Is.EqualTo(InvalidExpireTime("set")));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void SetExAndPsetexRefuseOverflowsAndKeepLargeTimes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETEX", "k", MaxSeconds, "v"), Is.EqualTo(InvalidExpireTime("setex")));
        Assert.That(client.Execute("PSETEX", "k", MaxMilliseconds, "v"), Is.EqualTo(InvalidExpireTime("psetex")));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        long amount = long.MaxValue - NowMilliseconds - 3_600_000;
        long before = NowMilliseconds;
        Assert.That(client.Execute("PSETEX", "k", amount.ToString(), "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(Resp.Integer(client.Execute("PEXPIRETIME", "k")), Is.InRange(before + amount, NowMilliseconds + amount));
    }

    [Test]
    public void GetExTakesTheWholeRange()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("GETEX", "k", "PXAT", MaxMilliseconds), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "k"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
        Assert.That(client.Execute("GETEX", "k", "EXAT", MaxSeconds), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("EXPIRETIME", "k"), Is.EqualTo($":{MaxSeconds}\r\n"));
        Assert.That(client.Execute("GETEX", "k", "EXAT", "9223372036854776"), Is.EqualTo(InvalidExpireTime("getex")));
        Assert.That(client.Execute("GETEX", "k", "PX", MaxMilliseconds), Is.EqualTo(InvalidExpireTime("getex")));
        Assert.That(client.Execute("EXPIRETIME", "k"), Is.EqualTo($":{MaxSeconds}\r\n"));
    }

    [Test]
    public void RestoreWithAnAbsoluteTtlKeepsItExactly()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "source", "v");
        string payload = Resp.Bulk(client.Execute("DUMP", "source"))!;
        Assert.That(client.Execute("RESTORE", "k", MaxMilliseconds, payload, "ABSTTL"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "k"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void ObjectsKeepFarFutureTimesThroughRenameAndCopy()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "f", "v");
        Assert.That(client.Execute("PEXPIREAT", "h", MaxMilliseconds), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RENAME", "h", "h2"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("COPY", "h2", "h3"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "h2"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "h3"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
    }

    [Test]
    public void AverageTtlOfFarFutureKeysDoesNotOverflow()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 3; i++)
        {
            client.Execute("SET", "k" + i, "v");
            client.Execute("PEXPIREAT", "k" + i, MaxMilliseconds);
        }
        var fields = ReplyText.InfoFields(client.Execute("INFO", "keyspace"));
        long average = long.Parse(fields["db0"].Split("avg_ttl=")[1]);
        Assert.That(average, Is.InRange(long.MaxValue - NowMilliseconds, long.MaxValue));
    }

    [Test]
    public void AWatchedFarFutureKeyDoesNotAbortExec()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PXAT", MaxMilliseconds);
        client.Execute("WATCH", "k");
        client.Execute("MULTI");
        client.Execute("GET", "k");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n$1\r\nv\r\n"));
    }
}
