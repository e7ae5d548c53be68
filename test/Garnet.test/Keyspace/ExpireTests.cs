using System;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT with NX/XX/GT/LT, and PERSIST.</summary>
public class ExpireTests : ServerTestBase
{
    private static long NowSeconds => DateTimeOffset.UtcNow.ToUnixTimeSeconds();

    private static long NowMilliseconds => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    [Test]
    public void ExpireSetsATimeToLiveAndKeepsTheValue()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "value");
        Assert.That(client.Execute("EXPIRE", "k", "100"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":100\r\n"));
        Assert.That(Resp.Integer(client.Execute("PTTL", "k")), Is.InRange(90_000, 100_000));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$5\r\nvalue\r\n"));
    }

    [TestCase("EXPIRE")]
    [TestCase("PEXPIRE")]
    [TestCase("EXPIREAT")]
    [TestCase("PEXPIREAT")]
    public void MissingKeyReturnsZero(string command)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute(command, "missing", "100000000000"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXISTS", "missing"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void MillisecondPrecision()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("PEXPIRE", "k", "1"), Is.EqualTo(":1\r\n"));
        Thread.Sleep(20);
        Assert.That(client.Execute("PTTL", "k"), Is.EqualTo(":-2\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void AbsoluteTimes()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "v");
        client.Execute("SET", "b", "v");
        long at = NowSeconds + 1000;
        Assert.That(client.Execute("EXPIREAT", "a", at.ToString()), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXPIRETIME", "a"), Is.EqualTo($":{at}\r\n"));
        Assert.That(Resp.Integer(client.Execute("TTL", "a")), Is.InRange(990, 1000));
        long atMs = NowMilliseconds + 500_123;
        Assert.That(client.Execute("PEXPIREAT", "b", atMs.ToString()), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "b"), Is.EqualTo($":{atMs}\r\n"));
    }

    [TestCase("EXPIRE", "-5")]
    [TestCase("EXPIRE", "0")]
    [TestCase("PEXPIRE", "-1")]
    [TestCase("PEXPIRE", "0")]
    [TestCase("EXPIREAT", "1")]
    [TestCase("EXPIREAT", "-100")]
    [TestCase("PEXPIREAT", "1000")]
    public void PastTimesDeleteTheKey(string command, string time)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute(command, "k", time), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-2\r\n"));
    }

    [Test]
    public void NxAndXx()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("EXPIRE", "k", "100", "XX"), Is.EqualTo(":0\r\n"), "XX without a TTL");
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "100", "NX"), Is.EqualTo(":1\r\n"), "NX without a TTL");
        Assert.That(client.Execute("EXPIRE", "k", "200", "nx"), Is.EqualTo(":0\r\n"), "NX with a TTL");
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":100\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "200", "xx"), Is.EqualTo(":1\r\n"), "XX with a TTL");
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":200\r\n"));
    }

    [Test]
    public void GreaterThanTreatsNoTtlAsInfinite()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("EXPIRE", "k", "100", "GT"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
        client.Execute("EXPIRE", "k", "100");
        Assert.That(client.Execute("EXPIRE", "k", "50", "GT"), Is.EqualTo(":0\r\n"));
        long at = NowSeconds + 150;
        client.Execute("EXPIREAT", "k", at.ToString());
        Assert.That(client.Execute("EXPIREAT", "k", at.ToString(), "GT"), Is.EqualTo(":0\r\n"), "equal is not greater");
        Assert.That(client.Execute("EXPIREAT", "k", at.ToString(), "LT"), Is.EqualTo(":0\r\n"), "equal is not less");
        Assert.That(client.Execute("EXPIRE", "k", "200", "GT"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":200\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "-1", "GT"), Is.EqualTo(":0\r\n"), "a past time is not greater");
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void LessThanTreatsNoTtlAsInfinite()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("EXPIRE", "k", "100", "LT"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "200", "LT"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "50", "LT"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":50\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "-1", "LT"), Is.EqualTo(":1\r\n"), "a past time is less and deletes");
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void XxCombinesWithGtAndLt()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("EXPIRE", "k", "100", "XX", "LT"), Is.EqualTo(":0\r\n"), "XX fails without a TTL");
        client.Execute("EXPIRE", "k", "100");
        Assert.That(client.Execute("EXPIRE", "k", "300", "XX", "GT"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXPIRE", "k", "30", "LT", "XX"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":30\r\n"));
    }

    [TestCase("NX", "XX")]
    [TestCase("NX", "GT")]
    [TestCase("LT", "NX")]
    public void NxWithOthersIsRejected(string first, string second)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("EXPIRE", "k", "100", first, second), Is.EqualTo(Resp.Error("ERR NX and XX, GT or LT options at the same time are not compatible")));
    }

    [Test]
    public void OptionErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("PEXPIRE", "k", "100", "GT", "LT"), Is.EqualTo(Resp.Error("ERR GT and LT options at the same time are not compatible")));
        Assert.That(client.Execute("EXPIRE", "k", "100", "FOO"), Is.EqualTo(Resp.Error("ERR Unsupported option FOO")));
        Assert.That(client.Execute("EXPIRE", "k", "100", "NX", "bar"), Is.EqualTo(Resp.Error("ERR Unsupported option bar")));
        // Options are checked before the time, as in Redis.
        Assert.That(client.Execute("EXPIRE", "k", "soon", "FOO"), Is.EqualTo(Resp.Error("ERR Unsupported option FOO")));
        Assert.That(client.Execute("EXPIRE", "k", "100", "a\r\nb"), Is.EqualTo(Resp.Error("ERR Unsupported option a  b")));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
    }

    [TestCase("EXPIRE", "soon")]
    [TestCase("EXPIRE", "1.5")]
    [TestCase("PEXPIRE", "")]
    [TestCase("EXPIREAT", "12abc")]
    [TestCase("PEXPIREAT", "99999999999999999999")]
    public void NonIntegerTimes(string command, string time)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute(command, "k", time), Is.EqualTo(Resp.Error("ERR value is not an integer or out of range")));
    }

    [TestCase("EXPIRE", "9223372036854775807")]
    [TestCase("EXPIRE", "-9223372036854775808")]
    [TestCase("PEXPIRE", "9223372036854775807")]
    [TestCase("EXPIREAT", "9223372036854775807")]
    public void OverflowingTimes(string command, string time)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute(command, "k", time), Is.EqualTo(Resp.Error($"ERR invalid expire time in '{command.ToLowerInvariant()}' command")));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
    }

    [TestCase("EXPIRE")]
    [TestCase("PEXPIRE")]
    [TestCase("EXPIREAT")]
    [TestCase("PEXPIREAT")]
    public void WrongArity(string command)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute(command, "k"), Is.EqualTo(Resp.WrongArity(command.ToLowerInvariant())));
    }

    [Test]
    public void ExpireOnValuesOfEverySizeKeepsThem()
    {
        using var client = ConnectRaw();
        // Records with and without slack: setting the expiration in place or by copying.
        for (int length = 0; length < 40; length++)
        {
            string key = "k" + length;
            string value = new string((char)('a' + (length % 26)), length);
            client.Execute("SET", key, value);
            Assert.That(client.Execute("EXPIRE", key, "100"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("PERSIST", key), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("PEXPIRE", key, "200000"), Is.EqualTo(":1\r\n"));
            Assert.That(Resp.Bulk(client.Execute("GET", key)), Is.EqualTo(value));
            Assert.That(client.Execute("TTL", key), Is.EqualTo(":200\r\n"));
        }
    }

    [Test]
    public void PersistRemovesTheTimeToLive()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "EX", "100");
        Assert.That(client.Execute("PERSIST", "k"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("PERSIST", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("PERSIST", "missing"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("PERSIST"), Is.EqualTo(Resp.WrongArity("persist")));
        Assert.That(client.Execute("PERSIST", "a", "b"), Is.EqualTo(Resp.WrongArity("persist")));
    }

    [Test]
    public void BinaryKeys()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k\0\r\n", "v");
        Assert.That(client.Execute("EXPIRE", "k\0\r\n", "100"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "k\0\r\n"), Is.EqualTo(":100\r\n"));
        Assert.That(client.Execute("TTL", "k\0"), Is.EqualTo(":-2\r\n"));
        Assert.That(client.Execute("PERSIST", "k\0\r\n"), Is.EqualTo(":1\r\n"));
    }
}
