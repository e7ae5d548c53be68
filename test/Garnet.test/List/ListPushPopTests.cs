using System.Linq;
using NUnit.Framework;
using static Garnet.test.List.ListTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP and LLEN.</summary>
[TestFixture]
public sealed class ListPushPopTests : ServerTestBase
{
    [Test]
    public void PushesReplyTheNewLengthInRedisOrder()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("RPUSH", "l", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LPUSH", "l", "x", "y", "z"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("RPUSH", "l", "c"), Is.EqualTo(Integer(6)));
        // LPUSH inserts each element at the head in turn, so the last one ends up first.
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("z", "y", "x", "a", "b", "c")));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(6)));
    }

    [Test]
    public void PushXOnlyPushesToAnExistingList()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LPUSHX", "l", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("RPUSHX", "l", "a", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));
        client.Execute("RPUSH", "l", "m");
        Assert.That(client.Execute("LPUSHX", "l", "b", "a"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("RPUSHX", "l", "y", "z"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a", "b", "m", "y", "z")));
    }

    [Test]
    public void PopWithoutCount()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LPOP", "l"), Is.EqualTo(Nil));
        Assert.That(client.Execute("RPOP", "l"), Is.EqualTo(Nil));
        client.Execute("RPUSH", "l", "a", "b", "c");
        Assert.That(client.Execute("LPOP", "l"), Is.EqualTo(Bulk("a")));
        Assert.That(client.Execute("RPOP", "l"), Is.EqualTo(Bulk("c")));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("RPOP", "l"), Is.EqualTo(Bulk("b")));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)), "popping the last element deletes the key");
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void PopWithCount()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b", "c", "d", "e");
        Assert.That(client.Execute("LPOP", "l", "2"), Is.EqualTo(Bulks("a", "b")));
        Assert.That(client.Execute("RPOP", "l", "2"), Is.EqualTo(Bulks("e", "d")));
        Assert.That(client.Execute("LPOP", "l", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("RPOP", "l", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("RPOP", "l", "1"), Is.EqualTo(Bulks("c")));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));

        client.Execute("RPUSH", "l", "a", "b");
        Assert.That(client.Execute("LPOP", "l", "100"), Is.EqualTo(Bulks("a", "b")), "a count past the length pops everything");
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void PopCountOnMissingKeyIsNilArray()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LPOP", "none", "3"), Is.EqualTo(NilArray));
        Assert.That(client.Execute("RPOP", "none", "0"), Is.EqualTo(NilArray));
    }

    [Test]
    public void PopCountErrors()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LPOP", "l", "-1"), Is.EqualTo(MustBePositive));
        Assert.That(client.Execute("RPOP", "l", "abc"), Is.EqualTo(MustBePositive));
        Assert.That(client.Execute("LPOP", "l", "1.5"), Is.EqualTo(MustBePositive));
        // The count is checked before the key: even a missing key or one of another type.
        Assert.That(client.Execute("LPOP", "none", "-1"), Is.EqualTo(MustBePositive));
        Assert.That(client.Execute("LPOP", "s", "-1"), Is.EqualTo(MustBePositive));
        Assert.That(client.Execute("LPOP", "l", "1", "2"), Is.EqualTo(WrongArity("lpop")));
        Assert.That(client.Execute("RPOP", "l", "1", "2"), Is.EqualTo(WrongArity("rpop")));
        Assert.That(client.Execute("LPOP"), Is.EqualTo(WrongArity("lpop")));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void ArityErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LPUSH", "l"), Is.EqualTo(WrongArity("lpush")));
        Assert.That(client.Execute("RPUSH", "l"), Is.EqualTo(WrongArity("rpush")));
        Assert.That(client.Execute("LPUSHX", "l"), Is.EqualTo(WrongArity("lpushx")));
        Assert.That(client.Execute("RPUSHX", "l"), Is.EqualTo(WrongArity("rpushx")));
        Assert.That(client.Execute("LLEN"), Is.EqualTo(WrongArity("llen")));
        Assert.That(client.Execute("LLEN", "a", "b"), Is.EqualTo(WrongArity("llen")));
    }

    [Test]
    public void WrongTypeForEveryCommandOfThisGroup()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LPUSH", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("RPUSH", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LPUSHX", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("RPUSHX", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LPOP", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("RPOP", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LPOP", "s", "2"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LLEN", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void BinaryElementsRoundTrip()
    {
        using var client = ConnectRaw();
        string all = AllBytes();
        string nul = "\0";
        string crlf = "a\r\nb\0c";
        Assert.That(client.Execute("RPUSH", "l", all, nul, crlf, ""), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(all, nul, crlf, "")));
        Assert.That(client.Execute("LPOP", "l"), Is.EqualTo(Bulk(all)));
        Assert.That(client.Execute("RPOP", "l"), Is.EqualTo(Bulk("")));
        Assert.That(client.Execute("LPOP", "l", "2"), Is.EqualTo(Bulks(nul, crlf)));
    }

    [Test]
    public void ManyPushesAndPopsAtBothEnds()
    {
        using var client = ConnectRaw();
        // Interleaving wraps the ring buffer around in both directions and through its growths and shrinks.
        var expected = new System.Collections.Generic.LinkedList<string>();
        var commands = new System.Collections.Generic.List<string[]>();
        for (int i = 0; i < 3000; i++)
        {
            string value = "v" + i;
            if (i % 3 == 0)
            {
                commands.Add(new[] { "LPUSH", "l", value });
                expected.AddFirst(value);
            }
            else
            {
                commands.Add(new[] { "RPUSH", "l", value });
                expected.AddLast(value);
            }
            if (i % 5 == 4)
            {
                commands.Add(new[] { "LPOP", "l" });
                expected.RemoveFirst();
            }
            if (i % 7 == 6)
            {
                commands.Add(new[] { "RPOP", "l" });
                expected.RemoveLast();
            }
        }
        client.Pipeline(commands.ToArray());
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(expected.Count)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(System.Linq.Enumerable.ToArray(expected))));

        // Drain most of it so the buffer shrinks, then check the remainder is intact.
        int drain = expected.Count - 10;
        client.Execute("LPOP", "l", drain.ToString());
        for (int i = 0; i < drain; i++)
            expected.RemoveFirst();
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(System.Linq.Enumerable.ToArray(expected))));
    }

    [Test]
    public void Resp3Shapes()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("LPOP", "none"), Is.EqualTo(Resp3Null));
        Assert.That(client.Execute("RPOP", "none", "2"), Is.EqualTo(Resp3Null));
        client.Execute("RPUSH", "l", "a", "b");
        Assert.That(client.Execute("LPOP", "l", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("LPOP", "l", "1"), Is.EqualTo(Bulks("a")));
        Assert.That(client.Execute("RPOP", "l"), Is.EqualTo(Bulk("b")));
        Assert.That(client.Execute("RPOP", "l"), Is.EqualTo(Resp3Null));
    }

    [Test]
    public void StackExchangeRedisClient()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.ListRightPush("se", new StackExchange.Redis.RedisValue[] { "1", "2", "3" }), Is.EqualTo(3));
        Assert.That(db.ListLeftPush("se", "0"), Is.EqualTo(4));
        Assert.That(db.ListLength("se"), Is.EqualTo(4));
        Assert.That((string?)db.ListLeftPop("se"), Is.EqualTo("0"));
        Assert.That((string?)db.ListRightPop("se"), Is.EqualTo("3"));
        Assert.That(db.ListRange("se").Select(v => (string?)v), Is.EqualTo(new[] { "1", "2" }));
    }
}
