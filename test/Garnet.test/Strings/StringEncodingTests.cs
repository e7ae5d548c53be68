using NUnit.Framework;

namespace Garnet.test.Strings;

/// <summary>
/// OBJECT ENCODING of strings: int for a canonical 64-bit integer, embstr up to 44 bytes, raw beyond, as
/// Redis encodes a value written whole; raw for strings Redis edits in place (APPEND, SETRANGE, SETBIT,
/// BITFIELD) or builds as buffers (BITOP, PFADD); embstr or raw for INCRBYFLOAT's result.
/// </summary>
public class StringEncodingTests : ServerTestBase
{
    [TestCase("12345", "int")]
    [TestCase("0", "int")]
    [TestCase("-1", "int")]
    [TestCase("9223372036854775807", "int")]
    [TestCase("-9223372036854775808", "int")]
    [TestCase("9223372036854775808", "embstr")]
    [TestCase("-0", "embstr")]
    [TestCase("007", "embstr")]
    [TestCase("+7", "embstr")]
    [TestCase(" 7", "embstr")]
    [TestCase("1.5", "embstr")]
    [TestCase("", "embstr")]
    [TestCase("hello", "embstr")]
    [TestCase("123456789012345678901", "embstr")]
    public void SetEncodesByTheText(string value, string encoding)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", value);
        Assert.That(client.EncodingOf("k"), Is.EqualTo(encoding));
    }

    [Test]
    public void EmbstrUpTo44BytesThenRaw()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "at", new string('x', 44));
        client.Execute("SET", "past", new string('x', 45));
        client.Execute("MSET", "m44", new string('y', 44), "m45", new string('y', 45));
        Assert.That(client.EncodingOf("at"), Is.EqualTo("embstr"));
        Assert.That(client.EncodingOf("past"), Is.EqualTo("raw"));
        Assert.That(client.EncodingOf("m44"), Is.EqualTo("embstr"));
        Assert.That(client.EncodingOf("m45"), Is.EqualTo("raw"));
    }

    [Test]
    public void EditingCommandsLeaveARawString()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "appended", "1");
        client.Execute("APPEND", "appended", "2");
        client.Execute("SET", "emptyappend", "abc");
        client.Execute("APPEND", "emptyappend", "");
        client.Execute("SETRANGE", "ranged", "0", "12");
        client.Execute("SET", "rangedexisting", "hello");
        client.Execute("SETRANGE", "rangedexisting", "0", "j");
        client.Execute("SETBIT", "bits", "1", "1");
        client.Execute("SET", "bitsexisting", "abc");
        client.Execute("SETBIT", "bitsexisting", "1", "1");
        client.Execute("BITFIELD", "field", "SET", "u8", "0", "65");
        client.Execute("SET", "a", "x");
        client.Execute("BITOP", "OR", "or", "a", "a");
        client.Execute("PFADD", "hll", "a");
        foreach (var key in new[] { "appended", "emptyappend", "ranged", "rangedexisting", "bits", "bitsexisting", "field", "or", "hll" })
            Assert.That(client.EncodingOf(key), Is.EqualTo("raw"), key);
    }

    [TestCase("SET", "k", "12")]
    [TestCase("SETEX", "k", "100", "12")]
    [TestCase("PSETEX", "k", "100000", "12")]
    [TestCase("MSET", "k", "12")]
    [TestCase("GETSET", "k", "12")]
    [TestCase("SET", "k", "12", "XX", "GET")]
    public void WritingTheValueWholeEncodesItAgain(params string[] command)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "1");
        client.Execute("APPEND", "k", "2");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("raw"));
        client.Execute(command);
        Assert.That(client.EncodingOf("k"), Is.EqualTo("int"));
    }

    [Test]
    public void AppendToAMissingKeyEncodesLikeSet()
    {
        using var client = ConnectRaw();
        client.Execute("APPEND", "k", "123");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("int"));
    }

    [Test]
    public void ReadingWithBitFieldGetOrSetRangeOfNothingChangesNothing()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "12");
        client.Execute("BITFIELD", "k", "GET", "u8", "0");
        client.Execute("SETRANGE", "k", "0", "");
        client.Execute("GETRANGE", "k", "0", "1");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("int"));
    }

    [Test]
    public void IncrementsGiveIntAndFloatIncrementsGiveText()
    {
        using var client = ConnectRaw();
        client.Execute("INCR", "counter");
        client.Execute("SET", "raw", "10");
        client.Execute("APPEND", "raw", "0");
        client.Execute("INCRBY", "raw", "1");
        client.Execute("INCRBYFLOAT", "float", "1");
        client.Execute("INCRBYFLOAT", "fraction", "1.5");
        client.Execute("INCRBYFLOAT", "huge", "1e60");
        Assert.That(client.EncodingOf("counter"), Is.EqualTo("int"));
        Assert.That(client.EncodingOf("raw"), Is.EqualTo("int"));
        Assert.That(client.EncodingOf("float"), Is.EqualTo("embstr"), "INCRBYFLOAT's \"1\" is a plain string");
        Assert.That(client.EncodingOf("fraction"), Is.EqualTo("embstr"));
        Assert.That(client.EncodingOf("huge"), Is.EqualTo("raw"));
        // A failed increment leaves the string as it was.
        client.Execute("SET", "edited", "abc");
        client.Execute("APPEND", "edited", "d");
        Assert.That(client.Execute("INCR", "edited"), Does.StartWith("-ERR"));
        Assert.That(client.EncodingOf("edited"), Is.EqualTo("raw"));
    }

    [Test]
    public void ExpirationsAndCopiesKeepTheEncoding()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "1");
        client.Execute("APPEND", "k", "2");
        client.Execute("EXPIRE", "k", "1000");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("raw"));
        client.Execute("PERSIST", "k");
        client.Execute("GETEX", "k", "PX", "100000");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("raw"));
        client.Execute("COPY", "k", "copy");
        Assert.That(client.EncodingOf("copy"), Is.EqualTo("raw"));
        client.Execute("RENAME", "copy", "renamed");
        Assert.That(client.EncodingOf("renamed"), Is.EqualTo("raw"));
        client.Execute("MOVE", "renamed", "1");
        client.Execute("SELECT", "1");
        Assert.That(client.EncodingOf("renamed"), Is.EqualTo("raw"));
        client.Execute("SELECT", "0");
        // Writing the value whole encodes it again.
        client.Execute("SET", "k", "12", "KEEPTTL");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("int"));
    }

    [Test]
    public void RestoreEncodesTheValueAgain()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "1");
        client.Execute("APPEND", "k", "2");
        string payload = Keyspace.Resp.Bulk(client.Execute("DUMP", "k"))!;
        client.Execute("RESTORE", "restored", "0", payload);
        Assert.That(client.EncodingOf("k"), Is.EqualTo("raw"));
        Assert.That(client.EncodingOf("restored"), Is.EqualTo("int"));
    }

    [Test]
    public void SetOverAnObjectIsAString()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "k", "a");
        client.Execute("SET", "k", "42");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("int"));
    }
}
