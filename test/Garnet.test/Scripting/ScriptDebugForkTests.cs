using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>
/// SCRIPT DEBUG YES: the debugged EVAL runs on a copy of the data (Redis's forked session). Its writes are seen by the
/// script only and are gone when the session ends; other clients are served meanwhile and see the data unchanged;
/// the session ends with the connection closed, and the copy's memory is given back.
/// </summary>
public class ScriptDebugForkTests : ServerTestBase
{
    private static string Log(params string[] lines) => "*" + lines.Length + "\r\n" + string.Concat(System.Array.ConvertAll(lines, l => "+" + l + "\r\n"));

    /// <summary>A client with SCRIPT DEBUG YES on, having sent EVAL of <paramref name="script"/> with <paramref name="keys"/> (no arguments).</summary>
    private RawClient StartForkedSession(string script, params string[] keys)
    {
        var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "DEBUG", "YES"), Is.EqualTo("+OK\r\n"));
        var eval = new string[3 + keys.Length];
        eval[0] = "EVAL";
        eval[1] = script;
        eval[2] = keys.Length.ToString(System.Globalization.CultureInfo.InvariantCulture);
        keys.CopyTo(eval, 3);
        client.Send(eval);
        return client;
    }

    [Test]
    public void WritesAreRolledBackAndOthersNeverSeeThem()
    {
        using var other = ConnectRaw();
        other.Execute("SET", "s", "orig");
        other.Execute("SET", "n", "10");
        other.Execute("SET", "gone", "x");
        other.Execute("RPUSH", "l", "a", "b");
        other.Execute("HSET", "h", "f", "v");
        other.Execute("SADD", "set", "m");
        other.Execute("ZADD", "z", "1", "one");
        using var watcher = ConnectRaw();
        Assert.That(watcher.Execute("WATCH", "s", "l", "h"), Is.EqualTo("+OK\r\n"));

        const string script = "redis.call('set', 's', 'new')\nredis.call('del', 'gone')\nredis.call('incr', 'n')\n"
            + "redis.call('rpush', 'l', 'c')\nredis.call('hset', 'h', 'f', 'w')\nredis.call('sadd', 'set', 'm2')\n"
            + "redis.call('zadd', 'z', 2, 'two')\nredis.call('set', 'fresh', '1')\n"
            + "return {redis.call('get', 's'), redis.call('exists', 'gone'), redis.call('get', 'n'), redis.call('llen', 'l'), "
            + "redis.call('hget', 'h', 'f'), redis.call('scard', 'set'), redis.call('zcard', 'z'), redis.call('get', 'fresh')}";
        using var client = StartForkedSession(script, "s", "n", "gone", "l", "h", "set", "z", "fresh");
        Assert.That(client.ReadReply(), Is.EqualTo(Log("* Stopped at 1, stop reason = step over", "-> 1   redis.call('set', 's', 'new')")));
        Assert.That(client.Execute("b", "9"), Does.Contain("#9"));
        Assert.That(client.Execute("c"), Does.Contain("Stopped at 9, stop reason = break point"));

        // Stopped after all the writes: the server's data is unchanged, and other clients are served.
        Assert.That(other.Execute("GET", "s"), Is.EqualTo(Bulk("orig")));
        Assert.That(other.Execute("EXISTS", "gone", "fresh"), Is.EqualTo(":1\r\n"));
        Assert.That(other.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo("*2\r\n" + Bulk("a") + Bulk("b")));
        Assert.That(other.Execute("HGET", "h", "f"), Is.EqualTo(Bulk("v")));
        Assert.That(other.Execute("EVAL", "return redis.call('incr', KEYS[1])", "1", "n"), Is.EqualTo(":11\r\n"), "no key of the script is locked");

        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo("*8\r\n" + Bulk("new") + ":0\r\n" + Bulk("11") + ":3\r\n" + Bulk("w") + ":2\r\n:2\r\n" + Bulk("1")),
            "the script saw its own writes, on the data as it was when it began");
        Assert.That(client.IsClosedByServer(), Is.True, "the session ends the connection, as Redis's child exiting does");

        Assert.That(other.Execute("GET", "s"), Is.EqualTo(Bulk("orig")));
        Assert.That(other.Execute("GET", "n"), Is.EqualTo(Bulk("11")));
        Assert.That(other.Execute("EXISTS", "gone", "fresh"), Is.EqualTo(":1\r\n"));
        Assert.That(other.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo("*2\r\n" + Bulk("a") + Bulk("b")));
        Assert.That(other.Execute("HGETALL", "h"), Is.EqualTo("*2\r\n" + Bulk("f") + Bulk("v")));
        Assert.That(other.Execute("SMEMBERS", "set"), Is.EqualTo("*1\r\n" + Bulk("m")));
        Assert.That(other.Execute("ZRANGE", "z", "0", "-1"), Is.EqualTo("*1\r\n" + Bulk("one")));
        Assert.That(watcher.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(watcher.Execute("GET", "s"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(watcher.Execute("EXEC"), Is.EqualTo("*1\r\n" + Bulk("orig")), "the copy's writes do not touch a watch on the real keys");
    }

    [Test]
    public void TheScriptReadsTheDataAsItWasWhenItBegan()
    {
        using var other = ConnectRaw();
        other.Execute("SET", "r", "before");
        other.Execute("SET", "ttl", "v", "PX", "100000");
        other.Execute("SELECT", "3");
        other.Execute("SET", "indb3", "three");
        other.Execute("SELECT", "0");

        using var client = StartForkedSession("local t = redis.call('pttl', 'ttl')\nlocal v = redis.call('get', KEYS[1])\n"
            + "redis.call('select', 3)\nlocal d = redis.call('get', 'indb3')\nredis.call('flushall')\nreturn {v, t > 0 and t <= 100000 and 1 or 0, d, redis.call('dbsize')}", "r");
        client.ReadReply();
        // Changed after the copy: the script does not see it.
        Assert.That(other.Execute("SET", "r", "after"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo("*4\r\n" + Bulk("before") + ":1\r\n" + Bulk("three") + ":0\r\n"),
            "values, expirations and the other databases were copied");
        Assert.That(client.IsClosedByServer(), Is.True);

        Assert.That(other.Execute("GET", "r"), Is.EqualTo(Bulk("after")));
        Assert.That(other.Execute("SELECT", "3"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("GET", "indb3"), Is.EqualTo(Bulk("three")), "the script's FLUSHALL emptied only its copy");
    }

    [Test]
    public void TheSessionsWritesRaiseNoEventsForOthers()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "notify-keyspace-events", "KA"), Is.EqualTo("+OK\r\n"));
        using var subscriber = ConnectRaw();
        Assert.That(subscriber.Execute("PSUBSCRIBE", "__keyspace@0__:*", "chan"), Does.StartWith("*3\r\n"));
        Assert.That(subscriber.ReadReply(), Does.Contain("chan"));
        // A tracking client reads the keys, its invalidations going to another connection.
        using var invalidations = ConnectRaw();
        string invalidationsId = invalidations.Execute("CLIENT", "ID").Trim(':', '\r', '\n');
        Assert.That(invalidations.Execute("SUBSCRIBE", "__redis__:invalidate"), Does.StartWith("*3\r\n"));
        using var tracker = ConnectRaw();
        Assert.That(tracker.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", invalidationsId), Is.EqualTo("+OK\r\n"));
        admin.Execute("SET", "watched", "v");
        Assert.That(subscriber.ReadReply(), Does.Contain("watched"));
        Assert.That(tracker.Execute("GET", "watched"), Is.EqualTo(Bulk("v")));
        Assert.That(tracker.Execute("GET", "marker"), Is.EqualTo("$-1\r\n"));

        using var blocked = ConnectRaw();
        blocked.Send("BLPOP", "queue", "0");
        Assert.That(() => admin.Execute("CLIENT", "LIST"), Does.Contain("cmd=blpop").After(5000, 20));

        using var client = StartForkedSession("redis.call('set', KEYS[1], 'fork')\nredis.call('del', KEYS[1])\nredis.call('rpush', 'queue', 'fork')\n"
            + "return redis.call('publish', 'chan', 'fork')", "watched");
        client.ReadReply();
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(":0\r\n"), "nobody hears the copy's PUBLISH, as in a forked child");
        Assert.That(client.IsClosedByServer(), Is.True);

        // The next event each connection gets is from a write made after the session, not from the script's.
        Assert.That(admin.Execute("SET", "marker", "m"), Is.EqualTo("+OK\r\n"));
        Assert.That(subscriber.ReadReply(), Does.Contain("__keyspace@0__:marker"));
        Assert.That(invalidations.ReadReply(), Does.Contain("marker").And.Not.Contain("watched"));
        Assert.That(admin.Execute("GET", "watched"), Is.EqualTo(Bulk("v")));
        Assert.That(admin.Execute("RPUSH", "queue", "real"), Is.EqualTo(":1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n" + Bulk("queue") + Bulk("real")), "the copy's push woke nobody");
    }

    [Test]
    public void TheCopyIsDroppedWhenTheSessionEnds()
    {
        using var other = ConnectRaw();
        for (int i = 0; i < 200; i++)
            other.Execute("SET", "mem" + i, new string('x', 1000));
        var forks = Server.Store.ForkedDebugSessions;
        Assert.That(forks.Count, Is.EqualTo(0));

        using var client = ConnectRaw();
        string id = client.Execute("CLIENT", "ID").Trim(':', '\r', '\n');
        Assert.That(client.Execute("SCRIPT", "DEBUG", "YES"), Is.EqualTo("+OK\r\n"));
        client.Send("EVAL", "return redis.call('dbsize')", "0");
        client.ReadReply();
        Assert.That(forks.Count, Is.EqualTo(1));
        Assert.That(other.Execute("CLIENT", "LIST"), Does.Not.Contain("id=" + id + " "), "as Redis's parent frees the client it forked for");
        Assert.That(forks.MemoryBytes, Is.GreaterThan(200 * 1000), "the copy holds the values");
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(":200\r\n"));
        Assert.That(client.IsClosedByServer(), Is.True);
        Assert.That(() => forks.Count, Is.EqualTo(0).After(5000, 20));
        Assert.That(forks.MemoryBytes, Is.EqualTo(0));

        // A client that leaves mid-session: its script runs on in the copy, which then goes too.
        var leaving = StartForkedSession("redis.call('set', 'mem0', 'changed')\nreturn 1");
        leaving.ReadReply();
        Assert.That(forks.Count, Is.EqualTo(1));
        leaving.Dispose();
        Assert.That(() => forks.Count, Is.EqualTo(0).After(5000, 20));
        Assert.That(other.Execute("STRLEN", "mem0"), Is.EqualTo(":1000\r\n"));
    }

    [Test]
    public void ACopyThatDoesNotFitFailsLikeAFork()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 50; i++)
            client.Execute("SET", "big" + i, new string('x', 1000));
        // Below what the data takes now: the copy, which never evicts, cannot be made.
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "10000"), Is.EqualTo("+OK\r\n"));
        try
        {
            Assert.That(client.Execute("SCRIPT", "DEBUG", "YES"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("EVAL", "return redis.call('set', 'big0', 'changed')", "0"),
                Is.EqualTo("-ERR Fork() failed: can't run EVAL in debugging mode: Cannot allocate memory\r\n"));
            Assert.That(Server.Store.ForkedDebugSessions.Count, Is.EqualTo(0));
            Assert.That(client.Execute("EVAL", "return redis.call('strlen', 'big0')", "0"), Is.EqualTo(":1000\r\n"), "the debugger is off and the connection stays");
        }
        finally
        {
            client.Execute("CONFIG", "SET", "maxmemory", "0");
        }
    }

    [Test]
    public void StoppingTheServerEndsASessionItsLoopingScriptToo()
    {
        var forks = Server.Store.ForkedDebugSessions;
        using var client = StartForkedSession("local i = 0\nwhile true do\n  i = i + 1\nend");
        client.ReadReply();
        Assert.That(forks.Count, Is.EqualTo(1));
        Server.Dispose();
        Assert.That(client.IsClosedByServer(), Is.True);
        Assert.That(forks.Count, Is.EqualTo(0), "the server stops only once the session's copy is gone");
    }

    [Test]
    public void ErrorsBeforeTheScriptRunsEndTheSession()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "DEBUG", "YES"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EVALSHA", Sha1("return 1"), "0"), Is.EqualTo("-ERR Please use EVAL instead of EVALSHA for debugging\r\n"));
        client.Send("EVAL", "return +", "0");
        Assert.That(client.ReadReply(), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Does.StartWith("-ERR Error compiling script"));
        Assert.That(client.IsClosedByServer(), Is.True);
        Assert.That(() => Server.Store.ForkedDebugSessions.Count, Is.EqualTo(0).After(5000, 20));
    }

    [Test]
    public void RedisCliDebugsAScriptAndRollsItBack()
    {
        string output = ScriptDebugTests.RunRedisCli(Port, "--ldb", "s\np\nc\n");
        Assert.That(output, Does.Contain("* Stopped at 1, stop reason = step over"));
        Assert.That(output, Does.Contain("-> 2   redis.call('set', KEYS[1], ARGV[1])"));
        Assert.That(output, Does.Contain("<value> a = 1"));
        Assert.That(output, Does.Contain("(integer) 1"));
        Assert.That(output, Does.Contain("(Lua debugging session ended -- dataset changes rolled back)"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("EXISTS", "clikey"), Is.EqualTo(":0\r\n"), "YES rolls the script's changes back");
        Assert.That(() => Server.Store.ForkedDebugSessions.Count, Is.EqualTo(0).After(5000, 20));
    }
}

