using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>SET and its options, SETNX, SETEX, PSETEX, GETSET, GETDEL, MSET, MSETNX and MGET.</summary>
[TestFixture]
public sealed class SetCommandTests : ServerTestBase
{
    [Test]
    public void SetReplacesAndGetReads()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "one"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k", "two"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("two")));
        Assert.That(client.Execute("get", "k"), Is.EqualTo(Bulk("two")), "command names ignore case");
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo(Nil));
    }

    [Test]
    public void NxSetsOnlyAMissingKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "first", "NX"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k", "second", "NX"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("first")));
        Assert.That(client.Execute("SET", "k", "third", "nx", "NX"), Is.EqualTo(Nil), "a repeated option is allowed");
    }

    [Test]
    public void XxSetsOnlyAnExistingKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "first", "XX"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SET", "k", "first"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k", "second", "xx"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("second")));
    }

    [Test]
    public void GetOptionReturnsTheOldValue()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "first", "GET"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("first")));
        Assert.That(client.Execute("SET", "k", "second", "GET"), Is.EqualTo(Bulk("first")));
        Assert.That(client.Execute("SET", "k", "third", "GET", "get"), Is.EqualTo(Bulk("second")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("third")));
    }

    [Test]
    public void GetWithNxReturnsTheOldValueAndKeepsIt()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "first", "NX", "GET"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("first")));
        Assert.That(client.Execute("SET", "k", "second", "GET", "NX"), Is.EqualTo(Bulk("first")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("first")));
    }

    [Test]
    public void GetWithXxSetsOnlyAnExistingKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "first", "XX", "GET"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
        client.Execute("SET", "k", "first");
        Assert.That(client.Execute("SET", "k", "second", "XX", "GET"), Is.EqualTo(Bulk("first")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("second")));
    }

    [TestCase("NX", "XX")]
    [TestCase("XX", "NX")]
    [TestCase("EX", "10", "PX", "100")]
    [TestCase("PX", "100", "EX", "10")]
    [TestCase("EX", "10", "EXAT", "2000000000")]
    [TestCase("PX", "10", "PXAT", "2000000000000")]
    [TestCase("EXAT", "2000000000", "PXAT", "2000000000000")]
    [TestCase("KEEPTTL", "EX", "10")]
    [TestCase("EX", "10", "KEEPTTL")]
    [TestCase("PXAT", "2000000000000", "KEEPTTL")]
    [TestCase("PERSIST")]
    [TestCase("EX")]
    [TestCase("PX")]
    [TestCase("NX", "EX")]
    [TestCase("FOO")]
    [TestCase("NXX")]
    [TestCase("")]
    [TestCase("EX", "abc", "NX", "XX")]
    [TestCase("EX", "0", "NX", "XX")]
    [TestCase("EX", "-5", "KEEPTTL")]
    public void ConflictingOrUnknownOptionsAreSyntaxErrors(params string[] options)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "before");
        var command = new string[3 + options.Length];
        command[0] = "SET";
        command[1] = "k";
        command[2] = "after";
        options.CopyTo(command, 3);
        Assert.That(client.Execute(command), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("before")), "a refused SET changes nothing");
    }

    [TestCase("EX", "0")]
    [TestCase("EX", "-1")]
    [TestCase("PX", "0")]
    [TestCase("PX", "-100")]
    [TestCase("EXAT", "0")]
    [TestCase("PXAT", "-1")]
    [TestCase("EX", "-9223372036854775808")]
    [TestCase("EX", "9223372036854775807")]
    [TestCase("EX", "9223372036854775")]
    [TestCase("PX", "9223372036854775807")]
    [TestCase("EXAT", "9223372036854775807")]
    public void ZeroNegativeOrOverflowingTimesAreInvalid(string option, string time)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "v", option, time), Is.EqualTo(Error("ERR invalid expire time in 'set' command")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
    }

    [TestCase("abc")]
    [TestCase("1.5")]
    [TestCase(" 1")]
    [TestCase("1 ")]
    [TestCase("+1")]
    [TestCase("01")]
    [TestCase("")]
    [TestCase("9223372036854775808")]
    [TestCase("0x10")]
    public void NonIntegerTimesAreNotIntegers(string time)
    {
        using var client = ConnectRaw();
        foreach (var option in new[] { "EX", "PX", "EXAT", "PXAT" })
            Assert.That(client.Execute("SET", "k", "v", option, time), Is.EqualTo(NotInteger), option);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
    }

    [Test]
    public void RepeatedExpirationOptionTakesTheLastTime()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "v", "EX", "1", "EX", "1000"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k2", "v", "px", "100000", "PX", "200000"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k3", "v", "KEEPTTL", "keepttl"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void OptionsIgnoreCase()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("set", "k", "v", "nX", "eX", "100"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k", "w", "Xx", "Get", "Px", "100000"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("SET", "k", "x", "KeepTtl"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k", "y", "exat", "4000000000", "get"), Is.EqualTo(Bulk("x")));
        Assert.That(client.Execute("SET", "k", "z", "pxat", "4000000000000"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("z")));
    }

    [Test]
    public void SetNx()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETNX", "k", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SETNX", "k", "2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("1")));
    }

    [Test]
    public void SetExAndPSetEx()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETEX", "k", "100", "v"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("PSETEX", "k", "100000", "w"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("w")));
    }

    [TestCase("SETEX", "0")]
    [TestCase("SETEX", "-1")]
    [TestCase("SETEX", "9223372036854775807")]
    [TestCase("PSETEX", "0")]
    [TestCase("PSETEX", "-100")]
    [TestCase("PSETEX", "9223372036854775807")]
    public void SetExRefusesInvalidTimes(string command, string time)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute(command, "k", time, "v"), Is.EqualTo(Error($"ERR invalid expire time in '{command.ToLowerInvariant()}' command")));
        Assert.That(client.Execute(command, "k", "1.5", "v"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute(command, "k", "ten", "v"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
    }

    [Test]
    public void GetSetReturnsTheOldValue()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GETSET", "k", "one"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GETSET", "k", "two"), Is.EqualTo(Bulk("one")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("two")));
    }

    [Test]
    public void GetDelReturnsAndDeletes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GETDEL", "k"), Is.EqualTo(Nil));
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("GETDEL", "k"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("GETDEL", "k"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SETNX", "k", "again"), Is.EqualTo(Integer(1)), "the key is really gone");
    }

    [Test]
    public void MSetAndMGet()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MSET", "a", "1", "b", "2", "a", "3"), Is.EqualTo(Ok));
        Assert.That(client.Execute("MGET", "a", "b", "missing", "b"), Is.EqualTo("*4\r\n$1\r\n3\r\n$1\r\n2\r\n$-1\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("MGET", "missing"), Is.EqualTo("*1\r\n$-1\r\n"));
    }

    [Test]
    public void MSetWithAnOddNumberOfArgumentsIsAnArityError()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MSET", "a", "1", "b"), Is.EqualTo(WrongArity("mset")));
        Assert.That(client.Execute("MSETNX", "a", "1", "b"), Is.EqualTo(WrongArity("msetnx")));
        Assert.That(client.Execute("MGET", "a", "b"), Is.EqualTo("*2\r\n$-1\r\n$-1\r\n"), "nothing was set");
    }

    [Test]
    public void MSetNxSetsAllOrNothing()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MSETNX", "a", "1", "b", "2"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("MSETNX", "b", "x", "c", "3"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("MGET", "a", "b", "c"), Is.EqualTo("*3\r\n$1\r\n1\r\n$1\r\n2\r\n$-1\r\n"));
        Assert.That(client.Execute("MSETNX", "d", "1", "d", "2"), Is.EqualTo(Integer(1)), "a key given twice is new for both");
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("2")));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.StringSet("k", "v1", when: When.NotExists), Is.True);
        Assert.That(db.StringSet("k", "v2", when: When.NotExists), Is.False);
        Assert.That(db.StringSet("k", "v3", when: When.Exists), Is.True);
        Assert.That(db.StringSet("other", "x", when: When.Exists), Is.False);
        Assert.That((string?)db.StringGetSet("k", "v4"), Is.EqualTo("v3"));
        Assert.That(db.StringSet(new[] { new System.Collections.Generic.KeyValuePair<RedisKey, RedisValue>("a", "1"), new("b", "2") }), Is.True);
        var values = db.StringGet(new RedisKey[] { "a", "b", "nope", "k" });
        Assert.That(values, Has.Length.EqualTo(4));
        Assert.That((string?)values[0], Is.EqualTo("1"));
        Assert.That((string?)values[1], Is.EqualTo("2"));
        Assert.That(values[2].IsNull, Is.True);
        Assert.That((string?)values[3], Is.EqualTo("v4"));
        Assert.That(db.StringSet("ttl", "v", System.TimeSpan.FromSeconds(100)), Is.True);
        Assert.That((string?)db.StringGet("ttl"), Is.EqualTo("v"));
    }
}
