using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.SortedSet;

/// <summary>The SortedSetObject data structure directly: its public API against a simple model, Clone, Serialize/Deserialize.</summary>
[TestFixture]
public sealed class SortedSetObjectTests
{
    private static byte[] B(string text) => Encoding.Latin1.GetBytes(text);

    /// <summary>The model's order: score, then member bytes.</summary>
    private static int Compare((byte[] Member, double Score) x, (byte[] Member, double Score) y)
    {
        int c = x.Score.CompareTo(y.Score);
        return c != 0 ? c : x.Member.AsSpan().SequenceCompareTo(y.Member);
    }

    private static List<(byte[] Member, double Score)> Pairs(SortedSetObject set)
    {
        var pairs = new List<(byte[] Member, double Score)>();
        set.CopyElementsTo(pairs);
        return pairs;
    }

    private static void AssertSame(List<(byte[] Member, double Score)> expected, SortedSetObject actual)
    {
        var pairs = Pairs(actual);
        Assert.That(actual.Count, Is.EqualTo(expected.Count));
        Assert.That(pairs.Count, Is.EqualTo(expected.Count));
        for (int i = 0; i < expected.Count; i++)
        {
            // One assertion per mismatch only: NUnit assertions are slow in bulk.
            if (!pairs[i].Member.AsSpan().SequenceEqual(expected[i].Member) || !pairs[i].Score.Equals(expected[i].Score))
                Assert.Fail($"element {i}: expected {Encoding.Latin1.GetString(expected[i].Member)}={expected[i].Score}, got {Encoding.Latin1.GetString(pairs[i].Member)}={pairs[i].Score}");
        }
    }

    [Test]
    public void MatchesASortedModelUnderRandomChanges()
    {
        var random = new Random(7);
        var set = new SortedSetObject();
        var model = new Dictionary<string, double>();
        for (int step = 0; step < 20000; step++)
        {
            string member = "m" + random.Next(500);
            int op = random.Next(10);
            if (op < 6)
            {
                double score = random.Next(50) switch { 0 => double.PositiveInfinity, 1 => double.NegativeInfinity, var n => n % 20 };
                bool added = set.AddOrUpdate(B(member), score);
                Assert.That(added, Is.EqualTo(!model.ContainsKey(member)));
                model[member] = score;
            }
            else
            {
                Assert.That(set.Remove(B(member)), Is.EqualTo(model.Remove(member)));
            }
            if (step % 997 == 0)
            {
                var expected = new List<(byte[] Member, double Score)>();
                foreach (var (m, s) in model)
                    expected.Add((B(m), s));
                expected.Sort(Compare);
                AssertSame(expected, set);
            }
        }
        foreach (var (member, score) in model)
        {
            Assert.That(set.TryGetScore(B(member), out double actual), Is.True);
            Assert.That(actual, Is.EqualTo(score));
        }
        Assert.That(set.TryGetScore(B("absent"), out _), Is.False);
    }

    [Test]
    public void ManyMembersWithTiedScoresMatchAModelUnderSmallAndLargeMoves()
    {
        // Thousands of members over few distinct scores: ties ordered by member, scores nudged in place
        // past keys left by removed members, and every member removed at the end (each found by score).
        var random = new Random(19);
        var set = new SortedSetObject();
        var model = new Dictionary<string, double>();
        for (int step = 0; step < 200000; step++)
        {
            string member = "m" + random.Next(6000);
            int op = random.Next(10);
            if (op < 4)
            {
                double score = random.Next(300);
                Assert.That(set.AddOrUpdate(B(member), score), Is.EqualTo(!model.ContainsKey(member)));
                model[member] = score;
            }
            else if (op < 7 && model.TryGetValue(member, out double old))
            {
                double score = old + ((random.NextDouble() - 0.5) * 2);
                set.AddOrUpdate(B(member), score);
                model[member] = score;
            }
            else if (set.Remove(B(member)) != model.Remove(member))
            {
                Assert.Fail($"step {step}: Remove({member}) disagrees with the model");
            }
        }
        var expected = new List<(byte[] Member, double Score)>();
        foreach (var (m, s) in model)
            expected.Add((B(m), s));
        expected.Sort(Compare);
        AssertSame(expected, set);
        foreach (var member in new List<string>(model.Keys))
            Assert.That(set.Remove(B(member)), Is.True);
        Assert.That(set.Count, Is.EqualTo(0));
        Assert.That(set.HeapSize, Is.EqualTo(0));
    }

