using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.Hash.HashTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Hash;

/// <summary>HSET, HMSET, HSETNX, HGET, HMGET, HDEL, HLEN, HSTRLEN, HEXISTS, HKEYS, HVALS, HGETALL.</summary>
[TestFixture]
public sealed class HashFieldCommandsTests : ServerTestBase
{
    [Test]
    public void HSetCountsNewFieldsAndOverwrites()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HSET", "h", "a", "1", "b", "2"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("HSET", "h", "a", "10", "c", "3"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HSET", "h", "d", "4", "d", "5"), Is.EqualTo(Integer(1)), "a field repeated in one call counts once");
        Assert.That(client.Execute("HGET", "h", "a"), Is.EqualTo(Bulk("10")));
        Assert.That(client.Execute("HGET", "h", "d"), Is.EqualTo(Bulk("5")));
        Assert.That(client.Execute("HLEN", "h"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("HSET", "h", "e", ""), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HGET", "h", "e"), Is.EqualTo(Bulk("")));
    }

    [Test]
    public void HSetAndHMSetArity()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HSET", "h", "a"), Is.EqualTo(WrongArity("hset")));
        Assert.That(client.Execute("HSET", "h", "a", "1", "b"), Is.EqualTo(WrongArity("hset")));
        Assert.That(client.Execute("HMSET", "h", "a", "1", "b"), Is.EqualTo(WrongArity("hmset")));
        Assert.That(client.Execute("HMSET", "h"), Is.EqualTo(WrongArity("hmset")));
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("HSET", "s", "a", "1", "b"), Is.EqualTo(WrongArity("hset")), "arity is checked before the type");
        Assert.That(client.Execute("EXISTS", "h"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void HMSetRepliesOk()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HMSET", "h", "a", "1", "b", "2"), Is.EqualTo(Ok));
        Assert.That(client.Execute("HMSET", "h", "a", "3"), Is.EqualTo(Ok));
        Assert.That(client.Execute("HMGET", "h", "a", "b", "zz"), Is.EqualTo(Array(Bulk("3"), Bulk("2"), Nil)));
    }

    [Test]
    public void HSetNx()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HSETNX", "h", "a", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HSETNX", "h", "a", "2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HGET", "h", "a"), Is.EqualTo(Bulk("1")));
        Assert.That(client.Execute("HSETNX", "h", "b", "2"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HLEN", "h"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("HSETNX", "h", "a"), Is.EqualTo(WrongArity("hsetnx")));
    }

    [Test]
    public void ReadsOfAMissingKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HGET", "nokey", "f"), Is.EqualTo(Nil));
        Assert.That(client.Execute("HMGET", "nokey", "f", "g"), Is.EqualTo(Array(Nil, Nil)));
        Assert.That(client.Execute("HLEN", "nokey"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HSTRLEN", "nokey", "f"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HEXISTS", "nokey", "f"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HKEYS", "nokey"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HVALS", "nokey"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HGETALL", "nokey"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HDEL", "nokey", "f"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "nokey"), Is.EqualTo(Integer(0)), "HDEL on a missing key creates nothing");
    }

    [Test]
    public void MissingFields()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "hello");
        Assert.That(client.Execute("HGET", "h", "b"), Is.EqualTo(Nil));
        Assert.That(client.Execute("HSTRLEN", "h", "a"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("HSTRLEN", "h", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HEXISTS", "h", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HEXISTS", "h", "b"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void HDelRemovesFieldsAndTheEmptyKey()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1", "b", "2", "c", "3");
        Assert.That(client.Execute("HDEL", "h", "a", "zz", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HLEN", "h"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("HEXISTS", "h", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HDEL", "h", "b", "c"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("EXISTS", "h"), Is.EqualTo(Integer(0)), "the last field deletes the key");
        Assert.That(client.Execute("HSET", "h", "x", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HGETALL", "h"), Is.EqualTo(Bulks("x", "1")));
        Assert.That(client.Execute("HDEL", "h"), Is.EqualTo(WrongArity("hdel")));
    }

    [Test]
    public void KeysValuesAndGetAllKeepInsertionOrder()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "one", "1", "two", "2", "three", "3");
        client.Execute("HDEL", "h", "two");
        client.Execute("HSET", "h", "four", "4", "one", "uno");
        Assert.That(client.Execute("HKEYS", "h"), Is.EqualTo(Bulks("one", "three", "four")));
        Assert.That(client.Execute("HVALS", "h"), Is.EqualTo(Bulks("uno", "3", "4")));
        Assert.That(client.Execute("HGETALL", "h"), Is.EqualTo(Bulks("one", "uno", "three", "3", "four", "4")));
    }

    [Test]
    public void Resp3Shapes()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("HSET", "h", "a", "1", "b", "2");
        Assert.That(client.Execute("HGETALL", "h"), Is.EqualTo("%2\r\n" + Bulk("a") + Bulk("1") + Bulk("b") + Bulk("2")));
        Assert.That(client.Execute("HGETALL", "nokey"), Is.EqualTo("%0\r\n"));
        Assert.That(client.Execute("HKEYS", "h"), Is.EqualTo(Bulks("a", "b")));
        Assert.That(client.Execute("HVALS", "h"), Is.EqualTo(Bulks("1", "2")));
        Assert.That(client.Execute("HGET", "h", "zz"), Is.EqualTo("_\r\n"));
        Assert.That(client.Execute("HMGET", "h", "a", "zz"), Is.EqualTo(Array(Bulk("1"), "_\r\n")));
        Assert.That(client.Execute("HEXISTS", "h", "a"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void WrongTypeForEveryCommand()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "x");
        string[][] commands =
        [
            ["HSET", "s", "a", "1"], ["HMSET", "s", "a", "1"], ["HSETNX", "s", "a", "1"], ["HGET", "s", "a"],
            ["HMGET", "s", "a"], ["HDEL", "s", "a"], ["HLEN", "s"], ["HSTRLEN", "s", "a"], ["HEXISTS", "s", "a"],
            ["HKEYS", "s"], ["HVALS", "s"], ["HGETALL", "s"], ["HINCRBY", "s", "a", "1"],
            ["HINCRBYFLOAT", "s", "a", "1"], ["HRANDFIELD", "s"], ["HRANDFIELD", "s", "2"], ["HSCAN", "s", "0"],
        ];
        foreach (var command in commands)
            Assert.That(client.Execute(command), Is.EqualTo(WrongType), string.Join(' ', command));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("x")));
    }

    [Test]
    public void ArityErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HGET", "h"), Is.EqualTo(WrongArity("hget")));
        Assert.That(client.Execute("HMGET", "h"), Is.EqualTo(WrongArity("hmget")));
        Assert.That(client.Execute("HLEN"), Is.EqualTo(WrongArity("hlen")));
        Assert.That(client.Execute("HLEN", "h", "x"), Is.EqualTo(WrongArity("hlen")));
        Assert.That(client.Execute("HSTRLEN", "h"), Is.EqualTo(WrongArity("hstrlen")));
        Assert.That(client.Execute("HEXISTS", "h"), Is.EqualTo(WrongArity("hexists")));
        Assert.That(client.Execute("HKEYS", "h", "x"), Is.EqualTo(WrongArity("hkeys")));
        Assert.That(client.Execute("HVALS"), Is.EqualTo(WrongArity("hvals")));
        Assert.That(client.Execute("HGETALL"), Is.EqualTo(WrongArity("hgetall")));
        Assert.That(client.Execute("HINCRBY", "h", "f"), Is.EqualTo(WrongArity("hincrby")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "f", "1", "2"), Is.EqualTo(WrongArity("hincrbyfloat")));
        Assert.That(client.Execute("HRANDFIELD"), Is.EqualTo(WrongArity("hrandfield")));
        Assert.That(client.Execute("HSCAN", "h"), Is.EqualTo(WrongArity("hscan")));
    }

    [Test]
    public void BinaryFieldsAndValues()
    {
        using var client = ConnectRaw();
        string field = "f\0\r\n\xff" + AllBytes();
        string value = "\0\0" + AllBytes(3) + "\r\n";
        Assert.That(client.Execute("HSET", "h", field, value, "f", "plain"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("HSET", "h", "f\0", "nul"), Is.EqualTo(Integer(1)), "a NUL byte makes another field");
        Assert.That(client.Execute("HGET", "h", field), Is.EqualTo(Bulk(value)));
        Assert.That(client.Execute("HGET", "h", "f\0"), Is.EqualTo(Bulk("nul")));
        Assert.That(client.Execute("HSTRLEN", "h", field), Is.EqualTo(Integer(value.Length)));
        Assert.That(client.Execute("HKEYS", "h"), Is.EqualTo(Bulks(field, "f", "f\0")));
        Assert.That(client.Execute("HDEL", "h", field), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HEXISTS", "h", field), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HEXISTS", "h", ""), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("HSET", "h", "", "empty field"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("HGET", "h", ""), Is.EqualTo(Bulk("empty field")));
    }

    [Test]
    public void LargeHash()
    {
        const int Count = 100_000;
        using var client = ConnectRaw();
        Fill(client, "big", Count);
        Assert.That(client.Execute("HLEN", "big"), Is.EqualTo(Integer(Count)));
        Assert.That(client.Execute("HGET", "big", "f0"), Is.EqualTo(Bulk("v0")));
        Assert.That(client.Execute("HGET", "big", "f99999"), Is.EqualTo(Bulk("v99999")));
        Assert.That(client.Execute("HMGET", "big", "f77777", "f100000"), Is.EqualTo(Array(Bulk("v77777"), Nil)));

        // Delete every field but multiples of 10, in batches, so the entries are compacted along the way.
        var deletes = new List<string[]>();
        for (int start = 0; start < Count; start += 1000)
        {
            var command = new List<string> { "HDEL", "big" };
            for (int i = start; i < start + 1000; i++)
            {
                if (i % 10 != 0)
                    command.Add("f" + i);
            }
            deletes.Add(command.ToArray());
        }
        foreach (var reply in client.Pipeline(deletes.ToArray()))
            Assert.That(reply, Is.EqualTo(Integer(900)));
        Assert.That(client.Execute("HLEN", "big"), Is.EqualTo(Integer(Count / 10)));
        Assert.That(client.Execute("HGET", "big", "f12340"), Is.EqualTo(Bulk("v12340")));
        Assert.That(client.Execute("HGET", "big", "f12341"), Is.EqualTo(Nil));

        var keys = (List<object?>)Parse(client.Execute("HKEYS", "big"))!;
        Assert.That(keys, Has.Count.EqualTo(Count / 10));
        for (int i = 0; i < keys.Count; i++)
            Assert.That(keys[i], Is.EqualTo("f" + (i * 10)), "insertion order survives compaction");

        Fill(client, "big", 1000, first: Count);
        Assert.That(client.Execute("HLEN", "big"), Is.EqualTo(Integer(Count / 10 + 1000)));
        var all = (List<object?>)Parse(client.Execute("HGETALL", "big"))!;
        Assert.That(all, Has.Count.EqualTo(2 * (Count / 10 + 1000)));
        Assert.That(all[^2], Is.EqualTo("f" + (Count + 999)));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.HashSet("h", new[] { new HashEntry("a", "1"), new HashEntry("b", "2") });
        Assert.That(db.HashSet("h", "c", "3"), Is.True);
        Assert.That(db.HashSet("h", "c", "4"), Is.False);
        Assert.That(db.HashSet("h", "c", "5", When.NotExists), Is.False);
        Assert.That((string?)db.HashGet("h", "c"), Is.EqualTo("4"));
        Assert.That(db.HashLength("h"), Is.EqualTo(3));
        Assert.That(db.HashExists("h", "a"), Is.True);
        var all = db.HashGetAll("h").ToDictionary(e => (string)e.Name!, e => (string?)e.Value);
        Assert.That(all, Is.EqualTo(new Dictionary<string, string?> { ["a"] = "1", ["b"] = "2", ["c"] = "4" }));
        Assert.That(db.HashDelete("h", new RedisValue[] { "a", "b", "x" }), Is.EqualTo(2));
        Assert.That(db.HashKeys("h").Select(v => (string?)v), Is.EqualTo(new[] { "c" }));
        Assert.That(db.HashValues("h").Select(v => (string?)v), Is.EqualTo(new[] { "4" }));
        db.StringSet("s", "x");
        Assert.Throws<RedisServerException>(() => db.HashGet("s", "a"));
    }
}
