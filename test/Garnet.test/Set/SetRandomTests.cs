using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using static Garnet.test.Set.SetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Set;

/// <summary>SPOP and SRANDMEMBER.</summary>
[TestFixture]
public sealed class SetRandomTests : ServerTestBase
{
    private const string MustBePositive = "-ERR value is out of range, must be positive\r\n";

    private static string[] Numbers(int count) => Enumerable.Range(0, count).Select(i => i.ToString()).ToArray();

    [Test]
    public void PopWithoutCountRemovesOneMember()
    {
        using var client = ConnectRaw();
        client.Execute(Command(new[] { "SADD", "s" }, new[] { "a", "b", "c" }));
        var popped = new HashSet<string>();
        for (int i = 0; i < 3; i++)
        {
            string reply = client.Execute("SPOP", "s");
            Assert.That(reply, Does.StartWith("$1\r\n"));
            popped.Add(reply.Substring(4, 1));
            Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(2 - i)));
        }
        Assert.That(popped, Is.EquivalentTo(new[] { "a", "b", "c" }));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SPOP", "s"), Is.EqualTo(Nil));
    }

    [Test]
    public void PopWithCount()
    {
        using var client = ConnectRaw();
        client.Execute(Command(new[] { "SADD", "s" }, Numbers(10)));
        var first = ParseFlat(client.Execute("SPOP", "s", "4")).Items;
        Assert.That(first, Has.Count.EqualTo(4));
        Assert.That(first.Distinct().Count(), Is.EqualTo(4));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(6)));
        foreach (var member in first)
            Assert.That(client.Execute("SISMEMBER", "s", member), Is.EqualTo(Integer(0)));

        var rest = ParseFlat(client.Execute("SPOP", "s", "100")).Items;
        Assert.That(first.Concat(rest), Is.EquivalentTo(Numbers(10)));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void PopCountEdgeCases()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "a", "b");
        Assert.That(client.Execute("SPOP", "s", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SPOP", "s", "-1"), Is.EqualTo(MustBePositive));
        Assert.That(client.Execute("SPOP", "s", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("SPOP", "s", "1", "2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SPOP", "none", "3"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SPOP", "none", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("EXISTS", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SPOP"), Is.EqualTo(WrongArity("spop")));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(2)));
    }

    [Test]
    public void PopWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "str", "v");
        Assert.That(client.Execute("SPOP", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SPOP", "str", "2"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SPOP", "str", "0"), Is.EqualTo(WrongType));
        // The count is checked before the key, as in Redis.
        Assert.That(client.Execute("SPOP", "str", "-1"), Is.EqualTo(MustBePositive));
        Assert.That(client.Execute("GET", "str"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void Resp3PopShapes()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("SADD", "s", "a");
        Assert.That(client.Execute("SPOP", "s", "0"), Is.EqualTo("~0\r\n"));
        Assert.That(client.Execute("SPOP", "s", "5"), Is.EqualTo("~1\r\n$1\r\na\r\n"));
        Assert.That(client.Execute("SPOP", "s"), Is.EqualTo("_\r\n"));
        Assert.That(client.Execute("SPOP", "s", "2"), Is.EqualTo("~0\r\n"));
        client.Execute("SADD", "s", "a", "b", "c");
        Assert.That(ParseFlat(client.Execute("SPOP", "s", "2")).Type, Is.EqualTo('~'));
    }

    [Test]
    public void RandomMemberWithoutCount()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SRANDMEMBER", "s"), Is.EqualTo(Nil));
        client.Execute("SADD", "s", "a", "b", "c");
        var seen = new HashSet<string>();
        for (int i = 0; i < 200; i++)
        {
            string reply = client.Execute("SRANDMEMBER", "s");
            Assert.That(reply, Does.StartWith("$1\r\n"));
            seen.Add(reply.Substring(4, 1));
        }
        Assert.That(seen, Is.EquivalentTo(new[] { "a", "b", "c" }));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(3)));
    }

    [Test]
    public void RandomMembersPositiveCountAreDistinct()
    {
        using var client = ConnectRaw();
        client.Execute(Command(new[] { "SADD", "s" }, Numbers(100)));
        foreach (int count in new[] { 1, 5, 49, 50, 51, 99 })
        {
            var items = ParseFlat(client.Execute("SRANDMEMBER", "s", count.ToString())).Items;
            Assert.That(items, Has.Count.EqualTo(count));
            Assert.That(items.Distinct().Count(), Is.EqualTo(count));
            Assert.That(items, Is.SubsetOf(Numbers(100)));
        }
        Assert.That(Sorted(client.Execute("SRANDMEMBER", "s", "100")), Is.EqualTo(SortedOf(Numbers(100))));
        Assert.That(Sorted(client.Execute("SRANDMEMBER", "s", "1000")), Is.EqualTo(SortedOf(Numbers(100))));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(100)));
    }

    [Test]
    public void RandomMembersNegativeCountMayRepeat()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "a", "b");
        var items = ParseFlat(client.Execute("SRANDMEMBER", "s", "-50")).Items;
        Assert.That(items, Has.Count.EqualTo(50));
        Assert.That(items.Distinct(), Is.EquivalentTo(new[] { "a", "b" }));
        Assert.That(client.Execute("SRANDMEMBER", "s", "-1"), Is.AnyOf("*1\r\n$1\r\na\r\n", "*1\r\n$1\r\nb\r\n"));
    }

    [Test]
    public void RandomMemberEdgeCases()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SRANDMEMBER", "none", "5"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SRANDMEMBER", "none", "-5"), Is.EqualTo(EmptyArray));
        client.Execute("SADD", "s", "a");
        Assert.That(client.Execute("SRANDMEMBER", "s", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SRANDMEMBER", "s", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("SRANDMEMBER", "s", "1", "2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("SRANDMEMBER", "s", "-9223372036854775808"),
            Is.EqualTo("-ERR value is out of range, must be between -9223372036854775807 and 9223372036854775807\r\n"));
        Assert.That(client.Execute("SRANDMEMBER"), Is.EqualTo(WrongArity("srandmember")));
        client.Execute("SET", "str", "v");
        Assert.That(client.Execute("SRANDMEMBER", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SRANDMEMBER", "str", "3"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SRANDMEMBER", "str", "x"), Is.EqualTo(NotInteger));
    }

    [Test]
    public void Resp3RandomMemberShapes()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("SRANDMEMBER", "none"), Is.EqualTo("_\r\n"));
        client.Execute("SADD", "s", "a");
        Assert.That(client.Execute("SRANDMEMBER", "s", "3"), Is.EqualTo("*1\r\n$1\r\na\r\n"));
        Assert.That(client.Execute("SRANDMEMBER", "s", "-2"), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\na\r\n"));
    }

    [Test]
    public void PopAndRandomMemberAreRoughlyUniform()
    {
        using var client = ConnectRaw();
        client.Execute(Command(new[] { "SADD", "s" }, Numbers(10)));
        var items = ParseFlat(client.Execute("SRANDMEMBER", "s", "-10000")).Items;
        foreach (var group in items.GroupBy(x => x))
            Assert.That(group.Count(), Is.InRange(700, 1300), $"member {group.Key}");
        Assert.That(items.Distinct().Count(), Is.EqualTo(10));
    }
}