/// <summary>The same with one event-loop thread serving every connection: a paused forked session must leave it free.</summary>
public class ScriptDebugForkOneLoopTests : ScriptDebugForkTests
{
    protected override TestServerOptions ServerOptions => new() { EventLoops = 1 };
}

/// <summary>A forked session's writes never reach the operation log: after a restart that replays it, they are not there.</summary>
[TestFixture]
public sealed class ScriptDebugForkOperationLogTests
{
    private Durability.OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new Durability.OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    [Test]
    public void TheSessionsWritesAreNotLogged()
    {
        _server.Start();
        using (var client = _server.Connect())
        {
            Assert.That(client.Execute("SET", "kept", "before"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("SCRIPT", "DEBUG", "YES"), Is.EqualTo("+OK\r\n"));
            client.Send("EVAL", "redis.call('set', 'kept', 'fork')\nredis.call('set', 'forked', '1')\nreturn 1", "0");
            client.ReadReply();
            Assert.That(client.Execute("c"), Is.EqualTo("*1\r\n+<endsession>\r\n"));
            Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"));
            Assert.That(client.IsClosedByServer(), Is.True);
        }
        using (var client = _server.Connect())
            Assert.That(client.Execute("SET", "after", "1"), Is.EqualTo("+OK\r\n"));
        _server.Restart();
        using var restarted = _server.Connect();
        Assert.That(restarted.Execute("MGET", "kept", "forked", "after"), Is.EqualTo("*3\r\n" + Bulk("before") + "$-1\r\n" + Bulk("1")));
    }
}

/// <summary>
/// On a server with a storage tier, whose data is mostly on disk: the copy reads it back and keeps its own pages in files
/// of its own, so a data set larger than memory can be debugged, and rolled back.
/// </summary>
public sealed class ScriptDebugForkStorageTierTests : ServerTestBase
{
    private const long Memory = 4L << 20;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        MaxMemory = Memory,
        Databases = 2,
        StorageTier = true,
    };

