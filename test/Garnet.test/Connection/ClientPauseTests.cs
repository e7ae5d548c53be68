using System;
using System.Diagnostics;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>CLIENT PAUSE and CLIENT UNPAUSE, observed from other clients.</summary>
[TestFixture]
public sealed class ClientPauseTests : ServerTestBase
{
    /// <summary>Waits until the pause holds exactly <paramref name="count"/> clients (each then has its command unrun).</summary>
    private void WaitForHeld(int count)
    {
        var watch = Stopwatch.StartNew();
        while (Server.Store.ClientPause.HeldCount != count)
        {
            if (watch.Elapsed > TimeSpan.FromSeconds(10))
                Assert.Fail($"Timed out waiting for {count} held clients (now {Server.Store.ClientPause.HeldCount})");
            Thread.Sleep(2);
        }
    }

    private static long Field(string info, string name)
    {
        foreach (var line in info.Split("\r\n"))
        {
            if (line.StartsWith(name + ":", StringComparison.Ordinal))
                return long.Parse(line.AsSpan(name.Length + 1));
        }
        throw new AssertionException($"no {name} in INFO");
    }

    [Test]
    public void WriteModeHoldsWritesUntilUnpauseWhileReadsGoOn()
    {
        using var admin = ConnectRaw();
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("SET", "k", "before"), Is.EqualTo("+OK\r\n"));
        string writerId = ReplyText.ClientField(ReplyText.Payload(writer.Execute("CLIENT", "INFO")), "id");
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));

        writer.Send("SET", "k", "after");
        WaitForHeld(1);
        using var reader = ConnectRaw();
        Assert.That(reader.Execute("GET", "k"), Is.EqualTo("$6\r\nbefore\r\n"), "reads go on in WRITE mode");
        Assert.That(reader.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        string info = admin.Execute("INFO", "clients");
        Assert.That(Field(info, "blocked_clients"), Is.EqualTo(1), "a held client counts as blocked, as in Redis");
        Assert.That(ReplyText.ClientField(ReplyText.Payload(admin.Execute("CLIENT", "LIST", "ID", writerId)), "flags"), Is.EqualTo("b"));

        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(reader.Execute("GET", "k"), Is.EqualTo("$5\r\nafter\r\n"));
        Assert.That(Server.Store.ClientPause.HeldCount, Is.Zero);
    }

    [Test]
    public void HeldCommandsRunInOrderWithWhatFollowedThem()
    {
        using var admin = ConnectRaw();
        using var first = ConnectRaw();
        using var second = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));

        // A pipeline: the read before the write runs, the write waits, and the read after it waits behind it.
        first.SendRaw(RawClient.Encode("GET", "list") + RawClient.Encode("RPUSH", "list", "a") + RawClient.Encode("LRANGE", "list", "0", "-1"));
        Assert.That(first.ReadReply(), Is.EqualTo("$-1\r\n"));
        WaitForHeld(1);
        second.Send("RPUSH", "list", "b");
        WaitForHeld(2);

        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        Assert.That(first.ReadReply(), Is.EqualTo(":1\r\n"));
        Assert.That(first.ReadReply(), Does.StartWith("*1\r\n$1\r\na\r\n").Or.StartWith("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(second.ReadReply(), Is.EqualTo(":2\r\n"), "held clients go on in the order they were held");
    }

    [Test]
    public void InlineCommandWaitsAndRunsUnchanged()
    {
        using var admin = ConnectRaw();
        using var writer = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));
        writer.SendRaw("SET k \"a b\\tc\"\r\n");
        WaitForHeld(1);
        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.Execute("GET", "k"), Is.EqualTo("$5\r\na b\tc\r\n"));
    }

    [Test]
    public void AllModeHoldsEveryCommandUntilItsTimeIsUp()
    {
        using var admin = ConnectRaw();
        using var reader = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "PAUSE", "1500", "ALL"), Is.EqualTo("+OK\r\n"));
        reader.Send("PING");
        WaitForHeld(1);
        // The pause ends by itself and the held command runs.
        Assert.That(reader.ReadReply(), Is.EqualTo("+PONG\r\n"));
        Assert.That(Server.Store.ClientPause.HeldCount, Is.Zero);
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void TheCallersOwnLaterCommandsAreHeld()
    {
        using var admin = ConnectRaw();
        using var other = ConnectRaw();
        admin.SendRaw(RawClient.Encode("CLIENT", "PAUSE", "100000", "WRITE") + RawClient.Encode("SET", "mine", "1"));
        Assert.That(admin.ReadReply(), Is.EqualTo("+OK\r\n"));
        WaitForHeld(1);
        Assert.That(other.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.ReadReply(), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void AStricterOrLongerPauseIsKept()
    {
        using var admin = ConnectRaw();
        using var reader = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("CLIENT", "PAUSE", "1", "WRITE"), Is.EqualTo("+OK\r\n"));
        Thread.Sleep(50);
        Assert.That(Server.Store.ClientPause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.Write), "a shorter pause does not shorten it");
        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));

        Assert.That(admin.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        admin.Execute("CLIENT", "PAUSE", "100000", "ALL");
        admin.Execute("CLIENT", "PAUSE", "10", "WRITE");
        Assert.That(admin.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n+OK\r\n"));
        Assert.That(Server.Store.ClientPause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.All), "ALL is not weakened by WRITE");
        reader.Send("GET", "k");
        WaitForHeld(1);
        Server.Store.ClientPause.Unpause(Garnet.server.ClientPausePurpose.Client);
        Assert.That(reader.ReadReply(), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void ClientUnpauseLeavesAFailoversPauseOnAndEachEndsOnlyItsOwn()
    {
        var pause = Server.Store.ClientPause;
        using var admin = ConnectRaw();
        using var writer = ConnectRaw();
        using var reader = ConnectRaw();
        // A failover (FAILOVER, REPLFAILOVER) pauses writers for itself; a client pauses everything meanwhile.
        pause.Pause(100000, Garnet.server.ClientPauseMode.Write, Garnet.server.ClientPausePurpose.Failover);
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "ALL"), Is.EqualTo("+OK\r\n"));
        Assert.That(pause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.All), "the stricter pause is in force");
        reader.Send("GET", "k");
        writer.Send("SET", "k", "v");
        WaitForHeld(2);

        // Ending the client's pause (CLIENT UNPAUSE, itself held in ALL mode) lets the reader go on; the writer stays held
        // by the failover's.
        pause.Unpause(Garnet.server.ClientPausePurpose.Client);
        Assert.That(reader.ReadReply(), Is.EqualTo("$-1\r\n"));
        Assert.That(pause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.Write));
        WaitForHeld(1);
        Assert.That(reader.Execute("GET", "k"), Is.EqualTo("$-1\r\n"), "the write has not run");

        // The failover's end lets it go, and a client's pause set meanwhile outlives it.
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));
        pause.Unpause(Garnet.server.ClientPausePurpose.Failover);
        Assert.That(pause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.Write), "the client's pause is still on");
        WaitForHeld(1);
        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(reader.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(pause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.None));
        Assert.That(pause.HeldCount, Is.Zero);
    }

    [Test]
    public void AFailoversPauseEndsByItselfWhenItsTimeIsUp()
    {
        var pause = Server.Store.ClientPause;
        using var writer = ConnectRaw();
        pause.Pause(1000, Garnet.server.ClientPauseMode.Write, Garnet.server.ClientPausePurpose.Failover);
        writer.Send("SET", "k", "v");
        WaitForHeld(1);
        Assert.That(writer.ReadReply(), Is.EqualTo("+OK\r\n"), "held until the pause's time is up");
        Assert.That(pause.HeldCount, Is.Zero);
        Assert.That(pause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.None));
    }

    [Test]
    public void MayReplicateCommandsScriptsAndTransactionsThatWriteAreHeld()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("PFADD", "hll", "a"), Is.EqualTo(":1\r\n"));
        using var transaction = ConnectRaw();
        Assert.That(transaction.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(transaction.Execute("SET", "t", "1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));

        using var pfcount = ConnectRaw();
        using var publish = ConnectRaw();
        using var eval = ConnectRaw();
        pfcount.Send("PFCOUNT", "hll");
        WaitForHeld(1);
        publish.Send("PUBLISH", "ch", "m");
        WaitForHeld(2);
        eval.Send("EVAL", "return 1", "0");
        WaitForHeld(3);
        transaction.Send("EXEC");
        WaitForHeld(4);

        // Read-only scripts, functions and transactions are not held.
        using var reader = ConnectRaw();
        Assert.That(reader.Execute("EVAL", "#!lua flags=no-writes\nreturn 2", "0"), Is.EqualTo(":2\r\n"));
        Assert.That(reader.Execute("EVAL_RO", "return 3", "0"), Is.EqualTo(":3\r\n"));
        Assert.That(reader.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(reader.Execute("GET", "t"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(reader.Execute("EXEC"), Is.EqualTo("*1\r\n$-1\r\n"));
        Assert.That(Server.Store.ClientPause.HeldCount, Is.EqualTo(4));

        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        Assert.That(pfcount.ReadReply(), Is.EqualTo(":1\r\n"));
        Assert.That(publish.ReadReply(), Is.EqualTo(":0\r\n"));
        Assert.That(eval.ReadReply(), Is.EqualTo(":1\r\n"));
        Assert.That(transaction.ReadReply(), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [Test]
    public void ErrorsAreAnsweredAtOnce()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));
        using var other = ConnectRaw();
        Assert.That(other.Execute("SET", "k"), Is.EqualTo("-ERR wrong number of arguments for 'set' command\r\n"));
        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));

        Assert.That(admin.Execute("CLIENT", "PAUSE", "x"), Is.EqualTo("-ERR timeout is not an integer or out of range\r\n"));
        Assert.That(admin.Execute("CLIENT", "PAUSE", "-1"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(admin.Execute("CLIENT", "PAUSE", "10", "READ"), Is.EqualTo("-ERR CLIENT PAUSE mode must be WRITE or ALL\r\n"));
        Assert.That(admin.Execute("CLIENT", "PAUSE", "x", "READ"), Is.EqualTo("-ERR CLIENT PAUSE mode must be WRITE or ALL\r\n"), "the mode is checked first");
        Assert.That(admin.Execute("CLIENT", "PAUSE", "10", "ALL", "x"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'PAUSE'. Try CLIENT HELP.\r\n"));
        Assert.That(admin.Execute("CLIENT", "PAUSE"), Is.EqualTo("-ERR wrong number of arguments for 'client|pause' command\r\n"));
        Assert.That(admin.Execute("CLIENT", "UNPAUSE", "x"), Is.EqualTo("-ERR wrong number of arguments for 'client|unpause' command\r\n"));
        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"), "no pause to end");
        Assert.That(admin.Execute("CLIENT", "PAUSE", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(Server.Store.ClientPause.Mode, Is.EqualTo(Garnet.server.ClientPauseMode.None));
    }

    [Test]
    public void UnblockDoesNotReleaseAHeldClientAndKillEndsIt()
    {
        using var admin = ConnectRaw();
        using var blocked = ConnectRaw();
        using var victim = ConnectRaw();
        string blockedId = ReplyText.ClientField(ReplyText.Payload(blocked.Execute("CLIENT", "INFO")), "id");
        string victimId = ReplyText.ClientField(ReplyText.Payload(victim.Execute("CLIENT", "INFO")), "id");
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo("+OK\r\n"));
        blocked.Send("BLPOP", "nothing", "0");
        WaitForHeld(1);
        victim.Send("SET", "v", "1");
        WaitForHeld(2);

        Assert.That(admin.Execute("CLIENT", "UNBLOCK", blockedId, "ERROR"), Is.EqualTo(":0\r\n"), "held by the pause, not blocked on keys");
        Assert.That(admin.Execute("CLIENT", "KILL", "ID", victimId), Is.EqualTo(":1\r\n"));
        Assert.That(victim.IsClosedByServer(), Is.True);

        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo("+OK\r\n"));
        var watch = Stopwatch.StartNew();
        while (Server.Store.Blocking.BlockedClients != 1 && watch.Elapsed < TimeSpan.FromSeconds(10))
            Thread.Sleep(2);
        Assert.That(admin.Execute("CLIENT", "UNBLOCK", blockedId, "ERROR"), Is.EqualTo(":1\r\n"), "now it blocks on its key");
        Assert.That(blocked.ReadReply(), Is.EqualTo("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n"));
        Assert.That(admin.Execute("EXISTS", "v"), Is.EqualTo(":0\r\n"), "the killed client's write never ran");
    }
}
