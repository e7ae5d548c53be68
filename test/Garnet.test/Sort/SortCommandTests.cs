using NUnit.Framework;

namespace Garnet.test.Sort;

/// <summary>SORT and SORT_RO over lists, sets and sorted sets, with every option.</summary>
public class SortCommandTests : ServerTestBase
{
    private static string Array(params string?[] items)
    {
        var text = "*" + items.Length + "\r\n";
        foreach (var item in items)
            text += item == null ? "$-1\r\n" : "$" + System.Text.Encoding.Latin1.GetByteCount(item) + "\r\n" + item + "\r\n";
        return text;
    }

    [Test]
    public void NumericAscendingAndDescending()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "3", "10", "-1.5", "2", "1e1");
        Assert.That(client.Execute("SORT", "l"), Is.EqualTo(Array("-1.5", "2", "3", "10", "1e1")));
        Assert.That(client.Execute("SORT", "l", "DESC"), Is.EqualTo(Array("1e1", "10", "3", "2", "-1.5")));
        Assert.That(client.Execute("SORT_RO", "l", "desc", "asc"), Is.EqualTo(Array("-1.5", "2", "3", "10", "1e1")));
        // The list itself is unchanged.
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Array("3", "10", "-1.5", "2", "1e1")));
    }

    [Test]
    public void AlphaSortsByBytes()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "banana", "apple", "Cherry", "10", "9", "a\0b");
        Assert.That(client.Execute("SORT", "l", "ALPHA"), Is.EqualTo(Array("10", "9", "Cherry", "a\0b", "apple", "banana")));
        Assert.That(client.Execute("SORT", "l", "ALPHA", "DESC"), Is.EqualTo(Array("banana", "apple", "a\0b", "Cherry", "9", "10")));
    }

    [Test]
    public void NumericErrorForNonNumbers()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "1", "x");
        Assert.That(client.Execute("SORT", "l"), Is.EqualTo("-ERR One or more scores can't be converted into double\r\n"));
        Assert.That(client.Execute("SORT", "l", "STORE", "dst"), Is.EqualTo("-ERR One or more scores can't be converted into double\r\n"));
        Assert.That(client.Execute("EXISTS", "dst"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void Limit()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "5", "4", "3", "2", "1");
        Assert.That(client.Execute("SORT", "l", "LIMIT", "1", "2"), Is.EqualTo(Array("2", "3")));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "0", "-1"), Is.EqualTo(Array("1", "2", "3", "4", "5")));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "-5", "2"), Is.EqualTo(Array("1", "2")));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "3", "100"), Is.EqualTo(Array("4", "5")));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "5", "1"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "2", "0"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("SORT", "l", "DESC", "LIMIT", "0", "2"), Is.EqualTo(Array("5", "4")));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "x", "1"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("SORT", "l", "LIMIT", "1"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void ByPatternWithStringKeys()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b", "c", "d");
        client.Execute("MSET", "w_a", "3", "w_b", "1", "w_c", "2");
        // d has no weight: it sorts as 0.
        Assert.That(client.Execute("SORT", "l", "BY", "w_*"), Is.EqualTo(Array("d", "b", "c", "a")));
        Assert.That(client.Execute("SORT", "l", "BY", "w_*", "DESC"), Is.EqualTo(Array("a", "c", "b", "d")));
        Assert.That(client.Execute("SORT", "l", "BY", "w_*", "LIMIT", "1", "2"), Is.EqualTo(Array("b", "c")));

        client.Execute("MSET", "n_a", "zeta", "n_b", "alpha", "n_c", "mid");
        // With ALPHA a missing BY value sorts first.
        Assert.That(client.Execute("SORT", "l", "BY", "n_*", "ALPHA"), Is.EqualTo(Array("d", "b", "c", "a")));
        Assert.That(client.Execute("SORT", "l", "BY", "n_*"), Is.EqualTo("-ERR One or more scores can't be converted into double\r\n"));

        // A BY key of another type counts as missing.
        client.Execute("DEL", "w_a");
        client.Execute("RPUSH", "w_a", "9");
        Assert.That(client.Execute("SORT", "l", "BY", "w_*"), Is.EqualTo(Array("a", "d", "b", "c")));
    }

    [Test]
    public void ByHashField()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "1", "2", "3");
        client.Execute("HSET", "h_1", "age", "30", "name", "carol");
        client.Execute("HSET", "h_2", "age", "10", "name", "alice");
        client.Execute("HSET", "h_3", "age", "20", "name", "bob");
        Assert.That(client.Execute("SORT", "l", "BY", "h_*->age"), Is.EqualTo(Array("2", "3", "1")));
        Assert.That(client.Execute("SORT", "l", "BY", "h_*->name", "ALPHA", "DESC"), Is.EqualTo(Array("1", "3", "2")));
        Assert.That(client.Execute("SORT", "l", "BY", "h_*->age", "GET", "h_*->name", "GET", "#"),
            Is.EqualTo(Array("alice", "2", "bob", "3", "carol", "1")));
        Assert.That(client.Execute("SORT", "l", "GET", "h_*->missing"), Is.EqualTo(Array(null, null, null)));
    }

    [Test]
    public void ByNosortKeepsNativeOrder()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "c", "a", "b");
        Assert.That(client.Execute("SORT", "l", "BY", "nosort"), Is.EqualTo(Array("c", "a", "b")));
        Assert.That(client.Execute("SORT", "l", "BY", "nosort", "DESC"), Is.EqualTo(Array("b", "a", "c")));
        Assert.That(client.Execute("SORT", "l", "BY", "nosort", "LIMIT", "1", "5"), Is.EqualTo(Array("a", "b")));
        Assert.That(client.Execute("SORT", "l", "BY", "nosort", "DESC", "LIMIT", "0", "2"), Is.EqualTo(Array("b", "a")));

        client.Execute("ZADD", "z", "3", "x", "1", "y", "2", "w");
        Assert.That(client.Execute("SORT", "z", "BY", "nosort"), Is.EqualTo(Array("y", "w", "x")));
        Assert.That(client.Execute("SORT", "z", "BY", "nosort", "DESC", "LIMIT", "0", "1"), Is.EqualTo(Array("x")));
        Assert.That(client.Execute("SORT", "z", "ALPHA"), Is.EqualTo(Array("w", "x", "y")));
    }

    [Test]
    public void GetPatterns()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "2", "1", "3");
        client.Execute("MSET", "obj_1", "one", "obj_2", "two");
        Assert.That(client.Execute("SORT", "l", "GET", "obj_*"), Is.EqualTo(Array("one", "two", null)));
        Assert.That(client.Execute("SORT", "l", "GET", "#", "GET", "obj_*", "DESC", "LIMIT", "0", "2"),
            Is.EqualTo(Array("3", null, "2", "two")));
        // A GET pattern without '*' names no key.
        Assert.That(client.Execute("SORT", "l", "GET", "obj_1"), Is.EqualTo(Array(null, null, null)));
        // "->" at the end is part of the key name.
        client.Execute("SET", "k_1->", "arrow");
        Assert.That(client.Execute("SORT", "l", "GET", "k_*->", "LIMIT", "0", "1"), Is.EqualTo(Array("arrow")));

        client.Execute("HELLO", "3");
        Assert.That(client.Execute("SORT", "l", "GET", "obj_*", "LIMIT", "2", "1"), Is.EqualTo("*1\r\n_\r\n"));
    }

    [Test]
    public void StoreWritesAList()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "3", "1", "2");
        client.Execute("SET", "dst", "old string");
        Assert.That(client.Execute("SORT", "l", "STORE", "dst"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("LLEN", "dst"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo(Array("1", "2", "3")));

        client.Execute("SET", "v_1", "one");
        Assert.That(client.Execute("SORT", "l", "GET", "v_*", "GET", "#", "STORE", "dst"), Is.EqualTo(":6\r\n"));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo(Array("one", "1", "", "2", "", "3")));

        // An empty result deletes the destination.
        Assert.That(client.Execute("SORT", "missing", "STORE", "dst"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXISTS", "dst"), Is.EqualTo(":0\r\n"));
        client.Execute("RPUSH", "dst", "x");
        Assert.That(client.Execute("SORT", "l", "LIMIT", "10", "1", "STORE", "dst"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXISTS", "dst"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void SetsAreSorted()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "5", "1", "3", "20");
        Assert.That(client.Execute("SORT", "s"), Is.EqualTo(Array("1", "3", "5", "20")));
        Assert.That(client.Execute("SORT", "s", "ALPHA", "DESC"), Is.EqualTo(Array("5", "3", "20", "1")));
        // BY nosort with STORE still sorts a set (alphabetically), so the stored order is defined.
        Assert.That(client.Execute("SORT", "s", "BY", "nosort", "STORE", "dst"), Is.EqualTo(":4\r\n"));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo(Array("1", "20", "3", "5")));
        // Without STORE, BY nosort returns every member (in the set's own order).
        Assert.That(client.Execute("SORT", "s", "BY", "nosort"), Does.StartWith("*4\r\n"));
    }

    [Test]
    public void MissingKeyAndWrongType()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SORT", "missing"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("SORT_RO", "missing", "ALPHA"), Is.EqualTo("*0\r\n"));
        client.Execute("SET", "s", "x");
        client.Execute("HSET", "h", "f", "v");
        Assert.That(client.Execute("SORT", "s"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("SORT_RO", "h"), Does.StartWith("-WRONGTYPE"));
        // Syntax is checked before the key.
        Assert.That(client.Execute("SORT", "s", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void SyntaxErrors()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "1");
        Assert.That(client.Execute("SORT_RO", "l", "STORE", "dst"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SORT", "l", "STORE"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SORT", "l", "BY"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SORT", "l", "GET"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SORT", "l", "ALPHA", "LIMIT", "0"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SORT"), Is.EqualTo("-ERR wrong number of arguments for 'sort' command\r\n"));
        Assert.That(client.Execute("SORT_RO"), Is.EqualTo("-ERR wrong number of arguments for 'sort_ro' command\r\n"));
    }

    [Test]
    public void NumericTiesSortByElementBytes()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "1.0", "01", "1", "+1");
        Assert.That(client.Execute("SORT", "l"), Is.EqualTo(Array("+1", "01", "1", "1.0")));
        Assert.That(client.Execute("SORT", "l", "DESC"), Is.EqualTo(Array("1.0", "1", "01", "+1")));
    }

    [Test]
    public void LargeList()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        const int Count = 50_000;
        var values = new StackExchange.Redis.RedisValue[Count];
        for (int i = 0; i < Count; i++)
            values[i] = (Count - i).ToString();
        db.ListRightPush("big", values);
        var sorted = db.Sort("big", 0, 10);
        Assert.That(sorted.Length, Is.EqualTo(10));
        Assert.That((string?)sorted[0], Is.EqualTo("1"));
        Assert.That((string?)sorted[9], Is.EqualTo("10"));
        Assert.That(db.SortAndStore("big-sorted", "big", order: StackExchange.Redis.Order.Descending), Is.EqualTo(Count));
        Assert.That((string?)db.ListGetByIndex("big-sorted", 0), Is.EqualTo(Count.ToString()));
    }
}
