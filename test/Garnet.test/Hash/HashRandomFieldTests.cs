using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using static Garnet.test.Hash.HashTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Hash;

/// <summary>HRANDFIELD key [count [WITHVALUES]].</summary>
[TestFixture]
public sealed class HashRandomFieldTests : ServerTestBase
{
    private const string OutOfRange = "-ERR value is out of range\r\n";

    private static List<object?> List(string reply) => (List<object?>)Parse(reply)!;

    [Test]
    public void WithoutCount()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HRANDFIELD", "nokey"), Is.EqualTo(Nil));
        client.Execute("HSET", "h", "a", "1", "b", "2", "c", "3");
        var seen = new HashSet<string>();
        for (int i = 0; i < 200; i++)
            seen.Add((string)Parse(client.Execute("HRANDFIELD", "h"))!);
        Assert.That(seen, Is.EquivalentTo(new[] { "a", "b", "c" }));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("HRANDFIELD", "nokey"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void PositiveCountGivesDistinctFields()
    {
        using var client = ConnectRaw();
        Fill(client, "h", 100);
        foreach (int count in new[] { 1, 5, 30, 34, 99 })
        {
            var fields = List(client.Execute("HRANDFIELD", "h", count.ToString()));
            Assert.That(fields, Has.Count.EqualTo(count));
            Assert.That(fields.Distinct().Count(), Is.EqualTo(count), $"count {count}");
            Assert.That(fields.Cast<string>().All(f => f.StartsWith('f') && int.Parse(f.Substring(1)) < 100), Is.True);
        }
        foreach (int count in new[] { 100, 101, 100000 })
        {
            var fields = List(client.Execute("HRANDFIELD", "h", count.ToString()));
            Assert.That(fields.Cast<string>(), Is.EquivalentTo(Enumerable.Range(0, 100).Select(i => "f" + i)), "the whole hash");
        }
    }

    [Test]
    public void PositiveCountWithValues()
    {
        using var client = ConnectRaw();
        Fill(client, "h", 50);
        foreach (int count in new[] { 3, 40, 50, 80 })
        {
            var items = List(client.Execute("HRANDFIELD", "h", count.ToString(), "withvalues"));
            int expected = System.Math.Min(count, 50);
            Assert.That(items, Has.Count.EqualTo(2 * expected));
            var fields = new HashSet<string>();
            for (int i = 0; i < items.Count; i += 2)
            {
                string field = (string)items[i]!;
                Assert.That(items[i + 1], Is.EqualTo("v" + field.Substring(1)));
                Assert.That(fields.Add(field), Is.True, "distinct");
            }
        }
    }

    [Test]
    public void NegativeCountMayRepeat()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1", "b", "2");
        var fields = List(client.Execute("HRANDFIELD", "h", "-100"));
        Assert.That(fields, Has.Count.EqualTo(100));
        Assert.That(fields.Distinct(), Is.EquivalentTo(new[] { "a", "b" }));

        var pairs = List(client.Execute("HRANDFIELD", "h", "-7", "WITHVALUES"));
        Assert.That(pairs, Has.Count.EqualTo(14));
        for (int i = 0; i < pairs.Count; i += 2)
            Assert.That(pairs[i + 1], Is.EqualTo((string)pairs[i]! == "a" ? "1" : "2"));

        Assert.That(List(client.Execute("HRANDFIELD", "h", "-1")), Has.Count.EqualTo(1));
    }

    [Test]
    public void ZeroCountAndMissingKey()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1");
        Assert.That(client.Execute("HRANDFIELD", "h", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HRANDFIELD", "h", "0", "WITHVALUES"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HRANDFIELD", "nokey", "5"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HRANDFIELD", "nokey", "-5", "WITHVALUES"), Is.EqualTo(EmptyArray));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("HRANDFIELD", "nokey", "5"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("HRANDFIELD", "h", "0"), Is.EqualTo(EmptyArray));
    }

    [Test]
    public void Resp3WithValuesIsAnArrayOfPairs()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1");
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("HRANDFIELD", "h", "1", "WITHVALUES"), Is.EqualTo(Array(Bulks("a", "1"))));
        Assert.That(client.Execute("HRANDFIELD", "h", "-2", "WITHVALUES"), Is.EqualTo(Array(Bulks("a", "1"), Bulks("a", "1"))));
        Assert.That(client.Execute("HRANDFIELD", "h", "3"), Is.EqualTo(Bulks("a")));
        Assert.That(client.Execute("HRANDFIELD", "h"), Is.EqualTo(Bulk("a")));
        client.Execute("HELLO", "2");
        Assert.That(client.Execute("HRANDFIELD", "h", "-2", "WITHVALUES"), Is.EqualTo(Bulks("a", "1", "a", "1")));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "a", "1");
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("HRANDFIELD", "h", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("HRANDFIELD", "h", "1.5"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("HRANDFIELD", "h", "x", "FOO"), Is.EqualTo(NotInteger), "the count is parsed first");
        Assert.That(client.Execute("HRANDFIELD", "h", "1", "FOO"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HRANDFIELD", "h", "1", "WITHVALUES", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HRANDFIELD", "s", "1", "FOO"), Is.EqualTo(SyntaxError), "syntax before type");
        Assert.That(client.Execute("HRANDFIELD", "nokey", "1", "FOO"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("HRANDFIELD", "h", "-9223372036854775808"),
            Is.EqualTo(Error("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")));
        Assert.That(client.Execute("HRANDFIELD", "h", "-9223372036854775808", "WITHVALUES"),
            Is.EqualTo(Error("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")));
        Assert.That(client.Execute("HRANDFIELD", "h", "-9223372036854770000", "WITHVALUES"), Is.EqualTo(OutOfRange));
        Assert.That(client.Execute("HRANDFIELD", "h", "9223372036854770000", "WITHVALUES"), Is.EqualTo(OutOfRange));
        Assert.That(client.Execute("HRANDFIELD", "s", "-9223372036854770000", "WITHVALUES"), Is.EqualTo(OutOfRange));
        Assert.That(client.Execute("HRANDFIELD", "h", "9223372036854770000"), Is.EqualTo(Bulks("a")), "a huge positive count is the whole hash");
        Assert.That(client.Execute("HRANDFIELD", "h", "-9223372036854775807"), Is.EqualTo(OutOfRange), "a reply of gigabytes is refused");
        Assert.That(client.Execute("HRANDFIELD", "nokey", "-9223372036854775807"), Is.EqualTo(EmptyArray));
    }

    [Test]
    public void LargeHashDistribution()
    {
        using var client = ConnectRaw();
        Fill(client, "h", 100_000);
        // Delete most fields so the draws meet holes in the entry array.
        var deletes = new List<string[]>();
        for (int start = 0; start < 100_000; start += 1000)
        {
            var command = new List<string> { "HDEL", "h" };
            for (int i = start; i < start + 1000; i++)
            {
                if (i % 3 != 0)
                    command.Add("f" + i);
            }
            deletes.Add(command.ToArray());
        }
        client.Pipeline(deletes.ToArray());
        var fields = List(client.Execute("HRANDFIELD", "h", "20000"));
        Assert.That(fields.Distinct().Count(), Is.EqualTo(20000));
        Assert.That(fields.Cast<string>().All(f => int.Parse(f.Substring(1)) % 3 == 0), Is.True, "only live fields");
        var repeated = List(client.Execute("HRANDFIELD", "h", "-50000"));
        Assert.That(repeated, Has.Count.EqualTo(50000));
        Assert.That(repeated.Cast<string>().All(f => int.Parse(f.Substring(1)) % 3 == 0), Is.True);
    }
}
