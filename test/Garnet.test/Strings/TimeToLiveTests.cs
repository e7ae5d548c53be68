using System;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>
/// The time to live the string commands store, read back with PTTL, TTL and PEXPIRETIME. Times are
/// long (100 s) so only the upper bound is exact; the lower bound allows a very slow machine.
/// </summary>
[TestFixture]
public sealed class TimeToLiveTests : ServerTestBase
{
    private const long Slack = 30_000;

    private static long Number(string reply)
    {
        Assert.That(reply, Does.StartWith(":"), reply);
        return long.Parse(reply.AsSpan(1, reply.Length - 3));
    }

    private static void AssertAbout(long actual, long expected) => Assert.That(actual, Is.InRange(expected - Slack, expected));

    [Test]
    public void SetOptionsStoreTheirTime()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "ex", "v", "EX", "100");
        client.Execute("SET", "px", "v", "PX", "100000");
        client.Execute("SETEX", "setex", "100", "v");
        client.Execute("PSETEX", "psetex", "100000", "v");
        client.Execute("SET", "plain", "v");
        foreach (var key in new[] { "ex", "px", "setex", "psetex" })
            AssertAbout(Number(client.Execute("PTTL", key)), 100_000);
        Assert.That(Number(client.Execute("TTL", "ex")), Is.InRange(70, 100));
        Assert.That(client.Execute("PTTL", "plain"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("PTTL", "missing"), Is.EqualTo(Integer(-2)));
    }

    [Test]
    public void AbsoluteTimesAreStoredExactly()
    {
        using var client = ConnectRaw();
        long at = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 100_000;
        client.Execute("SET", "pxat", "v", "PXAT", at.ToString());
        client.Execute("SET", "exat", "v", "EXAT", (at / 1000).ToString());
        Assert.That(client.Execute("PEXPIRETIME", "pxat"), Is.EqualTo(Integer(at)));
        Assert.That(client.Execute("PEXPIRETIME", "exat"), Is.EqualTo(Integer(at / 1000 * 1000)));
        Assert.That(client.Execute("EXPIRETIME", "exat"), Is.EqualTo(Integer(at / 1000)));
        client.Execute("MSET", "a", "1");
        Assert.That(client.Execute("GETEX", "a", "PXAT", at.ToString()), Is.EqualTo(Bulk("1")));
        Assert.That(client.Execute("PEXPIRETIME", "a"), Is.EqualTo(Integer(at)));
    }

    [Test]
    public void WritesClearOrKeepTheTime()
    {
        using var client = ConnectRaw();
        string[] keys = { "set", "keepttl", "getset", "incr", "incrbyfloat", "append", "setrange", "xx", "mset" };
        foreach (var key in keys)
            client.Execute("SET", key, "1", "EX", "100");
        client.Execute("SET", "set", "2");
        client.Execute("SET", "keepttl", "2", "KEEPTTL");
        client.Execute("GETSET", "getset", "2");
        client.Execute("INCR", "incr");
        client.Execute("INCRBYFLOAT", "incrbyfloat", "0.5");
        client.Execute("APPEND", "append", "2");
        client.Execute("SETRANGE", "setrange", "0", "2");
        client.Execute("SET", "xx", "2", "XX");
        client.Execute("MSET", "mset", "2");
        foreach (var cleared in new[] { "set", "getset", "xx", "mset" })
            Assert.That(client.Execute("PTTL", cleared), Is.EqualTo(Integer(-1)), cleared);
        foreach (var kept in new[] { "keepttl", "incr", "incrbyfloat", "append", "setrange" })
            AssertAbout(Number(client.Execute("PTTL", kept)), 100_000);
    }

    [Test]
    public void GetExChangesTheTime()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "EX", "100");
        Assert.That(client.Execute("GETEX", "k", "PERSIST"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("PTTL", "k"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("GETEX", "k", "EX", "200"), Is.EqualTo(Bulk("v")));
        AssertAbout(Number(client.Execute("PTTL", "k")), 200_000);
        Assert.That(client.Execute("GETEX", "k", "PX", "50000"), Is.EqualTo(Bulk("v")));
        AssertAbout(Number(client.Execute("PTTL", "k")), 50_000);
        Assert.That(client.Execute("GETEX", "k"), Is.EqualTo(Bulk("v")));
        AssertAbout(Number(client.Execute("PTTL", "k")), 50_000);
        Assert.That(client.Execute("GETEX", "k", "EX", "0"), Is.EqualTo(Error("ERR invalid expire time in 'getex' command")));
        AssertAbout(Number(client.Execute("PTTL", "k")), 50_000);
    }

    [Test]
    public void ARefusedSetKeepsTheOldTime()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "EX", "100");
        Assert.That(client.Execute("SET", "k", "w", "NX", "EX", "5"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SET", "k", "w", "EX", "0"), Is.EqualTo(Error("ERR invalid expire time in 'set' command")));
        Assert.That(client.Execute("SETNX", "k", "w"), Is.EqualTo(Integer(0)));
        AssertAbout(Number(client.Execute("PTTL", "k")), 100_000);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
    }
}
