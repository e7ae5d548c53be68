using System;
using System.Text;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Bitmap;

/// <summary>BITOP AND, OR, XOR and NOT.</summary>
[TestFixture]
public sealed class BitOpTests : ServerTestBase
{
    [Test]
    public void DocumentedAndExample()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "key1", "foobar");
        client.Execute("SET", "key2", "abcdef");
        Assert.That(client.Execute("BITOP", "AND", "dest", "key1", "key2"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("GET", "dest"), Is.EqualTo(Bulk("`bc`ab")));
    }

    [Test]
    public void DifferentLengthsAreZeroPadded()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "\xff\xff");
        client.Execute("SET", "b", "\x0f");
        Assert.That(client.Execute("BITOP", "AND", "d", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\x0f\x00")));
        Assert.That(client.Execute("BITOP", "and", "d", "b", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\x0f\x00")));
        Assert.That(client.Execute("BITOP", "OR", "d", "b", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xff\xff")));
        Assert.That(client.Execute("BITOP", "XOR", "d", "a", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xf0\xff")));
        Assert.That(client.Execute("BITOP", "NOT", "d", "b"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xf0")));
        Assert.That(client.Execute("BITOP", "AND", "d", "a", "missing"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\0\0")));
        Assert.That(client.Execute("BITOP", "OR", "d", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xff\xff")));
    }

    [Test]
    public void LongValuesMatchAByteByByteComputation()
    {
        using var client = ConnectRaw();
        var random = new Random(7);
        int[] lengths = { 1000, 37, 515 };
        var values = new byte[lengths.Length][];
        for (int i = 0; i < lengths.Length; i++)
        {
            values[i] = new byte[lengths[i]];
            random.NextBytes(values[i]);
            client.Execute("SET", "s" + i, Encoding.Latin1.GetString(values[i]));
        }
        foreach (var op in new[] { "AND", "OR", "XOR" })
        {
            var expected = new byte[1000];
            values[0].CopyTo(expected, 0);
            for (int i = 1; i < values.Length; i++)
            {
                for (int j = 0; j < expected.Length; j++)
                {
                    byte b = j < values[i].Length ? values[i][j] : (byte)0;
                    expected[j] = op switch { "AND" => (byte)(expected[j] & b), "OR" => (byte)(expected[j] | b), _ => (byte)(expected[j] ^ b) };
                }
            }
            Assert.That(client.Execute("BITOP", op, "d", "s0", "s1", "s2"), Is.EqualTo(Integer(1000)), op);
            Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk(Encoding.Latin1.GetString(expected))), op);
        }
        var inverted = new byte[515];
        for (int j = 0; j < inverted.Length; j++)
            inverted[j] = (byte)~values[2][j];
        Assert.That(client.Execute("BITOP", "NOT", "d", "s2"), Is.EqualTo(Integer(515)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk(Encoding.Latin1.GetString(inverted))));
    }

    [Test]
    public void AllSourcesMissingDeletesTheDestination()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "d", "old", "EX", "100");
        Assert.That(client.Execute("BITOP", "OR", "d", "x", "y"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITOP", "NOT", "d", "x"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void DestinationIsReplacedWithoutExpiration()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "d", "a much longer old value", "EX", "100");
        client.Execute("SET", "s", "ab");
        Assert.That(client.Execute("BITOP", "OR", "d", "s", "d"), Is.EqualTo(Integer(23)));
        Assert.That(client.Execute("TTL", "d"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("BITOP", "AND", "d", "s"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("ab")));
    }

    [Test]
    public void Redis82Operations()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "\xf0");
        client.Execute("SET", "b", "\xcc");
        client.Execute("SET", "c", "\xaa");
        Assert.That(client.Execute("BITOP", "DIFF", "d", "a", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\x10")));
        Assert.That(client.Execute("BITOP", "DIFF1", "d", "a", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\x0e")));
        Assert.That(client.Execute("BITOP", "ANDOR", "d", "a", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xe0")));
        Assert.That(client.Execute("BITOP", "ONE", "d", "a", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\x16")));
        Assert.That(client.Execute("BITOP", "one", "d", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xf0")));

        client.Execute("SET", "long", "\xff\xff");
        client.Execute("SET", "short", "\x0f");
        Assert.That(client.Execute("BITOP", "ONE", "d", "long", "short"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xf0\xff")));
        Assert.That(client.Execute("BITOP", "DIFF", "d", "short", "long"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\0\0")));
        Assert.That(client.Execute("BITOP", "DIFF1", "d", "short", "long"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\xf0\xff")));
        Assert.That(client.Execute("BITOP", "ANDOR", "d", "missing", "long"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GET", "d"), Is.EqualTo(Bulk("\0\0")));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITOP", "NOT", "d", "a", "b"), Is.EqualTo("-ERR BITOP NOT must be called with a single source key.\r\n"));
        Assert.That(client.Execute("BITOP", "NAND", "d", "a"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITOP", "DIFF", "d", "a"), Is.EqualTo("-ERR BITOP DIFF must be called with at least two source keys.\r\n"));
        Assert.That(client.Execute("BITOP", "diff1", "d", "a"), Is.EqualTo("-ERR BITOP DIFF1 must be called with at least two source keys.\r\n"));
        Assert.That(client.Execute("BITOP", "AndOr", "d", "a"), Is.EqualTo("-ERR BITOP ANDOR must be called with at least two source keys.\r\n"));
        Assert.That(client.Execute("BITOP", "AND", "d"), Is.EqualTo(WrongArity("bitop")));
    }
}
