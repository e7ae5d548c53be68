using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using static Garnet.test.Set.SetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Set;

/// <summary>SSCAN: cursors, MATCH, COUNT, errors, and the guarantee that members present throughout are returned.</summary>
[TestFixture]
public sealed class SetScanTests : ServerTestBase
{
    /// <summary>The cursor and members of an SSCAN reply.</summary>
    private static (string Cursor, List<string> Members) ParseScan(string reply)
    {
        Assert.That(reply, Does.StartWith("*2\r\n$"));
        int at = 4;
        int end = reply.IndexOf("\r\n", at, System.StringComparison.Ordinal);
        int length = int.Parse(reply.Substring(at + 1, end - at - 1));
        string cursor = reply.Substring(end + 2, length);
        var (_, members) = ParseFlat(reply.Substring(end + 2 + length + 2));
        return (cursor, members);
    }

    private static List<string> ScanAll(RawClient client, string key, params string[] options)
    {
        var all = new List<string>();
        string cursor = "0";
        int calls = 0;
        do
        {
            var (next, members) = ParseScan(client.Execute(Command(new[] { "SSCAN", key, cursor }, options)));
            all.AddRange(members);
            cursor = next;
            Assert.That(++calls, Is.LessThan(100000), "the scan does not end");
        }
        while (cursor != "0");
        return all;
    }

    private static string[] Members(string prefix, int count) => Enumerable.Range(0, count).Select(i => prefix + i).ToArray();

    [Test]
    public void SmallSetIsReturnedInOneCall()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "a", "b", "c");
        var (cursor, members) = ParseScan(client.Execute("SSCAN", "s", "0"));
        Assert.That(cursor, Is.EqualTo("0"));
        Assert.That(members, Is.EquivalentTo(new[] { "a", "b", "c" }));
        Assert.That(ParseScan(client.Execute("SSCAN", "s", "0", "COUNT", "1")).Members, Has.Count.EqualTo(3));
    }

    [Test]
    public void FullIterationCoversEveryMemberOnce()
    {
        using var client = ConnectRaw();
        var members = Members("m", 5000);
        client.Execute(Command(new[] { "SADD", "s" }, members));
        var all = ScanAll(client, "s");
        Assert.That(all.Distinct().Count(), Is.EqualTo(all.Count), "no table change, so no duplicates");
        Assert.That(all, Is.EquivalentTo(members));
        Assert.That(ScanAll(client, "s", "COUNT", "1000"), Is.EquivalentTo(members));
        Assert.That(ScanAll(client, "s", "COUNT", "3"), Is.EquivalentTo(members));
    }

    [Test]
    public void CountBoundsTheWorkPerCall()
    {
        using var client = ConnectRaw();
        client.Execute(Command(new[] { "SADD", "s" }, Members("m", 1000)));
        var (cursor, members) = ParseScan(client.Execute("SSCAN", "s", "0"));
        Assert.That(cursor, Is.Not.EqualTo("0"));
        Assert.That(members.Count, Is.InRange(1, 100));
        var (_, many) = ParseScan(client.Execute("SSCAN", "s", "0", "COUNT", "100000"));
        Assert.That(many, Has.Count.EqualTo(1000));
    }

    [Test]
    public void MatchFiltersMembers()
    {
        using var client = ConnectRaw();
        var members = Members("key:", 300).Concat(Members("other:", 300)).ToArray();
        client.Execute(Command(new[] { "SADD", "s" }, members));
        Assert.That(ScanAll(client, "s", "MATCH", "key:*"), Is.EquivalentTo(Members("key:", 300)));
        Assert.That(ScanAll(client, "s", "MATCH", "other:1?", "COUNT", "7"), Is.EquivalentTo(Members("other:1", 10)));
        Assert.That(ScanAll(client, "s", "match", "*"), Is.EquivalentTo(members));
        client.Execute("SADD", "small", "hello", "hallo", "world");
        var (_, found) = ParseScan(client.Execute("SSCAN", "small", "0", "MATCH", "h?llo"));
        Assert.That(found, Is.EquivalentTo(new[] { "hello", "hallo" }));
    }

    [Test]
    public void MembersPresentThroughoutAreNeverMissedWhileTheSetChanges()
    {
        using var client = ConnectRaw();
        var stable = Members("stable", 2000);
        client.Execute(Command(new[] { "SADD", "s" }, stable));
        client.Execute(Command(new[] { "SADD", "s" }, Members("temp", 3000)));
        var seen = new HashSet<string>();
        string cursor = "0";
        int round = 0;
        do
        {
            var (next, members) = ParseScan(client.Execute("SSCAN", "s", cursor, "COUNT", "50"));
            seen.UnionWith(members);
            cursor = next;
            // Shrink and grow the table between calls.
            if (round == 3)
                client.Execute(Command(new[] { "SREM", "s" }, Members("temp", 3000)));
            if (round == 10)
                client.Execute(Command(new[] { "SADD", "s" }, Members("grow", 20000)));
            if (round == 20)
                client.Execute(Command(new[] { "SREM", "s" }, Members("grow", 20000)));
            round++;
        }
        while (cursor != "0");
        Assert.That(stable.Where(m => !seen.Contains(m)), Is.Empty);
    }

    [Test]
    public void MissingKeyAndErrors()
    {
        using var client = ConnectRaw();
        const string emptyScan = "*2\r\n$1\r\n0\r\n*0\r\n";
        Assert.That(client.Execute("SSCAN", "none", "0"), Is.EqualTo(emptyScan));
        Assert.That(client.Execute("SSCAN", "none", "17", "COUNT", "5"), Is.EqualTo(emptyScan));
        // Redis looks the key up before it reads the options.
        Assert.That(client.Execute("SSCAN", "none", "0", "BOGUS"), Is.EqualTo(emptyScan));
        Assert.That(client.Execute("SSCAN", "none", "x"), Is.EqualTo("-ERR invalid cursor\r\n"));
        Assert.That(client.Execute("SSCAN", "none", "-1"), Is.EqualTo("-ERR invalid cursor\r\n"));
        client.Execute("SADD", "s", "a");
        Assert.That(client.Execute("SSCAN", "s", "x"), Is.EqualTo("-ERR invalid cursor\r\n"));
        Assert.That(client.Execute("SSCAN", "s", "0", "COUNT", "0"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SSCAN", "s", "0", "COUNT", "-5"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SSCAN", "s", "0", "COUNT", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("SSCAN", "s", "0", "COUNT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SSCAN", "s", "0", "MATCH"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SSCAN", "s", "0", "TYPE", "set"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SSCAN", "s", "18446744073709551615"), Is.EqualTo("*2\r\n$1\r\n0\r\n*1\r\n$1\r\na\r\n"));
        Assert.That(client.Execute("SSCAN", "s"), Is.EqualTo(WrongArity("sscan")));
        client.Execute("SET", "str", "v");
        Assert.That(client.Execute("SSCAN", "str", "0"), Is.EqualTo(WrongType));
    }

    [Test]
    public void Resp3ScanShape()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("SADD", "s", "a");
        Assert.That(client.Execute("SSCAN", "s", "0"), Is.EqualTo("*2\r\n$1\r\n0\r\n*1\r\n$1\r\na\r\n"));
    }

    [Test]
    public void BinaryMembersAndPatterns()
    {
        using var client = ConnectRaw();
        var members = Members("x\0", 200);
        client.Execute(Command(new[] { "SADD", "s" }, members));
        Assert.That(ScanAll(client, "s"), Is.EquivalentTo(members));
        Assert.That(ScanAll(client, "s", "MATCH", "x\01*"), Has.Count.EqualTo(111));
    }
}
