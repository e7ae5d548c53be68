using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>CLIENT UNBLOCK id [TIMEOUT|ERROR] ends another client's wait in a blocking command.</summary>
public sealed class ClientUnblockTests : ServerTestBase
{
    private static long IdOf(RawClient client) => long.Parse(client.Execute("CLIENT", "ID").TrimStart(':').TrimEnd());

    /// <summary>Waits until the server counts <paramref name="count"/> blocked clients.</summary>
    private static void WaitForBlocked(RawClient observer, int count)
    {
        for (int i = 0; i < 500; i++)
        {
            if (observer.Execute("INFO", "clients").Contains($"blocked_clients:{count}\r\n"))
                return;
            Thread.Sleep(10);
        }
        Assert.Fail($"never saw {count} blocked clients");
    }

    [Test]
    public void UnblockAsATimeoutOrAnError()
    {
        using var blocked = ConnectRaw();
        using var admin = ConnectRaw();
        long id = IdOf(blocked);

        blocked.Send("BLPOP", "cu:list", "0");
        blocked.Send("PING"); // sent while blocked: runs once the wait ends
        WaitForBlocked(admin, 1);
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", id.ToString()), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*-1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("+PONG\r\n"));

        blocked.Send("BZPOPMIN", "cu:zset", "0");
        WaitForBlocked(admin, 1);
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", id.ToString(), "error"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n"));
        WaitForBlocked(admin, 0);

        // The unblocked client is served normally, and its key was left alone.
        Assert.That(admin.Execute("RPUSH", "cu:list", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.Execute("LPOP", "cu:list"), Is.EqualTo("$1\r\nx\r\n"));
    }

    [Test]
    public void NothingToUnblock()
    {
        using var idle = ConnectRaw();
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", IdOf(idle).ToString()), Is.EqualTo(":0\r\n"), "not blocked");
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", "999999999"), Is.EqualTo(":0\r\n"), "no such client");
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", IdOf(admin).ToString()), Is.EqualTo(":0\r\n"), "itself");
        Assert.That(idle.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void Errors()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", "abc"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", "1", "FOO"), Is.EqualTo("-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n"));
        Assert.That(admin.Execute("CLIENT", "UNBLOCK"), Is.EqualTo("-ERR wrong number of arguments for 'client|unblock' command\r\n"));
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", "1", "TIMEOUT", "x"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'UNBLOCK'. Try CLIENT HELP.\r\n"));
    }
}