    [Test]
    public void RangeByScoreIsInclusiveAndAscending()
    {
        var set = new SortedSetObject();
        for (int i = 0; i < 100; i++)
            set.AddOrUpdate(B("m" + i), i / 2);
        var results = new List<(byte[] Member, double Score)>();
        set.RangeByScore(10, 12, results);
        Assert.That(results.Count, Is.EqualTo(6));
        Assert.That(results[0].Score, Is.EqualTo(10));
        Assert.That(results[5].Score, Is.EqualTo(12));
        results.Clear();
        set.RangeByScore(double.NegativeInfinity, double.PositiveInfinity, results);
        Assert.That(results.Count, Is.EqualTo(100));
        results.Clear();
        set.RangeByScore(60, 70, results);
        Assert.That(results, Is.Empty);
        var members = new List<byte[]>();
        set.CopyElementsTo(members);
        Assert.That(members.Count, Is.EqualTo(100));
        Assert.That(members[0], Is.EqualTo(B("m0")));
    }

    [Test]
    public void CloneIsDeepAndSerializationRoundTrips()
    {
        var elements = new List<(byte[] Member, double Score)>
        {
            (B("a"), 1.5), (B("\0bin\r\n\u00ff"), double.NegativeInfinity), (B(""), double.PositiveInfinity),
            (B("b"), -0.0), (B("c"), 1e300), (B("a"), 2.5),
        };
        var set = SortedSetObject.Create(elements);
        Assert.That(set.Count, Is.EqualTo(5));
        Assert.That(set.TryGetScore(B("a"), out double a) && a == 2.5, Is.True, "the last score of a repeated member wins");
        Assert.That(set.HeapSize, Is.GreaterThan(0));
        var expected = Pairs(set);

        var clone = (SortedSetObject)set.Clone();
        AssertSame(expected, clone);
        Assert.That(clone.HeapSize, Is.EqualTo(set.HeapSize));
        clone.AddOrUpdate(B("new"), 0);
        clone.Remove(B("a"));
        AssertSame(expected, set);

        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            set.Serialize(writer);
        stream.Position = 0;
        using var reader = new BinaryReader(stream);
        var copy = SortedSetObject.Deserialize(reader);
        Assert.That(stream.Position, Is.EqualTo(stream.Length));
        AssertSame(expected, copy);
        Assert.That(copy.HeapSize, Is.EqualTo(set.HeapSize));
        Assert.That(copy.AddOrUpdate(B("z"), 0.5), Is.True, "a deserialized set is fully usable");
        Assert.That(copy.Count, Is.EqualTo(6));
    }

    [Test]
    public void LargeCloneAndRoundTrip()
    {
        var set = new SortedSetObject();
        for (int i = 0; i < 50000; i++)
            set.AddOrUpdate(B("member:" + i), i % 1000);
        var clone = (SortedSetObject)set.Clone();
        AssertSame(Pairs(set), clone);
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            clone.Serialize(writer);
        stream.Position = 0;
        var copy = SortedSetObject.Deserialize(new BinaryReader(stream));
        AssertSame(Pairs(set), copy);
        int removed = 0;
        for (int i = 0; i < 50000; i += 2)
            removed += copy.Remove(B("member:" + i)) ? 1 : 0;
        Assert.That(removed, Is.EqualTo(25000));
        Assert.That(copy.Count, Is.EqualTo(25000));
    }

    [Test]
    public void HeapSizeFollowsChanges()
    {
        var set = new SortedSetObject();
        Assert.That(set.HeapSize, Is.EqualTo(0));
        set.AddOrUpdate(B("abc"), 1);
        long one = set.HeapSize;
        Assert.That(one, Is.GreaterThan(3));
        set.AddOrUpdate(B("abc"), 2);
        Assert.That(set.HeapSize, Is.EqualTo(one), "an update does not grow it");
        set.AddOrUpdate(B("abcdef"), 2);
        Assert.That(set.HeapSize, Is.EqualTo(one * 2 + 3));
        set.Remove(B("abc"));
        set.Remove(B("abcdef"));
        Assert.That(set.HeapSize, Is.EqualTo(0));
    }

    [Test]
    public void DeserializeRejectsCorruptData()
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write(2);
            writer.Write(1);
            writer.Write(B("b"));
            writer.Write(1.0);
            writer.Write(1);
            writer.Write(B("a"));
            writer.Write(1.0);
        }
        stream.Position = 0;
        Assert.Throws<InvalidDataException>(() => SortedSetObject.Deserialize(new BinaryReader(stream)));
        Assert.Throws<ArgumentOutOfRangeException>(() => new SortedSetObject().AddOrUpdate(B("x"), double.NaN));
    }
}
