using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>ZRANK, ZREVRANK, ZCOUNT, ZLEXCOUNT, ZREMRANGEBYRANK, ZREMRANGEBYSCORE, ZREMRANGEBYLEX.</summary>
[TestFixture]
public sealed class ZRankAndCountTests : ServerTestBase
{
    [Test]
    public void Ranks()
    {
        using var client = ConnectRaw();
        Add(client, "z", "10", "a", "20", "b", "20", "c", "-inf", "d");
        Assert.That(client.Execute("ZRANK", "z", "d"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZRANK", "z", "c"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZREVRANK", "z", "c"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZREVRANK", "z", "d"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZRANK", "z", "x"), Is.EqualTo(Nil));
        Assert.That(client.Execute("ZRANK", "z", "b", "WITHSCORE"), Is.EqualTo(ArrayOf(Integer(2), Bulk("20"))));
        Assert.That(client.Execute("ZREVRANK", "z", "d", "withscore"), Is.EqualTo(ArrayOf(Integer(3), Bulk("-inf"))));
        Assert.That(client.Execute("ZRANK", "z", "x", "WITHSCORE"), Is.EqualTo(NullArray));
        Assert.That(client.Execute("ZRANK", "none", "x"), Is.EqualTo(Nil));
        Assert.That(client.Execute("ZRANK", "none", "x", "WITHSCORE"), Is.EqualTo(NullArray));
        Assert.That(client.Execute("ZRANK", "z", "a", "WITHSCORES"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZRANK", "z", "a", "WITHSCORE", "x"), Is.EqualTo(SyntaxError));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZRANK", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZREVRANK", "s", "a", "bogus"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void RanksResp3()
    {
        using var client = Resp3(ConnectRaw());
        Add(client, "z", "1.5", "a");
        Assert.That(client.Execute("ZRANK", "z", "a", "WITHSCORE"), Is.EqualTo(ArrayOf(Integer(0), Double3("1.5"))));
        Assert.That(client.Execute("ZRANK", "z", "b", "WITHSCORE"), Is.EqualTo(Null3));
        Assert.That(client.Execute("ZRANK", "z", "b"), Is.EqualTo(Null3));
    }

    [Test]
    public void Counts()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2", "b", "3", "c", "4", "d");
        Assert.That(client.Execute("ZCOUNT", "z", "-inf", "+inf"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("ZCOUNT", "z", "(1", "3"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZCOUNT", "z", "(1", "(2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZCOUNT", "z", "5", "10"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZCOUNT", "z", "3", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZCOUNT", "z", "x", "1"), Is.EqualTo(Error("ERR min or max is not a float")));
        Assert.That(client.Execute("ZCOUNT", "none", "0", "1"), Is.EqualTo(Integer(0)));
        Add(client, "l", "0", "a", "0", "b", "0", "c");
        Assert.That(client.Execute("ZLEXCOUNT", "l", "-", "+"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZLEXCOUNT", "l", "(a", "[c"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZLEXCOUNT", "l", "[c", "[a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZLEXCOUNT", "l", "a", "+"), Is.EqualTo(Error("ERR min or max not valid string range item")));
        Assert.That(client.Execute("ZLEXCOUNT", "none", "-", "+"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZCOUNT", "s", "0", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZLEXCOUNT", "s", "-", "+"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZCOUNT", "s", "x", "1"), Is.EqualTo(Error("ERR min or max is not a float")));
    }

    [Test]
    public void RemoveRangeByRank()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
        Assert.That(client.Execute("ZREMRANGEBYRANK", "z", "1", "2"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZRANGE", "z", "0", "-1"), Is.EqualTo(Array("a", "d", "e")));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "z", "-1", "-1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "z", "5", "10"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "z", "1", "0"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "z", "x", "0"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "z", "-100", "100"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("EXISTS", "z"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "none", "0", "-1"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void RemoveRangeByScoreAndLex()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2", "b", "3", "c", "inf", "d");
        Assert.That(client.Execute("ZREMRANGEBYSCORE", "z", "(1", "2"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZREMRANGEBYSCORE", "z", "(inf", "+inf"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZREMRANGEBYSCORE", "z", "3", "inf"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZRANGE", "z", "0", "-1"), Is.EqualTo(Array("a")));
        Assert.That(client.Execute("ZREMRANGEBYSCORE", "z", "nan", "1"), Is.EqualTo(Error("ERR min or max is not a float")));
        Assert.That(client.Execute("ZREMRANGEBYSCORE", "z", "-inf", "+inf"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("EXISTS", "z"), Is.EqualTo(Integer(0)));
        Add(client, "l", "0", "a", "0", "b", "0", "c", "0", "d");
        Assert.That(client.Execute("ZREMRANGEBYLEX", "l", "(a", "[c"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZRANGE", "l", "0", "-1"), Is.EqualTo(Array("a", "d")));
        Assert.That(client.Execute("ZREMRANGEBYLEX", "l", "x", "+"), Is.EqualTo(Error("ERR min or max not valid string range item")));
        Assert.That(client.Execute("ZREMRANGEBYLEX", "l", "-", "+"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZREMRANGEBYSCORE", "s", "0", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZREMRANGEBYLEX", "s", "-", "+"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "s", "0", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "s", "0"), Is.EqualTo(WrongArity("zremrangebyrank")));
    }
}
