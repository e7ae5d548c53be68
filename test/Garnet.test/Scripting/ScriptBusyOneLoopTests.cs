using NUnit.Framework;

namespace Garnet.test.Scripting;

/// <summary>
/// A script past its time limit holds its event-loop thread. With a single loop, every other client shares that
/// thread, yet must still get -BUSY and be able to send SCRIPT KILL: the loop hands its other connections, and the
/// new ones, to a spare loop while the script runs.
/// </summary>
[TestFixture]
public sealed class ScriptBusyOneLoopTests : ServerTestBase
{
    private const string Busy = "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
    private const string Loop = "local i = 0\nwhile true do i = i + 1 end";

    protected override TestServerOptions ServerOptions => new() { EventLoops = 1 };

    [Test]
    public void ClientsOfTheBusyLoopGetBusyAndCanKillTheScript()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "lua-time-limit", "100"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        using var runner = ConnectRaw();
        using var waiting = ConnectRaw();
        Assert.That(waiting.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        runner.Send("EVAL", Loop, "0");
        Assert.That(ScriptConcurrencyTests.WaitForBusy(admin), Is.EqualTo(Busy));
        Assert.That(waiting.Execute("GET", "k"), Is.EqualTo(Busy));
        using (var newcomer = ConnectRaw())
            Assert.That(newcomer.Execute("GET", "k"), Is.EqualTo(Busy), "a connection made while the script runs is served too");

        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Does.StartWith("-ERR Script killed by user with SCRIPT KILL..."));

        // Everyone, moved or not, is served normally again, and so are new connections.
        Assert.That(runner.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(waiting.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(admin.Execute("INCR", "n"), Is.EqualTo(":1\r\n"));
        using var later = ConnectRaw();
        Assert.That(later.Execute("INCR", "n"), Is.EqualTo(":2\r\n"));

        // A second long script on the same loop: its neighbours move again (now to the spare loop that exists).
        runner.Send("EVAL", Loop, "0");
        Assert.That(ScriptConcurrencyTests.WaitForBusy(later), Is.EqualTo(Busy));
        Assert.That(later.Execute("SCRIPT", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Does.StartWith("-ERR Script killed by user with SCRIPT KILL..."));
        Assert.That(runner.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }
}
