using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>LCS: the documented examples byte for byte, options, missing keys and errors.</summary>
[TestFixture]
public sealed class LcsCommandTests : ServerTestBase
{
    private RawClient _client = null!;

    [SetUp]
    public void SetKeys()
    {
        _client = ConnectRaw();
        Assert.That(_client.Execute("MSET", "key1", "ohmytext", "key2", "mynewtext"), Is.EqualTo(Ok));
    }

    [TearDown]
    public void CloseClient() => _client.Dispose();

    [Test]
    public void DocumentedExampleString() => Assert.That(_client.Execute("LCS", "key1", "key2"), Is.EqualTo(Bulk("mytext")));

    [Test]
    public void DocumentedExampleLength() => Assert.That(_client.Execute("LCS", "key1", "key2", "LEN"), Is.EqualTo(Integer(6)));

    [Test]
    public void DocumentedExampleIndexes()
    {
        // 1) "matches" 2) 1) 1) 1) 4 2) 7  2) 1) 5 2) 8   2) 1) 1) 2 2) 3  2) 1) 0 2) 1   3) "len" 4) 6
        Assert.That(_client.Execute("LCS", "key1", "key2", "IDX"), Is.EqualTo(
            "*4\r\n$7\r\nmatches\r\n*2\r\n"
            + "*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n"
            + "*2\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n"
            + "$3\r\nlen\r\n:6\r\n"));
    }

    [Test]
    public void DocumentedExampleMinMatchLenWithMatchLen()
    {
        Assert.That(_client.Execute("LCS", "key1", "key2", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"), Is.EqualTo(
            "*4\r\n$7\r\nmatches\r\n*1\r\n"
            + "*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n"
            + "$3\r\nlen\r\n:6\r\n"));
        Assert.That(_client.Execute("LCS", "key1", "key2", "idx", "minmatchlen", "4"), Is.EqualTo(
            "*4\r\n$7\r\nmatches\r\n*1\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n$3\r\nlen\r\n:6\r\n"));
    }

    [Test]
    public void WithMatchLenListsEveryMatch()
    {
        _client.Execute("MSET", "a", "abcXdefYghi", "b", "abcZdefWghi");
        Assert.That(_client.Execute("LCS", "a", "b", "IDX", "WITHMATCHLEN"), Is.EqualTo(
            "*4\r\n$7\r\nmatches\r\n*3\r\n"
            + "*3\r\n*2\r\n:8\r\n:10\r\n*2\r\n:8\r\n:10\r\n:3\r\n"
            + "*3\r\n*2\r\n:4\r\n:6\r\n*2\r\n:4\r\n:6\r\n:3\r\n"
            + "*3\r\n*2\r\n:0\r\n:2\r\n*2\r\n:0\r\n:2\r\n:3\r\n"
            + "$3\r\nlen\r\n:9\r\n"));
        Assert.That(_client.Execute("LCS", "a", "b"), Is.EqualTo(Bulk("abcdefghi")));
    }

    [Test]
    public void RepeatedCharacters()
    {
        _client.Execute("MSET", "long", "aaaa", "short", "aa");
        Assert.That(_client.Execute("LCS", "long", "short"), Is.EqualTo(Bulk("aa")));
        Assert.That(_client.Execute("LCS", "long", "short", "IDX", "WITHMATCHLEN"),
            Is.EqualTo("*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n:2\r\n$3\r\nlen\r\n:2\r\n"));
        Assert.That(_client.Execute("LCS", "short", "long", "IDX", "WITHMATCHLEN"),
            Is.EqualTo("*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:0\r\n:1\r\n*2\r\n:2\r\n:3\r\n:2\r\n$3\r\nlen\r\n:2\r\n"));
    }

    [Test]
    public void IdenticalStrings()
    {
        Assert.That(_client.Execute("LCS", "key1", "key1", "IDX", "WITHMATCHLEN"),
            Is.EqualTo("*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:0\r\n:7\r\n*2\r\n:0\r\n:7\r\n:8\r\n$3\r\nlen\r\n:8\r\n"));
        Assert.That(_client.Execute("LCS", "key1", "key1"), Is.EqualTo(Bulk("ohmytext")));
    }

    [Test]
    public void NothingInCommon()
    {
        _client.Execute("MSET", "x", "a", "y", "b");
        Assert.That(_client.Execute("LCS", "x", "y"), Is.EqualTo(Bulk("")));
        Assert.That(_client.Execute("LCS", "x", "y", "LEN"), Is.EqualTo(Integer(0)));
        Assert.That(_client.Execute("LCS", "x", "y", "IDX"), Is.EqualTo("*4\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:0\r\n"));
    }

    [Test]
    public void MissingKeysAreEmptyStrings()
    {
        Assert.That(_client.Execute("LCS", "key1", "missing"), Is.EqualTo(Bulk("")));
        Assert.That(_client.Execute("LCS", "missing", "key1", "LEN"), Is.EqualTo(Integer(0)));
        Assert.That(_client.Execute("LCS", "missing", "other", "IDX"), Is.EqualTo("*4\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:0\r\n"));
    }

    [Test]
    public void BinaryStrings()
    {
        _client.Execute("MSET", "x", "\0\u0001\u00ff\0", "y", "\u00ff\0\0");
        Assert.That(_client.Execute("LCS", "x", "y"), Is.EqualTo(Bulk("\u00ff\0")));
    }

    [Test]
    public void MinMatchLenEdgeValues()
    {
        Assert.That(_client.Execute("LCS", "key1", "key2", "MINMATCHLEN", "-5", "IDX"), Is.EqualTo(_client.Execute("LCS", "key1", "key2", "IDX")),
            "a negative length means no minimum");
        Assert.That(_client.Execute("LCS", "key1", "key2", "IDX", "MINMATCHLEN", "9223372036854775807"),
            Is.EqualTo("*4\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:6\r\n"));
        Assert.That(_client.Execute("LCS", "key1", "key2", "WITHMATCHLEN"), Is.EqualTo(Bulk("mytext")), "WITHMATCHLEN alone changes nothing");
    }

    [Test]
    public void Errors()
    {
        Assert.That(_client.Execute("LCS", "key1", "key2", "LEN", "IDX"), Is.EqualTo(Error("ERR If you want both the length and indexes, please just use IDX.")));
        Assert.That(_client.Execute("LCS", "key1", "key2", "IDX", "IDX", "LEN"), Is.EqualTo(Error("ERR If you want both the length and indexes, please just use IDX.")));
        Assert.That(_client.Execute("LCS", "key1", "key2", "MINMATCHLEN"), Is.EqualTo(SyntaxError));
        Assert.That(_client.Execute("LCS", "key1", "key2", "MINMATCHLEN", "abc"), Is.EqualTo(NotInteger));
        Assert.That(_client.Execute("LCS", "key1", "key2", "MINMATCHLEN", "9223372036854775808"), Is.EqualTo(NotInteger));
        Assert.That(_client.Execute("LCS", "key1", "key2", "FOO"), Is.EqualTo(SyntaxError));
        Assert.That(_client.Execute("LCS", "key1"), Is.EqualTo(WrongArity("lcs")));
    }
}
