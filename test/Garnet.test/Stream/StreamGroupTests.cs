using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>XGROUP, XREADGROUP, XACK and XPENDING with Redis's exact replies and errors (compared with redis-server).</summary>
public class StreamGroupTests : Garnet.test.Blocking.BlockingTestBase
{
    private const string MustExist = "-ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.\r\n";
    private const string E11 = "*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n";
    private const string E21 = "*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n";
    private const string E31 = "*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n";

    private static void Fill(RawClient client)
    {
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "2-1", "b", "2");
        client.Execute("XADD", "s", "3-1", "c", "3");
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g", "0"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void GroupSubcommands()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g", "$"), Is.EqualTo(MustExist));
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"), Is.EqualTo("-BUSYGROUP Consumer Group name already exists\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g2", "0", "ENTRIESREAD", "-2"), Is.EqualTo("-ERR value for ENTRIESREAD must be positive or -1\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g2", "0", "ENTRIESREAD", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XGROUP", "create", "s", "g2", "0", "foo"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'create'. Try XGROUP HELP.\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g2", "x"), Is.EqualTo("-ERR Invalid stream ID specified as stream command argument\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATE", "s", "g2", "-"), Is.EqualTo("-ERR Invalid stream ID specified as stream command argument\r\n"));
        Assert.That(client.Execute("XGROUP", "SETID", "s", "nog", "0"), Is.EqualTo("-NOGROUP No such consumer group 'nog' for key name 's'\r\n"));
        Assert.That(client.Execute("XGROUP", "SETID", "s", "g", "-"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("XGROUP", "setid", "s", "g", "0", "foo"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'setid'. Try XGROUP HELP.\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATECONSUMER", "s", "g", "c1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATECONSUMER", "s", "g", "c1"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATECONSUMER", "s", "nog", "c1"), Is.EqualTo("-NOGROUP No such consumer group 'nog' for key name 's'\r\n"));
        Assert.That(client.Execute("XGROUP", "DELCONSUMER", "s", "g", "c9"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("XGROUP", "DESTROY", "s", "nog"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("XGROUP", "foo", "s", "g"), Is.EqualTo("-ERR unknown subcommand 'foo'. Try XGROUP HELP.\r\n"));
        Assert.That(client.Execute("XGROUP", "CREATE", "s"), Is.EqualTo("-ERR wrong number of arguments for 'xgroup|create' command\r\n"));
        Assert.That(client.Execute("XGROUP", "DESTROY", "nokey", "g"), Is.EqualTo(MustExist));
        Assert.That(client.Execute("XGROUP", "CREATE", "str", "g", "$"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        Assert.That(client.Execute("XGROUP", "DESTROY", "s", "g"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XGROUP", "HELP"), Does.StartWith("*17\r\n+XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CREATE <key> <groupname> <id|$> [option]\r\n").And.EndWith("+HELP\r\n+    Prints this help.\r\n"));
    }

    [Test]
    public void ReadGroupNewEntriesHistoryAndAck()
    {
        using var client = ConnectRaw();
        Fill(client);
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c1", "COUNT", "1", "STREAMS", "s", ">"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + E11));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", ">"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*2\r\n" + E21 + E31));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", ">"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c1", "STREAMS", "s", "0"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + E11));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c3", "STREAMS", "s", "0"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*0\r\n"));
        client.Execute("XDEL", "s", "2-1");
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", "0"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n2-1\r\n*-1\r\n" + E31));
        client.Execute("XADD", "s", "4-1", "d", "4");
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c2", "NOACK", "STREAMS", "s", ">"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n4-1\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g"), Is.EqualTo("*4\r\n:3\r\n$3\r\n1-1\r\n$3\r\n3-1\r\n*2\r\n*2\r\n$2\r\nc1\r\n$1\r\n1\r\n*2\r\n$2\r\nc2\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "-", "+", "10", "c2"), Does.Match(@"^\*2\r\n\*4\r\n\$3\r\n2-1\r\n\$2\r\nc2\r\n:\d+\r\n:1\r\n\*4\r\n\$3\r\n3-1\r\n\$2\r\nc2\r\n:\d+\r\n:2\r\n$"));
        Assert.That(client.Execute("XPENDING", "s", "g", "(1-1", "+", "1"), Does.Match(@"^\*1\r\n\*4\r\n\$3\r\n2-1\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "IDLE", "100000", "-", "+", "10"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "-", "+", "10", "nobody"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("XACK", "s", "g", "1-1", "9-9"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XACK", "s", "g", "x"), Is.EqualTo("-ERR Invalid stream ID specified as stream command argument\r\n"));
        Assert.That(client.Execute("XACK", "s", "nog", "1-1"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("XACK", "nokey", "g", "1-1"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("XGROUP", "DELCONSUMER", "s", "g", "c2"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g"), Is.EqualTo("*4\r\n:0\r\n$-1\r\n$-1\r\n*-1\r\n"));
    }

    [Test]
    public void ReadGroupAndPendingErrors()
    {
        using var client = ConnectRaw();
        Fill(client);
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "$"), Does.StartWith("-ERR The $ ID is meaningless in the context of XREADGROUP"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "nog", "c", "STREAMS", "s", ">"), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'nog' in XREADGROUP with GROUP option\r\n"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "nokey", ">"), Is.EqualTo("-NOGROUP No such key 'nokey' or consumer group 'g' in XREADGROUP with GROUP option\r\n"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "str", ">"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        Assert.That(client.Execute("XREADGROUP", "COUNT", "1", "NOACK", "STREAMS", "s", ">"), Is.EqualTo("-ERR Missing GROUP option for XREADGROUP\r\n"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">", "0"), Is.EqualTo("-ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.\r\n"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c", "COUNT", "x", "STREAMS", "s", ">"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "x"), Is.EqualTo("-ERR Invalid stream ID specified as stream command argument\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "nog"), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'nog'\r\n"));
        Assert.That(client.Execute("XPENDING", "nokey", "g"), Is.EqualTo("-NOGROUP No such key 'nokey' or consumer group 'g'\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "-", "+", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "-", "+"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("XPENDING", "s", "g", "IDLE", "x", "-", "+", "10"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
    }

    [Test]
    public void BlockedReadGroupWokenByAddAndByTransaction()
    {
        using var writer = ConnectRaw();
        writer.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        using (var blocked = BlockedClient(1, "XREADGROUP", "GROUP", "g", "c1", "BLOCK", "0", "STREAMS", "s", ">"))
        {
            writer.Execute("XADD", "s", "1-1", "a", "1");
            Assert.That(blocked.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + E11));
        }
        WaitForBlocked(0);
        using (var blocked = BlockedClient(1, "XREADGROUP", "GROUP", "g", "c2", "BLOCK", "0", "STREAMS", "s", ">"))
        {
            writer.Execute("MULTI");
            writer.Execute("XADD", "s", "2-1", "b", "2");
            writer.Execute("EXEC");
            Assert.That(blocked.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + E21));
        }
        Assert.That(writer.Execute("XPENDING", "s", "g"), Is.EqualTo("*4\r\n:2\r\n$3\r\n1-1\r\n$3\r\n2-1\r\n*2\r\n*2\r\n$2\r\nc1\r\n$1\r\n1\r\n*2\r\n$2\r\nc2\r\n$1\r\n1\r\n"));
    }

    [Test]
    public void DestroyingTheGroupEndsTheWaitWithNoGroup()
    {
        using var writer = ConnectRaw();
        writer.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        using var blocked = BlockedClient(1, "XREADGROUP", "GROUP", "g", "c1", "BLOCK", "0", "STREAMS", "s", ">");
        Assert.That(writer.Execute("XGROUP", "DESTROY", "s", "g"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option\r\n"));
        WaitForBlocked(0);
    }

    /// <summary>
    /// Redis 7.2: a client blocked in XREADGROUP whose stream goes (DEL, UNLINK, an expiry set in the past, RENAME or
    /// MOVE away, FLUSHDB, FLUSHALL) is woken with NOGROUP; a client blocked in XREAD on the key waits on.
    /// </summary>
    [TestCase("DEL")]
    [TestCase("UNLINK")]
    [TestCase("PEXPIRE")]
    [TestCase("RENAME")]
    [TestCase("MOVE")]
    [TestCase("FLUSHDB")]
    [TestCase("FLUSHALL")]
    public void DeletingTheStreamEndsTheGroupWaitWithNoGroup(string how)
    {
        using var writer = ConnectRaw();
        writer.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        using var reader = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        using var blocked = BlockedClient(2, "XREADGROUP", "GROUP", "g", "c1", "BLOCK", "0", "STREAMS", "s", ">");
        string reply = how switch
        {
            "PEXPIRE" => writer.Execute("PEXPIRE", "s", "-1"),
            "RENAME" => writer.Execute("RENAME", "s", "t"),
            "MOVE" => writer.Execute("MOVE", "s", "1"),
            "FLUSHDB" or "FLUSHALL" => writer.Execute(how),
            _ => writer.Execute(how, "s"),
        };
        Assert.That(reply, Is.AnyOf(":1\r\n", "+OK\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option\r\n"));
        WaitForBlocked(1);

        // XREAD is still waiting: the next entry added to the key serves it.
        writer.Execute("XADD", "s", "5-1", "f", "v");
        Assert.That(reader.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n5-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"));
        WaitForBlocked(0);
    }

    /// <summary>As Redis 7.2: a stream that expires by its TTL (active expiration deletes it) ends a blocked XREADGROUP with NOGROUP.</summary>
    [Test]
    public void AStreamThatExpiresEndsTheGroupWaitWithNoGroup()
    {
        using var writer = ConnectRaw();
        writer.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        using var blocked = BlockedClient(1, "XREADGROUP", "GROUP", "g", "c1", "BLOCK", "0", "STREAMS", "s", ">");
        Assert.That(writer.Execute("PEXPIRE", "s", "50"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("-NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option\r\n"));
        WaitForBlocked(0);
        Assert.That(writer.Execute("EXISTS", "s"), Is.EqualTo(":0\r\n"));
    }
    /// <summary>
    /// Redis 7.2: a client blocked in XREADGROUP whose stream is overwritten with another type (SET, MSET, inside a
    /// transaction or a script, a *STORE destination, COPY REPLACE) runs again and answers WRONGTYPE; a client blocked
    /// in XREAD on the key waits on.
    /// </summary>
    [TestCase("SET")]
    [TestCase("MSET")]
    [TestCase("MULTI")]
    [TestCase("EVAL")]
    [TestCase("SUNIONSTORE")]
    [TestCase("COPY")]
    public void OverwritingTheStreamWithAnotherTypeEndsTheGroupWaitWithWrongType(string how)
    {
        using var writer = ConnectRaw();
        writer.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        writer.Execute("SADD", "members", "m");
        using var reader = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        using var blocked = BlockedClient(2, "XREADGROUP", "GROUP", "g", "c1", "BLOCK", "0", "STREAMS", "s", ">");
        switch (how)
        {
            case "SET":
                Assert.That(writer.Execute("SET", "s", "x"), Is.EqualTo("+OK\r\n"));
                break;
            case "MSET":
                Assert.That(writer.Execute("MSET", "other", "y", "s", "x"), Is.EqualTo("+OK\r\n"));
                break;
            case "MULTI":
                writer.Execute("MULTI");
                writer.Execute("SET", "s", "x");
                Assert.That(writer.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
                break;
            case "EVAL":
                Assert.That(writer.Execute("EVAL", "return redis.call('SET', KEYS[1], 'x')", "1", "s"), Is.EqualTo("+OK\r\n"));
                break;
            case "SUNIONSTORE":
                Assert.That(writer.Execute("SUNIONSTORE", "s", "members"), Is.EqualTo(":1\r\n"));
                break;
            case "COPY":
                Assert.That(writer.Execute("COPY", "members", "s", "REPLACE"), Is.EqualTo(":1\r\n"));
                break;
        }
        Assert.That(blocked.ReadReply(), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        WaitForBlocked(1);

        // XREAD waits for a stream: once the key is one again, an entry added serves it.
        writer.Execute("DEL", "s");
        writer.Execute("XADD", "s", "5-1", "f", "v");
        Assert.That(reader.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n5-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"));
        WaitForBlocked(0);
    }

    /// <summary>A write of a string that leaves the stream as it was (SET NX refused) does not end the wait.</summary>
    [Test]
    public void AWriteThatLeavesTheStreamAloneKeepsTheGroupWaiting()
    {
        using var writer = ConnectRaw();
        writer.Execute("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        using var blocked = BlockedClient(1, "XREADGROUP", "GROUP", "g", "c1", "BLOCK", "0", "STREAMS", "s", ">");
        Assert.That(writer.Execute("SET", "s", "x", "NX"), Is.EqualTo("$-1\r\n"));
        Assert.That(writer.Execute("SET", "unrelated", "x"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.Execute("INFO", "clients"), Does.Contain("blocked_clients:1\r\n"));
        writer.Execute("XADD", "s", "5-1", "f", "v");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n5-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"));
        WaitForBlocked(0);
    }
}
