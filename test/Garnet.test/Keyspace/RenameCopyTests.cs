using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Keyspace;

/// <summary>RENAME, RENAMENX and COPY.</summary>
public class RenameCopyTests : ServerTestBase
{
    [Test]
    public void RenameMovesTheValue()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "value");
        Assert.That(client.Execute("RENAME", "a", "b"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$5\r\nvalue\r\n"));
        Assert.That(client.Execute("EXISTS", "a"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void RenameOfAMissingKeyIsAnError()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("RENAME", "missing", "b"), Is.EqualTo(Resp.Error("ERR no such key")));
        Assert.That(client.Execute("RENAME", "missing", "missing"), Is.EqualTo(Resp.Error("ERR no such key")));
        Assert.That(client.Execute("RENAMENX", "missing", "b"), Is.EqualTo(Resp.Error("ERR no such key")));
        client.Execute("SET", "b", "v");
        Assert.That(client.Execute("RENAMENX", "missing", "b"), Is.EqualTo(Resp.Error("ERR no such key")), "source checked first");
    }

    [Test]
    public void RenameToItself()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "v", "EX", "100");
        Assert.That(client.Execute("RENAME", "a", "a"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("RENAMENX", "a", "a"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("TTL", "a"), Is.EqualTo(":100\r\n"));
    }

    [Test]
    public void RenameKeepsTheSourceTtlAndReplacesTheDestination()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "new", "EX", "100");
        client.Execute("SET", "b", "old value", "EX", "5000");
        Assert.That(client.Execute("RENAME", "a", "b"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$3\r\nnew\r\n"));
        Assert.That(client.Execute("TTL", "b"), Is.EqualTo(":100\r\n"));

        client.Execute("SET", "c", "persistent");
        Assert.That(client.Execute("RENAME", "c", "b"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("TTL", "b"), Is.EqualTo(":-1\r\n"), "the destination's TTL goes with its old value");
    }

    [Test]
    public void RenameNxOnlyWhenTheDestinationIsAbsent()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2");
        Assert.That(client.Execute("RENAMENX", "a", "b"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n2\r\n"));
        client.Execute("PEXPIRE", "a", "100000");
        Assert.That(client.Execute("RENAMENX", "a", "c"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "a"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "c"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(client.Execute("TTL", "c"), Is.EqualTo(":100\r\n"));
    }

    [Test]
    public void RenameOverAnExpiredDestination()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2", "PX", "1");
        System.Threading.Thread.Sleep(20);
        Assert.That(client.Execute("RENAMENX", "a", "b"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(client.Execute("TTL", "b"), Is.EqualTo(":-1\r\n"));
    }

    [Test]
    public void RenameBinaryKeysAndLargeValues()
    {
        using var client = ConnectRaw();
        string value = new string('x', 100_000);
        client.Execute("SET", "a\0", value);
        Assert.That(client.Execute("RENAME", "a\0", "b\0"), Is.EqualTo("+OK\r\n"));
        Assert.That(Resp.Bulk(client.Execute("GET", "b\0")), Is.EqualTo(value));
        Assert.That(client.Execute("EXISTS", "a\0", "b"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void CopyDuplicatesTheValueAndTtl()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "value", "EX", "100");
        Assert.That(client.Execute("COPY", "a", "b"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$5\r\nvalue\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$5\r\nvalue\r\n"));
        Assert.That(client.Execute("TTL", "b"), Is.EqualTo(":100\r\n"));
        Assert.That(client.Execute("COPY", "missing", "c"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXISTS", "c"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void CopyReplacesOnlyWhenAsked()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2", "EX", "100");
        Assert.That(client.Execute("COPY", "a", "b"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n2\r\n"));
        Assert.That(client.Execute("COPY", "a", "b", "replace"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(client.Execute("TTL", "b"), Is.EqualTo(":-1\r\n"));
    }

    [Test]
    public void CopyToTheSameKeyIsAnError()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("COPY", "a", "a"), Is.EqualTo(Resp.Error("ERR source and destination objects are the same")));
        Assert.That(client.Execute("COPY", "missing", "missing", "REPLACE"), Is.EqualTo(Resp.Error("ERR source and destination objects are the same")));
        Assert.That(client.Execute("COPY", "a", "a", "DB", "0"), Is.EqualTo(Resp.Error("ERR source and destination objects are the same")));
    }

    [Test]
    public void CopyToAnotherDatabase()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "value", "EX", "100");
        Assert.That(client.Execute("COPY", "a", "a", "DB", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("COPY", "a", "b", "DB", "15"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("COPY", "a", "a", "DB", "1"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("COPY", "a", "a", "DB", "1", "REPLACE"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(":0\r\n"), "nothing copied into the current database");

        Assert.That(client.Execute("SELECT", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$5\r\nvalue\r\n"));
        Assert.That(client.Execute("TTL", "a"), Is.EqualTo(":100\r\n"));
        Assert.That(client.Execute("SELECT", "15"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$5\r\nvalue\r\n"));
    }

    [Test]
    public void CopyOptionErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("COPY", "a", "b", "DB", "16"), Is.EqualTo(Resp.Error("ERR DB index is out of range")));
        Assert.That(client.Execute("COPY", "a", "b", "DB", "-1"), Is.EqualTo(Resp.Error("ERR DB index is out of range")));
        Assert.That(client.Execute("COPY", "a", "b", "DB", "one"), Is.EqualTo(Resp.Error("ERR value is not an integer or out of range")));
        Assert.That(client.Execute("COPY", "a", "b", "DB", "99999999999"), Is.EqualTo(Resp.Error("ERR value is out of range, value must between -2147483648 and 2147483647")));
        Assert.That(client.Execute("COPY", "a", "b", "DB"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("COPY", "a", "b", "FOO"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(":0\r\n"));
    }

    [TestCase("RENAME", 2)]
    [TestCase("RENAME", 4)]
    [TestCase("RENAMENX", 2)]
    [TestCase("COPY", 2)]
    public void WrongArity(string command, int argumentCount)
    {
        using var client = ConnectRaw();
        var arguments = new string[argumentCount];
        arguments[0] = command;
        for (int i = 1; i < argumentCount; i++)
            arguments[i] = "k" + i;
        Assert.That(client.Execute(arguments), Is.EqualTo(Resp.WrongArity(command.ToLowerInvariant())));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StringSet("from", "v");
        Assert.That(db.KeyRename("from", "to"), Is.True);
        Assert.That((string?)db.StringGet("to"), Is.EqualTo("v"));
        db.StringSet("other", "w");
        Assert.That(db.KeyRename("to", "other", When.NotExists), Is.False);
        Assert.That(db.KeyRename("to", "fresh", When.NotExists), Is.True);
        Assert.Throws<RedisServerException>(() => db.KeyRename("nothing", "x"));
    }
}
