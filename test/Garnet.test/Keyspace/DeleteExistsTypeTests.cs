using System.Threading;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Keyspace;

/// <summary>DEL, UNLINK, EXISTS, TOUCH and TYPE.</summary>
public class DeleteExistsTypeTests : ServerTestBase
{
    [TestCase("DEL")]
    [TestCase("UNLINK")]
    public void DeleteCountsTheKeysItRemoved(string command)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2");
        Assert.That(client.Execute(command, "a", "b", "missing"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute(command, "a"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void DeleteCountsARepeatedKeyOnce()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("DEL", "a", "a", "a"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void DeletedKeyCanBeWrittenAgain()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 5; i++)
        {
            Assert.That(client.Execute("SET", "k", new string('v', i * 10)), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("DEL", "k"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        }
    }

    [Test]
    public void ExpiredKeysAreNotCountedOrReported()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "gone", "v", "PX", "1");
        client.Execute("SET", "here", "v");
        Thread.Sleep(20);
        Assert.That(client.Execute("EXISTS", "gone", "here"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TYPE", "gone"), Is.EqualTo("+none\r\n"));
        Assert.That(client.Execute("DEL", "gone", "here"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void ExistsAndTouchCountRepeatedKeysEachTime()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2");
        Assert.That(client.Execute("EXISTS", "a"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "missing"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXISTS", "a", "a", "b", "missing"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("TOUCH", "a", "a", "b", "missing"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("TOUCH", "missing"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void TypeIsAStatusReply()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("TYPE", "a"), Is.EqualTo("+string\r\n"));
        Assert.That(client.Execute("TYPE", "missing"), Is.EqualTo("+none\r\n"));
    }

    [Test]
    public void BinaryKeysWithNulBytes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "a\0b", "x"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXISTS", "a\0b"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "a\0c", "a", "a\0"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TYPE", "a\0b"), Is.EqualTo("+string\r\n"));
        Assert.That(client.Execute("DEL", "a\0c"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("DEL", "a\0b"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "a\0b"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void EmptyKeyIsAKeyLikeAnyOther()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "", "v");
        Assert.That(client.Execute("EXISTS", ""), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("DEL", ""), Is.EqualTo(":1\r\n"));
    }

    [TestCase("DEL")]
    [TestCase("UNLINK")]
    [TestCase("EXISTS")]
    [TestCase("TOUCH")]
    [TestCase("TYPE")]
    public void WrongArity(string command)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute(command), Is.EqualTo(Resp.WrongArity(command.ToLowerInvariant())));
        if (command == "TYPE")
            Assert.That(client.Execute(command, "a", "b"), Is.EqualTo(Resp.WrongArity("type")));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StringSet("k1", "v");
        db.StringSet("k2", "v");
        Assert.That(db.KeyExists("k1"), Is.True);
        Assert.That(db.KeyType("k1"), Is.EqualTo(RedisType.String));
        Assert.That(db.KeyType("nope"), Is.EqualTo(RedisType.None));
        Assert.That(db.KeyDelete("k1"), Is.True);
        Assert.That(db.KeyDelete("k1"), Is.False);
        Assert.That(db.KeyDelete(new RedisKey[] { "k2", "nope" }), Is.EqualTo(1));
        Assert.That(db.KeyExists("k2"), Is.False);
    }
}
