using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>XREAD: served at once, errors, and BLOCK woken by XADD from other clients, MULTI/EXEC and Lua, timeouts and CLIENT UNBLOCK.</summary>
public class StreamReadTests : Garnet.test.Blocking.BlockingTestBase
{
    private const string Entry51 = "*2\r\n$3\r\n5-1\r\n*2\r\n$1\r\nx\r\n$1\r\ny\r\n";

    [Test]
    public void ReadsAfterTheIds()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "2-0", "b", "2");
        Assert.That(client.Execute("XREAD", "STREAMS", "s", "1-1"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("XREAD", "COUNT", "1", "STREAMS", "s", "missing", "0", "0"), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "s", "$"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "missing", "0"), Is.EqualTo("*-1\r\n"));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("XREAD", "STREAMS", "s", "1-1"), Is.EqualTo("%1\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "s", "$"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("XREAD", "STREAMS", "s"), Is.EqualTo("-ERR wrong number of arguments for 'xread' command\r\n"));
        Assert.That(client.Execute("XREAD", "BLOCK"), Is.EqualTo("-ERR wrong number of arguments for 'xread' command\r\n"));
        Assert.That(client.Execute("XREAD", "foo", "STREAMS", "s", "0"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("XREAD", "GROUP", "g", "c", "STREAMS", "s", "0"), Is.EqualTo("-ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.\r\n"));
        Assert.That(client.Execute("XREAD", "NOACK", "STREAMS", "s", "0"), Is.EqualTo("-ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "s", ">"), Is.EqualTo("-ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "s", "x"), Is.EqualTo("-ERR Invalid stream ID specified as stream command argument\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "str", "0"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        Assert.That(client.Execute("XREAD", "COUNT", "x", "STREAMS", "s", "0"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XREAD", "BLOCK", "x", "STREAMS", "s", "0"), Is.EqualTo("-ERR timeout is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XREAD", "BLOCK", "-1", "STREAMS", "s", "0"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(client.Execute("XREAD", "STREAMS", "s", "0", "1"), Is.EqualTo("-ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.\r\n"));
    }

    [Test]
    public void BlockedReadersAreWokenInArrivalOrderByAnotherClient()
    {
        using var writer = ConnectRaw();
        writer.Execute("XADD", "s", "1-1", "a", "1");
        using var first = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "t", "$", "$");
        using var second = BlockedClient(2, "XREAD", "COUNT", "1", "BLOCK", "0", "STREAMS", "s", "$");
        Assert.That(writer.Execute("XADD", "s", "5-1", "x", "y"), Is.EqualTo("$3\r\n5-1\r\n"));
        Assert.That(first.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + Entry51));
        Assert.That(second.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + Entry51));
        WaitForBlocked(0);
    }

    [Test]
    public void AReaderThatFindsNothingDoesNotHoldUpTheReadersAfterIt()
    {
        using var writer = ConnectRaw();
        writer.Execute("XADD", "s", "1-1", "a", "1");
        writer.Execute("XGROUP", "CREATE", "s", "g", "$");
        // Waiting for entries after 100-1, after 1-1, and for a group: the entry 5-1 serves the last two only.
        using var ahead = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "100-1");
        using var behind = BlockedClient(2, "XREAD", "BLOCK", "0", "STREAMS", "s", "1-1");
        using var consumer = BlockedClient(3, "XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
        Assert.That(writer.Execute("XADD", "s", "5-1", "x", "y"), Is.EqualTo("$3\r\n5-1\r\n"));
        Assert.That(behind.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + Entry51));
        Assert.That(consumer.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + Entry51));
        WaitForBlocked(1);
        Assert.That(writer.Execute("XADD", "s", "100-2", "x", "y"), Is.EqualTo("$5\r\n100-2\r\n"));
        Assert.That(ahead.ReadReply(), Does.Contain("100-2"));
        WaitForBlocked(0);
    }

    [Test]
    public void WokenByMultiExecAndLua()
    {
        using var writer = ConnectRaw();
        using (var blocked = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$"))
        {
            writer.Execute("MULTI");
            writer.Execute("XADD", "s", "5-1", "x", "y");
            Assert.That(writer.Execute("EXEC"), Is.EqualTo("*1\r\n$3\r\n5-1\r\n"));
            Assert.That(blocked.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + Entry51));
        }
        WaitForBlocked(0);
        using (var blocked = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$"))
        {
            Assert.That(writer.Execute("EVAL", "return redis.call('xadd','s','9-9','l','u')", "0"), Is.EqualTo("$3\r\n9-9\r\n"));
            Assert.That(blocked.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n9-9\r\n*2\r\n$1\r\nl\r\n$1\r\nu\r\n"));
        }
        WaitForBlocked(0);
    }

    [Test]
    public void DeletedEntriesDoNotWake()
    {
        using var writer = ConnectRaw();
        writer.Execute("XADD", "s", "1-1", "a", "1");
        using var blocked = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        writer.Execute("MULTI");
        writer.Execute("XADD", "s", "2-1", "a", "1");
        writer.Execute("XDEL", "s", "2-1");
        writer.Execute("EXEC");
        WaitForBlocked(1);
        writer.Execute("XADD", "s", "3-1", "a", "1");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"));
    }

    [Test]
    public void TimeoutsInsideTransactionsScriptsAndUnblock()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("XREAD", "BLOCK", "50", "STREAMS", "s", "$"), Is.EqualTo("*-1\r\n"));
        client.Execute("MULTI");
        client.Execute("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n*-1\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.call('xread','block','0','streams','s','$')", "0"), Does.StartWith("-ERR xread command is not allowed with BLOCK option from scripts"));

        using var other = ConnectRaw();
        var id = other.Execute("CLIENT", "ID").Trim().TrimStart(':');
        other.Send("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        WaitForBlocked(1);
        Assert.That(client.Execute("CLIENT", "UNBLOCK", id), Is.EqualTo(":1\r\n"));
        Assert.That(other.ReadReply(), Is.EqualTo("*-1\r\n"));
        other.Send("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        WaitForBlocked(1);
        Assert.That(client.Execute("CLIENT", "UNBLOCK", id, "ERROR"), Is.EqualTo(":1\r\n"));
        Assert.That(other.ReadReply(), Is.EqualTo("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n"));
    }

    [Test]
    public void DisconnectedReaderIsForgotten()
    {
        var blocked = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        blocked.Dispose();
        WaitForBlocked(0);
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("XADD", "s", "1-1", "a", "1"), Is.EqualTo("$3\r\n1-1\r\n"));
    }
}
