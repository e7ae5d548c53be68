using System.Collections.Generic;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>Wrong argument counts for every string command and the unknown-command error, byte for byte.</summary>
[TestFixture]
public sealed class ArityAndUnknownCommandTests : ServerTestBase
{
    // Argument counts (name included) Redis refuses, per command.
    private static IEnumerable<TestCaseData> WrongCounts()
    {
        var cases = new (string Name, int[] Counts)[]
        {
            ("GET", new[] { 1, 3 }),
            ("SET", new[] { 1, 2 }),
            ("SETNX", new[] { 2, 4 }),
            ("SETEX", new[] { 3, 5 }),
            ("PSETEX", new[] { 3, 5 }),
            ("GETSET", new[] { 2, 4 }),
            ("GETDEL", new[] { 1, 3 }),
            ("GETEX", new[] { 1 }),
            ("MGET", new[] { 1 }),
            ("MSET", new[] { 1, 2, 4 }),
            ("MSETNX", new[] { 1, 2, 4 }),
            ("INCR", new[] { 1, 3 }),
            ("DECR", new[] { 1, 3 }),
            ("INCRBY", new[] { 2, 4 }),
            ("DECRBY", new[] { 2, 4 }),
            ("INCRBYFLOAT", new[] { 2, 4 }),
            ("APPEND", new[] { 2, 4 }),
            ("STRLEN", new[] { 1, 3 }),
            ("GETRANGE", new[] { 3, 5 }),
            ("SUBSTR", new[] { 3, 5 }),
            ("SETRANGE", new[] { 3, 5 }),
            ("LCS", new[] { 1, 2 }),
        };
        foreach (var (name, counts) in cases)
        {
            foreach (int count in counts)
                yield return new TestCaseData(name, count).SetName($"{name} with {count - 1} arguments");
        }
    }

    [TestCaseSource(nameof(WrongCounts))]
    public void WrongNumberOfArguments(string name, int count)
    {
        using var client = ConnectRaw();
        var command = new string[count];
        command[0] = name;
        for (int i = 1; i < count; i++)
            command[i] = "a" + i;
        Assert.That(client.Execute(command), Is.EqualTo(WrongArity(name.ToLowerInvariant())));
        command[0] = name.ToLowerInvariant();
        Assert.That(client.Execute(command), Is.EqualTo(WrongArity(name.ToLowerInvariant())), "the name is shown in lower case whatever was sent");
        Assert.That(client.Execute("MGET", "a1", "a2"), Is.EqualTo("*2\r\n$-1\r\n$-1\r\n"), "nothing was written");
    }

    [Test]
    public void UnknownCommandQuotesItsArguments()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("foo", "a", "b"), Is.EqualTo("-ERR unknown command 'foo', with args beginning with: 'a' 'b' \r\n"));
        Assert.That(client.Execute("foo"), Is.EqualTo("-ERR unknown command 'foo', with args beginning with: \r\n"));
        Assert.That(client.Execute("FOO", "", ""), Is.EqualTo("-ERR unknown command 'FOO', with args beginning with: '' '' \r\n"), "the name is shown as sent");
        Assert.That(client.Execute("SETT", "k", "v"), Is.EqualTo("-ERR unknown command 'SETT', with args beginning with: 'k' 'v' \r\n"));
    }

    [Test]
    public void UnknownCommandShowsAtMost128BytesOfArguments()
    {
        using var client = ConnectRaw();
        string a = new('a', 100);
        string b = new('b', 100);
        Assert.That(client.Execute("foo", a, b, "c"), Is.EqualTo($"-ERR unknown command 'foo', with args beginning with: '{a}' '{new string('b', 25)}' \r\n"));
        Assert.That(client.Execute("foo", new string('x', 130), "c"), Is.EqualTo($"-ERR unknown command 'foo', with args beginning with: '{new string('x', 128)}' \r\n"));
        Assert.That(client.Execute("foo", new string('x', 127), "cc", "d"), Is.EqualTo($"-ERR unknown command 'foo', with args beginning with: '{new string('x', 127)}' \r\n"));
        Assert.That(client.Execute("foo", new string('x', 124), "cc", "d"), Is.EqualTo($"-ERR unknown command 'foo', with args beginning with: '{new string('x', 124)}' 'c' \r\n"));
        Assert.That(client.Execute("foo", new string('x', 123), "cc", "d"), Is.EqualTo($"-ERR unknown command 'foo', with args beginning with: '{new string('x', 123)}' 'cc' \r\n"));
        Assert.That(client.Execute(new string('f', 300)), Is.EqualTo($"-ERR unknown command '{new string('f', 128)}', with args beginning with: \r\n"));
    }

    [Test]
    public void UnknownCommandShowsBytesAsTheyAre()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("foo", "\u00e9\u00ff"), Is.EqualTo("-ERR unknown command 'foo', with args beginning with: '\u00e9\u00ff' \r\n"), "no re-encoding");
        Assert.That(client.Execute("foo", "a\r\nb"), Is.EqualTo("-ERR unknown command 'foo', with args beginning with: 'a  b' \r\n"), "newlines become spaces");
        Assert.That(client.Execute("fo\0o", "a\0b", "c"), Is.EqualTo("-ERR unknown command 'fo', with args beginning with: 'a' 'c' \r\n"), "a NUL ends the text");
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection stays usable");
    }

    [Test]
    public void ErrorsDoNotStopAPipeline()
    {
        using var client = ConnectRaw();
        var replies = client.Pipeline(
            new[] { "SET", "k", "1" },
            new[] { "nosuchcommand" },
            new[] { "GET" },
            new[] { "INCR", "k" },
            new[] { "SET", "k", "v", "NX", "XX" },
            new[] { "GET", "k" });
        Assert.That(replies, Is.EqualTo(new[]
        {
            Ok,
            "-ERR unknown command 'nosuchcommand', with args beginning with: \r\n",
            WrongArity("get"),
            Integer(2),
            SyntaxError,
            Bulk("2"),
        }));
    }
}
