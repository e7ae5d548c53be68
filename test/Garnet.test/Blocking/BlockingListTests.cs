using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>BLPOP, BRPOP, BLMOVE, BRPOPLPUSH and BLMPOP: served at once, woken by writes, timeouts and errors.</summary>
public class BlockingListTests : BlockingTestBase
{
    [Test]
    public void BlpopAndBrpopServeImmediately()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("RPUSH", "k", "a", "b", "c"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("BLPOP", "k", "0"), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\na\r\n"));
        Assert.That(client.Execute("BRPOP", "k", "0"), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nc\r\n"));
        Assert.That(client.Execute("BLPOP", "missing", "k", "1"), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nb\r\n"));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(0));
    }

    [Test]
    public void BlpopSameKeyTwice()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "k", "a");
        Assert.That(client.Execute("BLPOP", "k", "k", "0"), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\na\r\n"));

        using var blocked = BlockedClient(1, "BLPOP", "j", "j", "0");
        Assert.That(client.Execute("LPUSH", "j", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nj\r\n$1\r\nx\r\n"));
        WaitForBlocked(0);
    }

    [Test]
    public void BlpopWokenByRpush()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "0");
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("RPUSH", "k", "v"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
        // Served before the writer's next command, as in Redis.
        Assert.That(writer.Execute("LLEN", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(blocked.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void BrpopWokenByLpushOnSecondKey()
    {
        using var blocked = BlockedClient(1, "BRPOP", "a", "b", "0");
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("LPUSH", "b", "1", "2"), Is.EqualTo(":2\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nb\r\n$1\r\n1\r\n"));
        Assert.That(writer.Execute("LRANGE", "b", "0", "-1"), Is.EqualTo("*1\r\n$1\r\n2\r\n"));
    }

    [Test]
    public void BlpopWokenByLmove()
    {
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "src", "x");
        using var blocked = BlockedClient(1, "BLPOP", "dst", "0");
        Assert.That(writer.Execute("LMOVE", "src", "dst", "LEFT", "RIGHT"), Is.EqualTo("$1\r\nx\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$3\r\ndst\r\n$1\r\nx\r\n"));
    }

    [Test]
    public void BlpopWokenBySortStore()
    {
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "numbers", "3", "1", "2");
        using var blocked = BlockedClient(1, "BLPOP", "sorted", "0");
        Assert.That(writer.Execute("SORT", "numbers", "STORE", "sorted"), Is.EqualTo(":3\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$6\r\nsorted\r\n$1\r\n1\r\n"));
        Assert.That(writer.Execute("LRANGE", "sorted", "0", "-1"), Is.EqualTo("*2\r\n$1\r\n2\r\n$1\r\n3\r\n"));
    }

    [Test]
    public void TimeoutRepliesNilArray()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BLPOP", "k", "0.05"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("BRPOP", "k", "k2", "0.001"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("BLMOVE", "k", "d", "LEFT", "LEFT", "0.01"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("BRPOPLPUSH", "k", "d", "0.01"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("BLMPOP", "0.01", "1", "k", "LEFT"), Is.EqualTo("*-1\r\n"));
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(0));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void TimeoutRepliesNullInResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("BLPOP", "k", "0.02"), Is.EqualTo("_\r\n"));
        client.Execute("RPUSH", "k", "v");
        Assert.That(client.Execute("BLPOP", "k", "0"), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
    }

    [Test]
    public void TimeoutArgumentErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BLPOP", "k", "abc"), Is.EqualTo("-ERR timeout is not a float or out of range\r\n"));
        Assert.That(client.Execute("BLPOP", "k", "-1"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(client.Execute("BRPOP", "k", "-0.5"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(client.Execute("BLPOP", "k", "inf"), Is.EqualTo("-ERR timeout is out of range\r\n"));
        Assert.That(client.Execute("BLPOP", "k", "nan"), Is.EqualTo("-ERR timeout is not a float or out of range\r\n"));
        Assert.That(client.Execute("BRPOPLPUSH", "a", "b", "x"), Is.EqualTo("-ERR timeout is not a float or out of range\r\n"));
        Assert.That(client.Execute("BLMOVE", "a", "b", "LEFT", "LEFT", "-2"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(client.Execute("BLPOP", "k"), Is.EqualTo("-ERR wrong number of arguments for 'blpop' command\r\n"));
        Assert.That(client.Execute("BLMOVE", "a", "b", "LEFT", "0"), Is.EqualTo("-ERR wrong number of arguments for 'blmove' command\r\n"));
        // The timeout is checked before the keys' types.
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("BLPOP", "s", "bad"), Is.EqualTo("-ERR timeout is not a float or out of range\r\n"));
    }

    [Test]
    public void WrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "x");
        client.Execute("RPUSH", "l", "a");
        const string WrongTypeError = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
        Assert.That(client.Execute("BLPOP", "s", "0"), Is.EqualTo(WrongTypeError));
        Assert.That(client.Execute("BRPOP", "missing", "s", "l", "0"), Is.EqualTo(WrongTypeError));
        // Keys are tried in order: a non-empty list before the wrong type is served.
        Assert.That(client.Execute("BLPOP", "l", "s", "0"), Is.EqualTo("*2\r\n$1\r\nl\r\n$1\r\na\r\n"));
        Assert.That(client.Execute("BLMOVE", "s", "d", "LEFT", "LEFT", "0"), Is.EqualTo(WrongTypeError));
        Assert.That(client.Execute("BLMPOP", "0", "2", "missing", "s", "LEFT"), Is.EqualTo(WrongTypeError));
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(0));
    }

    [Test]
    public void BlmoveServesImmediatelyAndRotates()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "src", "a", "b", "c");
        Assert.That(client.Execute("BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"), Is.EqualTo("$1\r\na\r\n"));
        Assert.That(client.Execute("BLMOVE", "src", "dst", "RIGHT", "LEFT", "0"), Is.EqualTo("$1\r\nc\r\n"));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo("*2\r\n$1\r\nc\r\n$1\r\na\r\n"));
        Assert.That(client.Execute("BLMOVE", "dst", "dst", "left", "right", "0"), Is.EqualTo("$1\r\nc\r\n"));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nc\r\n"));
        Assert.That(client.Execute("BRPOPLPUSH", "src", "dst", "0"), Is.EqualTo("$1\r\nb\r\n"));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo("*3\r\n$1\r\nb\r\n$1\r\na\r\n$1\r\nc\r\n"));
        Assert.That(client.Execute("EXISTS", "src"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("BLMOVE", "src", "dst", "UP", "LEFT", "0"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BLMOVE", "src", "dst", "LEFT", "DOWN", "bad"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void BlmoveWithWrongDestinationKeepsSource()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "dst", "string");
        client.Execute("RPUSH", "src", "a");
        Assert.That(client.Execute("BLMOVE", "src", "dst", "LEFT", "LEFT", "0"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("LRANGE", "src", "0", "-1"), Is.EqualTo("*1\r\n$1\r\na\r\n"));

        // Woken later with a destination of the wrong type: the error, and the element stays.
        client.Execute("DEL", "src");
        using var blocked = BlockedClient(1, "BRPOPLPUSH", "src", "dst", "0");
        client.Execute("RPUSH", "src", "x");
        Assert.That(blocked.ReadReply(), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("LRANGE", "src", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nx\r\n"));
    }

    [Test]
    public void BlmoveWokenByPush()
    {
        using var blocked = BlockedClient(1, "BLMOVE", "src", "dst", "RIGHT", "LEFT", "0");
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "src", "1", "2");
        Assert.That(blocked.ReadReply(), Is.EqualTo("$1\r\n2\r\n"));
        Assert.That(writer.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo("*1\r\n$1\r\n2\r\n"));
        Assert.That(writer.Execute("LRANGE", "src", "0", "-1"), Is.EqualTo("*1\r\n$1\r\n1\r\n"));
    }

    [Test]
    public void BlmoveChainWakesClientBlockedOnDestination()
    {
        using var onDestination = BlockedClient(1, "BLPOP", "dst", "0");
        using var mover = BlockedClient(2, "BLMOVE", "src", "dst", "LEFT", "LEFT", "0");
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "src", "x");
        Assert.That(mover.ReadReply(), Is.EqualTo("$1\r\nx\r\n"));
        Assert.That(onDestination.ReadReply(), Is.EqualTo("*2\r\n$3\r\ndst\r\n$1\r\nx\r\n"));
        WaitForBlocked(0);
        Assert.That(writer.Execute("EXISTS", "src", "dst"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void BlmpopServesImmediately()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "k", "a", "b", "c");
        Assert.That(client.Execute("BLMPOP", "0", "2", "missing", "k", "LEFT", "COUNT", "2"),
            Is.EqualTo("*2\r\n$1\r\nk\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "1", "k", "right", "count", "10"),
            Is.EqualTo("*2\r\n$1\r\nk\r\n*1\r\n$1\r\nc\r\n"));
        client.Execute("RPUSH", "k", "d", "e");
        Assert.That(client.Execute("BLMPOP", "0", "1", "k", "RIGHT"), Is.EqualTo("*2\r\n$1\r\nk\r\n*1\r\n$1\r\ne\r\n"));
    }

    [Test]
    public void BlmpopErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BLMPOP", "0", "0", "k", "LEFT"), Is.EqualTo("-ERR numkeys should be greater than 0\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "x", "k", "LEFT"), Is.EqualTo("-ERR numkeys should be greater than 0\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "2", "k", "LEFT"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "1", "k", "UP"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "1", "k", "LEFT", "COUNT"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "1", "k", "LEFT", "COUNT", "0"), Is.EqualTo("-ERR count should be greater than 0\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "1", "k", "LEFT", "COUNT", "1", "COUNT", "1"), Is.EqualTo("-ERR syntax error\r\n"));
        // The timeout is checked after the other arguments.
        Assert.That(client.Execute("BLMPOP", "x", "1", "k", "UP"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BLMPOP", "-1", "1", "k", "LEFT"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(client.Execute("BLMPOP", "0", "1", "k"), Is.EqualTo("-ERR wrong number of arguments for 'blmpop' command\r\n"));
    }

    [Test]
    public void BlmpopWokenByPush()
    {
        using var blocked = BlockedClient(1, "BLMPOP", "0", "2", "a", "b", "LEFT", "COUNT", "5");
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "b", "1", "2", "3");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nb\r\n*3\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n"));
    }

    [Test]
    public void BinaryKeysAndElements()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k\0ey", "0");
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "k\0ey", "v\0\r\nx");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$4\r\nk\0ey\r\n$5\r\nv\0\r\nx\r\n"));
    }
}
