using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>DEBUG (enabled in the default test options) and MEMORY.</summary>
[TestFixture]
public sealed class DebugMemoryTests : ServerTestBase
{
    [Test]
    public void DebugSleepRepliesOk()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("DEBUG", "SLEEP", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DEBUG", "sleep", "0.01"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DEBUG", "SLEEP", "notanumber"), Is.EqualTo("+OK\r\n"), "like Redis, an unparsable time sleeps 0");
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void DebugSleepDoesNotBlockOtherConnections()
    {
        using var sleeper = ConnectRaw();
        using var other = ConnectRaw();
        sleeper.Send("DEBUG", "SLEEP", "0.5");
        Assert.That(other.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("INFO", "keyspace"), Does.Contain("db0:keys=1"));
        Assert.That(sleeper.ReadReply(), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void DebugSetActiveExpireTogglesTheStoreSwitch()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("DEBUG", "SET-ACTIVE-EXPIRE", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(Server.Store.ActiveExpirationEnabled, Is.False);
        Assert.That(client.Execute("DEBUG", "set-active-expire", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(Server.Store.ActiveExpirationEnabled, Is.True);
        Assert.That(client.Execute("DEBUG", "SET-ACTIVE-EXPIRE", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
    }

    [Test]
    public void DebugObjectDescribesTheValue()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "int", "12345");
        client.Execute("SET", "short", "hello");
        client.Execute("SET", "long", new string('x', 100));

        Assert.That(client.Execute("DEBUG", "OBJECT", "int"), Does.Match(@"^\+Value at:0x[0-9a-f]{16} refcount:1 encoding:int serializedlength:3 lru:\d+ lru_seconds_idle:0\r\n$"));
        Assert.That(client.Execute("DEBUG", "OBJECT", "short"), Does.Contain(" encoding:embstr serializedlength:6 "));
        Assert.That(client.Execute("DEBUG", "OBJECT", "long"), Does.Contain(" encoding:raw serializedlength:102 "));
        Assert.That(client.Execute("DEBUG", "OBJECT", "missing"), Is.EqualTo("-ERR no such key\r\n"));
    }

    [Test]
    public void DebugHelpAndUnknownSubcommands()
    {
        using var client = ConnectRaw();
        string help = client.Execute("DEBUG", "HELP");
        Assert.That(help, Does.Contain("+DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"));
        Assert.That(help, Does.Contain("\r\n+SLEEP <seconds>\r\n").And.Contain("\r\n+OBJECT <key>\r\n"));
        Assert.That(client.Execute("DEBUG", "NOPE"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'NOPE'. Try DEBUG HELP.\r\n"));
        Assert.That(client.Execute("DEBUG", "SLEEP"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'SLEEP'. Try DEBUG HELP.\r\n"));
        Assert.That(client.Execute("DEBUG"), Is.EqualTo("-ERR wrong number of arguments for 'debug' command\r\n"));
    }

    [Test]
    public void MemoryUsageMeasuresTheRecord()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "small", "v");
        client.Execute("SET", "large", new string('x', 5000));
        string small = client.Execute("MEMORY", "USAGE", "small");
        string large = client.Execute("MEMORY", "USAGE", "large");
        Assert.That(small, Does.Match(@"^:\d+\r\n$"));
        long smallBytes = long.Parse(small.Trim(':', '\r', '\n'));
        long largeBytes = long.Parse(large.Trim(':', '\r', '\n'));
        Assert.That(smallBytes, Is.GreaterThan(1 + 5));
        Assert.That(largeBytes, Is.GreaterThanOrEqualTo(5000 + 5));
        Assert.That(largeBytes, Is.LessThan(5000 + 200));
        Assert.That(client.Execute("MEMORY", "USAGE", "small", "SAMPLES", "5"), Is.EqualTo(small));
        Assert.That(client.Execute("MEMORY", "usage", "small", "samples", "0"), Is.EqualTo(small));
    }

    [Test]
    public void MemoryUsageOfAMissingKeyIsNull()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MEMORY", "USAGE", "missing"), Is.EqualTo("$-1\r\n"));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("MEMORY", "USAGE", "missing"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void MemoryErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MEMORY", "USAGE", "k", "SAMPLES"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("MEMORY", "USAGE", "k", "SAMPLES", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("MEMORY", "USAGE", "k", "SAMPLES", "-1"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("MEMORY", "USAGE", "k", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("MEMORY", "USAGE"), Is.EqualTo("-ERR wrong number of arguments for 'memory|usage' command\r\n"));
        Assert.That(client.Execute("MEMORY", "NOPE"), Is.EqualTo("-ERR unknown subcommand 'NOPE'. Try MEMORY HELP.\r\n"));
        Assert.That(client.Execute("MEMORY"), Is.EqualTo("-ERR wrong number of arguments for 'memory' command\r\n"));
    }

    [Test]
    public void MemoryPurgeAndHelp()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MEMORY", "PURGE"), Is.EqualTo("+OK\r\n"));
        var collections = System.GC.CollectionCount(System.GC.MaxGeneration);
        Assert.That(client.Execute("MEMORY", "PURGE"), Is.EqualTo("+OK\r\n"));
        Assert.That(System.GC.CollectionCount(System.GC.MaxGeneration), Is.GreaterThan(collections), "a full collection gives free managed memory back");
        string help = client.Execute("MEMORY", "HELP");
        Assert.That(help, Does.Contain("+MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"));
        Assert.That(help, Does.Contain("\r\n+USAGE <key> [SAMPLES <count>]\r\n").And.EndWith("+HELP\r\n+    Print this help.\r\n"));
    }
}

/// <summary>DEBUG when the server does not allow it.</summary>
[TestFixture]
public sealed class DebugDisabledTests : ServerTestBase
{
    private const string NotAllowed =
        "-ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server.\r\n";

    protected override TestServerOptions ServerOptions => new() { EnableDebugCommand = false };

    [Test]
    public void EveryDebugSubcommandIsRefused()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("DEBUG", "SLEEP", "0"), Is.EqualTo(NotAllowed));
        Assert.That(client.Execute("DEBUG", "HELP"), Is.EqualTo(NotAllowed));
        Assert.That(client.Execute("DEBUG", "SET-ACTIVE-EXPIRE", "0"), Is.EqualTo(NotAllowed));
        Assert.That(Server.Store.ActiveExpirationEnabled, Is.True);
        Assert.That(client.Execute("CONFIG", "GET", "enable-debug-command"), Is.EqualTo("*2\r\n$20\r\nenable-debug-command\r\n$2\r\nno\r\n"));
    }
}
