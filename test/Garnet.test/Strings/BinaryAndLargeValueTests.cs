using System.Text;
using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>Keys and values are bytes: NULs, every byte value, empty strings, and values of many sizes.</summary>
[TestFixture]
public sealed class BinaryValueTests : ServerTestBase
{
    [Test]
    public void EveryByteValueRoundTrips()
    {
        using var client = ConnectRaw();
        string all = AllBytes(4);
        Assert.That(client.Execute("SET", all, all), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", all), Is.EqualTo(Bulk(all)));
        Assert.That(client.Execute("STRLEN", all), Is.EqualTo(Integer(1024)));
        Assert.That(client.Execute("GETRANGE", all, "255", "257"), Is.EqualTo(Bulk("\u00ff\0\u0001")));
    }

    [Test]
    public void KeysDifferingOnlyAfterANulAreDifferent()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a\0b", "1");
        client.Execute("SET", "a\0c", "2");
        client.Execute("SET", "a", "3");
        client.Execute("SET", "\0", "4");
        client.Execute("SET", "\0\0", "5");
        Assert.That(client.Execute("MGET", "a\0b", "a\0c", "a", "\0", "\0\0", "a\0"),
            Is.EqualTo("*6\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n$-1\r\n"));
    }

    [Test]
    public void ValuesWithCrLfAndNul()
    {
        using var client = ConnectRaw();
        string value = "\r\n$3\r\nfoo\r\n\0*1\r\n";
        client.Execute("SET", "k", value);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(value)));
        Assert.That(client.Execute("APPEND", "k", "\0\r\n"), Is.EqualTo(Integer(value.Length + 3)));
        Assert.That(client.Execute("GETSET", "k", "\0"), Is.EqualTo(Bulk(value + "\0\r\n")));
        Assert.That(client.Execute("GETDEL", "k"), Is.EqualTo(Bulk("\0")));
    }

    [Test]
    public void EmptyKeysAndValues()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "", ""), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", ""), Is.EqualTo(Bulk("")));
        Assert.That(client.Execute("STRLEN", ""), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SET", "k", "", "GET"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SET", "k", "x", "GET"), Is.EqualTo(Bulk("")));
        Assert.That(client.Execute("SETNX", "e", ""), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SETNX", "e", "x"), Is.EqualTo(Integer(0)), "an empty value is a value");
        Assert.That(client.Execute("MSET", "m1", "", "m2", ""), Is.EqualTo(Ok));
        Assert.That(client.Execute("MGET", "m1", "m2"), Is.EqualTo("*2\r\n$0\r\n\r\n$0\r\n\r\n"));
    }

    [Test]
    public void ValuesOfManySizesOverwriteEachOther()
    {
        // Growing and shrinking values exercise in-place writes, copies and record reuse.
        using var client = ConnectRaw();
        int[] sizes = { 0, 1, 7, 8, 9, 15, 16, 17, 100, 1000, 4096, 65536, 100000, 10, 70000, 3, 0, 200000, 5 };
        foreach (int size in sizes)
        {
            string value = Pattern(size, seed: size);
            Assert.That(client.Execute("SET", "k", value), Is.EqualTo(Ok));
            Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(value)), $"size {size}");
            Assert.That(client.Execute("SET", "k", value + "!", "GET"), Is.EqualTo(Bulk(value)), $"size {size} with GET");
        }
    }

    [Test]
    public void HalfMegabyteValues()
    {
        using var client = ConnectRaw();
        string value = Pattern(512 * 1024, seed: 7);
        client.Execute("SET", "k", value);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(value)));
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(512 * 1024)));
        Assert.That(client.Execute("GETRANGE", "k", "-3", "-1"), Is.EqualTo(Bulk(value.Substring(value.Length - 3))));
        Assert.That(client.Execute("MGET", "k", "k"), Is.EqualTo("*2\r\n" + Bulk(value) + Bulk(value)));
    }

    [Test]
    public void BinaryThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        var key = new byte[] { 0, 1, 2, 255, 0 };
        var value = new byte[1000];
        for (int i = 0; i < value.Length; i++)
            value[i] = (byte)(i * 7);
        Assert.That(db.StringSet(key, value), Is.True);
        Assert.That((byte[]?)db.StringGet(key), Is.EqualTo(value));
        Assert.That(db.StringAppend(key, new byte[] { 0 }), Is.EqualTo(1001));
        Assert.That(db.StringLength(key), Is.EqualTo(1001));
        Assert.That((byte[]?)db.StringGetRange(key, 0, 2), Is.EqualTo(new byte[] { 0, 7, 14 }));
        Assert.That(Encoding.UTF8.GetString((byte[]?)db.StringGet("missing") ?? new byte[0]), Is.Empty);
    }
}

/// <summary>
/// Values of several megabytes on a server with large pages: a value over a quarter of a page lives out of line, and
/// its blocks must fit in the log's memory beside the three pages kept for ordinary writes (an APPEND holds the old
/// block and the new one for a moment), so the log has eight 64 MB pages.
/// </summary>
[TestFixture]
public sealed class PageSizedValueTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 26, MemorySize = 1L << 29 };

    [TestCase(3)]
    [TestCase(10)]
    [TestCase(32)]
    public void MultiMegabyteValuesRoundTrip(int megabytes)
    {
        using var client = ConnectRaw();
        string value = Pattern(megabytes << 20, seed: megabytes);
        Assert.That(client.Execute("SET", "k", value), Is.EqualTo(Ok));
        string reply = client.Execute("GET", "k");
        Assert.That(reply.Length, Is.EqualTo(Bulk(value).Length));
        Assert.That(reply == Bulk(value), Is.True, "the value comes back byte for byte");
        Assert.That(client.Execute("APPEND", "k", "tail"), Is.EqualTo(Integer((megabytes << 20) + 4)));
        Assert.That(client.Execute("GETRANGE", "k", "-8", "-1"), Is.EqualTo(Bulk(value.Substring(value.Length - 4) + "tail")));
    }
}
