using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>FLUSHDB and FLUSHALL.</summary>
public class FlushTests : ServerTestBase
{
    [TestCase()]
    [TestCase("ASYNC")]
    [TestCase("sync")]
    public void FlushDbEmptiesTheDatabase(params string[] options)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2", "EX", "100");
        var command = new string[options.Length + 1];
        command[0] = "FLUSHDB";
        options.CopyTo(command, 1);
        Assert.That(client.Execute(command), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$-1\r\n"));
        // The session goes on in the fresh database.
        Assert.That(client.Execute("SET", "a", "3"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$1\r\n3\r\n"));
    }

    [Test]
    public void FlushDbAffectsOnlyTheSelectedDatabase()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "zero", "0");
        Assert.That(client.Execute("SELECT", "1"), Is.EqualTo("+OK\r\n"));
        client.Execute("SET", "one", "1");
        Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        client.Execute("SELECT", "0");
        Assert.That(client.Execute("GET", "zero"), Is.EqualTo("$1\r\n0\r\n"));
    }

    [Test]
    public void FlushAllEmptiesEveryDatabase()
    {
        using var client = ConnectRaw();
        for (int db = 0; db < 4; db++)
        {
            client.Execute("SELECT", db.ToString());
            client.Execute("SET", "k", db.ToString());
        }
        Assert.That(client.Execute("FLUSHALL", "ASYNC"), Is.EqualTo("+OK\r\n"));
        for (int db = 0; db < 4; db++)
        {
            client.Execute("SELECT", db.ToString());
            Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"), $"db {db}");
        }
        Assert.That(client.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void OtherSessionsSeeTheFlush()
    {
        using var first = ConnectRaw();
        using var second = ConnectRaw();
        first.Execute("SET", "k", "v");
        Assert.That(second.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        first.Execute("FLUSHDB");
        Assert.That(second.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        second.Execute("SET", "k", "w");
        Assert.That(first.Execute("GET", "k"), Is.EqualTo("$1\r\nw\r\n"));
    }

    [Test]
    public void FlushInTheMiddleOfAPipeline()
    {
        using var client = ConnectRaw();
        client.SendRaw(RawClient.Encode("SET", "a", "1") + RawClient.Encode("FLUSHDB") + RawClient.Encode("GET", "a")
            + RawClient.Encode("SET", "b", "2") + RawClient.Encode("GET", "b"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("$-1\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("$1\r\n2\r\n"));
    }

    [TestCase("FLUSHDB")]
    [TestCase("FLUSHALL")]
    public void SyntaxErrors(string command)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute(command, "NOW"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute(command, "ASYNC", "SYNC"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StringSet("k", "v");
        var server = redis.GetServer(redis.GetEndPoints()[0]);
        server.FlushDatabase();
        Assert.That(db.KeyExists("k"), Is.False);
        db.StringSet("k", "v");
        server.FlushAllDatabases();
        Assert.That(db.KeyExists("k"), Is.False);
    }
}
