using System;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>MIGRATE's side of the conversation: authentication, unreachable or silent targets, the connection cache, and its argument errors.</summary>
public class MigrateTargetTests : MigrateTestBase
{
    [Test]
    public void AuthAndAuth2AuthenticateToTheTarget()
    {
        var target = StartTarget(options => options.Password = "secret");
        using var source = ConnectRaw();
        using var admin = new RawClient(target.Port);
        Assert.That(admin.Execute("AUTH", "secret"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "SETUSER", "alice", "on", ">pw", "~*", "+@all"), Is.EqualTo("+OK\r\n"));
        source.Execute("MSET", "a", "1", "b", "2", "c", "3", "d", "4");

        Assert.That(Migrate(source, target, "a", "0", "5000"), Is.EqualTo(TargetError("NOAUTH Authentication required.")));
        Assert.That(Migrate(source, target, "a", "0", "5000", "AUTH", "wrong"),
            Is.EqualTo(TargetError("WRONGPASS invalid username-password pair or user is disabled.")));
        Assert.That(Migrate(source, target, "a", "0", "5000", "AUTH2", "alice", "wrong"),
            Is.EqualTo(TargetError("WRONGPASS invalid username-password pair or user is disabled.")));
        Assert.That(source.Execute("EXISTS", "a"), Is.EqualTo(":1\r\n"), "no key moves when AUTH fails");

        Assert.That(Migrate(source, target, "a", "0", "5000", "AUTH", "secret"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "", "0", "5000", "AUTH2", "alice", "pw", "KEYS", "b", "c"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "d", "0", "5000", "COPY", "AUTH2", "default", "secret", "REPLACE"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("MGET", "a", "b", "c", "d"), Is.EqualTo("*4\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n"));
        Assert.That(source.Execute("KEYS", "*"), Is.EqualTo("*1\r\n$1\r\nd\r\n"));
    }

    [Test]
    public void PasswordsAreRedactedInMonitorAndTheSlowLog()
    {
        var target = StartTarget(options => options.Password = "secret");
        using var source = ConnectRaw();
        using var monitor = ConnectRaw();
        Assert.That(monitor.Execute("MONITOR"), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0"), Is.EqualTo("+OK\r\n"));
        source.Execute("SET", "k", "v");
        Assert.That(Migrate(source, target, "k", "0", "5000", "AUTH2", "default", "secret", "COPY", "AUTH", "secret"), Is.EqualTo("+OK\r\n"));
        string line;
        do
            line = monitor.ReadReply();
        while (!line.Contains("\"MIGRATE\""));
        Assert.That(line, Does.EndWith($"\"MIGRATE\" \"127.0.0.1\" \"{target.Port}\" \"k\" \"0\" \"5000\" \"AUTH2\" \"(redacted)\" \"(redacted)\" \"COPY\" \"AUTH\" \"(redacted)\"\r\n"));
        string slowlog = source.Execute("SLOWLOG", "GET", "2");
        Assert.That(slowlog, Does.Contain("$7\r\nMIGRATE\r\n"));
        Assert.That(slowlog, Does.Not.Contain("secret").And.Not.Contain("default"));
    }

    [Test]
    public void AnUnreachableTargetIsAnIoErrorAndTheKeyStays()
    {
        int port = UnusedPort();
        using var source = ConnectRaw();
        source.Execute("SET", "k", "v");
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", port.ToString(), "k", "0", "1000"), Is.EqualTo("-IOERR error or timeout connecting to the client\r\n"));
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", "not-a-port", "k", "0", "1000"), Is.EqualTo("-IOERR error or timeout connecting to the client\r\n"));
        Assert.That(source.Execute("MIGRATE", "host.invalid", "6379", "k", "0", "1000"), Is.EqualTo("-IOERR error or timeout connecting to the client\r\n"));
        Assert.That(source.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void ASilentTargetTimesOutReading()
    {
        // Accepts the connection but never replies.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        using var source = ConnectRaw();
        source.Execute("SET", "k", "v");
        var clock = Stopwatch.StartNew();
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", port.ToString(), "k", "0", "300"), Is.EqualTo("-IOERR error or timeout reading to target instance\r\n"));
        Assert.That(clock.ElapsedMilliseconds, Is.LessThan(5000), "within the timeout, not retried after it");
        Assert.That(source.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"), "an unacknowledged key stays");
        Assert.That(source.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void ATargetThatReadsNothingTimesOutWriting()
    {
        // Connections complete in the listener's backlog, and nothing ever reads them: the socket buffers fill up.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        using var source = ConnectRaw();
        string value = new('x', 3 << 20);
        var arguments = new System.Collections.Generic.List<string> { "MIGRATE", "127.0.0.1", port.ToString(), "", "0", "300", "KEYS" };
        for (int i = 0; i < 16; i++)
        {
            source.Execute("SET", "big" + i, value);
            arguments.Add("big" + i);
        }
        Assert.That(source.Execute([.. arguments]), Is.EqualTo("-IOERR error or timeout writing to target instance\r\n"));
        Assert.That(source.Execute("DBSIZE"), Is.EqualTo(":16\r\n"), "nothing was acknowledged");
    }

    [Test]
    public void TheConnectionToATargetIsReused()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        long before = ConnectionsReceived(destination);
        source.Execute("MSET", "a", "1", "b", "2", "c", "3");
        Assert.That(Migrate(source, target, "a", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "b", "1", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "c", "1", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(ConnectionsReceived(destination), Is.EqualTo(before + 1));
        Assert.That(source.Execute("INFO", "stats"), Does.Contain("\r\nmigrate_cached_sockets:1\r\n"));
        Assert.That(destination.Execute("CLIENT", "LIST"), Does.Contain("cmd=restore"), "the source's connection is open");
    }

    [Test]
    public void AtMost64ConnectionsAreKeptAndTheLeastRecentlyUsedGoesFirst()
    {
        // Every 127.0.0.x is loopback on Linux, so one target listening on all addresses is 65 targets by MIGRATE's name.
        var target = StartTarget(options => options.Address = "0.0.0.0");
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        string port = target.Port.ToString();
        for (int i = 1; i <= 64; i++)
        {
            source.Execute("SET", "k" + i, "v");
            Assert.That(source.Execute("MIGRATE", "127.0.0." + i, port, "k" + i, "0", "5000"), Is.EqualTo("+OK\r\n"), "target " + i);
        }
        Assert.That(source.Execute("INFO", "stats"), Does.Contain("\r\nmigrate_cached_sockets:64\r\n"));
        Assert.That(RestoringClientsFrom(destination, "127.0.0.1:"), Is.EqualTo(1));

        // A 65th target: the cache stays at 64 by closing the connection used longest ago (the one to 127.0.0.1).
        source.Execute("SET", "k65", "v");
        Assert.That(source.Execute("MIGRATE", "127.0.0.65", port, "k65", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("INFO", "stats"), Does.Contain("\r\nmigrate_cached_sockets:64\r\n"));
        var deadline = Stopwatch.StartNew();
        while (RestoringClientsFrom(destination, "127.0.0.1:") != 0 && deadline.Elapsed < TimeSpan.FromSeconds(10))
            System.Threading.Thread.Sleep(50);
        Assert.That(RestoringClientsFrom(destination, "127.0.0.1:"), Is.EqualTo(0), "the least recently used connection was closed");
        Assert.That(RestoringClientsFrom(destination, "127.0.0.2:"), Is.EqualTo(1), "the others stay");

        // The target dropped from the cache is connected to afresh, and the next least recently used one (127.0.0.2) goes.
        long before = ConnectionsReceived(destination);
        source.Execute("SET", "again", "v");
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", port, "again", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(ConnectionsReceived(destination), Is.EqualTo(before + 1));
        Assert.That(source.Execute("INFO", "stats"), Does.Contain("\r\nmigrate_cached_sockets:64\r\n"));
        Assert.That(destination.Execute("DBSIZE"), Is.EqualTo(":66\r\n"));
    }

    /// <summary>The target's clients connected from <paramref name="addressPrefix"/> (MIGRATE's connections, as the source's address names them).</summary>
    private static int RestoringClientsFrom(RawClient destination, string addressPrefix)
    {
        int count = 0;
        foreach (var line in destination.Execute("CLIENT", "LIST").Split('\n'))
        {
            if (line.Contains(" laddr=" + addressPrefix) && line.Contains("cmd=restore"))
                count++;
        }
        return count;
    }

    [Test]
    public void AnIdleConnectionIsClosedAfterTenSeconds()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "k", "v");
        Assert.That(Migrate(source, target, "k", "0", "5000"), Is.EqualTo("+OK\r\n"));
        var idle = Stopwatch.StartNew();
        while (destination.Execute("CLIENT", "LIST").Contains("cmd=restore") && idle.Elapsed < TimeSpan.FromSeconds(30))
            System.Threading.Thread.Sleep(200);
        Assert.That(destination.Execute("CLIENT", "LIST"), Does.Not.Contain("cmd=restore"), "closed by the sweep");
        Assert.That(source.Execute("INFO", "stats"), Does.Contain("\r\nmigrate_cached_sockets:0\r\n"));
        Assert.That(idle.Elapsed, Is.GreaterThan(TimeSpan.FromSeconds(9)), "kept while idle for less than 10 seconds");
    }

    [Test]
    public void AClosedCachedConnectionIsReplacedOnce()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("MSET", "a", "1", "b", "2");
        Assert.That(Migrate(source, target, "a", "0", "5000"), Is.EqualTo("+OK\r\n"));
        // The target drops the source's connection; the next MIGRATE finds it closed and connects again.
        Assert.That(destination.Execute("CLIENT", "KILL", "SKIPME", "yes"), Is.EqualTo(":1\r\n"));
        Assert.That(Migrate(source, target, "b", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(destination.Execute("MGET", "a", "b"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
    }

    [Test]
    public void ArgumentErrorsAreRedisOnesAndTheConnectionGoesOn()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "0"), Is.EqualTo("-ERR wrong number of arguments for 'migrate' command\r\n"));
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "0", "10", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "0", "10", "AUTH"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "0", "10", "AUTH2", "user"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "0", "10", "KEYS", "k"),
            Is.EqualTo("-ERR When using MIGRATE KEYS option, the key argument must be set to the empty string\r\n"));
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "0", "soon"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "db", "10"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        // Options are checked before the numbers, as in Redis.
        Assert.That(client.Execute("MIGRATE", "h", "1", "k", "db", "10", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void TheUserNeedsWriteAccessToTheKeys()
    {
        var target = StartTarget();
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "reader", "on", ">pw", "%R~*", "+@all"), Is.EqualTo("+OK\r\n"));
        admin.Execute("SET", "k", "v");
        using var reader = ConnectRaw();
        Assert.That(reader.Execute("AUTH", "reader", "pw"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(reader, target, "k", "0", "5000"), Does.StartWith("-NOPERM"));
        Assert.That(Migrate(reader, target, "", "0", "5000", "KEYS", "k"), Does.StartWith("-NOPERM"));
        Assert.That(admin.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    private static long ConnectionsReceived(RawClient client)
    {
        string info = client.Execute("INFO", "stats");
        int start = info.IndexOf("total_connections_received:", StringComparison.Ordinal) + "total_connections_received:".Length;
        return long.Parse(info.AsSpan(start, info.IndexOf('\r', start) - start));
    }

    /// <summary>A loopback port nothing listens on (one just released).</summary>
    private static int UnusedPort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        int port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        return port;
    }
}
