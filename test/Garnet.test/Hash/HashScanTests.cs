using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.Hash.HashTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Hash;

/// <summary>HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES].</summary>
[TestFixture]
public sealed class HashScanTests : ServerTestBase
{
    private static readonly string EmptyScan = Array(Bulk("0"), EmptyArray);

    /// <summary>Runs HSCAN once; returns the next cursor and the flat items.</summary>
    private static (string Cursor, List<object?> Items) ScanOnce(RawClient client, params string[] arguments)
    {
        var reply = (List<object?>)Parse(client.Execute(arguments))!;
        Assert.That(reply, Has.Count.EqualTo(2));
        return ((string)reply[0]!, (List<object?>)reply[1]!);
    }

    /// <summary>A whole scan: every (field, value) returned, in reply order.</summary>
    private static List<(string Field, string? Value)> ScanAll(RawClient client, string key, params string[] options)
    {
        var all = new List<(string, string?)>();
        bool noValues = options.Any(o => o.ToUpperInvariant() == "NOVALUES");
        string cursor = "0";
        int calls = 0;
        do
        {
            var (next, items) = ScanOnce(client, new[] { "HSCAN", key, cursor }.Concat(options).ToArray());
            for (int i = 0; i < items.Count; i += noValues ? 1 : 2)
                all.Add(((string)items[i]!, noValues ? null : (string?)items[i + 1]));
            cursor = next;
            Assert.That(++calls, Is.LessThan(1_000_000));
        }
        while (cursor != "0");
        return all;
    }

