using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.Set.SetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Set;

/// <summary>SMOVE, SINTER, SINTERCARD, SUNION, SDIFF and the STORE forms.</summary>
[TestFixture]
public sealed class SetMultiKeyTests : ServerTestBase
{
    private static void Load(RawClient client)
    {
        client.Execute("SADD", "a", "1", "2", "3", "4");
        client.Execute("SADD", "b", "2", "3", "5");
        client.Execute("SADD", "c", "3", "4", "5", "6");
        client.Execute("SET", "str", "v");
    }

    [Test]
    public void MoveBetweenSets()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(client.Execute("SMOVE", "a", "b", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SISMEMBER", "a", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SISMEMBER", "b", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SMOVE", "a", "b", "1"), Is.EqualTo(Integer(0)));
        // Already in the destination: still removed from the source.
        Assert.That(client.Execute("SMOVE", "a", "b", "2"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SCARD", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SCARD", "b"), Is.EqualTo(Integer(4)));
        // To a new key; emptying the source deletes it.
        Assert.That(client.Execute("SMOVE", "a", "new", "3"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SMOVE", "a", "new", "4"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("EXISTS", "a"), Is.EqualTo(Integer(0)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "new")), Is.EqualTo(SortedOf("3", "4")));
    }

    [Test]
    public void MoveEdgeCases()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(client.Execute("SMOVE", "none", "b", "2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SMOVE", "none", "str", "2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SMOVE", "a", "str", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SMOVE", "a", "str", "nope"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SISMEMBER", "a", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SMOVE", "str", "a", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SMOVE", "str", "none", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SMOVE", "a", "a", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SMOVE", "a", "a", "9"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SCARD", "a"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SMOVE", "str", "str", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SMOVE", "none", "none", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SMOVE", "a", "b"), Is.EqualTo(WrongArity("smove")));
        Assert.That(client.Execute("GET", "str"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void Intersection()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(Sorted(client.Execute("SINTER", "a", "b")), Is.EqualTo(SortedOf("2", "3")));
        Assert.That(Sorted(client.Execute("SINTER", "a", "b", "c")), Is.EqualTo(SortedOf("3")));
        Assert.That(Sorted(client.Execute("SINTER", "a")), Is.EqualTo(SortedOf("1", "2", "3", "4")));
        Assert.That(Sorted(client.Execute("SINTER", "a", "a")), Is.EqualTo(SortedOf("1", "2", "3", "4")));
        Assert.That(client.Execute("SINTER", "a", "none"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SINTER", "none", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SINTER", "a", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SINTER"), Is.EqualTo(WrongArity("sinter")));
        // The sources are not changed.
        Assert.That(client.Execute("SCARD", "a"), Is.EqualTo(Integer(4)));
    }

    [Test]
    public void IntersectionStore()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(client.Execute("SINTERSTORE", "d", "a", "c"), Is.EqualTo(Integer(2)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "d")), Is.EqualTo(SortedOf("3", "4")));
        // Replaces a destination of any type.
        Assert.That(client.Execute("SINTERSTORE", "str", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "str")), Is.EqualTo(SortedOf("2", "3")));
        // An empty result deletes the destination.
        Assert.That(client.Execute("SINTERSTORE", "d", "a", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)));
        // The destination may be a source.
        Assert.That(client.Execute("SINTERSTORE", "a", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "a")), Is.EqualTo(SortedOf("2", "3")));
        // WRONGTYPE among the sources leaves the destination alone.
        client.Execute("SET", "s2", "x");
        Assert.That(client.Execute("SINTERSTORE", "a", "b", "s2"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SCARD", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SINTERSTORE", "d"), Is.EqualTo(WrongArity("sinterstore")));
    }

    [Test]
    public void IntersectionCardinality()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(client.Execute("SINTERCARD", "2", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SINTERCARD", "3", "a", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SINTERCARD", "1", "a"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SINTERCARD", "1", "a", "LIMIT", "3"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("SINTERCARD", "1", "a", "limit", "0"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SINTERCARD", "2", "a", "b", "LIMIT", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SINTERCARD", "2", "a", "b", "LIMIT", "10"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SINTERCARD", "2", "a", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SINTERCARD", "2", "none", "str"), Is.EqualTo(WrongType));
    }

    [Test]
    public void IntersectionCardinalityErrors()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(client.Execute("SINTERCARD", "0", "a"), Is.EqualTo("-ERR numkeys should be greater than 0\r\n"));
        Assert.That(client.Execute("SINTERCARD", "-1", "a"), Is.EqualTo("-ERR numkeys should be greater than 0\r\n"));
        Assert.That(client.Execute("SINTERCARD", "x", "a"), Is.EqualTo("-ERR numkeys should be greater than 0\r\n"));
        Assert.That(client.Execute("SINTERCARD", "3", "a", "b"), Is.EqualTo("-ERR Number of keys can't be greater than number of args\r\n"));
        Assert.That(client.Execute("SINTERCARD", "1", "a", "LIMIT", "-1"), Is.EqualTo("-ERR LIMIT can't be negative\r\n"));
        Assert.That(client.Execute("SINTERCARD", "1", "a", "LIMIT", "x"), Is.EqualTo("-ERR LIMIT can't be negative\r\n"));
        Assert.That(client.Execute("SINTERCARD", "1", "a", "LIMIT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SINTERCARD", "1", "a", "b"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SINTERCARD", "1", "str", "LIMIT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SINTERCARD", "1"), Is.EqualTo(WrongArity("sintercard")));
    }

    [Test]
    public void Union()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(Sorted(client.Execute("SUNION", "a", "b")), Is.EqualTo(SortedOf("1", "2", "3", "4", "5")));
        Assert.That(Sorted(client.Execute("SUNION", "a", "none", "c")), Is.EqualTo(SortedOf("1", "2", "3", "4", "5", "6")));
        Assert.That(client.Execute("SUNION", "none"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SUNION", "a", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SUNIONSTORE", "d", "b", "c"), Is.EqualTo(Integer(5)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "d")), Is.EqualTo(SortedOf("2", "3", "4", "5", "6")));
        Assert.That(client.Execute("SUNIONSTORE", "str", "a"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SCARD", "str"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SUNIONSTORE", "d", "none", "none2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "s2", "x");
        Assert.That(client.Execute("SUNIONSTORE", "a", "b", "s2"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SCARD", "a"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SUNION"), Is.EqualTo(WrongArity("sunion")));
        Assert.That(client.Execute("SUNIONSTORE", "d"), Is.EqualTo(WrongArity("sunionstore")));
    }

    [Test]
    public void Difference()
    {
        using var client = ConnectRaw();
        Load(client);
        Assert.That(Sorted(client.Execute("SDIFF", "a", "b")), Is.EqualTo(SortedOf("1", "4")));
        Assert.That(Sorted(client.Execute("SDIFF", "a", "b", "c")), Is.EqualTo(SortedOf("1")));
        Assert.That(Sorted(client.Execute("SDIFF", "a", "none")), Is.EqualTo(SortedOf("1", "2", "3", "4")));
        Assert.That(client.Execute("SDIFF", "none", "a"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SDIFF", "a", "a"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SDIFF", "none", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SDIFF", "str", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SDIFFSTORE", "d", "c", "a"), Is.EqualTo(Integer(2)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "d")), Is.EqualTo(SortedOf("5", "6")));
        Assert.That(client.Execute("SDIFFSTORE", "d", "a", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SDIFFSTORE", "str", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "str")), Is.EqualTo(SortedOf("1", "4")));
        Assert.That(client.Execute("SDIFF"), Is.EqualTo(WrongArity("sdiff")));
        Assert.That(client.Execute("SDIFFSTORE", "d"), Is.EqualTo(WrongArity("sdiffstore")));
    }

    [Test]
    public void StoreRemovesTheDestinationsExpiration()
    {
        using var client = ConnectRaw();
        Load(client);
        client.Execute("SADD", "d", "x");
        client.Execute("EXPIRE", "d", "100");
        Assert.That(client.Execute("SUNIONSTORE", "d", "a"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("TTL", "d"), Is.EqualTo(Integer(-1)));
    }

    [Test]
    public void Resp3CombinationsAreSets()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Load(client);
        Assert.That(client.Execute("SINTER", "a", "b", "c"), Is.EqualTo("~1\r\n$1\r\n3\r\n"));
        Assert.That(client.Execute("SINTER", "a", "none"), Is.EqualTo("~0\r\n"));
        Assert.That(client.Execute("SDIFF", "a", "b", "c"), Is.EqualTo("~1\r\n$1\r\n1\r\n"));
        Assert.That(client.Execute("SUNION", "none"), Is.EqualTo("~0\r\n"));
        Assert.That(ParseFlat(client.Execute("SUNION", "a", "b")).Type, Is.EqualTo('~'));
        Assert.That(client.Execute("SINTERCARD", "2", "a", "b"), Is.EqualTo(Integer(2)));
    }

    [Test]
    public void BinaryMembersAcrossSets()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "x", "a\0", "\0b", "c");
        client.Execute("SADD", "y", "a\0", "c\0");
        Assert.That(client.Execute("SINTER", "x", "y"), Is.EqualTo("*1\r\n$2\r\na\0\r\n"));
        Assert.That(Sorted(client.Execute("SDIFF", "x", "y")), Is.EqualTo(SortedOf("\0b", "c")));
        Assert.That(client.Execute("SMOVE", "x", "y", "\0b"), Is.EqualTo(Integer(1)));
        Assert.That(Sorted(client.Execute("SUNION", "y")), Is.EqualTo(SortedOf("a\0", "c\0", "\0b")));
    }

    [Test]
    public void LargerSetsThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        var evens = new RedisValue[10000];
        var threes = new RedisValue[6667];
        for (int i = 0; i < evens.Length; i++)
            evens[i] = i * 2;
        for (int i = 0; i < threes.Length; i++)
            threes[i] = i * 3;
        db.SetAdd("evens", evens);
        db.SetAdd("threes", threes);
        Assert.That(db.SetCombine(SetOperation.Intersect, "evens", "threes").Length, Is.EqualTo(3334));
        Assert.That(db.SetCombineAndStore(SetOperation.Union, "u", "evens", "threes"), Is.EqualTo(10000 + 6667 - 3334));
        Assert.That(db.SetCombineAndStore(SetOperation.Difference, "d", "evens", "threes"), Is.EqualTo(10000 - 3334));
        Assert.That(db.SetContains("d", 6), Is.False);
        Assert.That(db.SetContains("d", 4), Is.True);
        Assert.That(db.SetMove("evens", "threes", 4), Is.True);
        Assert.That(db.SetContains("threes", 4), Is.True);
    }
}