    [Test]
    public void DataOnDiskIsCopiedAndRolledBack()
    {
        using var client = ConnectRaw();
        string value = new('v', 500);
        const int Keys = 30_000; // about four times the memory
        for (int start = 0; start < Keys; start += 500)
        {
            var batch = new System.Text.StringBuilder();
            for (int i = start; i < start + 500; i++)
                batch.Append(RawClient.Encode("SET", "disk:" + i, value));
            client.SendRaw(batch.ToString());
            for (int i = start; i < start + 500; i++)
                Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        }

        using var session = ConnectRaw();
        Assert.That(session.Execute("SCRIPT", "DEBUG", "YES"), Is.EqualTo("+OK\r\n"));
        session.Send("EVAL", "redis.call('set', 'disk:0', 'changed')\nreturn {redis.call('dbsize'), redis.call('get', 'disk:0'), redis.call('strlen', 'disk:29999')}", "0");
        session.ReadReply();
        Assert.That(session.Execute("c"), Is.EqualTo("*1\r\n+<endsession>\r\n"));
        Assert.That(session.ReadReply(), Is.EqualTo("*3\r\n:30000\r\n$7\r\nchanged\r\n:500\r\n"));
        Assert.That(session.IsClosedByServer(), Is.True);

        Assert.That(client.Execute("STRLEN", "disk:0"), Is.EqualTo(":500\r\n"));
        Assert.That(() => Server.Store.ForkedDebugSessions.Count, Is.EqualTo(0).After(5000, 20));
        Assert.That(System.IO.Directory.GetDirectories(LogDirectory!, "debug-fork-*"), Is.Empty, "the copy's files are gone");
    }
}
