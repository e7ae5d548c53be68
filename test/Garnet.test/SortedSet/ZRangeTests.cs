using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>ZRANGE (every form), ZREVRANGE, Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX, ZRANGESTORE.</summary>
[TestFixture]
public sealed class ZRangeTests : ServerTestBase
{
    private const string LimitError = "-ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX\r\n";
    private const string WithScoresLexError = "-ERR syntax error, WITHSCORES not supported in combination with BYLEX\r\n";
    private const string NotFloatRange = "-ERR min or max is not a float\r\n";
    private const string NotStringRange = "-ERR min or max not valid string range item\r\n";

    private RawClient Numbers()
    {
        var client = ConnectRaw();
        Add(client, "z", "1", "one", "2", "two", "3", "three", "4", "four", "5", "five");
        return client;
    }

    [Test]
    public void ByIndex()
    {
        using var client = Numbers();
        Assert.That(client.Execute("ZRANGE", "z", "0", "-1"), Is.EqualTo(Array("one", "two", "three", "four", "five")));
        Assert.That(client.Execute("ZRANGE", "z", "1", "2"), Is.EqualTo(Array("two", "three")));
        Assert.That(client.Execute("ZRANGE", "z", "-2", "-1"), Is.EqualTo(Array("four", "five")));
        Assert.That(client.Execute("ZRANGE", "z", "-100", "1"), Is.EqualTo(Array("one", "two")));
        Assert.That(client.Execute("ZRANGE", "z", "3", "100"), Is.EqualTo(Array("four", "five")));
        Assert.That(client.Execute("ZRANGE", "z", "5", "10"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGE", "z", "3", "1"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGE", "z", "0", "-100"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGE", "z", "0", "1", "WITHSCORES"), Is.EqualTo(Array("one", "1", "two", "2")));
        Assert.That(client.Execute("ZRANGE", "z", "0", "1", "REV"), Is.EqualTo(Array("five", "four")));
        Assert.That(client.Execute("ZREVRANGE", "z", "0", "1", "withscores"), Is.EqualTo(Array("five", "5", "four", "4")));
        Assert.That(client.Execute("ZREVRANGE", "z", "-1", "-1"), Is.EqualTo(Array("one")));
        Assert.That(client.Execute("ZRANGE", "z", "a", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZRANGE", "z", "0", "1", "LIMIT", "0", "1"), Is.EqualTo(LimitError));
        Assert.That(client.Execute("ZREVRANGE", "z", "0", "1", "REV"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZRANGE", "z", "0", "1", "BOGUS"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void ByScore()
    {
        using var client = Numbers();
        Assert.That(client.Execute("ZRANGE", "z", "2", "4", "BYSCORE"), Is.EqualTo(Array("two", "three", "four")));
        Assert.That(client.Execute("ZRANGE", "z", "(2", "(4", "BYSCORE"), Is.EqualTo(Array("three")));
        Assert.That(client.Execute("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "1", "2"), Is.EqualTo(Array("two", "three")));
        Assert.That(client.Execute("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "3", "-1"), Is.EqualTo(Array("four", "five")));
        Assert.That(client.Execute("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "-1", "5"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "0", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "9", "1"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGE", "z", "4", "2", "BYSCORE", "REV", "WITHSCORES"), Is.EqualTo(Array("four", "4", "three", "3", "two", "2")));
        Assert.That(client.Execute("ZRANGE", "z", "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "1", "2"), Is.EqualTo(Array("four", "three")));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "(1", "3", "WITHSCORES"), Is.EqualTo(Array("two", "2", "three", "3")));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "3", "1"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "(3", "3"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "3", "3"), Is.EqualTo(Array("three")));
        Assert.That(client.Execute("ZREVRANGEBYSCORE", "z", "5", "(3"), Is.EqualTo(Array("five", "four")));
        Assert.That(client.Execute("ZREVRANGEBYSCORE", "z", "+inf", "-inf", "LIMIT", "0", "1"), Is.EqualTo(Array("five")));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "x", "1"), Is.EqualTo(NotFloatRange));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "1", "nan"), Is.EqualTo(NotFloatRange));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "[1", "2"), Is.EqualTo(NotFloatRange));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "1", "2", "BYSCORE"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "1", "2", "LIMIT", "x", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "1", "2", "LIMIT", "1"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void InfiniteScores()
    {
        using var client = ConnectRaw();
        Add(client, "z", "-inf", "lo", "0", "mid", "inf", "hi");
        Assert.That(client.Execute("ZRANGE", "z", "-inf", "inf", "BYSCORE", "WITHSCORES"), Is.EqualTo(Array("lo", "-inf", "mid", "0", "hi", "inf")));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "(-inf", "(inf"), Is.EqualTo(Array("mid")));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "inf", "inf"), Is.EqualTo(Array("hi")));
        Assert.That(client.Execute("ZCOUNT", "z", "-inf", "-inf"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void ByLex()
    {
        using var client = ConnectRaw();
        Add(client, "z", "0", "a", "0", "b", "0", "c", "0", "d", "0", "e");
        Assert.That(client.Execute("ZRANGE", "z", "[b", "(d", "BYLEX"), Is.EqualTo(Array("b", "c")));
        Assert.That(client.Execute("ZRANGE", "z", "-", "+", "BYLEX", "LIMIT", "1", "2"), Is.EqualTo(Array("b", "c")));
        Assert.That(client.Execute("ZRANGE", "z", "+", "-", "BYLEX", "REV"), Is.EqualTo(Array("e", "d", "c", "b", "a")));
        Assert.That(client.Execute("ZRANGE", "z", "[d", "(b", "BYLEX", "REV"), Is.EqualTo(Array("d", "c")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "(a", "[c"), Is.EqualTo(Array("b", "c")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "[aa", "[bb"), Is.EqualTo(Array("b")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "+", "-"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "[c", "[b"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "(c", "[c"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZREVRANGEBYLEX", "z", "+", "[d"), Is.EqualTo(Array("e", "d")));
        Assert.That(client.Execute("ZREVRANGEBYLEX", "z", "+", "-", "LIMIT", "1", "1"), Is.EqualTo(Array("d")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "a", "[c"), Is.EqualTo(NotStringRange));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "[a", "++"), Is.EqualTo(NotStringRange));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "", "+"), Is.EqualTo(NotStringRange));
        Assert.That(client.Execute("ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES"), Is.EqualTo(WithScoresLexError));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "-", "+", "WITHSCORES"), Is.EqualTo(WithScoresLexError));
        Assert.That(client.Execute("ZRANGE", "z", "-", "+", "BYLEX", "BYSCORE"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void LexRangesWithBinaryMembers()
    {
        using var client = ConnectRaw();
        Add(client, "z", "0", "\0", "0", "\0\0", "0", "a\0b", "0", "a", "0", "\u00ff", "0", "\u00ff\u00ff");
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "-", "+"), Is.EqualTo(Array("\0", "\0\0", "a", "a\0b", "\u00ff", "\u00ff\u00ff")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "(\0", "[a"), Is.EqualTo(Array("\0\0", "a")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "(a", "(\u00ff"), Is.EqualTo(Array("a\0b")));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "[\u00ff", "+"), Is.EqualTo(Array("\u00ff", "\u00ff\u00ff")));
        Assert.That(client.Execute("ZLEXCOUNT", "z", "[\0", "(\u00ff"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("ZREMRANGEBYLEX", "z", "-", "(a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "-", "+"), Is.EqualTo(Array("a", "a\0b", "\u00ff", "\u00ff\u00ff")));
    }

    [Test]
    public void MissingAndWrongTypeKeys()
    {
        using var client = ConnectRaw();
        foreach (var command in new[] { "ZRANGE", "ZREVRANGE" })
            Assert.That(client.Execute(command, "none", "0", "-1"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGEBYSCORE", "none", "-inf", "+inf"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZRANGEBYLEX", "none", "-", "+"), Is.EqualTo(EmptyArray));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZRANGE", "s", "0", "-1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZRANGEBYSCORE", "s", "0", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZRANGEBYLEX", "s", "-", "+"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZRANGE", "s", "0", "-1", "BOGUS"), Is.EqualTo(SyntaxError), "syntax first");
        Assert.That(client.Execute("ZRANGEBYSCORE", "s", "x", "1"), Is.EqualTo(NotFloatRange));
        Assert.That(client.Execute("ZRANGE", "z"), Is.EqualTo(WrongArity("zrange")));
    }

    [Test]
    public void ZRangeStore()
    {
        using var client = Numbers();
        Assert.That(client.Execute("ZRANGESTORE", "dst", "z", "1", "2"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZRANGE", "dst", "0", "-1", "WITHSCORES"), Is.EqualTo(Array("two", "2", "three", "3")));
        Assert.That(client.Execute("ZRANGESTORE", "dst", "z", "5", "(3", "BYSCORE", "REV", "LIMIT", "0", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZRANGE", "dst", "0", "-1"), Is.EqualTo(Array("five")));
        Assert.That(client.Execute("ZRANGESTORE", "dst", "z", "0", "-1", "REV"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("ZRANGE", "dst", "0", "0"), Is.EqualTo(Array("one")), "the stored set is ordered by score");
        client.Execute("SET", "str", "v");
        Assert.That(client.Execute("ZRANGESTORE", "str", "z", "0", "0"), Is.EqualTo(Integer(1)), "the destination's old type does not matter");
        Assert.That(client.Execute("ZCARD", "str"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZRANGESTORE", "dst", "none", "0", "-1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "dst"), Is.EqualTo(Integer(0)), "an empty result deletes the destination");
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZRANGESTORE", "dst", "s", "0", "-1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZRANGESTORE", "dst", "z", "0", "-1", "WITHSCORES"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZRANGESTORE", "dst", "z", "0", "-1", "LIMIT", "0", "1"), Is.EqualTo(LimitError));
        Assert.That(client.Execute("ZRANGESTORE", "dst", "z", "[a", "[b", "BYLEX"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void Resp3Shapes()
    {
        using var client = Resp3(Numbers());
        Assert.That(client.Execute("ZRANGE", "z", "0", "1", "WITHSCORES"), Is.EqualTo(ArrayOf(Pair3("one", "1"), Pair3("two", "2"))));
        Assert.That(client.Execute("ZRANGEBYSCORE", "z", "5", "5", "WITHSCORES"), Is.EqualTo(ArrayOf(Pair3("five", "5"))));
        Assert.That(client.Execute("ZRANGE", "z", "0", "1"), Is.EqualTo(Array("one", "two")));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.SortedSetAdd("z", new StackExchange.Redis.SortedSetEntry[] { new("a", 1), new("b", 2), new("c", 3) });
        Assert.That(db.SortedSetRangeByRank("z", 0, -1, StackExchange.Redis.Order.Descending), Is.EqualTo(new StackExchange.Redis.RedisValue[] { "c", "b", "a" }));
        var withScores = db.SortedSetRangeByScoreWithScores("z", 1.5, 3);
        Assert.That(withScores.Length, Is.EqualTo(2));
        Assert.That(withScores[0].Element.ToString(), Is.EqualTo("b"));
        Assert.That(withScores[1].Score, Is.EqualTo(3));
    }
}
