using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>
/// Keyspace commands that make a key hold a list or sorted set wake its blocked clients, and one that leaves it of another
/// type does not end their wait; INFO and CLIENT LIST show them.
/// </summary>
public class BlockingKeyspaceTests : BlockingTestBase
{
    [Test]
    public void RenameOfAListWakesAClientBlockedOnTheNewName()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "0");
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "source", "v");
        Assert.That(writer.Execute("RENAME", "source", "k"), Is.EqualTo("+OK\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
        Assert.That(writer.Execute("EXISTS", "k", "source"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void CopyAndRestoreOfASortedSetWakeBlockedClients()
    {
        using var writer = ConnectRaw();
        writer.Execute("ZADD", "source", "1", "m");
        using (var blocked = BlockedClient(1, "BZPOPMIN", "copied", "0"))
        {
            Assert.That(writer.Execute("COPY", "source", "copied"), Is.EqualTo(":1\r\n"));
            Assert.That(blocked.ReadReply(), Is.EqualTo("*3\r\n$6\r\ncopied\r\n$1\r\nm\r\n$1\r\n1\r\n"));
        }
        string payload = Keyspace.Resp.Bulk(writer.Execute("DUMP", "source"))!;
        using (var blocked = BlockedClient(1, "BZPOPMIN", "restored", "0"))
        {
            Assert.That(writer.Execute("RESTORE", "restored", "0", payload), Is.EqualTo("+OK\r\n"));
            Assert.That(blocked.ReadReply(), Is.EqualTo("*3\r\n$8\r\nrestored\r\n$1\r\nm\r\n$1\r\n1\r\n"));
        }
    }

    /// <summary>As Redis 7.2: a transaction that pushes to the key, deletes it and sets it to a string leaves the client waiting (no WRONGTYPE).</summary>
    [TestCase("BLPOP", "RPUSH", "*2\r\n$1\r\nk\r\n$1\r\nv\r\n")]
    [TestCase("BLMPOP", "RPUSH", "*2\r\n$1\r\nk\r\n*1\r\n$1\r\nv\r\n")]
    [TestCase("BLMOVE", "RPUSH", "$1\r\nv\r\n")]
    [TestCase("BZPOPMIN", "ZADD", "*3\r\n$1\r\nk\r\n$1\r\nv\r\n$1\r\n1\r\n")]
    public void AKeyThatBecomesAnotherTypeLeavesTheClientWaiting(string blocking, string push, string served)
    {
        string[] command = blocking switch
        {
            "BLMPOP" => ["BLMPOP", "0", "1", "k", "LEFT"],
            "BLMOVE" => ["BLMOVE", "k", "dest", "LEFT", "LEFT", "0"],
            _ => [blocking, "k", "0"],
        };
        string[] pushed = push == "ZADD" ? ["ZADD", "k", "1", "v"] : ["RPUSH", "k", "v"];
        using var blocked = BlockedClient(1, command);
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        writer.Execute(pushed);
        writer.Execute("DEL", "k");
        writer.Execute("SET", "k", "x");
        Assert.That(writer.Execute("EXEC"), Does.StartWith("*3\r\n"));
        Assert.That(writer.Execute("INFO", "clients"), Does.Contain("blocked_clients:1\r\n"));
        Assert.That(writer.Execute("DEL", "k"), Is.EqualTo(":1\r\n"));
        writer.Execute(pushed);
        Assert.That(blocked.ReadReply(), Is.EqualTo(served));
    }

    /// <summary>
    /// As Redis: a client is served only by a key of the type it waits for. An XREAD whose stream was deleted and made a
    /// list, and a BLPOP whose key was made a stream (XADD signals it), wait on; the right type serves them.
    /// </summary>
    [Test]
    public void AKeyWrittenAsAnotherTypeDoesNotServeTheClient()
    {
        using var writer = ConnectRaw();
        writer.Execute("XADD", "s", "1-1", "a", "1");
        using var reader = BlockedClient(1, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        using var popper = BlockedClient(2, "BLPOP", "l", "0");
        writer.Execute("DEL", "s");
        Assert.That(writer.Execute("LPUSH", "s", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(writer.Execute("XADD", "l", "1-1", "a", "1"), Is.EqualTo("$3\r\n1-1\r\n"));
        Assert.That(writer.Execute("INFO", "clients"), Does.Contain("blocked_clients:2\r\n"));

        writer.Execute("DEL", "s", "l");
        writer.Execute("XADD", "s", "2-1", "b", "2");
        Assert.That(reader.ReadReply(), Is.EqualTo("*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"));
        writer.Execute("RPUSH", "l", "v");
        Assert.That(popper.ReadReply(), Is.EqualTo("*2\r\n$1\r\nl\r\n$1\r\nv\r\n"));
        WaitForBlocked(0);
    }

    [Test]
    public void InfoAndClientListShowBlockedClients()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "0");
        using var observer = ConnectRaw();
        Assert.That(observer.Execute("INFO", "clients"), Does.Contain("blocked_clients:1\r\n"));
        Assert.That(observer.Execute("CLIENT", "LIST"), Does.Contain(" flags=b "));
        observer.Execute("RPUSH", "k", "v");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
        Assert.That(observer.Execute("INFO", "clients"), Does.Contain("blocked_clients:0\r\n"));
        Assert.That(observer.Execute("CLIENT", "LIST"), Does.Not.Contain(" flags=b "));
    }
}
