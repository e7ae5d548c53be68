using System.Linq;
using System.Text;
using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.Set.SetTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Set;

/// <summary>SADD, SREM, SCARD, SISMEMBER, SMISMEMBER and SMEMBERS.</summary>
[TestFixture]
public sealed class SetMembershipTests : ServerTestBase
{
    [Test]
    public void AddCountsOnlyNewMembers()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SADD", "s", "a", "b", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SADD", "s", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SADD", "s", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(3)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "s")), Is.EqualTo(SortedOf("a", "b", "c")));
    }

    [Test]
    public void RemoveCountsRemovedMembersAndDeletesTheEmptySet()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "a", "b", "c");
        Assert.That(client.Execute("SREM", "s", "a", "x", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SCARD", "s"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("SREM", "s", "b", "c", "d"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SREM", "s", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void MembershipQueries()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "a", "b");
        Assert.That(client.Execute("SISMEMBER", "s", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SISMEMBER", "s", "z"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SMISMEMBER", "s", "a", "z", "b"), Is.EqualTo("*3\r\n:1\r\n:0\r\n:1\r\n"));
        Assert.That(client.Execute("SMISMEMBER", "s", "z"), Is.EqualTo("*1\r\n:0\r\n"));
    }

    [Test]
    public void MissingKeyAnswersAsAnEmptySet()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCARD", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SISMEMBER", "none", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SMISMEMBER", "none", "a", "b"), Is.EqualTo("*2\r\n:0\r\n:0\r\n"));
        Assert.That(client.Execute("SMEMBERS", "none"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("SREM", "none", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "none"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void WrongTypeOnAStringKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "str", "v");
        Assert.That(client.Execute("SADD", "str", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SREM", "str", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SCARD", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SISMEMBER", "str", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SMISMEMBER", "str", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SMEMBERS", "str"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GET", "str"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void ArityErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SADD", "s"), Is.EqualTo(WrongArity("sadd")));
        Assert.That(client.Execute("SREM", "s"), Is.EqualTo(WrongArity("srem")));
        Assert.That(client.Execute("SCARD"), Is.EqualTo(WrongArity("scard")));
        Assert.That(client.Execute("SCARD", "s", "x"), Is.EqualTo(WrongArity("scard")));
        Assert.That(client.Execute("SISMEMBER", "s"), Is.EqualTo(WrongArity("sismember")));
        Assert.That(client.Execute("SISMEMBER", "s", "a", "b"), Is.EqualTo(WrongArity("sismember")));
        Assert.That(client.Execute("SMISMEMBER", "s"), Is.EqualTo(WrongArity("smismember")));
        Assert.That(client.Execute("SMEMBERS", "s", "x"), Is.EqualTo(WrongArity("smembers")));
    }

    [Test]
    public void BinaryMembersAreKeptExactly()
    {
        using var client = ConnectRaw();
        string nul = "a\0b";
        string other = "a\0c";
        string all = AllBytes();
        Assert.That(client.Execute("SADD", "s", nul, other, all, "", nul), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("SISMEMBER", "s", nul), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SISMEMBER", "s", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("SISMEMBER", "s", ""), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("SISMEMBER", "s", all), Is.EqualTo(Integer(1)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "s")), Is.EqualTo(SortedOf(nul, other, all, "")));
        Assert.That(client.Execute("SREM", "s", other), Is.EqualTo(Integer(1)));
        Assert.That(Sorted(client.Execute("SMEMBERS", "s")), Is.EqualTo(SortedOf(nul, all, "")));
    }

    [Test]
    public void Resp3SmembersIsASet()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("SADD", "s", "only");
        Assert.That(client.Execute("SMEMBERS", "s"), Is.EqualTo("~1\r\n$4\r\nonly\r\n"));
        Assert.That(client.Execute("SMEMBERS", "none"), Is.EqualTo("~0\r\n"));
        Assert.That(client.Execute("SMISMEMBER", "s", "only", "x"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
        client.Execute("SADD", "s", "two");
        var (type, items) = ParseFlat(client.Execute("SMEMBERS", "s"));
        Assert.That(type, Is.EqualTo('~'));
        Assert.That(items, Is.EquivalentTo(new[] { "only", "two" }));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.SetAdd("s", new RedisValue[] { "a", "b", "c" }), Is.EqualTo(3));
        Assert.That(db.SetAdd("s", "a"), Is.False);
        Assert.That(db.SetContains("s", "b"), Is.True);
        Assert.That(db.SetLength("s"), Is.EqualTo(3));
        Assert.That(db.SetRemove("s", "b"), Is.True);
        Assert.That(db.SetMembers("s"), Is.EquivalentTo(new RedisValue[] { "a", "c" }));
    }

    [Test]
    public void ManyAddsAndRemovesKeepTheSetConsistent()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        var values = new RedisValue[5000];
        for (int i = 0; i < values.Length; i++)
            values[i] = "m" + i;
        Assert.That(db.SetAdd("s", values), Is.EqualTo(values.Length));
        var even = new RedisValue[values.Length / 2];
        for (int i = 0; i < even.Length; i++)
            even[i] = values[i * 2];
        Assert.That(db.SetRemove("s", even), Is.EqualTo(even.Length));
        Assert.That(db.SetLength("s"), Is.EqualTo(values.Length / 2));
        using var client = ConnectRaw();
        var flags = client.Execute(Command(new[] { "SMISMEMBER", "s" }, values.Select(v => (string)v!)));
        var expected = new StringBuilder($"*{values.Length}\r\n");
        for (int i = 0; i < values.Length; i++)
            expected.Append(i % 2 == 1 ? ":1\r\n" : ":0\r\n");
        Assert.That(flags, Is.EqualTo(expected.ToString()));
        var members = db.SetMembers("s");
        Assert.That(members.Length, Is.EqualTo(values.Length / 2));
        Assert.That(db.SetRemove("s", values), Is.EqualTo(values.Length / 2));
        Assert.That(db.KeyExists("s"), Is.False);
    }
}
