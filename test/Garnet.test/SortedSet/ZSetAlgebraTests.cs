using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>ZUNION, ZINTER, ZDIFF, their STORE forms, and ZINTERCARD.</summary>
[TestFixture]
public sealed class ZSetAlgebraTests : ServerTestBase
{
    private RawClient TwoSets()
    {
        var client = ConnectRaw();
        Add(client, "a", "1", "x", "2", "y", "3", "z");
        Add(client, "b", "10", "y", "20", "z", "30", "w");
        return client;
    }

    [Test]
    public void Union()
    {
        using var client = TwoSets();
        Assert.That(client.Execute("ZUNION", "2", "a", "b"), Is.EqualTo(Array("x", "y", "z", "w")));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "WITHSCORES"), Is.EqualTo(Array("x", "1", "y", "12", "z", "23", "w", "30")));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "WEIGHTS", "2", "0.5", "WITHSCORES"), Is.EqualTo(Array("x", "2", "y", "9", "w", "15", "z", "16")));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "AGGREGATE", "MIN", "WITHSCORES"), Is.EqualTo(Array("x", "1", "y", "2", "z", "3", "w", "30")));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "aggregate", "max", "withscores"), Is.EqualTo(Array("x", "1", "y", "10", "z", "20", "w", "30")));
        Assert.That(client.Execute("ZUNION", "3", "a", "none", "b", "WEIGHTS", "1", "1", "-1", "WITHSCORES"), Is.EqualTo(Array("w", "-30", "z", "-17", "y", "-8", "x", "1")));
        Assert.That(client.Execute("ZUNION", "1", "none"), Is.EqualTo(EmptyArray));
    }

    [Test]
    public void Intersection()
    {
        using var client = TwoSets();
        Assert.That(client.Execute("ZINTER", "2", "a", "b", "WITHSCORES"), Is.EqualTo(Array("y", "12", "z", "23")));
        Assert.That(client.Execute("ZINTER", "2", "b", "a", "AGGREGATE", "MAX"), Is.EqualTo(Array("y", "z")));
        Assert.That(client.Execute("ZINTER", "2", "a", "b", "WEIGHTS", "0", "1", "AGGREGATE", "MIN", "WITHSCORES"), Is.EqualTo(Array("y", "0", "z", "0")));
        Assert.That(client.Execute("ZINTER", "2", "a", "none"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "b", "LIMIT", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "b", "LIMIT", "0"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZINTERCARD", "1", "a"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "b", "LIMIT", "-1"), Is.EqualTo(Error("ERR LIMIT can't be negative")));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "b", "WITHSCORES"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZINTERCARD", "0", "a"), Is.EqualTo(Error("ERR at least 1 input key is needed for 'zintercard' command")));
    }

    [Test]
    public void Difference()
    {
        using var client = TwoSets();
        Assert.That(client.Execute("ZDIFF", "2", "a", "b", "WITHSCORES"), Is.EqualTo(Array("x", "1")));
        Assert.That(client.Execute("ZDIFF", "2", "b", "a"), Is.EqualTo(Array("w")));
        Assert.That(client.Execute("ZDIFF", "1", "a"), Is.EqualTo(Array("x", "y", "z")));
        Assert.That(client.Execute("ZDIFF", "2", "none", "a"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("ZDIFF", "2", "a", "b", "WEIGHTS", "1", "2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZDIFF", "2", "a", "b", "AGGREGATE", "MIN"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void StoreForms()
    {
        using var client = TwoSets();
        Assert.That(client.Execute("ZUNIONSTORE", "d", "2", "a", "b"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("ZRANGE", "d", "0", "-1", "WITHSCORES"), Is.EqualTo(Array("x", "1", "y", "12", "z", "23", "w", "30")));
        Assert.That(client.Execute("ZINTERSTORE", "d", "2", "a", "b", "WEIGHTS", "1", "2", "AGGREGATE", "SUM"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZRANGE", "d", "0", "-1", "WITHSCORES"), Is.EqualTo(Array("y", "22", "z", "43")));
        Assert.That(client.Execute("ZDIFFSTORE", "d", "2", "a", "b"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZRANGE", "d", "0", "-1", "WITHSCORES"), Is.EqualTo(Array("x", "1")));
        Assert.That(client.Execute("ZINTERSTORE", "a", "2", "a", "b"), Is.EqualTo(Integer(2)), "the destination may be an input");
        Assert.That(client.Execute("ZRANGE", "a", "0", "-1"), Is.EqualTo(Array("y", "z")));
        Assert.That(client.Execute("ZINTERSTORE", "d", "2", "a", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)), "an empty result deletes the destination");
        client.Execute("SET", "str", "v");
        Assert.That(client.Execute("ZUNIONSTORE", "str", "1", "b"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZCARD", "str"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("ZUNIONSTORE", "d", "1", "b", "WITHSCORES"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void InfinitiesCombineAsRedisDoes()
    {
        using var client = ConnectRaw();
        Add(client, "p", "inf", "m", "1", "n");
        Add(client, "q", "-inf", "m", "1", "n");
        Assert.That(client.Execute("ZUNION", "2", "p", "q", "WITHSCORES"), Is.EqualTo(Array("m", "0", "n", "2")), "inf + -inf is 0");
        Assert.That(client.Execute("ZUNION", "1", "p", "WEIGHTS", "0", "WITHSCORES"), Is.EqualTo(Array("m", "0", "n", "0")), "inf * 0 is 0");
        Assert.That(client.Execute("ZINTER", "2", "p", "q", "AGGREGATE", "MAX", "WITHSCORES"), Is.EqualTo(Array("n", "1", "m", "inf")));
    }

    [Test]
    public void Errors()
    {
        using var client = TwoSets();
        Assert.That(client.Execute("ZUNION", "0", "a"), Is.EqualTo(Error("ERR at least 1 input key is needed for 'zunion' command")));
        Assert.That(client.Execute("ZUNIONSTORE", "d", "0", "a"), Is.EqualTo(Error("ERR at least 1 input key is needed for 'zunionstore' command")));
        Assert.That(client.Execute("ZINTER", "x", "a"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("ZUNION", "3", "a", "b"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "WEIGHTS", "1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "WEIGHTS", "1", "x"), Is.EqualTo(Error("ERR weight value is not a float")));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "AGGREGATE", "AVG"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("ZUNION", "2", "a", "b", "AGGREGATE"), Is.EqualTo(SyntaxError));
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("ZUNION", "2", "a", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZINTERSTORE", "d", "2", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZDIFF", "2", "a", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZINTERCARD", "2", "a", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZUNION", "2", "a", "s", "BOGUS"), Is.EqualTo(WrongType), "keys are checked before the options");
    }

    [Test]
    public void Resp3Shapes()
    {
        using var client = Resp3(TwoSets());
        Assert.That(client.Execute("ZINTER", "2", "a", "b", "WITHSCORES"), Is.EqualTo(ArrayOf(Pair3("y", "12"), Pair3("z", "23"))));
        Assert.That(client.Execute("ZDIFF", "2", "a", "b"), Is.EqualTo(Array("x")));
    }
}
