using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Bitmap;

/// <summary>SETBIT, GETBIT, BITCOUNT and BITPOS.</summary>
[TestFixture]
public sealed class SetBitAndCountTests : ServerTestBase
{
    private const string BadOffset = "-ERR bit offset is not an integer or out of range\r\n";
    private const string BadBit = "-ERR bit is not an integer or out of range\r\n";

    [Test]
    public void SetBitAndGetBit()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETBIT", "k", "7", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SETBIT", "k", "7", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\x01")));
        Assert.That(client.Execute("GETBIT", "k", "7"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GETBIT", "k", "6"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GETBIT", "k", "100"), Is.EqualTo(Integer(0)), "past the end reads zero");
        Assert.That(client.Execute("GETBIT", "missing", "0"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SETBIT", "k", "0", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\x81")));
        Assert.That(client.Execute("SETBIT", "k", "7", "0"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\x80")));
    }

    [Test]
    public void SetBitZeroCreatesAndGrowsWithZeros()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETBIT", "k", "23", "0"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("\0\0\0")));
        Assert.That(client.Execute("SET", "s", "a"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SETBIT", "s", "17", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("a\0\x40")));
    }

    [Test]
    public void SetBitErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETBIT", "k", "-1", "1"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("SETBIT", "k", "abc", "1"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("SETBIT", "k", "4294967296", "1"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("SETBIT", "k", "0", "2"), Is.EqualTo(BadBit));
        Assert.That(client.Execute("SETBIT", "k", "0", "-1"), Is.EqualTo(BadBit));
        Assert.That(client.Execute("SETBIT", "k", "0", "x"), Is.EqualTo(BadBit));
        Assert.That(client.Execute("GETBIT", "k", "4294967296"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("GETBIT", "k", "-1"), Is.EqualTo(BadOffset));
        Assert.That(client.Execute("GETBIT", "k", "4294967295"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SETBIT", "k"), Is.EqualTo(WrongArity("setbit")));
    }

    [Test]
    public void SetBitAtLargestOffsetIsRefusedByTheLogMemory()
    {
        // 2^32 - 1 is a valid offset, but a 512 MB value does not fit the test server's 256 MB of log memory
        // (values larger than a page live out of line, and their blocks count against it).
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETBIT", "k", "4294967295", "1"), Does.StartWith("-OOM "));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SETBIT", "k", "8388607", "1"), Is.EqualTo(":0\r\n"), "a 1 MB bitmap fits");
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void SetBitGrowsStepByStepAndKeepsExpiration()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "x", "EX", "900"), Is.EqualTo(Ok));
        var commands = new string[2000][];
        for (int i = 0; i < commands.Length; i++)
            commands[i] = new[] { "SETBIT", "k", (8 + i * 37).ToString(), "1" };
        var replies = client.Pipeline(commands);
        for (int i = 0; i < replies.Length; i++)
            Assert.That(replies[i], Is.EqualTo(Integer(0)), $"setbit {i}");
        Assert.That(client.Execute("BITCOUNT", "k"), Is.EqualTo(Integer(2000 + 4)), "'x' has 4 bits set");
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer((8 + 1999 * 37) / 8 + 1)));
        Assert.That(client.Execute("TTL", "k"), Does.StartWith(":9"));
        Assert.That(client.Execute("GETBIT", "k", (8 + 1000 * 37).ToString()), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void SetBitOneMegabyteOffset()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SETBIT", "k", "8000000", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(Integer(1000001)));
        Assert.That(client.Execute("BITCOUNT", "k"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("BITPOS", "k", "1"), Is.EqualTo(Integer(8000000)));
    }

    [Test]
    public void BitCountWholeAndRanges()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "foobar");
        Assert.That(client.Execute("BITCOUNT", "k"), Is.EqualTo(Integer(26)));
        Assert.That(client.Execute("BITCOUNT", "k", "0", "0"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("BITCOUNT", "k", "1", "1"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("BITCOUNT", "k", "1", "1", "BYTE"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("BITCOUNT", "k", "5", "30", "BIT"), Is.EqualTo(Integer(17)));
        Assert.That(client.Execute("BITCOUNT", "k", "5", "30", "bit"), Is.EqualTo(Integer(17)));
        Assert.That(client.Execute("BITCOUNT", "k", "-2", "-1"), Is.EqualTo(Integer(7)));
        Assert.That(client.Execute("BITCOUNT", "k", "-100", "100"), Is.EqualTo(Integer(26)));
        Assert.That(client.Execute("BITCOUNT", "k", "3", "1"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITCOUNT", "k", "-1", "-2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITCOUNT", "k", "0", "-1", "BIT"), Is.EqualTo(Integer(26)));
        Assert.That(client.Execute("BITCOUNT", "k", "-3", "-1", "BIT"), Is.EqualTo(Integer(1)), "'r' ends in 010");
        Assert.That(client.Execute("BITCOUNT", "missing"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITCOUNT", "missing", "0", "10"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void BitCountNegativeStartAfterNegativeEndIsEmpty()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "foobar"), Is.EqualTo("+OK\r\n"));
        // Clamped, -100 and -200 would both become the first byte ('f' has 4 bits set); Redis answers 0 first.
        Assert.That(client.Execute("BITCOUNT", "k", "-100", "-200"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITCOUNT", "k", "-100", "-200", "BIT"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITCOUNT", "k", "-1", "-5"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITCOUNT", "k", "-200", "-100"), Is.EqualTo(Integer(4)), "in order, both clamp to the first byte");
        Assert.That(client.Execute("BITCOUNT", "k", "-200", "0"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("BITCOUNT", "k", "5", "-200"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void BitCountLongValueUsesWholeWords()
    {
        using var client = ConnectRaw();
        string value = new string('\xff', 1000) + "\x01";
        client.Execute("SET", "k", value);
        Assert.That(client.Execute("BITCOUNT", "k"), Is.EqualTo(Integer(8001)));
        Assert.That(client.Execute("BITCOUNT", "k", "3", "999"), Is.EqualTo(Integer(997 * 8)));
        Assert.That(client.Execute("BITCOUNT", "k", "3", "8006", "BIT"), Is.EqualTo(Integer(7997)));
    }

    [Test]
    public void BitCountErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "foobar");
        Assert.That(client.Execute("BITCOUNT", "k", "0"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITCOUNT", "k", "0", "1", "WORD"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITCOUNT", "k", "0", "1", "BIT", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITCOUNT", "k", "a", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("BITCOUNT", "k", "0", "b"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("BITCOUNT"), Is.EqualTo(WrongArity("bitcount")));
    }

    [Test]
    public void BitPosDocumentedExamples()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "\xff\xf0\x00");
        Assert.That(client.Execute("BITPOS", "k", "0"), Is.EqualTo(Integer(12)));
        client.Execute("SET", "k", "\x00\xff\xf0");
        Assert.That(client.Execute("BITPOS", "k", "1", "0"), Is.EqualTo(Integer(8)));
        Assert.That(client.Execute("BITPOS", "k", "1", "2"), Is.EqualTo(Integer(16)));
        Assert.That(client.Execute("BITPOS", "k", "1", "2", "-1", "BYTE"), Is.EqualTo(Integer(16)));
        Assert.That(client.Execute("BITPOS", "k", "1", "7", "15", "BIT"), Is.EqualTo(Integer(8)));
        client.Execute("SET", "k", "\x00\x00\x00");
        Assert.That(client.Execute("BITPOS", "k", "1"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("BITPOS", "k", "1", "7", "-3", "BIT"), Is.EqualTo(Integer(-1)));
    }

    [Test]
    public void BitPosClearBits()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "\xff\xff\xff");
        Assert.That(client.Execute("BITPOS", "k", "0"), Is.EqualTo(Integer(24)), "no end: the string continues with zeros");
        Assert.That(client.Execute("BITPOS", "k", "0", "1"), Is.EqualTo(Integer(24)));
        Assert.That(client.Execute("BITPOS", "k", "0", "0", "-1"), Is.EqualTo(Integer(-1)), "explicit end: no clear bit in range");
        Assert.That(client.Execute("BITPOS", "k", "0", "3", "-1", "BIT"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("BITPOS", "k", "0", "3", "BIT"), Is.EqualTo(NotInteger), "a unit needs an end");
        client.Execute("SET", "k", "\xff\xfe\xff");
        Assert.That(client.Execute("BITPOS", "k", "0", "0", "-1"), Is.EqualTo(Integer(15)));
        Assert.That(client.Execute("BITPOS", "k", "0", "16", "23", "BIT"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("BITPOS", "k", "0", "10", "15", "BIT"), Is.EqualTo(Integer(15)));
        Assert.That(client.Execute("BITPOS", "k", "0", "10", "14", "BIT"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("BITPOS", "k", "1", "2", "1"), Is.EqualTo(Integer(-1)), "empty range");
        Assert.That(client.Execute("BITPOS", "missing", "0"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("BITPOS", "missing", "1"), Is.EqualTo(Integer(-1)));
    }

    [Test]
    public void BitPosInLongValue()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", new string('\0', 500) + "\x10" + new string('\0', 10));
        Assert.That(client.Execute("BITPOS", "k", "1"), Is.EqualTo(Integer(500 * 8 + 3)));
        Assert.That(client.Execute("BITPOS", "k", "1", "-10"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("BITPOS", "k", "1", "4003", "4003", "BIT"), Is.EqualTo(Integer(4003)));
        Assert.That(client.Execute("BITPOS", "k", "0", "500"), Is.EqualTo(Integer(500 * 8)));
    }

    [Test]
    public void BitPosErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "a");
        Assert.That(client.Execute("BITPOS", "k", "2"), Is.EqualTo("-ERR The bit argument must be 1 or 0.\r\n"));
        Assert.That(client.Execute("BITPOS", "k", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("BITPOS", "k", "1", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("BITPOS", "k", "1", "0", "y"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("BITPOS", "k", "1", "0", "1", "WORD"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITPOS", "k", "1", "0", "1", "BIT", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("BITPOS", "k"), Is.EqualTo(WrongArity("bitpos")));
    }
}
