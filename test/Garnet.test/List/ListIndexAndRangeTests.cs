using NUnit.Framework;
using static Garnet.test.List.ListTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>LRANGE, LINDEX, LSET and LTRIM.</summary>
[TestFixture]
public sealed class ListIndexAndRangeTests : ServerTestBase
{
    private static RawClient WithList(RawClient client, string key = "l")
    {
        client.Execute("RPUSH", key, "a", "b", "c", "d", "e");
        return client;
    }

    [TestCase("0", "-1", new[] { "a", "b", "c", "d", "e" })]
    [TestCase("0", "0", new[] { "a" })]
    [TestCase("1", "3", new[] { "b", "c", "d" })]
    [TestCase("-2", "-1", new[] { "d", "e" })]
    [TestCase("-100", "1", new[] { "a", "b" })]
    [TestCase("3", "100", new[] { "d", "e" })]
    [TestCase("-100", "100", new[] { "a", "b", "c", "d", "e" })]
    [TestCase("3", "1", new string[0])]
    [TestCase("5", "10", new string[0])]
    [TestCase("0", "-6", new string[0])]
    [TestCase("-1", "-2", new string[0])]
    [TestCase("9223372036854775807", "-9223372036854775808", new string[0])]
    [TestCase("-9223372036854775808", "9223372036854775807", new[] { "a", "b", "c", "d", "e" })]
    public void RangeClampsLikeRedis(string start, string stop, string[] expected)
    {
        using var client = WithList(ConnectRaw());
        Assert.That(client.Execute("LRANGE", "l", start, stop), Is.EqualTo(Bulks(expected)));
    }

    [Test]
    public void RangeErrorsAndMissingKey()
    {
        using var client = WithList(ConnectRaw());
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LRANGE", "none", "0", "-1"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("LRANGE", "s", "0", "-1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LRANGE", "l", "x", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LRANGE", "l", "0", "1.0"), Is.EqualTo(NotInteger));
        // Integers are checked before the key, as in Redis.
        Assert.That(client.Execute("LRANGE", "s", "0", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LRANGE", "none", "x", "0"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LRANGE", "l", "0"), Is.EqualTo(WrongArity("lrange")));
    }

    [Test]
    public void Index()
    {
        using var client = WithList(ConnectRaw());
        Assert.That(client.Execute("LINDEX", "l", "0"), Is.EqualTo(Bulk("a")));
        Assert.That(client.Execute("LINDEX", "l", "4"), Is.EqualTo(Bulk("e")));
        Assert.That(client.Execute("LINDEX", "l", "-1"), Is.EqualTo(Bulk("e")));
        Assert.That(client.Execute("LINDEX", "l", "-5"), Is.EqualTo(Bulk("a")));
        Assert.That(client.Execute("LINDEX", "l", "5"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LINDEX", "l", "-6"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LINDEX", "l", "9223372036854775807"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LINDEX", "l", "-9223372036854775808"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LINDEX", "l", "x"), Is.EqualTo(NotInteger));
    }

    [Test]
    public void IndexMissingKeyAndWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LINDEX", "none", "0"), Is.EqualTo(Nil));
        // Redis looks the key up before parsing the index.
        Assert.That(client.Execute("LINDEX", "none", "x"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LINDEX", "s", "0"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LINDEX", "s", "x"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LINDEX", "l"), Is.EqualTo(WrongArity("lindex")));
    }

    [Test]
    public void Set()
    {
        using var client = WithList(ConnectRaw());
        Assert.That(client.Execute("LSET", "l", "0", "A"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LSET", "l", "-1", "E"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LSET", "l", "2", "a much longer element than before"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LSET", "l", "1", "\0\r\n"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("A", "\0\r\n", "a much longer element than before", "d", "E")));
        Assert.That(client.Execute("LSET", "l", "5", "x"), Is.EqualTo(IndexOutOfRange));
        Assert.That(client.Execute("LSET", "l", "-6", "x"), Is.EqualTo(IndexOutOfRange));
        Assert.That(client.Execute("LSET", "l", "x", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(5)));
    }

    [Test]
    public void SetMissingKeyAndWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LSET", "none", "0", "x"), Is.EqualTo(NoSuchKey));
        Assert.That(client.Execute("LSET", "none", "x", "x"), Is.EqualTo(NoSuchKey));
        Assert.That(client.Execute("EXISTS", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LSET", "s", "0", "x"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LSET", "s", "0"), Is.EqualTo(WrongArity("lset")));
    }

    [TestCase("1", "-1", new[] { "b", "c", "d", "e" })]
    [TestCase("0", "0", new[] { "a" })]
    [TestCase("-2", "-1", new[] { "d", "e" })]
    [TestCase("1", "2", new[] { "b", "c" })]
    [TestCase("-100", "100", new[] { "a", "b", "c", "d", "e" })]
    public void TrimKeepsTheRange(string start, string stop, string[] expected)
    {
        using var client = WithList(ConnectRaw());
        Assert.That(client.Execute("LTRIM", "l", start, stop), Is.EqualTo(Ok));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(expected)));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(expected.Length)));
    }

    [TestCase("3", "1")]
    [TestCase("5", "10")]
    [TestCase("0", "-6")]
    public void TrimToNothingDeletesTheKey(string start, string stop)
    {
        using var client = WithList(ConnectRaw());
        Assert.That(client.Execute("LTRIM", "l", start, stop), Is.EqualTo(Ok));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void TrimErrorsAndMissingKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LTRIM", "none", "0", "1"), Is.EqualTo(Ok));
        Assert.That(client.Execute("EXISTS", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LTRIM", "s", "0", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LTRIM", "s", "x", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LTRIM", "none", "0", "y"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LTRIM", "none", "0"), Is.EqualTo(WrongArity("ltrim")));
    }

    [Test]
    public void TrimAsACappedLog()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 200; i++)
        {
            client.Execute("LPUSH", "log", "e" + i);
            client.Execute("LTRIM", "log", "0", "9");
        }
        Assert.That(client.Execute("LLEN", "log"), Is.EqualTo(Integer(10)));
        Assert.That(client.Execute("LINDEX", "log", "0"), Is.EqualTo(Bulk("e199")));
        Assert.That(client.Execute("LINDEX", "log", "-1"), Is.EqualTo(Bulk("e190")));
    }
}
