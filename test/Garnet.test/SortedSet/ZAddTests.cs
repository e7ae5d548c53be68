using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>ZADD (every option), ZINCRBY, ZREM, ZCARD, ZSCORE, ZMSCORE.</summary>
[TestFixture]
public sealed class ZAddTests : ServerTestBase
{
    [Test]
    public void AddsAndUpdatesMembers()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ZADD", "z", "1", "a", "2", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZADD", "z", "3", "a", "4", "c"), Is.EqualTo(Integer(1)), "only new members count");
        Assert.That(client.Execute("ZCARD", "z"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZSCORE", "z", "a"), Is.EqualTo(Bulk("3")));
        Assert.That(client.Execute("ZSCORE", "z", "zz"), Is.EqualTo(Nil));
        Assert.That(client.Execute("ZADD", "z", "5", "d", "6", "d"), Is.EqualTo(Integer(1)), "a member twice keeps the last score");
        Assert.That(client.Execute("ZSCORE", "z", "d"), Is.EqualTo(Bulk("6")));
    }

    [Test]
    public void NxXxAndCh()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a");
        Assert.That(client.Execute("ZADD", "z", "NX", "5", "a", "2", "b"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "z", "a"), Is.EqualTo(Bulk("1")), "NX never updates");
        Assert.That(client.Execute("ZADD", "z", "XX", "7", "a", "3", "c"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZSCORE", "z", "a"), Is.EqualTo(Bulk("7")));
        Assert.That(client.Execute("ZSCORE", "z", "c"), Is.EqualTo(Nil), "XX never adds");
        Assert.That(client.Execute("ZADD", "z", "ch", "8", "a", "2", "b", "9", "c"), Is.EqualTo(Integer(2)), "CH counts changed + added, not unchanged");
        Assert.That(client.Execute("ZADD", "missing", "XX", "1", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "missing"), Is.EqualTo(Integer(0)), "XX on a missing key creates nothing");
    }

    [Test]
    public void GtAndLt()
    {
        using var client = ConnectRaw();
        Add(client, "z", "5", "a", "5", "b");
        Assert.That(client.Execute("ZADD", "z", "GT", "CH", "3", "a", "7", "b", "1", "c"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZMSCORE", "z", "a", "b", "c"), Is.EqualTo(Array("5", "7", "1")), "GT adds new members");
        Assert.That(client.Execute("ZADD", "z", "LT", "CH", "3", "a", "9", "b"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZMSCORE", "z", "a", "b"), Is.EqualTo(Array("3", "7")));
        Assert.That(client.Execute("ZADD", "z", "XX", "GT", "10", "a", "10", "new"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZSCORE", "z", "a"), Is.EqualTo(Bulk("10")));
    }

    [Test]
    public void Incr()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ZADD", "z", "INCR", "2.5", "a"), Is.EqualTo(Bulk("2.5")));
        Assert.That(client.Execute("ZADD", "z", "INCR", "1", "a"), Is.EqualTo(Bulk("3.5")));
        Assert.That(client.Execute("ZADD", "z", "NX", "INCR", "1", "a"), Is.EqualTo(Nil), "aborted by NX");
        Assert.That(client.Execute("ZADD", "z", "XX", "INCR", "1", "b"), Is.EqualTo(Nil), "aborted by XX");
        Assert.That(client.Execute("ZADD", "z", "GT", "INCR", "-1", "a"), Is.EqualTo(Nil), "aborted by GT");
        Assert.That(client.Execute("ZADD", "z", "LT", "INCR", "-1", "a"), Is.EqualTo(Bulk("2.5")));
        Assert.That(client.Execute("ZADD", "z", "INCR", "0", "a"), Is.EqualTo(Bulk("2.5")));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void OptionErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ZADD", "z", "NX", "XX", "1", "a"), Is.EqualTo(Error("ERR XX and NX options at the same time are not compatible")));
        Assert.That(client.Execute("ZADD", "z", "GT", "LT", "1", "a"), Is.EqualTo(Error("ERR GT, LT, and/or NX options at the same time are not compatible")));
        Assert.That(client.Execute("ZADD", "z", "GT", "NX", "1", "a"), Is.EqualTo(Error("ERR GT, LT, and/or NX options at the same time are not compatible")));
        Assert.That(client.Execute("ZADD", "z", "LT", "NX", "1", "a"), Is.EqualTo(Error("ERR GT, LT, and/or NX options at the same time are not compatible")));
        Assert.That(client.Execute("ZADD", "z", "INCR", "1", "a", "2", "b"), Is.EqualTo(Error("ERR INCR option supports a single increment-element pair")));
        Assert.That(client.Execute("ZADD", "z", "1", "a", "2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZADD", "z", "NX", "CH"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZADD", "z", "abc", "a"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("ZADD", "z", "nan", "a"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("ZADD", "z", "1", "a", "x1", "b"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("EXISTS", "z"), Is.EqualTo(Integer(0)), "a bad pair adds nothing");
        Assert.That(client.Execute("ZADD", "z"), Is.EqualTo(WrongArity("zadd")));
        Assert.That(client.Execute("ZADD", "z", "1"), Is.EqualTo(WrongArity("zadd")));
    }

    [Test]
    public void InfinitiesAndFormatting()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ZADD", "z", "inf", "a", "-inf", "b", "+inf", "c", "1.5", "d", "0.1", "e", "1e20", "f", "-0.25", "g"), Is.EqualTo(Integer(7)));
        Assert.That(client.Execute("ZMSCORE", "z", "a", "b", "c", "d", "e", "f", "g"), Is.EqualTo(Array("inf", "-inf", "inf", "1.5", "0.1", "1e+20", "-0.25")));
        Assert.That(client.Execute("ZINCRBY", "z", "-inf", "a"), Is.EqualTo(Error("ERR resulting score is not a number (NaN)")));
        Assert.That(client.Execute("ZADD", "z", "INCR", "inf", "b"), Is.EqualTo(Error("ERR resulting score is not a number (NaN)")));
        Assert.That(client.Execute("ZSCORE", "z", "a"), Is.EqualTo(Bulk("inf")), "unchanged after the NaN error");
        Assert.That(client.Execute("ZINCRBY", "z", "1", "a"), Is.EqualTo(Bulk("inf")));
        Assert.That(client.Execute("ZADD", "z", "123456789012345678", "h"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "z", "h"), Is.EqualTo(Bulk("1.2345678901234568e+17")));
    }

    [Test]
    public void ZIncrBy()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ZINCRBY", "z", "2", "a"), Is.EqualTo(Bulk("2")));
        Assert.That(client.Execute("ZINCRBY", "z", "-0.5", "a"), Is.EqualTo(Bulk("1.5")));
        Assert.That(client.Execute("ZINCRBY", "z", "x", "a"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("ZINCRBY", "z", "nan", "a"), Is.EqualTo(NotFloat));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZINCRBY", "s", "x", "a"), Is.EqualTo(NotFloat), "the float is checked before the type");
        Assert.That(client.Execute("ZINCRBY", "s", "1", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZINCRBY", "z", "1"), Is.EqualTo(WrongArity("zincrby")));
    }

    [Test]
    public void ZRemDeletesTheKeyWhenEmpty()
    {
        using var client = ConnectRaw();
        Add(client, "z", "1", "a", "2", "b", "3", "c");
        Assert.That(client.Execute("ZREM", "z", "a", "x", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZCARD", "z"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZREM", "z", "b", "c"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("EXISTS", "z"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZREM", "z", "a"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void MissingKeys()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ZCARD", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZSCORE", "none", "a"), Is.EqualTo(Nil));
        Assert.That(client.Execute("ZMSCORE", "none", "a", "b"), Is.EqualTo("*2\r\n$-1\r\n$-1\r\n"));
        Assert.That(client.Execute("ZREM", "none", "a"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void WrongTypeKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZADD", "s", "1", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZADD", "s", "x", "a"), Is.EqualTo(NotFloat), "syntax errors come before the type check");
        Assert.That(client.Execute("ZADD", "s", "NX", "XX", "1", "a"), Is.EqualTo(Error("ERR XX and NX options at the same time are not compatible")));
        Assert.That(client.Execute("ZCARD", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZSCORE", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZMSCORE", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZREM", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void BinaryMembers()
    {
        using var client = ConnectRaw();
        string binary = "a\0b\r\n\u00ff";
        Assert.That(client.Execute("ZADD", "z", "1", binary, "2", "a\0", "3", "a"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZSCORE", "z", binary), Is.EqualTo(Bulk("1")));
        Assert.That(client.Execute("ZSCORE", "z", "a\0"), Is.EqualTo(Bulk("2")));
        Assert.That(client.Execute("ZRANGE", "z", "0", "-1"), Is.EqualTo(Array(binary, "a\0", "a")));
        Assert.That(client.Execute("ZADD", "e", "1", ""), Is.EqualTo(Integer(1)), "the empty member is a member");
        Assert.That(client.Execute("ZSCORE", "e", ""), Is.EqualTo(Bulk("1")));
    }

    [Test]
    public void Resp3Shapes()
    {
        using var client = Resp3(ConnectRaw());
        Assert.That(client.Execute("ZADD", "z", "1.5", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "z", "a"), Is.EqualTo(Double3("1.5")));
        Assert.That(client.Execute("ZSCORE", "z", "b"), Is.EqualTo(Null3));
        Assert.That(client.Execute("ZMSCORE", "z", "a", "b"), Is.EqualTo(ArrayOf(Double3("1.5"), Null3)));
        Assert.That(client.Execute("ZINCRBY", "z", "inf", "a"), Is.EqualTo(Double3("inf")));
        Assert.That(client.Execute("ZADD", "z", "INCR", "1", "b"), Is.EqualTo(Double3("1")));
        Assert.That(client.Execute("ZADD", "z", "NX", "INCR", "1", "b"), Is.EqualTo(Null3));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.SortedSetAdd("z", "a", 1.25), Is.True);
        Assert.That(db.SortedSetAdd("z", "a", 2), Is.False);
        Assert.That(db.SortedSetScore("z", "a"), Is.EqualTo(2));
        Assert.That(db.SortedSetIncrement("z", "a", 0.5), Is.EqualTo(2.5));
        Assert.That(db.SortedSetLength("z"), Is.EqualTo(1));
        Assert.That(db.SortedSetRemove("z", "a"), Is.True);
        Assert.That(db.KeyExists("z"), Is.False);
    }

    [Test]
    public void ScoresParseAndFormatAsNumberFormatDoes()
    {
        using var client = ConnectRaw();
        var random = new System.Random(11);
        var texts = new System.Collections.Generic.List<string>
        {
            "0", "-0", "+7", "007", "-123456789012345", "1234567890123456", "99999999999999999", "1e3", "-2.5E-7",
            "1.5e300", "123.456", "-0.000001", "inf", "-inf", "+inf", "1e17", "3.0000000000000004",
        };
        for (int i = 0; i < 200; i++)
        {
            double value = (random.NextDouble() - 0.5) * System.Math.Pow(10, random.Next(-20, 25));
            texts.Add(value.ToString("R", System.Globalization.CultureInfo.InvariantCulture));
        }
        var buffer = new byte[Garnet.common.NumberFormat.MaxDoubleLength];
        foreach (var text in texts)
        {
            Assert.That(Garnet.common.NumberFormat.TryParseDouble(System.Text.Encoding.ASCII.GetBytes(text), out double expected), Is.True, text);
            int length = Garnet.common.NumberFormat.FormatDouble(expected, buffer);
            string formatted = System.Text.Encoding.ASCII.GetString(buffer, 0, length);
            client.Execute("ZADD", "z", text, "m");
            Assert.That(client.Execute("ZSCORE", "z", "m"), Is.EqualTo(Bulk(formatted)), text);
            Assert.That(client.Execute("ZRANGE", "z", "0", "0", "WITHSCORES"), Is.EqualTo(Array("m", formatted)), text);
        }
        Assert.That(client.Execute("ZADD", "z", "-", "m"), Is.EqualTo(Error("ERR value is not a valid float")));
        Assert.That(client.Execute("ZADD", "z", "+", "m"), Is.EqualTo(Error("ERR value is not a valid float")));
        Assert.That(client.Execute("ZADD", "z", "12a", "m"), Is.EqualTo(Error("ERR value is not a valid float")));
    }
}
