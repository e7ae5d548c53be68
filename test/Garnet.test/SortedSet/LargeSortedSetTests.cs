using System;
using System.Collections.Generic;
using System.Globalization;
using NUnit.Framework;
using static Garnet.test.SortedSet.SortedSetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>A million-member sorted set, and ranks checked against a model under random changes.</summary>
[TestFixture]
public sealed class LargeSortedSetTests : ServerTestBase
{
    [Test]
    public void MillionMembers()
    {
        using var client = ConnectRaw();
        const int total = 1_000_000, batch = 100_000;
        for (int start = 0; start < total; start += batch)
        {
            var args = new string[2 + batch * 2];
            args[0] = "ZADD";
            args[1] = "big";
            for (int i = 0; i < batch; i++)
            {
                // Batches arrive from the top down, so each one lands before the previous ones.
                int score = total - start - batch + i;
                args[2 + i * 2] = score.ToString(CultureInfo.InvariantCulture);
                args[3 + i * 2] = "m" + score;
            }
            Assert.That(client.Execute(args), Is.EqualTo(Integer(batch)));
        }
        Assert.That(client.Execute("ZCARD", "big"), Is.EqualTo(Integer(total)));
        Assert.That(client.Execute("ZRANK", "big", "m0"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZRANK", "big", "m123456"), Is.EqualTo(Integer(123456)));
        Assert.That(client.Execute("ZREVRANK", "big", "m999999"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZRANGE", "big", "0", "2"), Is.EqualTo(Array("m0", "m1", "m2")));
        Assert.That(client.Execute("ZRANGE", "big", "-2", "-1", "WITHSCORES"), Is.EqualTo(Array("m999998", "999998", "m999999", "999999")));
        Assert.That(client.Execute("ZRANGE", "big", "500000", "500001"), Is.EqualTo(Array("m500000", "m500001")));
        Assert.That(client.Execute("ZREVRANGE", "big", "999999", "1000005"), Is.EqualTo(Array("m0")));
        Assert.That(client.Execute("ZCOUNT", "big", "(1000", "2000"), Is.EqualTo(Integer(1000)));
        Assert.That(client.Execute("ZRANGEBYSCORE", "big", "-inf", "+inf", "LIMIT", "999998", "5"), Is.EqualTo(Array("m999998", "m999999")));
        Assert.That(client.Execute("ZREMRANGEBYRANK", "big", "0", "499999"), Is.EqualTo(Integer(500000)));
        Assert.That(client.Execute("ZRANK", "big", "m500000"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZPOPMAX", "big"), Is.EqualTo(Array("m999999", "999999")));
        Assert.That(client.Execute("ZCARD", "big"), Is.EqualTo(Integer(499999)));
    }

    [Test]
    public void RanksMatchAModelUnderRandomChanges()
    {
        using var client = ConnectRaw();
        var random = new Random(11);
        var model = new Dictionary<string, int>();
        for (int round = 0; round < 30; round++)
        {
            var add = new List<string> { "ZADD", "z" };
            for (int i = 0; i < 200; i++)
            {
                string member = "k" + random.Next(2000);
                int score = random.Next(100);
                add.Add(score.ToString(CultureInfo.InvariantCulture));
                add.Add(member);
                model[member] = score;
            }
            client.Execute(add.ToArray());
            var remove = new List<string> { "ZREM", "z" };
            for (int i = 0; i < 60; i++)
            {
                string member = "k" + random.Next(2000);
                remove.Add(member);
                model.Remove(member);
            }
            client.Execute(remove.ToArray());

            var ordered = new List<KeyValuePair<string, int>>(model);
            ordered.Sort((x, y) => x.Value != y.Value ? x.Value.CompareTo(y.Value) : string.CompareOrdinal(x.Key, y.Key));
            Assert.That(client.Execute("ZCARD", "z"), Is.EqualTo(Integer(ordered.Count)));
            for (int probe = 0; probe < 5; probe++)
            {
                int index = random.Next(ordered.Count);
                Assert.That(client.Execute("ZRANK", "z", ordered[index].Key), Is.EqualTo(Integer(index)));
                Assert.That(client.Execute("ZREVRANK", "z", ordered[index].Key), Is.EqualTo(Integer(ordered.Count - 1 - index)));
                Assert.That(client.Execute("ZRANGE", "z", index.ToString(CultureInfo.InvariantCulture), index.ToString(CultureInfo.InvariantCulture)), Is.EqualTo(Array(ordered[index].Key)));
                int score = ordered[index].Value;
                int below = ordered.FindIndex(p => p.Value >= score);
                int upTo = ordered.FindLastIndex(p => p.Value <= score);
                Assert.That(client.Execute("ZCOUNT", "z", score.ToString(CultureInfo.InvariantCulture), score.ToString(CultureInfo.InvariantCulture)), Is.EqualTo(Integer(upTo - below + 1)));
            }
        }
    }

    /// <summary>Orders the model as the server does: by score, then member bytes (ASCII here).</summary>
    private static List<KeyValuePair<string, double>> Ordered(Dictionary<string, double> model)
    {
        var ordered = new List<KeyValuePair<string, double>>(model);
        ordered.Sort((x, y) => x.Value != y.Value ? x.Value.CompareTo(y.Value) : string.CompareOrdinal(x.Key, y.Key));
        return ordered;
    }

    private static string Text(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    [Test]
    public void DeepTreeMatchesAModelUnderUpdatesAndRangeRemovals()
    {
        // 60,000 members make the order tree three levels deep; updates that keep a member between its
        // neighbours take the in-place path, the others move it; range removals empty whole leaves.
        using var client = ConnectRaw();
        var random = new Random(23);
        var model = new Dictionary<string, double>();
        for (int batch = 0; batch < 6; batch++)
        {
            var add = new List<string> { "ZADD", "z" };
            for (int i = batch * 10000; i < (batch + 1) * 10000; i++)
            {
                double score = random.Next(1_000_000);
                add.Add(Text(score));
                add.Add("k" + i);
                model["k" + i] = score;
            }
            client.Execute(add.ToArray());
        }
        var keys = new List<string>(model.Keys);
        for (int round = 0; round < 8; round++)
        {
            var add = new List<string> { "ZADD", "z" };
            for (int i = 0; i < 2000; i++)
            {
                string member = keys[random.Next(keys.Count)];
                double score = i % 2 == 0 && model.TryGetValue(member, out double old) ? old + 0.25 : random.Next(1_000_000);
                add.Add(Text(score));
                add.Add(member);
                model[member] = score;
            }
            client.Execute(add.ToArray());
            var remove = new List<string> { "ZREM", "z" };
            for (int i = 0; i < 1500; i++)
            {
                string member = keys[random.Next(keys.Count)];
                remove.Add(member);
                model.Remove(member);
            }
            client.Execute(remove.ToArray());

            int low = random.Next(1_000_000);
            Assert.That(client.Execute("ZREMRANGEBYSCORE", "z", low.ToString(CultureInfo.InvariantCulture), (low + 5000).ToString(CultureInfo.InvariantCulture)),
                Is.EqualTo(Integer(RemoveWhere(model, p => p.Value >= low && p.Value <= low + 5000))));
            var ordered = Ordered(model);
            int start = random.Next(ordered.Count - 300);
            Assert.That(client.Execute("ZREMRANGEBYRANK", "z", start.ToString(CultureInfo.InvariantCulture), (start + 299).ToString(CultureInfo.InvariantCulture)), Is.EqualTo(Integer(300)));
            for (int i = start; i < start + 300; i++)
                model.Remove(ordered[i].Key);

            ordered = Ordered(model);
            Assert.That(client.Execute("ZCARD", "z"), Is.EqualTo(Integer(ordered.Count)));
            for (int probe = 0; probe < 20; probe++)
            {
                int index = random.Next(ordered.Count);
                string rank = index.ToString(CultureInfo.InvariantCulture);
                Assert.That(client.Execute("ZRANK", "z", ordered[index].Key), Is.EqualTo(Integer(index)));
                Assert.That(client.Execute("ZREVRANK", "z", ordered[index].Key), Is.EqualTo(Integer(ordered.Count - 1 - index)));
                Assert.That(client.Execute("ZRANGE", "z", rank, rank), Is.EqualTo(Array(ordered[index].Key)));
                double from = ordered[index].Value;
                double to = from + random.Next(20000);
                int first = ordered.FindIndex(p => p.Value >= from);
                int last = ordered.FindLastIndex(p => p.Value <= to);
                Assert.That(client.Execute("ZCOUNT", "z", Text(from), Text(to)), Is.EqualTo(Integer(last - first + 1)));
                var expected = new List<string>();
                for (int i = first + 3; i <= last && expected.Count < 5; i++)
                    expected.Add(ordered[i].Key);
                Assert.That(client.Execute("ZRANGEBYSCORE", "z", Text(from), Text(to), "LIMIT", "3", "5"), Is.EqualTo(Array(expected.ToArray())));
                expected.Clear();
                for (int i = last - 3; i >= first && expected.Count < 5; i--)
                    expected.Add(ordered[i].Key);
                Assert.That(client.Execute("ZREVRANGEBYSCORE", "z", Text(to), Text(from), "LIMIT", "3", "5"), Is.EqualTo(Array(expected.ToArray())));
            }
        }
        var all = Ordered(model);
        var members = new string[all.Count];
        for (int i = 0; i < all.Count; i++)
            members[i] = all[i].Key;
        Assert.That(client.Execute("ZRANGE", "z", "0", "-1"), Is.EqualTo(Array(members)));
    }

    private static int RemoveWhere(Dictionary<string, double> model, Predicate<KeyValuePair<string, double>> match)
    {
        var doomed = new List<string>();
        foreach (var pair in model)
        {
            if (match(pair))
                doomed.Add(pair.Key);
        }
        foreach (var key in doomed)
            model.Remove(key);
        return doomed.Count;
    }

    [Test]
    public void LexRangesOnALargeSetOfEqualScores()
    {
        using var client = ConnectRaw();
        var members = new SortedSet<string>(StringComparer.Ordinal);
        var add = new List<string> { "ZADD", "z" };
        for (int i = 0; i < 8000; i++)
        {
            string member = "w" + i.ToString("D5", CultureInfo.InvariantCulture);
            add.Add("0");
            add.Add(member);
            members.Add(member);
        }
        client.Execute(add.ToArray());
        // Move some members away and back, and remove others, leaving keys of old places in the tree.
        var random = new Random(5);
        for (int i = 0; i < 400; i++)
        {
            string member = "w" + random.Next(8000).ToString("D5", CultureInfo.InvariantCulture);
            client.Execute("ZADD", "z", "7", member);
            client.Execute("ZADD", "z", "0", member);
            members.Add(member);
            string gone = "w" + random.Next(8000).ToString("D5", CultureInfo.InvariantCulture);
            client.Execute("ZREM", "z", gone);
            members.Remove(gone);
        }
        for (int probe = 0; probe < 30; probe++)
        {
            string from = "w" + random.Next(8000).ToString("D5", CultureInfo.InvariantCulture);
            string to = "w" + random.Next(8000).ToString("D5", CultureInfo.InvariantCulture);
            if (string.CompareOrdinal(from, to) > 0)
                (from, to) = (to, from);
            var inRange = new List<string>(members.GetViewBetween(from, to));
            inRange.Remove(from);
            Assert.That(client.Execute("ZLEXCOUNT", "z", "(" + from, "[" + to), Is.EqualTo(Integer(inRange.Count)));
            var firstFive = inRange.GetRange(0, Math.Min(5, inRange.Count));
            Assert.That(client.Execute("ZRANGEBYLEX", "z", "(" + from, "[" + to, "LIMIT", "0", "5"), Is.EqualTo(Array(firstFive.ToArray())));
            var lastFive = new List<string>();
            for (int i = inRange.Count - 1; i >= 0 && lastFive.Count < 5; i--)
                lastFive.Add(inRange[i]);
            Assert.That(client.Execute("ZREVRANGEBYLEX", "z", "[" + to, "(" + from, "LIMIT", "0", "5"), Is.EqualTo(Array(lastFive.ToArray())));
        }
        Assert.That(client.Execute("ZREMRANGEBYLEX", "z", "[w02000", "(w06000"), Is.EqualTo(Integer(members.GetViewBetween("w02000", "w05999").Count)));
        members.RemoveWhere(m => string.CompareOrdinal(m, "w02000") >= 0 && string.CompareOrdinal(m, "w06000") < 0);
        Assert.That(client.Execute("ZRANGEBYLEX", "z", "-", "+"), Is.EqualTo(Array(new List<string>(members).ToArray())));
    }
}
