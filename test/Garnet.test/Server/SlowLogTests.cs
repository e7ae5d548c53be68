using System.Linq;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Server;

/// <summary>SLOWLOG GET/LEN/RESET/HELP and the slow log's parameters, as Redis 7.2 has them.</summary>
public class SlowLogTests : ServerTestBase
{
    [Test]
    public void ACommandSlowerThanTheThresholdIsLoggedWithItsArgumentsAndClient()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "50000"), Is.EqualTo("+OK\r\n"));
        client.Execute("CLIENT", "SETNAME", "sleeper");
        client.Execute("SET", "fast", "1");
        client.Execute("DEBUG", "SLEEP", "0.1");
        Assert.That(client.Execute("SLOWLOG", "LEN"), Is.EqualTo(":1\r\n"));

        using var redis = Connect();
        var entries = redis.GetServer(redis.GetEndPoints()[0]).SlowlogGet(10);
        Assert.That(entries, Has.Length.EqualTo(1));
        Assert.That(entries[0].Arguments.Select(a => (string)a!), Is.EqualTo(new[] { "DEBUG", "SLEEP", "0.1" }));
        Assert.That(entries[0].Duration.TotalMilliseconds, Is.GreaterThanOrEqualTo(100));
        Assert.That(entries[0].Time, Is.EqualTo(System.DateTime.UtcNow).Within(System.TimeSpan.FromMinutes(1)));

        // The raw entry: id, time, microseconds, arguments, address, name.
        string raw = client.Execute("SLOWLOG", "GET");
        Assert.That(raw, Does.StartWith("*1\r\n*6\r\n:0\r\n:"));
        Assert.That(raw, Does.Contain("*3\r\n$5\r\nDEBUG\r\n$5\r\nSLEEP\r\n$3\r\n0.1\r\n$15\r\n127.0.0.1:"));
        Assert.That(raw, Does.EndWith("$7\r\nsleeper\r\n"));
    }

    [Test]
    public void ZeroLogsEveryCommandAndNegativeNone()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.Execute("SET", "k", "v");
        // Pipelined commands share their stretch's time, and each is logged with its own arguments.
        client.SendRaw("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*2\r\n$3\r\nGET\r\n$2\r\nkk\r\n*3\r\n$4\r\nECHO\r\n$1\r\nx\r\n$1\r\ny\r\n");
        Assert.That(client.ReadReply(), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("$-1\r\n"));
        Assert.That(client.ReadReply(), Does.StartWith("-ERR wrong number of arguments"));
        string newest = client.Execute("SLOWLOG", "GET", "3");
        // Newest first: the ECHO refused for its arity never ran, so it is not there.
        Assert.That(newest, Does.StartWith("*3\r\n*6\r\n:"));
        int first = newest.IndexOf("GET\r\n$2\r\nkk", System.StringComparison.Ordinal);
        int second = newest.IndexOf("GET\r\n$1\r\nk\r\n", System.StringComparison.Ordinal);
        Assert.That(first, Is.GreaterThan(0));
        Assert.That(second, Is.GreaterThan(first));
        Assert.That(newest, Does.Not.Contain("ECHO"));

        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "-1");
        Assert.That(client.Execute("SLOWLOG", "RESET"), Is.EqualTo("+OK\r\n"));
        client.Execute("GET", "k");
        client.Execute("DEBUG", "SLEEP", "0.01");
        Assert.That(client.Execute("SLOWLOG", "LEN"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SLOWLOG", "GET"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void InlineCommandsAreLoggedAsParsedAndNothingElseReachesTheClient()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        // An inline command's quotes are undone in place when it is parsed: logging it must not parse it again.
        client.SendRaw("SET q \"a b\"\r\nGET q\r\n*2\r\n$3\r\nGET\r\n$1\r\nq\r\nPING\r\n");
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("$3\r\na b\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("$3\r\na b\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+PONG\r\n"));
        string log = client.Execute("SLOWLOG", "GET", "4");
        Assert.That(log, Does.Contain("$3\r\nSET\r\n$1\r\nq\r\n$3\r\na b\r\n"));
        Assert.That(log, Does.Contain("$4\r\nPING\r\n"));
        Assert.That(client.Execute("INFO", "stats"), Does.Contain("total_error_replies:0"));

        client.Execute("ACL", "SETUSER", "someone", "on", ">pw1234");
        Assert.That(client.Execute("SLOWLOG", "GET", "2"), Does.Not.Contain("pw1234"));
    }

    [Test]
    public void LongArgumentListsAndStringsAreCutAsRedisCutsThem()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        var arguments = new[] { "RPUSH", "list" }.Concat(Enumerable.Range(0, 40).Select(i => i.ToString())).Append(new string('y', 200)).ToArray();
        client.Execute(arguments);
        using var redis = Connect();
        var entry = redis.GetServer(redis.GetEndPoints()[0]).SlowlogGet(100).First(e => (string)e.Arguments[0]! == "RPUSH");
        Assert.That(entry.Arguments, Has.Length.EqualTo(32));
        Assert.That((string)entry.Arguments[31]!, Is.EqualTo("... (12 more arguments)"));

        client.Execute("SET", "s", new string('z', 200));
        string raw = client.Execute("SLOWLOG", "GET", "-1");
        Assert.That(raw, Does.Contain("$147\r\n" + new string('z', 128) + "... (72 more bytes)\r\n"));
    }

    [Test]
    public void MaxLenKeepsTheNewestAndIdsGoOnAfterReset()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.Execute("CONFIG", "SET", "slowlog-max-len", "3");
        for (int i = 0; i < 10; i++)
            client.Execute("PING");
        Assert.That(client.Execute("SLOWLOG", "LEN"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("SLOWLOG", "GET", "-1"), Does.StartWith("*3\r\n"));
        Assert.That(client.Execute("SLOWLOG", "GET", "1"), Does.StartWith("*1\r\n*6\r\n:"));
        client.Execute("SLOWLOG", "RESET");
        client.Execute("PING");
        string after = client.Execute("SLOWLOG", "GET", "1");
        long id = long.Parse(after.Split("\r\n")[2].TrimStart(':'));
        Assert.That(id, Is.GreaterThan(10));
        Assert.That(client.Execute("CONFIG", "GET", "slowlog-max-len"), Is.EqualTo("*2\r\n$15\r\nslowlog-max-len\r\n$1\r\n3\r\n"));
    }

    [Test]
    public void ArgumentsAndParametersAreCheckedWithRedisErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SLOWLOG", "GET", "-2"), Is.EqualTo("-ERR count should be greater than or equal to -1\r\n"));
        Assert.That(client.Execute("SLOWLOG", "GET", "x"), Is.EqualTo("-ERR count should be greater than or equal to -1\r\n"));
        Assert.That(client.Execute("SLOWLOG", "GET", "1", "2"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP.\r\n"));
        Assert.That(client.Execute("SLOWLOG", "LEN", "1"), Does.StartWith("-ERR"));
        Assert.That(client.Execute("SLOWLOG", "NOPE"), Does.StartWith("-ERR unknown subcommand 'NOPE'. Try SLOWLOG HELP."));
        Assert.That(client.Execute("SLOWLOG", "HELP"), Does.StartWith("*12\r\n+SLOWLOG <subcommand>"));
        Assert.That(client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "-2"), Does.StartWith("-ERR CONFIG SET failed"));
        Assert.That(client.Execute("CONFIG", "SET", "slowlog-max-len", "x"), Does.StartWith("-ERR CONFIG SET failed"));
        Assert.That(client.Execute("CONFIG", "GET", "slowlog-log-slower-than"), Is.EqualTo("*2\r\n$23\r\nslowlog-log-slower-than\r\n$5\r\n10000\r\n"));
        // The slow log leaves out what Redis leaves out (EXEC's commands are logged on their own).
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.Execute("SLOWLOG", "RESET");
        client.Execute("MULTI");
        client.Execute("INCR", "n");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n:1\r\n"));
        string log = client.Execute("SLOWLOG", "GET", "-1");
        Assert.That(log, Does.Contain("INCR"));
        Assert.That(log, Does.Not.Contain("EXEC"));

        // Passwords never reach the log.
        client.Execute("CONFIG", "SET", "requirepass", "sekrit");
        client.Execute("AUTH", "sekrit");
        log = client.Execute("SLOWLOG", "GET", "-1");
        Assert.That(log, Does.Not.Contain("sekrit"));
        Assert.That(log, Does.Contain("requirepass\r\n$10\r\n(redacted)\r\n"));
        Assert.That(log, Does.Contain("$4\r\nAUTH\r\n$10\r\n(redacted)\r\n"));
        client.Execute("CONFIG", "SET", "requirepass", "");
    }
}
