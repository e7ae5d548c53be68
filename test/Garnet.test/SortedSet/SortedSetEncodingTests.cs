using System.Linq;
using NUnit.Framework;
using static Garnet.test.EncodingTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>
/// OBJECT ENCODING of sorted sets (and geo keys, which are sorted sets): listpack up to
/// zset-max-listpack-entries members (default 128) of at most zset-max-listpack-value bytes (64), skiplist
/// once an add goes past either; never back, except that stored results are decided by their contents.
/// </summary>
public class SortedSetEncodingTests : ServerTestBase
{
    [Test]
    public void MemberCountBoundary()
    {
        using var client = ConnectRaw();
        client.Run("ZADD", "z", Pairs(Names("m", 128), "1", valueFirst: true));
        Assert.That(client.EncodingOf("z"), Is.EqualTo("listpack"));
        client.Execute("ZADD", "z", "2", "m0");
        Assert.That(client.EncodingOf("z"), Is.EqualTo("listpack"), "a score update adds nothing");
        client.Execute("ZADD", "z", "1", "m128");
        Assert.That(client.EncodingOf("z"), Is.EqualTo("skiplist"));
        client.Run("ZADD", "once", Pairs(Names("m", 129), "1", valueFirst: true));
        Assert.That(client.EncodingOf("once"), Is.EqualTo("skiplist"));
    }

    [Test]
    public void MemberLengthBoundary()
    {
        using var client = ConnectRaw();
        client.Execute("ZADD", "at", "1", new string('m', 64));
        client.Execute("ZADD", "past", "1", new string('m', 65));
        Assert.That(client.EncodingOf("at"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("past"), Is.EqualTo("skiplist"));
        client.Execute("ZINCRBY", "incr", "1", new string('m', 65));
        Assert.That(client.EncodingOf("incr"), Is.EqualTo("skiplist"));
        // XX adds nothing, so a long member it skips converts nothing.
        client.Execute("ZADD", "xx", "1", "a");
        client.Execute("ZADD", "xx", "XX", "1", new string('m', 65));
        Assert.That(client.EncodingOf("xx"), Is.EqualTo("listpack"));
    }

    [Test]
    public void RemovingMembersNeverConvertsBack()
    {
        using var client = ConnectRaw();
        client.Execute("ZADD", "z", "1", "a", "2", "b", "3", new string('m', 65));
        client.Execute("ZREM", "z", new string('m', 65));
        Assert.That(client.EncodingOf("z"), Is.EqualTo("skiplist"));
        client.Execute("ZPOPMIN", "z");
        client.Execute("ZREMRANGEBYSCORE", "z", "5", "10");
        Assert.That(client.EncodingOf("z"), Is.EqualTo("skiplist"));
    }

    [Test]
    public void GeoKeysAreSortedSets()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "g", "13.361389", "38.115556", "Palermo");
        Assert.That(client.EncodingOf("g"), Is.EqualTo("listpack"));
        client.Run("GEOADD", "big", Names("p", 129).SelectMany(name => new[] { "13.361389", "38.115556", name }));
        Assert.That(client.EncodingOf("big"), Is.EqualTo("skiplist"));
        client.Execute("GEOADD", "long", "13.361389", "38.115556", new string('p', 65));
        Assert.That(client.EncodingOf("long"), Is.EqualTo("skiplist"));
        client.Execute("GEOSEARCHSTORE", "near", "big", "FROMLONLAT", "13.361389", "38.115556", "BYRADIUS", "10", "km", "COUNT", "5");
        Assert.That(client.EncodingOf("near"), Is.EqualTo("listpack"));
    }

    [Test]
    public void StoredResultsAreDecidedByTheirContents()
    {
        using var client = ConnectRaw();
        client.Run("ZADD", "big", Pairs(Names("m", 200), "1", valueFirst: true));
        client.Execute("ZADD", "small", "1", "m1", "1", "m2");
        client.Execute("ZINTERSTORE", "inter", "2", "big", "small");
        Assert.That(client.EncodingOf("inter"), Is.EqualTo("listpack"), "two members, though a source is a skiplist");
        client.Execute("ZUNIONSTORE", "union", "2", "big", "small");
        Assert.That(client.EncodingOf("union"), Is.EqualTo("skiplist"));
        client.Execute("ZRANGESTORE", "range", "big", "0", "127");
        Assert.That(client.EncodingOf("range"), Is.EqualTo("listpack"));
        client.Execute("ZRANGESTORE", "range", "big", "0", "128");
        Assert.That(client.EncodingOf("range"), Is.EqualTo("skiplist"));
        client.Execute("ZADD", "long", "1", new string('m', 65));
        client.Execute("ZDIFFSTORE", "diff", "1", "long");
        Assert.That(client.EncodingOf("diff"), Is.EqualTo("skiplist"));
    }

    [Test]
    public void ConfigChangesApplyToLaterAdds()
    {
        using var client = ConnectRaw();
        client.Run("ZADD", "existing", Pairs(Names("m", 10), "1", valueFirst: true));
        client.Execute("CONFIG", "SET", "zset-max-listpack-entries", "4");
        client.Execute("ZADD", "existing", "5", "m0");
        Assert.That(client.EncodingOf("existing"), Is.EqualTo("listpack"), "updating a score checks nothing");
        client.Execute("ZADD", "existing", "5", "new");
        Assert.That(client.EncodingOf("existing"), Is.EqualTo("skiplist"));
        client.Run("ZADD", "four", Pairs(Names("m", 4), "1", valueFirst: true));
        client.Run("ZADD", "five", Pairs(Names("m", 5), "1", valueFirst: true));
        Assert.That(client.EncodingOf("four"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("five"), Is.EqualTo("skiplist"));
        client.Execute("CONFIG", "SET", "zset-max-ziplist-value", "2");
        client.Execute("ZADD", "short", "1", "ab");
        client.Execute("ZADD", "long", "1", "abc");
        Assert.That(client.EncodingOf("short"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("long"), Is.EqualTo("skiplist"));
    }

    [Test]
    public void CopyKeepsAndRestoreDecides()
    {
        using var client = ConnectRaw();
        client.Execute("ZADD", "z", "1", "a", "2", new string('m', 65));
        client.Execute("ZREM", "z", new string('m', 65));
        client.Execute("COPY", "z", "copied");
        Assert.That(client.EncodingOf("copied"), Is.EqualTo("skiplist"));
        string payload = Keyspace.Resp.Bulk(client.Execute("DUMP", "z"))!;
        client.Execute("RESTORE", "restored", "0", payload);
        Assert.That(client.EncodingOf("restored"), Is.EqualTo("listpack"));
    }
}
