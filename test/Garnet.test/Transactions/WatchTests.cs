using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Transactions;

/// <summary>WATCH and UNWATCH: EXEC aborts (nil) when a watched key was written, created, expired, flushed or swapped since.</summary>
public class WatchTests : ServerTestBase
{
    private const string Aborted = "*-1\r\n";

    private static string WatchThenExec(RawClient client, RawClient other, string key, params string[] otherCommand)
    {
        Assert.That(client.Execute("WATCH", key), Is.EqualTo("+OK\r\n"));
        if (otherCommand.Length > 0)
            other.Execute(otherCommand);
        client.Execute("MULTI");
        client.Execute("SET", "result", "1");
        return client.Execute("EXEC");
    }

    [Test]
    public void UnchangedWatchedKeyLetsExecRun()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(WatchThenExec(client, other, "k", "SET", "unrelated", "1"), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [Test]
    public void WriteByAnotherClientAbortsExec()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(WatchThenExec(client, other, "k", "SET", "k", "w"), Is.EqualTo(Aborted));
        Assert.That(client.Execute("GET", "result"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void WriteByTheWatchingClientItselfAbortsExec()
    {
        using var client = ConnectRaw();
        client.Execute("WATCH", "k");
        client.Execute("INCR", "k");
        client.Execute("MULTI");
        client.Execute("INCR", "k");
        Assert.That(client.Execute("EXEC"), Is.EqualTo(Aborted));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\n1\r\n"));
    }

    [TestCase("LPUSH", "k", "x")]
    [TestCase("DEL", "k")]
    [TestCase("EXPIRE", "k", "100")]
    [TestCase("RENAME", "src", "k")]
    [TestCase("MSET", "a", "1", "k", "2")]
    [TestCase("APPEND", "k", "x")]
    public void EveryKindOfWriteAbortsExec(params string[] command)
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "src", "s");
        if (command[0] != "LPUSH")
            client.Execute("SET", "k", "v");
        Assert.That(WatchThenExec(client, other, "k", command), Is.EqualTo(Aborted));
    }

    [Test]
    public void WatchedMissingKeyThatGetsCreatedAbortsExec()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        Assert.That(WatchThenExec(client, other, "missing", "SET", "missing", "now"), Is.EqualTo(Aborted));
    }

    [Test]
    public void WatchedMissingKeyThatStaysMissingLetsExecRun()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        Assert.That(WatchThenExec(client, other, "missing", "GET", "missing"), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [Test]
    public void WatchedKeyThatExpiresAbortsExec()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "50");
        client.Execute("WATCH", "k");
        // Waiting is the point here: the key's expiration time passes between WATCH and EXEC.
        while (client.Execute("EXISTS", "k") != ":0\r\n")
            Thread.Sleep(20);
        client.Execute("MULTI");
        client.Execute("SET", "result", "1");
        Assert.That(client.Execute("EXEC"), Is.EqualTo(Aborted));
    }

    [Test]
    public void WatchedKeyWithFutureExpirationLetsExecRun()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "k", "v", "EX", "1000");
        Assert.That(WatchThenExec(client, other, "k"), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [TestCase("FLUSHALL")]
    [TestCase("FLUSHDB")]
    [TestCase("SWAPDB", "0", "1")]
    public void FlushOrSwapOfAnExistingWatchedKeyAbortsExec(params string[] command)
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(WatchThenExec(client, other, "k", command), Is.EqualTo(Aborted));
    }

    [Test]
    public void FlushAllDoesNotTouchAWatchedKeyThatDidNotExist()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "x", "v");
        Assert.That(WatchThenExec(client, other, "missing", "FLUSHALL"), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [Test]
    public void SwapDbBringingInAWatchedKeyAbortsExec()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        other.Execute("SELECT", "1");
        other.Execute("SET", "k", "from1");
        Assert.That(WatchThenExec(client, other, "k", "SWAPDB", "0", "1"), Is.EqualTo(Aborted));
    }

    [Test]
    public void UnwatchForgetsTheWatchedKeys()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("WATCH", "k");
        other.Execute("SET", "k", "changed");
        Assert.That(client.Execute("UNWATCH"), Is.EqualTo("+OK\r\n"));
        client.Execute("MULTI");
        client.Execute("GET", "k");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n$7\r\nchanged\r\n"));
    }

    [Test]
    public void UnwatchInsideMultiIsQueued()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        Assert.That(client.Execute("UNWATCH"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [Test]
    public void ExecAndDiscardForgetTheWatchedKeys()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("WATCH", "k");
        client.Execute("MULTI");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*0\r\n"));
        other.Execute("SET", "k", "1");
        client.Execute("MULTI");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*0\r\n"));

        client.Execute("WATCH", "k");
        client.Execute("MULTI");
        client.Execute("DISCARD");
        other.Execute("SET", "k", "2");
        client.Execute("MULTI");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void AbortedExecAfterQueuingErrorAlsoForgetsWatches()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("WATCH", "k");
        other.Execute("SET", "k", "1");
        client.Execute("MULTI");
        client.Execute("NOSUCH");
        Assert.That(client.Execute("EXEC"), Does.StartWith("-EXECABORT"));
        client.Execute("MULTI");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void AbortIsNullInResp3()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(WatchThenExec(client, other, "k", "SET", "k", "1"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void BlockedMoveServedLaterTouchesItsDestination()
    {
        using var client = ConnectRaw();
        using var blocked = ConnectRaw();
        using var pusher = ConnectRaw();
        blocked.Send("BLMOVE", "q", "dst", "LEFT", "LEFT", "0");
        while (Server.Store.Blocking.BlockedClients == 0)
            Thread.Sleep(5);
        client.Execute("WATCH", "dst");
        pusher.Execute("RPUSH", "q", "x");
        Assert.That(blocked.ReadReply(), Is.EqualTo("$1\r\nx\r\n"));
        client.Execute("MULTI");
        client.Execute("PING");
        Assert.That(client.Execute("EXEC"), Is.EqualTo(Aborted));
    }
}
