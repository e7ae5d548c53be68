using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>APPEND, STRLEN, GETRANGE, SUBSTR and SETRANGE.</summary>
[TestFixture]
public sealed class AppendAndRangeTests : ServerTestBase
{
    private const string OffsetOutOfRange = "-ERR offset is out of range\r\n";
    private const string TooLong = "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n";

    [Test]
    public void AppendCreatesAndGrows()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("APPEND", "k", "Hello"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("APPEND", "k", " World"), Is.EqualTo(Integer(11)));
        Assert.That(client.Execute("APPEND", "k", ""), Is.EqualTo(Integer(11)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("Hello World")));
        Assert.That(client.Execute("APPEND", "empty", ""), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GET", "empty"), Is.EqualTo(Bulk("")), "APPEND of nothing still creates the key");
    }

    [Test]
    public void ManyAppendsGrowInPlaceAndByCopy()
    {
        using var client = ConnectRaw();
        var expected = new StringBuilder();
        var commands = new string[3000][];
        for (int i = 0; i < commands.Length; i++)
        {
            // Growing pieces: some appends fit the slack of the record, others need a bigger copy.
            string piece = Pattern(1 + (i % 97) * (i % 5 == 0 ? 40 : 1), seed: i);
            expected.Append(piece);
            commands[i] = new[] { "APPEND", "k", piece };
        }
        var replies = client.Pipeline(commands);
        int length = 0;
        for (int i = 0; i < commands.Length; i++)
        {
            length += commands[i][2].Length;
            Assert.That(replies[i], Is.EqualTo(Integer(length)), $"append {i}");
        }
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(expected.Length)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(expected.ToString())));
    }

    [Test]
    public void AppendInterleavedWithOtherKeys()
    {
        using var client = ConnectRaw();
        var a = new StringBuilder();
        var b = new StringBuilder();
        for (int i = 0; i < 500; i++)
        {
            string piece = Pattern(i % 50 + 1, seed: i);
            client.Execute("APPEND", "a", piece);
            a.Append(piece);
            client.Execute("APPEND", "b", piece + piece);
            b.Append(piece).Append(piece);
            client.Execute("SET", "filler" + i, Pattern(100, seed: i));
        }
        Assert.That(client.Execute("GET", "a"), Is.EqualTo(Bulk(a.ToString())));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo(Bulk(b.ToString())));
    }

    [Test]
    public void ConcurrentAppendsKeepEveryByte()
    {
        const int Clients = 4;
        const int Appends = 400;
        Parallel.For(0, Clients, c =>
        {
            using var client = ConnectRaw();
            var commands = new string[Appends][];
            for (int i = 0; i < Appends; i++)
                commands[i] = new[] { "APPEND", "shared", ((char)('a' + c)).ToString() + new string('.', i % 13) };
            client.Pipeline(commands);
        });
        using var check = ConnectRaw();
        string value = check.Execute("GET", "shared");
        int expectedLength = 0;
        for (int i = 0; i < Appends; i++)
            expectedLength += 1 + i % 13;
        Assert.That(value, Does.StartWith($"${expectedLength * Clients}\r\n"));
        for (char c = 'a'; c < 'a' + Clients; c++)
            Assert.That(value.Split(c).Length - 1, Is.EqualTo(Appends), $"every append of client '{c}' is there");
    }

    [Test]
    public void AppendNearTheLargestRecordStillFits()
    {
        // The test server's pages are 4 MB: a value close to that leaves no room for growth slack,
        // which must not make the append fail.
        using var client = ConnectRaw();
        int length = (4 << 20) - 4096;
        client.Execute("SET", "big", new string('x', length));
        Assert.That(client.Execute("APPEND", "big", "yz"), Is.EqualTo(Integer(length + 2)));
        Assert.That(client.Execute("SETRANGE", "big", (length + 10).ToString(), "!"), Is.EqualTo(Integer(length + 11)));
        string value = client.Execute("GETRANGE", "big", "-12", "-1");
        Assert.That(value, Is.EqualTo(Bulk("xyz\0\0\0\0\0\0\0\0!")));
    }

    [Test]
    public void StrLen()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("STRLEN", "missing"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "k", "hello");
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(5)));
        client.Execute("SET", "k", "");
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "k", "\u00e9\u0000\u00ff");
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(3)), "bytes, not characters");
    }

    [TestCase("0", "3", "This")]
    [TestCase("-3", "-1", "ing")]
    [TestCase("0", "-1", "This is a string")]
    [TestCase("10", "100", "string")]
    [TestCase("-100", "-50", "T")]
    [TestCase("5", "3", "")]
    [TestCase("-1", "-5", "")]
    [TestCase("100", "200", "")]
    [TestCase("-100", "2", "Thi")]
    [TestCase("3", "-100", "")]
    [TestCase("-1", "-1", "g")]
    [TestCase("16", "16", "")]
    [TestCase("15", "16", "g")]
    [TestCase("-16", "-16", "T")]
    [TestCase("-17", "-17", "T")]
    [TestCase("-17", "0", "T")]
    [TestCase("0", "-17", "T")]
    [TestCase("0", "-16", "T")]
    [TestCase("9223372036854775807", "9223372036854775807", "")]
    [TestCase("-9223372036854775808", "-9223372036854775808", "T")]
    [TestCase("0", "9223372036854775807", "This is a string")]
    public void GetRangeIndexes(string start, string end, string expected)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "This is a string");
        Assert.That(client.Execute("GETRANGE", "k", start, end), Is.EqualTo(Bulk(expected)));
        Assert.That(client.Execute("SUBSTR", "k", start, end), Is.EqualTo(Bulk(expected)));
    }

    [Test]
    public void GetRangeOfMissingOrEmpty()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GETRANGE", "missing", "0", "-1"), Is.EqualTo(Bulk("")));
        client.Execute("SET", "empty", "");
        Assert.That(client.Execute("GETRANGE", "empty", "0", "-1"), Is.EqualTo(Bulk("")));
        Assert.That(client.Execute("GETRANGE", "empty", "0", "0"), Is.EqualTo(Bulk("")));
        Assert.That(client.Execute("GETRANGE", "empty", "-1", "-1"), Is.EqualTo(Bulk("")));
    }

    [Test]
    public void GetRangeRefusesNonIntegers()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "abc");
        Assert.That(client.Execute("GETRANGE", "k", "a", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GETRANGE", "k", "0", "1.0"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GETRANGE", "k", "0", "9223372036854775808"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GETRANGE", "missing", "x", "1"), Is.EqualTo(NotInteger), "arguments are checked before the key");
    }

    [Test]
    public void SetRangePadsWithZeros()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETRANGE", "k", "5", "abc"), Is.EqualTo(Integer(8)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\0\0\0\0\0abc")));
        Assert.That(client.Execute("SETRANGE", "k", "0", "xy"), Is.EqualTo(Integer(8)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("xy\0\0\0abc")));
        Assert.That(client.Execute("SETRANGE", "k", "6", "BCDE"), Is.EqualTo(Integer(10)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("xy\0\0\0aBCDE")));
        Assert.That(client.Execute("SETRANGE", "k", "12", "!"), Is.EqualTo(Integer(13)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("xy\0\0\0aBCDE\0\0!")));
    }

    [Test]
    public void SetRangeDocumentedExample()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "key1", "Hello World");
        Assert.That(client.Execute("SETRANGE", "key1", "6", "Redis"), Is.EqualTo(Integer(11)));
        Assert.That(client.Execute("GET", "key1"), Is.EqualTo(Bulk("Hello Redis")));
        Assert.That(client.Execute("SETRANGE", "key2", "6", "Redis"), Is.EqualTo(Integer(11)));
        Assert.That(client.Execute("GET", "key2"), Is.EqualTo(Bulk("\0\0\0\0\0\0Redis")));
    }

    [Test]
    public void SetRangeWithNothingToWrite()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETRANGE", "missing", "0", ""), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo(Nil), "nothing written creates no key");
        Assert.That(client.Execute("SETRANGE", "missing", "536870913", ""), Is.EqualTo(Integer(0)), "no size check when nothing is written");
        client.Execute("SET", "k", "abc");
        Assert.That(client.Execute("SETRANGE", "k", "100", ""), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("SETRANGE", "k", "9223372036854775807", ""), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("abc")));
    }

    [Test]
    public void SetRangeOffsetErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "abc");
        Assert.That(client.Execute("SETRANGE", "k", "-1", "x"), Is.EqualTo(OffsetOutOfRange));
        Assert.That(client.Execute("SETRANGE", "k", "-1", ""), Is.EqualTo(OffsetOutOfRange));
        Assert.That(client.Execute("SETRANGE", "missing", "-1", "x"), Is.EqualTo(OffsetOutOfRange));
        Assert.That(client.Execute("SETRANGE", "k", "abc", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("SETRANGE", "k", "1.5", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("abc")));
    }

    [Test]
    public void SetRangeRefusesStringsOver512Megabytes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETRANGE", "k", "536870912", "x"), Is.EqualTo(TooLong));
        Assert.That(client.Execute("SETRANGE", "k", "536870911", "xy"), Is.EqualTo(TooLong));
        Assert.That(client.Execute("SETRANGE", "k", "9223372036854775807", "x"), Is.EqualTo(TooLong));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
        client.Execute("SET", "k", "abc");
        Assert.That(client.Execute("SETRANGE", "k", "536870912", "x"), Is.EqualTo(TooLong));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("abc")));
    }

    [Test]
    public void SetRangeOverwritesInsideAndGrowsRepeatedly()
    {
        using var client = ConnectRaw();
        var expected = new char[0];
        for (int i = 0; i < 300; i++)
        {
            int offset = (i * 37) % (expected.Length + 20);
            string data = Pattern(1 + i % 17, seed: i);
            int newLength = System.Math.Max(expected.Length, offset + data.Length);
            if (newLength > expected.Length)
                System.Array.Resize(ref expected, newLength);
            data.CopyTo(0, expected, offset, data.Length);
            Assert.That(client.Execute("SETRANGE", "k", offset.ToString(), data), Is.EqualTo(Integer(newLength)));
        }
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(new string(expected))));
    }
}
