using System;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Keyspace;

/// <summary>TTL, PTTL, EXPIRETIME and PEXPIRETIME.</summary>
public class TtlTests : ServerTestBase
{
    [TestCase("TTL")]
    [TestCase("PTTL")]
    [TestCase("EXPIRETIME")]
    [TestCase("PEXPIRETIME")]
    public void MissingKeyAndKeyWithoutExpiration(string command)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute(command, "missing"), Is.EqualTo(":-2\r\n"));
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute(command, "k"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute(command), Is.EqualTo(Resp.WrongArity(command.ToLowerInvariant())));
        Assert.That(client.Execute(command, "k", "extra"), Is.EqualTo(Resp.WrongArity(command.ToLowerInvariant())));
    }

    [Test]
    public void TtlRoundsToTheNearestSecond()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "v", "PX", "1700");
        client.Execute("SET", "b", "v", "PX", "1200");
        // Up to 200 ms may pass before these run: a is at 1500..1700 ms (2 s), b at 1000..1200 ms (1 s).
        Assert.That(client.Execute("TTL", "a"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("TTL", "b"), Is.EqualTo(":1\r\n"));
        Assert.That(Resp.Integer(client.Execute("PTTL", "a")), Is.InRange(1000, 1700));
    }

    [Test]
    public void ExpireTimeRoundsToTheNearestSecond()
    {
        using var client = ConnectRaw();
        long seconds = DateTimeOffset.UtcNow.ToUnixTimeSeconds() + 1000;
        client.Execute("SET", "a", "v", "PXAT", (seconds * 1000 + 499).ToString());
        client.Execute("SET", "b", "v", "PXAT", (seconds * 1000 + 500).ToString());
        Assert.That(client.Execute("EXPIRETIME", "a"), Is.EqualTo($":{seconds}\r\n"));
        Assert.That(client.Execute("EXPIRETIME", "b"), Is.EqualTo($":{seconds + 1}\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "a"), Is.EqualTo($":{seconds * 1000 + 499}\r\n"));
    }

    [Test]
    public void ExpiredKeysReportMinusTwo()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "1");
        System.Threading.Thread.Sleep(20);
        foreach (var command in new[] { "TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME" })
            Assert.That(client.Execute(command, "k"), Is.EqualTo(":-2\r\n"), command);
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StringSet("k", "v");
        Assert.That(db.KeyTimeToLive("k"), Is.Null);
        Assert.That(db.KeyExpire("k", TimeSpan.FromSeconds(100)), Is.True);
        var ttl = db.KeyTimeToLive("k");
        Assert.That(ttl, Is.Not.Null);
        Assert.That(ttl!.Value, Is.InRange(TimeSpan.FromSeconds(90), TimeSpan.FromSeconds(100)));
        Assert.That(db.KeyPersist("k"), Is.True);
        Assert.That(db.KeyTimeToLive("k"), Is.Null);
        Assert.That(db.KeyExpire("missing", TimeSpan.FromSeconds(1)), Is.False);
    }
}
