using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>MONITOR: every command any client runs reaches the monitors as Redis's line, secrets redacted, admin commands left out.</summary>
public class MonitorTests : ServerTestBase
{
    private static readonly Regex s_line = new(@"^\+(\d+)\.(\d{6}) \[(\d+) ([^\]]+)\] (.*)\r\n$");

    /// <summary>The next line a monitor got: its database, origin and arguments (after the time, which it checks).</summary>
    private static (string Database, string Origin, string Arguments) NextLine(RawClient monitor)
    {
        string line = monitor.ReadReply();
        var match = s_line.Match(line);
        Assert.That(match.Success, Is.True, "not a monitor line: " + line);
        long seconds = long.Parse(match.Groups[1].Value);
        Assert.That(seconds, Is.EqualTo(System.DateTimeOffset.UtcNow.ToUnixTimeSeconds()).Within(60));
        return (match.Groups[3].Value, match.Groups[4].Value, match.Groups[5].Value);
    }

    [Test]
    public void EveryClientsCommandsReachTheMonitorQuotedAsRedisDoes()
    {
        using var monitor = ConnectRaw();
        Assert.That(monitor.Execute("MONITOR"), Is.EqualTo("+OK\r\n"));
        using var client = ConnectRaw();
        client.Execute("SET", "a b", "x\"y\\\n\u0001");
        var (database, origin, arguments) = NextLine(monitor);
        Assert.That(database, Is.EqualTo("0"));
        Assert.That(origin, Does.StartWith("127.0.0.1:"));
        Assert.That(arguments, Is.EqualTo("\"SET\" \"a b\" \"x\\\"y\\\\\\n\\x01\""));

        client.Execute("SELECT", "3");
        Assert.That(NextLine(monitor), Is.EqualTo(("3", origin, "\"SELECT\" \"3\"")));
        client.Execute("EVAL", "return redis.call('GET', 'k')", "0");
        Assert.That(NextLine(monitor), Is.EqualTo(("3", origin, "\"EVAL\" \"return redis.call('GET', 'k')\" \"0\"")));
        Assert.That(NextLine(monitor), Is.EqualTo(("3", "lua", "\"GET\" \"k\"")));
    }

    [Test]
    public void MonitorTakesNoArgumentsAndIsRefusedInScripts()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MONITOR", "x"), Is.EqualTo("-ERR wrong number of arguments for 'monitor' command\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.call('MONITOR')", "0"), Does.StartWith("-ERR This Redis command is not allowed from script"));
        Assert.That(Server.Store.MonitorCount, Is.Zero);
        // MONITOR twice is one monitor, fed once.
        Assert.That(client.Execute("MONITOR"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MONITOR"), Is.EqualTo("+OK\r\n"));
        Assert.That(Server.Store.MonitorCount, Is.EqualTo(1));
    }

    [Test]
    public void TransactionsShowEachCommandBeforeExec()
    {
        using var monitor = ConnectRaw();
        monitor.Execute("MONITOR");
        using var client = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("INCR", "c");
        client.Execute("SET", "d", "1");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n:1\r\n+OK\r\n"));
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"MULTI\""));
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"INCR\" \"c\""));
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"SET\" \"d\" \"1\""));
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"EXEC\""));
    }

    [Test]
    public void SecretsAreRedactedAndAdminCommandsLeftOut()
    {
        using var monitor = ConnectRaw();
        monitor.Execute("MONITOR");
        using var client = ConnectRaw();
        client.Execute("CONFIG", "GET", "maxmemory");
        client.Execute("CLIENT", "KILL", "ID", "999999");
        client.Execute("AUTH", "secret");
        client.Execute("HELLO", "2", "AUTH", "default", "secret");
        client.Execute("PING");
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"AUTH\" \"(redacted)\""));
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"HELLO\" \"2\" \"AUTH\" \"(redacted)\" \"(redacted)\""));
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"PING\""));
    }

    /// <summary>Lines still queued when RESET runs are dropped: the reply after RESET's is the next command's, never a line.</summary>
    [Test]
    public void NoLineFollowsReset()
    {
        using var monitor = ConnectRaw();
        monitor.Execute("MONITOR");
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        for (int round = 0; round < 20; round++)
        {
            for (int i = 0; i < 200; i++)
                client.Send("INCR", "n");
            monitor.Send("RESET");
            monitor.Send("GET", "k");
            string reply;
            while ((reply = monitor.ReadReply()) != "+RESET\r\n")
                Assert.That(reply, Does.StartWith("+"), "a monitor line before RESET's reply");
            Assert.That(monitor.ReadReply(), Is.EqualTo("$1\r\nv\r\n"));
            for (int i = 0; i < 200; i++)
                client.ReadReply();
            monitor.Execute("MONITOR");
        }
    }

    [Test]
    public void ResetEndsMonitoring()
    {
        using var monitor = ConnectRaw();
        monitor.Execute("MONITOR");
        using var client = ConnectRaw();
        client.Execute("PING");
        Assert.That(NextLine(monitor).Arguments, Is.EqualTo("\"PING\""));
        Assert.That(monitor.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        client.Execute("SET", "k", "v");
        Assert.That(monitor.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"), "no line came before the reply");
        Assert.That(Server.Store.MonitorCount, Is.Zero);
        monitor.Execute("MONITOR");
        Assert.That(Server.Store.MonitorCount, Is.EqualTo(1));
        monitor.Dispose();
        // A monitor that disconnects is dropped.
        var watch = System.Diagnostics.Stopwatch.StartNew();
        while (Server.Store.MonitorCount != 0 && watch.Elapsed < System.TimeSpan.FromSeconds(10))
            System.Threading.Thread.Sleep(5);
        Assert.That(Server.Store.MonitorCount, Is.Zero);
    }
}
