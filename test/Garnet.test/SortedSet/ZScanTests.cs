using System.Collections.Generic;
using System.Text.RegularExpressions;
using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>ZSCAN's guarantee on large sets: a full iteration returns every member present throughout, however the set changes.</summary>
[TestFixture]
public sealed class ZScanTests : ServerTestBase
{
    /// <summary>Runs one ZSCAN call; returns the next cursor and adds the members to <paramref name="seen"/>.</summary>
    private static string ScanOnce(RawClient client, string key, string cursor, int count, HashSet<string> seen)
    {
        var reply = client.Execute("ZSCAN", key, cursor, "COUNT", count.ToString(), "NOSCORES");
        var parts = Regex.Matches(reply, "\\$\\d+\\r\\n([^\\r]*)\\r\\n");
        for (int i = 1; i < parts.Count; i++)
            seen.Add(parts[i].Groups[1].Value);
        return parts[0].Groups[1].Value;
    }

    private static void AddMembers(RawClient client, string key, string prefix, int from, int to)
    {
        var args = new List<string> { "ZADD", key };
        for (int i = from; i < to; i++)
        {
            args.Add((i % 97).ToString());
            args.Add(prefix + i);
        }
        client.Execute(args.ToArray());
    }

    private static void RemoveMembers(RawClient client, string key, string prefix, int from, int to)
    {
        var args = new List<string> { "ZREM", key };
        for (int i = from; i < to; i++)
            args.Add(prefix + i);
        client.Execute(args.ToArray());
    }

    [Test]
    public void ScanReturnsEveryMemberPresentThroughoutWhileTheSetShrinksAndGrows()
    {
        using var client = ConnectRaw();
        // 500 members stay; 7,500 go while the scan runs (shrinking the set well below its peak), then
        // thousands of new members arrive (growing it again). Scores change too.
        AddMembers(client, "z", "stay:", 0, 500);
        AddMembers(client, "z", "go:", 0, 7500);
        var seen = new HashSet<string>();
        string cursor = "0";
        int calls = 0, removed = 0, added = 0;
        do
        {
            cursor = ScanOnce(client, "z", cursor, 37, seen);
            calls++;
            if (removed < 7500)
            {
                RemoveMembers(client, "z", "go:", removed, removed + 500);
                removed += 500;
            }
            else if (added < 6000)
            {
                AddMembers(client, "z", "new:", added, added + 1000);
                added += 1000;
            }
            client.Execute("ZINCRBY", "z", "1000", "stay:" + (calls % 500));
        }
        while (cursor != "0" && calls < 100000);

        Assert.That(cursor, Is.EqualTo("0"));
        Assert.That(removed, Is.EqualTo(7500), "the scan outlived the removals");
        for (int i = 0; i < 500; i++)
        {
            if (!seen.Contains("stay:" + i))
                Assert.Fail($"stay:{i} was present throughout but not returned");
        }
    }

    [Test]
    public void ScanReturnsEveryMemberPresentThroughoutUnderInterleavedChanges()
    {
        using var client = ConnectRaw();
        AddMembers(client, "z", "stay:", 0, 2000);
        AddMembers(client, "z", "go:", 0, 2000);
        var seen = new HashSet<string>();
        string cursor = "0";
        int calls = 0, next = 0;
        do
        {
            cursor = ScanOnce(client, "z", cursor, 10, seen);
            calls++;
            // Each call: drop a few members and add a few, keeping the size about the same.
            if (next < 2000)
                RemoveMembers(client, "z", "go:", next, next + 20);
            AddMembers(client, "z", "new:", next, next + 20);
            next += 20;
        }
        while (cursor != "0" && calls < 100000);

        Assert.That(cursor, Is.EqualTo("0"));
        for (int i = 0; i < 2000; i++)
        {
            if (!seen.Contains("stay:" + i))
                Assert.Fail($"stay:{i} was present throughout but not returned");
        }
    }

    [Test]
    public void SmallSetIsReturnedWholeWhateverTheCursor()
    {
        using var client = ConnectRaw();
        AddMembers(client, "z", "m", 0, 128);
        var seen = new HashSet<string>();
        Assert.That(ScanOnce(client, "z", "0", 5, seen), Is.EqualTo("0"));
        Assert.That(seen.Count, Is.EqualTo(128));
        seen.Clear();
        Assert.That(ScanOnce(client, "z", "12345", 5, seen), Is.EqualTo("0"));
        Assert.That(seen.Count, Is.EqualTo(128));
    }
}