    [Test]
    public void SmallHashInOneReply()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1", "b", "2", "c", "3");
        Assert.That(client.Execute("HSCAN", "h", "0"), Is.EqualTo(Array(Bulk("0"), Bulks("a", "1", "b", "2", "c", "3"))));
        Assert.That(client.Execute("HSCAN", "h", "0", "COUNT", "1"), Is.EqualTo(Array(Bulk("0"), Bulks("a", "1", "b", "2", "c", "3"))));
        Assert.That(client.Execute("HSCAN", "h", "0", "NOVALUES"), Is.EqualTo(Array(Bulk("0"), Bulks("a", "b", "c"))));
        Assert.That(client.Execute("HSCAN", "h", "0", "MATCH", "[ab]"), Is.EqualTo(Array(Bulk("0"), Bulks("a", "1", "b", "2"))));
        Assert.That(client.Execute("HSCAN", "h", "0", "match", "z*", "novalues"), Is.EqualTo(Array(Bulk("0"), EmptyArray)));
    }

    [Test]
    public void MissingKeyIgnoresOptions()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HSCAN", "nokey", "0"), Is.EqualTo(EmptyScan));
        Assert.That(client.Execute("HSCAN", "nokey", "123", "COUNT", "x", "BAD"), Is.EqualTo(EmptyScan));
        Assert.That(client.Execute("HSCAN", "nokey", "x"), Is.EqualTo(Error("ERR invalid cursor")));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1");
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("HSCAN", "h", "x"), Is.EqualTo(Error("ERR invalid cursor")));
        Assert.That(client.Execute("HSCAN", "h", "-1"), Is.EqualTo(Error("ERR invalid cursor")));
        Assert.That(client.Execute("HSCAN", "h", "18446744073709551616"), Is.EqualTo(Error("ERR invalid cursor")));
        Assert.That(client.Execute("HSCAN", "s", "x"), Is.EqualTo(Error("ERR invalid cursor")), "the cursor is checked before the type");
        Assert.That(client.Execute("HSCAN", "s", "0", "BAD"), Is.EqualTo(WrongType), "options are checked after the type");
        Assert.That(client.Execute("HSCAN", "h", "0", "COUNT", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("HSCAN", "h", "0", "COUNT", "0"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HSCAN", "h", "0", "COUNT", "-1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HSCAN", "h", "0", "COUNT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HSCAN", "h", "0", "MATCH"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HSCAN", "h", "0", "TYPE", "hash"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HSCAN", "h", "0", "FOO"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HSCAN", "h", "+0"), Is.EqualTo(Array(Bulk("0"), Bulks("a", "1"))));
        Assert.That(client.Execute("HSCAN", "h", "18446744073709551615"), Is.EqualTo(EmptyScan), "a cursor past the end finishes the scan");
    }

    [Test]
    public void LargeHashReturnsEveryFieldExactlyOnce()
    {
        const int Count = 120_000;
        using var client = ConnectRaw();
        Fill(client, "h", Count);
        var all = ScanAll(client, "h", "COUNT", "1000");
        Assert.That(all, Has.Count.EqualTo(Count));
        Assert.That(all.Select(e => e.Field).Distinct().Count(), Is.EqualTo(Count));
        Assert.That(all.All(e => e.Value == "v" + e.Field.Substring(1)), Is.True);

        var keys = ScanAll(client, "h", "NOVALUES", "COUNT", "5000");
        Assert.That(keys, Has.Count.EqualTo(Count));
        Assert.That(keys.All(e => e.Value == null), Is.True);
    }

    [Test]
    public void DefaultCountPagesALargeHash()
    {
        using var client = ConnectRaw();
        Fill(client, "h", 1000);
        var (cursor, items) = ScanOnce(client, "HSCAN", "h", "0");
        Assert.That(cursor, Is.Not.EqualTo("0"));
        Assert.That(items, Has.Count.EqualTo(20), "COUNT defaults to 10 fields");
        Assert.That(ScanAll(client, "h"), Has.Count.EqualTo(1000));
    }

    [Test]
    public void MatchOverALargeHash()
    {
        using var client = ConnectRaw();
        Fill(client, "h", 20_000);
        var matched = ScanAll(client, "h", "MATCH", "f1*7", "COUNT", "333");
        var expected = Enumerable.Range(0, 20_000).Select(i => "f" + i).Where(f => f.StartsWith("f1") && f.EndsWith('7'));
        Assert.That(matched.Select(e => e.Field), Is.EquivalentTo(expected));
    }

    [Test]
    public void ChangesDuringAScanNeverHideStableFields()
    {
        const int Stable = 20_000;
        using var client = ConnectRaw();
        Fill(client, "h", Stable);
        // Fields that come and go during the scan, enough to force compactions and growth of the entry array.
        Fill(client, "h", 40_000, first: 1_000_000);

        var seen = new HashSet<string>();
        string cursor = "0";
        int round = 0;
        int nextNew = 2_000_000;
        do
        {
            var (next, items) = ScanOnce(client, "HSCAN", "h", cursor, "COUNT", "200", "NOVALUES");
            foreach (var item in items)
                seen.Add((string)item!);
            cursor = next;

            // Delete a slice of the transient fields and add new ones (which a scan may or may not return).
            var delete = new List<string> { "HDEL", "h" };
            for (int i = 0; i < 400 && round * 400 + i < 40_000; i++)
                delete.Add("f" + (1_000_000 + round * 400 + i));
            if (delete.Count > 2)
                client.Execute(delete.ToArray());
            client.Execute(HSetCommand("h", nextNew, 50));
            nextNew += 50;
            round++;
        }
        while (cursor != "0");

        for (int i = 0; i < Stable; i++)
            Assert.That(seen.Contains("f" + i), Is.True, $"f{i} was missed");
    }

    [Test]
    public void ScanSurvivesTheHashEmptyingAndRefilling()
    {
        using var client = ConnectRaw();
        Fill(client, "h", 500);
        var (cursor, _) = ScanOnce(client, "HSCAN", "h", "0", "COUNT", "100");
        client.Execute("DEL", "h");
        Assert.That(client.Execute("HSCAN", "h", cursor), Is.EqualTo(EmptyScan));
        Fill(client, "h", 500);
        var rest = new List<object?>();
        while (cursor != "0")
        {
            var (next, items) = ScanOnce(client, "HSCAN", "h", cursor, "COUNT", "100");
            rest.AddRange(items);
            cursor = next;
        }
        Assert.That(rest.Count % 2, Is.EqualTo(0));
    }

    [Test]
    public void Resp3Shape()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1");
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("HSCAN", "h", "0"), Is.EqualTo(Array(Bulk("0"), Bulks("a", "1"))));
        Assert.That(client.Execute("HSCAN", "nokey", "0"), Is.EqualTo(EmptyScan));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        var entries = Enumerable.Range(0, 3000).Select(i => new HashEntry("f" + i, "v" + i)).ToArray();
        db.HashSet("h", entries);
        var scanned = db.HashScan("h", pageSize: 100).ToList();
        Assert.That(scanned.Select(e => (string)e.Name!), Is.EquivalentTo(entries.Select(e => (string)e.Name!)));
        var matched = db.HashScan("h", "f29*", pageSize: 50).Select(e => (string)e.Name!).ToList();
        Assert.That(matched, Is.EquivalentTo(entries.Select(e => (string)e.Name!).Where(n => n.StartsWith("f29"))));
    }
}
