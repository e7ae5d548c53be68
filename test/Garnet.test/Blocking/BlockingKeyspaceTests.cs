using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>Keyspace commands that make a key hold a list or sorted set wake its blocked clients; INFO and CLIENT LIST show them.</summary>
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
