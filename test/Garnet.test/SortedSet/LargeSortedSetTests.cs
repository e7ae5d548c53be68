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
}
