using System.Collections.Generic;
using System.Text.RegularExpressions;
using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>ZPOPMIN, ZPOPMAX, ZMPOP, ZRANDMEMBER, ZSCAN.</summary>
[TestFixture]
public sealed class ZPopAndRandomTests : ServerTestBase
{
    [Test]
    public void PopMinAndMax()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2", "b", "3", "c", "4", "d");
        Assert.That(client.Execute("ZPOPMIN", "z"), Is.EqualTo(Array("a", "1")));
        Assert.That(client.Execute("ZPOPMAX", "z"), Is.EqualTo(Array("d", "4")));
        Assert.That(client.Execute("ZPOPMIN", "z", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZPOPMAX", "z", "5"), Is.EqualTo(Array("c", "3", "b", "2")));
        Assert.That(client.Execute("EXISTS", "z"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZPOPMIN", "z"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZPOPMAX", "z", "2"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZPOPMIN", "z", "-1"), Is.EqualTo(Error("ERR value is out of range, must be positive")));
        Assert.That(client.Execute("ZPOPMIN", "z", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZPOPMIN", "z", "1", "2"), Is.EqualTo(SyntaxError));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZPOPMIN", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZPOPMAX", "s", "2"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZPOPMAX", "s", "-2"), Is.EqualTo(Error("ERR value is out of range, must be positive")));
    }

    [Test]
    public void PopResp3()
    {
        using var client = Resp3(ConnectRaw());
        Add(client, "z", "1", "a", "2", "b", "3", "c");
        Assert.That(client.Execute("ZPOPMIN", "z"), Is.EqualTo(ArrayOf(Bulk("a"), Double3("1"))), "no count: flat");
        Assert.That(client.Execute("ZPOPMIN", "z", "1"), Is.EqualTo(ArrayOf(Pair3("b", "2"))), "a count: nested");
        Assert.That(client.Execute("ZPOPMAX", "z", "3"), Is.EqualTo(ArrayOf(Pair3("c", "3"))));
        Assert.That(client.Execute("ZPOPMAX", "z"), Is.EqualTo(EmptyArray));
    }

    [Test]
    public void MPop()
    {
        using var client = ConnectRaw();
        Add(client, "z2", "1", "a", "2", "b", "3", "c");
        string Popped(string key, params string[] pairs)
        {
            var items = new List<string>();
            for (int i = 0; i < pairs.Length; i += 2)
                items.Add(Array(pairs[i], pairs[i + 1]));
            return ArrayOf(Bulk(key), ArrayOf(items.ToArray()));
        }
        Assert.That(client.Execute("ZMPOP", "2", "z1", "z2", "MIN"), Is.EqualTo(Popped("z2", "a", "1")));
        Assert.That(client.Execute("ZMPOP", "2", "z1", "z2", "max", "COUNT", "5"), Is.EqualTo(Popped("z2", "c", "3", "b", "2")));
        Assert.That(client.Execute("EXISTS", "z2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZMPOP", "2", "z1", "z2", "MIN"), Is.EqualTo(NullArray));
        Assert.That(client.Execute("ZMPOP", "0", "z1", "MIN"), Is.EqualTo(Error("ERR numkeys should be greater than 0")));
        Assert.That(client.Execute("ZMPOP", "x", "z1", "MIN"), Is.EqualTo(Error("ERR numkeys should be greater than 0")));
        Assert.That(client.Execute("ZMPOP", "3", "z1", "MIN"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZMPOP", "1", "z1", "MIDDLE"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZMPOP", "1", "z1", "MIN", "COUNT", "0"), Is.EqualTo(Error("ERR count should be greater than 0")));
        Assert.That(client.Execute("ZMPOP", "1", "z1", "MIN", "COUNT", "1", "COUNT", "1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZMPOP", "1", "z1", "MIN", "COUNT"), Is.EqualTo(SyntaxError));
        client.Execute("SET", "s", "v");
        Add(client, "z3", "1", "x");
        Assert.That(client.Execute("ZMPOP", "2", "s", "z3", "MIN"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZMPOP", "2", "z3", "s", "MIN"), Is.EqualTo(Popped("z3", "x", "1")), "keys after the one popped are not looked at");
        Assert.That(client.Execute("ZMPOP", "1"), Is.EqualTo(WrongArity("zmpop")));
    }

    [Test]
    public void MPopResp3()
    {
        using var client = Resp3(ConnectRaw());
        Add(client, "z", "1", "a", "2", "b");
        Assert.That(client.Execute("ZMPOP", "1", "z", "MAX", "COUNT", "2"), Is.EqualTo(ArrayOf(Bulk("z"), ArrayOf(Pair3("b", "2"), Pair3("a", "1")))));
        Assert.That(client.Execute("ZMPOP", "1", "z", "MAX"), Is.EqualTo(Null3));
    }

    [Test]
    public void RandMember()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2", "b", "3", "c");
        var members = new[] { Bulk("a"), Bulk("b"), Bulk("c") };
        Assert.That(client.Execute("ZRANDMEMBER", "z"), Is.AnyOf(members));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "0"), Is.EqualTo(EmptyArray));
        var all = client.Execute("ZRANDMEMBER", "z", "10", "WITHSCORES");
        Assert.That(all, Does.StartWith("*6\r\n"));
        foreach (var pair in new[] { "a\r\n$1\r\n1", "b\r\n$1\r\n2", "c\r\n$1\r\n3" })
            Assert.That(all, Does.Contain(pair));
        for (int i = 0; i < 20; i++)
        {
            var two = client.Execute("ZRANDMEMBER", "z", "2");
            Assert.That(two, Does.StartWith("*2\r\n"));
            var picked = Regex.Matches(two, "\\$1\\r\\n(.)");
            Assert.That(picked[0].Groups[1].Value, Is.Not.EqualTo(picked[1].Groups[1].Value), "a positive count gives distinct members");
        }
        var repeated = client.Execute("ZRANDMEMBER", "z", "-7");
        Assert.That(repeated, Does.StartWith("*7\r\n"));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "-2", "WITHSCORES"), Does.StartWith("*4\r\n"));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "1", "BOGUS"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "1", "WITHSCORES", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "-9223372036854775808"), Is.EqualTo(Error("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")));
        Assert.That(client.Execute("ZRANDMEMBER", "none"), Is.EqualTo(Nil));
        Assert.That(client.Execute("ZRANDMEMBER", "none", "5"), Is.EqualTo(EmptyArray));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZRANDMEMBER", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZRANDMEMBER", "s", "x"), Is.EqualTo(NotInteger));
    }

    [Test]
    public void RandMemberResp3()
    {
        using var client = Resp3(ConnectRaw());
        Add(client, "z", "1.5", "a");
        Assert.That(client.Execute("ZRANDMEMBER", "z", "1", "WITHSCORES"), Is.EqualTo(ArrayOf(Pair3("a", "1.5"))));
        Assert.That(client.Execute("ZRANDMEMBER", "z", "-2", "WITHSCORES"), Is.EqualTo(ArrayOf(Pair3("a", "1.5"), Pair3("a", "1.5"))));
        Assert.That(client.Execute("ZRANDMEMBER", "none"), Is.EqualTo(Null3));
    }

    [Test]
    public void ScanSmallSet()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2.5", "b", "3", "c");
        Assert.That(client.Execute("ZSCAN", "z", "0"), Is.EqualTo(ArrayOf(Bulk("0"), Array("a", "1", "b", "2.5", "c", "3"))));
        Assert.That(client.Execute("ZSCAN", "z", "0", "MATCH", "[ab]", "COUNT", "1"), Is.EqualTo(ArrayOf(Bulk("0"), Array("a", "1", "b", "2.5"))));
        Assert.That(client.Execute("ZSCAN", "z", "0", "NOSCORES"), Is.EqualTo(ArrayOf(Bulk("0"), Array("a", "b", "c"))));
        Assert.That(client.Execute("ZSCAN", "none", "0"), Is.EqualTo(ArrayOf(Bulk("0"), EmptyArray)));
        Assert.That(client.Execute("ZSCAN", "z", "x"), Is.EqualTo(Error("ERR invalid cursor")));
        Assert.That(client.Execute("ZSCAN", "z", "0", "COUNT", "0"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZSCAN", "z", "0", "COUNT", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZSCAN", "z", "0", "BOGUS"), Is.EqualTo(SyntaxError));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZSCAN", "s", "0"), Is.EqualTo(WrongType));
    }

    [Test]
    public void ScanLargeSetVisitsEveryMemberOnce()
    {
        using var client = ConnectRaw();
        var args = new List<string> { "ZADD", "z" };
        for (int i = 0; i < 1000; i++)
        {
            args.Add(i.ToString());
            args.Add("m" + i);
        }
        client.Execute(args.ToArray());
        var seen = new HashSet<string>();
        string cursor = "0";
        int calls = 0;
        do
        {
            var reply = client.Execute("ZSCAN", "z", cursor, "COUNT", "100", "NOSCORES");
            var parts = Regex.Matches(reply, "\\$\\d+\\r\\n([^\\r]*)\\r\\n");
            cursor = parts[0].Groups[1].Value;
            for (int i = 1; i < parts.Count; i++)
                Assert.That(seen.Add(parts[i].Groups[1].Value), Is.True);
            calls++;
        }
        while (cursor != "0" && calls < 100);
        Assert.That(seen.Count, Is.EqualTo(1000));
        Assert.That(calls, Is.LessThanOrEqualTo(12), "COUNT 100 returns at least 100 members a call");
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.SortedSetAdd("z", new StackExchange.Redis.SortedSetEntry[] { new("a", 1), new("b", 2) });
        var top = db.SortedSetRangeByRankWithScores("z", 0, 0, StackExchange.Redis.Order.Descending);
        Assert.That(top.Length, Is.EqualTo(1));
        Assert.That(top[0].Element.ToString(), Is.EqualTo("b"));
        Assert.That(top[0].Score, Is.EqualTo(2));
        Assert.That(db.SortedSetRank("z", "a"), Is.EqualTo(0));
    }
}
