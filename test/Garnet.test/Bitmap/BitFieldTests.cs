using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Bitmap;

/// <summary>BITFIELD and BITFIELD_RO, with the outputs of Redis's own test suite.</summary>
[TestFixture]
public sealed class BitFieldTests : ServerTestBase
{
    private const string BadType = "-ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.\r\n";
    private const string BadOffset = "-ERR bit offset is not an integer or out of range\r\n";

    private static string Array(params string[] items) => $"*{items.Length}\r\n" + string.Concat(items);

    [Test]
    public void DocumentedExample()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "INCRBY", "i5", "100", "1", "GET", "u4", "0"), Is.EqualTo(Array(Integer(1), Integer(0))));
    }

    [Test]
    public void SignedAndUnsignedSetAndGet()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "s", "SET", "i8", "0", "-100"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "s", "SET", "i8", "0", "101"), Is.EqualTo(Array(Integer(-100))));
        Assert.That(client.Execute("BITFIELD", "s", "GET", "i8", "0"), Is.EqualTo(Array(Integer(101))));
        Assert.That(client.Execute("BITFIELD", "u", "SET", "u8", "0", "255"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "u", "SET", "u8", "0", "100"), Is.EqualTo(Array(Integer(255))));
        Assert.That(client.Execute("BITFIELD", "u", "GET", "u8", "0"), Is.EqualTo(Array(Integer(100))));
    }

    [Test]
    public void HashOffsetsMultiplyByTheWidth()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "#0", "65", "SET", "u8", "#1", "66", "SET", "u8", "#2", "67"),
            Is.EqualTo(Array(Integer(0), Integer(0), Integer(0))));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("ABC")));
        Assert.That(client.Execute("BITFIELD_RO", "k", "GET", "u8", "#1", "GET", "u4", "#1"), Is.EqualTo(Array(Integer(66), Integer(1))));
    }

    [Test]
    public void IncrByAndUnalignedFields()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "#0", "10"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k", "INCRBY", "u8", "#0", "100"), Is.EqualTo(Array(Integer(110))));
        Assert.That(client.Execute("BITFIELD", "k", "INCRBY", "u8", "#0", "100"), Is.EqualTo(Array(Integer(210))));
        Assert.That(client.Execute("BITFIELD", "x", "SET", "u13", "5", "8191", "GET", "u13", "5", "GET", "u1", "4", "GET", "u1", "18"),
            Is.EqualTo(Array(Integer(0), Integer(8191), Integer(0), Integer(0))));
        Assert.That(client.Execute("GET", "x"), Is.EqualTo(Bulk("\x07\xff\xc0")));
    }

    [Test]
    public void UnsignedOverflowModes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "0", "100"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "WRAP", "INCRBY", "u8", "0", "257"), Is.EqualTo(Array(Integer(101))));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "0"), Is.EqualTo(Array(Integer(101))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "WRAP", "INCRBY", "u8", "0", "255"), Is.EqualTo(Array(Integer(100))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "u8", "0", "257"), Is.EqualTo(Array(Integer(255))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "u8", "0", "-255"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "-1"), Is.EqualTo(Array(Nil)));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "sat", "SET", "u8", "0", "-1"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "0"), Is.EqualTo(Array(Integer(255))));
    }

    [Test]
    public void DocumentedSaturationSequence()
    {
        using var client = ConnectRaw();
        string[] command = { "BITFIELD", "k", "INCRBY", "u2", "100", "1", "OVERFLOW", "SAT", "INCRBY", "u2", "102", "1" };
        Assert.That(client.Execute(command), Is.EqualTo(Array(Integer(1), Integer(1))));
        Assert.That(client.Execute(command), Is.EqualTo(Array(Integer(2), Integer(2))));
        Assert.That(client.Execute(command), Is.EqualTo(Array(Integer(3), Integer(3))));
        Assert.That(client.Execute(command), Is.EqualTo(Array(Integer(0), Integer(3))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u2", "102", "1"), Is.EqualTo(Array(Nil)));
    }

    [Test]
    public void SignedOverflowModes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "SET", "i8", "0", "100"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "WRAP", "INCRBY", "i8", "0", "257"), Is.EqualTo(Array(Integer(101))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "WRAP", "INCRBY", "i8", "0", "255"), Is.EqualTo(Array(Integer(100))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "i8", "0", "257"), Is.EqualTo(Array(Integer(127))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "i8", "0", "-255"), Is.EqualTo(Array(Integer(-128))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "i8", "0", "-1", "GET", "i8", "0"), Is.EqualTo(Array(Nil, Integer(-128))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "FAIL", "SET", "i8", "0", "128", "SET", "i8", "0", "127"), Is.EqualTo(Array(Nil, Integer(-128))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "SET", "i8", "0", "1000"), Is.EqualTo(Array(Integer(127))));
        Assert.That(client.Execute("BITFIELD", "k", "SET", "i8", "0", "200", "GET", "i8", "0"), Is.EqualTo(Array(Integer(127), Integer(-56))));
    }

    [Test]
    public void SixtyFourBitFields()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "SET", "i64", "0", "-1", "GET", "u63", "0", "GET", "i64", "0"),
            Is.EqualTo(Array(Integer(0), Integer(long.MaxValue), Integer(-1))));
        Assert.That(client.Execute("BITFIELD", "k", "SET", "i64", "0", "9223372036854775807", "INCRBY", "i64", "0", "1"),
            Is.EqualTo(Array(Integer(-1), Integer(long.MinValue))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "i64", "0", "-1"), Is.EqualTo(Array(Integer(long.MinValue))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "i64", "0", "-9223372036854775808"), Is.EqualTo(Array(Integer(long.MinValue))));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "i64", "0", "-1"), Is.EqualTo(Array(Nil)));
        Assert.That(client.Execute("BITFIELD", "u", "OVERFLOW", "SAT", "INCRBY", "u63", "1", "9223372036854775807", "INCRBY", "u63", "1", "1"),
            Is.EqualTo(Array(Integer(long.MaxValue), Integer(long.MaxValue))));
        Assert.That(client.Execute("BITFIELD", "u", "OVERFLOW", "WRAP", "INCRBY", "u63", "1", "1"), Is.EqualTo(Array(Integer(0))));
    }

    [Test]
    public void FailStillCreatesTheKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u2", "8", "4"), Is.EqualTo(Array(Nil)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\0\0")));
    }

    [Test]
    public void GetOnlyListsDoNotCreateKeys()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "0", "GET", "i4", "1000"), Is.EqualTo(Array(Integer(0), Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "b", "1");
        Assert.That(client.Execute("BITFIELD", "b", "GET", "u1", "0", "GET", "u8", "0", "GET", "u8", "4"), Is.EqualTo(Array(Integer(0), Integer(49), Integer(16))));
    }

    [Test]
    public void ExpirationIsKept()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "a", "EX", "900");
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "#100", "1"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(101)));
        Assert.That(client.Execute("TTL", "k"), Does.StartWith(":9").Or.StartWith(":8"));
    }

    [Test]
    public void ReadOnlyVariant()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "\xff");
        Assert.That(client.Execute("BITFIELD_RO", "k", "GET", "i8", "0", "OVERFLOW", "SAT", "GET", "u4", "4"), Is.EqualTo(Array(Integer(-1), Integer(15))));
        Assert.That(client.Execute("BITFIELD_RO", "k", "SET", "u8", "0", "1"), Is.EqualTo("-ERR BITFIELD_RO only supports the GET subcommand\r\n"));
        Assert.That(client.Execute("BITFIELD_RO", "k", "INCRBY", "u8", "0", "1"), Is.EqualTo("-ERR BITFIELD_RO only supports the GET subcommand\r\n"));
        Assert.That(client.Execute("BITFIELD_RO", "k", "GET", "u64", "0"), Is.EqualTo(BadType));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\xff")));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u64", "0"), Is.EqualTo(BadType));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "i65", "0"), Is.EqualTo(BadType));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "i0", "0"), Is.EqualTo(BadType));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "x8", "0"), Is.EqualTo(BadType));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "-1"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "x"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "4294967296"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "#536870912"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("BITFIELD", "k", "GET", "u8", "#536870911"), Is.EqualTo(Array(Integer(0))));
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "0", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "0"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITFIELD", "k", "FOO", "u8", "0"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW", "MAYBE"), Is.EqualTo("-ERR Invalid OVERFLOW type specified\r\n"));
        Assert.That(client.Execute("BITFIELD", "k", "OVERFLOW"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITFIELD", "k", "SET", "u8", "0", "1", "GET", "u99", "0"), Is.EqualTo(BadType));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(Integer(0)), "a parse error runs nothing");
    }
}
