using NUnit.Framework;

namespace Garnet.test.Transactions;

/// <summary>MULTI, EXEC and DISCARD: queued replies, EXEC's reply array, queuing errors (EXECABORT) and runtime errors.</summary>
public class TransactionCommandTests : ServerTestBase
{
    private const string ExecAbort = "-EXECABORT Transaction discarded because of previous errors.\r\n";

    [Test]
    public void ExecRunsQueuedCommandsAndRepliesInOneArray()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "a", "1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("INCR", "a"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("RPUSH", "l", "x", "y"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*5\r\n+OK\r\n:2\r\n$1\r\n2\r\n:2\r\n*2\r\n$1\r\nx\r\n$1\r\ny\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$1\r\n2\r\n"));
    }

    /// <summary>MULTI and EXEC are found by a fast compare: any case works, and names that differ in one byte are unknown.</summary>
    [Test]
    public void MultiAndExecInAnyCaseAndTheirNearMissesAreUnknown()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("mUlTi"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("incr", "c"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("Exec"), Is.EqualTo("*1\r\n:1\r\n"));
        Assert.That(client.Execute("multi"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("exec"), Is.EqualTo("*0\r\n"));
        foreach (string name in new[] { "MULTY", "MULT", "EXEX", "EXE", "MULTI1", "EXECS", "mULTo" })
            Assert.That(client.Execute(name), Does.StartWith("-ERR unknown command"), name);
    }

    [Test]
    public void QueuedCommandsDoNotRunBeforeExec()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("SET", "a", "1");
        Assert.That(other.Execute("GET", "a"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
        Assert.That(other.Execute("GET", "a"), Is.EqualTo("$1\r\n1\r\n"));
    }

    [Test]
    public void EmptyTransactionRepliesEmptyArray()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void ExecAndDiscardWithoutMultiAreErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-ERR EXEC without MULTI\r\n"));
        Assert.That(client.Execute("DISCARD"), Is.EqualTo("-ERR DISCARD without MULTI\r\n"));
    }

    [Test]
    public void NestedMultiAndWatchInsideMultiAreRefusedWithoutAbortingTheTransaction()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        Assert.That(client.Execute("MULTI"), Is.EqualTo("-ERR MULTI calls can not be nested\r\n"));
        Assert.That(client.Execute("WATCH", "k"), Is.EqualTo("-ERR WATCH inside MULTI is not allowed\r\n"));
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
    }

    [Test]
    public void DiscardDropsTheQueuedCommands()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("DISCARD"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-ERR EXEC without MULTI\r\n"));
    }

    [Test]
    public void UnknownCommandWhileQueuingAbortsExec()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("NOSUCHCOMMAND", "x"), Is.EqualTo("-ERR unknown command 'NOSUCHCOMMAND', with args beginning with: 'x' \r\n"));
        Assert.That(client.Execute("SET", "b", "1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo(ExecAbort));
        Assert.That(client.Execute("EXISTS", "a", "b"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-ERR EXEC without MULTI\r\n"));
    }

    [Test]
    public void ArityErrorWhileQueuingAbortsExec()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        Assert.That(client.Execute("GET"), Is.EqualTo("-ERR wrong number of arguments for 'get' command\r\n"));
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("EXEC"), Is.EqualTo(ExecAbort));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void UnknownSubcommandWhileQueuingAbortsExec()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        Assert.That(client.Execute("CONFIG", "NOSUCH"), Does.StartWith("-ERR unknown subcommand 'NOSUCH'."));
        Assert.That(client.Execute("EXEC"), Is.EqualTo(ExecAbort));
    }

    [Test]
    public void NoMultiCommandIsRefusedAndAbortsExec()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        Assert.That(client.Execute("SHUTDOWN"), Is.EqualTo("-ERR Command not allowed inside a transaction\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo(ExecAbort));
    }

    [Test]
    public void RuntimeErrorsAreReportedPerCommandAndTheOthersRun()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "abc");
        client.Execute("MULTI");
        client.Execute("INCR", "s");
        client.Execute("SET", "t", "1");
        client.Execute("LPUSH", "s", "x");
        client.Execute("INCR", "t");
        Assert.That(client.Execute("EXEC"), Is.EqualTo(
            "*4\r\n-ERR value is not an integer or out of range\r\n+OK\r\n"
            + "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n:2\r\n"));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo("$3\r\nabc\r\n"));
    }

    [Test]
    public void ArgumentsSurviveAcrossBatchesWhileQueued()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        var big = new string('v', 20_000);
        for (int i = 0; i < 50; i++)
            Assert.That(client.Execute("SET", "key" + i, big + i), Is.EqualTo("+QUEUED\r\n"));
        client.Execute("MGET", "key0", "key49");
        string reply = client.Execute("EXEC");
        Assert.That(reply, Does.StartWith("*51\r\n+OK\r\n"));
        Assert.That(reply, Does.EndWith("*2\r\n$20001\r\n" + big + "0\r\n$20002\r\n" + big + "49\r\n"));
    }

    [Test]
    public void PipelinedTransactionInOneBatch()
    {
        using var client = ConnectRaw();
        client.SendRaw(RawClient.Encode("MULTI") + RawClient.Encode("INCR", "n") + RawClient.Encode("INCR", "n") + RawClient.Encode("EXEC"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("*2\r\n:1\r\n:2\r\n"));
    }

    [Test]
    public void BlockingCommandsInsideMultiAnswerAsTimedOut()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("BLPOP", "empty", "0");
        client.Execute("BLMOVE", "empty", "dst", "LEFT", "LEFT", "0");
        client.Execute("BRPOPLPUSH", "empty", "dst", "0");
        client.Execute("BZPOPMIN", "emptyz", "0");
        client.Execute("RPUSH", "l", "x");
        client.Execute("BLPOP", "l", "0");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*6\r\n*-1\r\n$-1\r\n$-1\r\n*-1\r\n:1\r\n*2\r\n$1\r\nl\r\n$1\r\nx\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(0));
    }

    [Test]
    public void SelectInsideMultiSwitchesDatabaseForTheRest()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("SET", "a", "0");
        client.Execute("SELECT", "1");
        client.Execute("SET", "a", "1");
        client.Execute("RENAME", "a", "b");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*4\r\n+OK\r\n+OK\r\n+OK\r\n+OK\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n1\r\n"));
        client.Execute("SELECT", "0");
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$1\r\n0\r\n"));
    }

    [Test]
    public void FlushAllAndKeyspaceCommandsInsideMulti()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "old", "1");
        client.Execute("MULTI");
        client.Execute("KEYS", "*");
        client.Execute("FLUSHALL");
        client.Execute("SET", "new", "1");
        client.Execute("DBSIZE");
        client.Execute("SCAN", "0");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*5\r\n*1\r\n$3\r\nold\r\n+OK\r\n+OK\r\n:1\r\n*2\r\n$1\r\n0\r\n*1\r\n$3\r\nnew\r\n"));
    }

    [Test]
    public void ResetInsideMultiDiscards()
    {
        using var client = ConnectRaw();
        client.Execute("MULTI");
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-ERR EXEC without MULTI\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void Resp3RepliesInsideExec()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("MULTI");
        client.Execute("GET", "missing");
        client.Execute("SADD", "s", "m");
        client.Execute("SMEMBERS", "s");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*3\r\n_\r\n:1\r\n~1\r\n$1\r\nm\r\n"));
    }

    [Test]
    public void SortWithExternalKeysInsideMulti()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "ids", "2", "1");
        client.Execute("SET", "w_1", "10");
        client.Execute("SET", "w_2", "5");
        client.Execute("SET", "o_1", "one");
        client.Execute("SET", "o_2", "two");
        client.Execute("MULTI");
        client.Execute("SORT", "ids", "BY", "w_*", "GET", "o_*", "STORE", "out");
        client.Execute("LRANGE", "out", "0", "-1");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n:2\r\n*2\r\n$3\r\ntwo\r\n$3\r\none\r\n"));
    }

    [Test]
    public void SeRedisTransactionRoundTrip()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StringSet("x", 10);
        var tran = db.CreateTransaction();
        var incr = tran.StringIncrementAsync("x", 5);
        var get = tran.StringGetAsync("x");
        Assert.That(tran.Execute(), Is.True);
        Assert.That(incr.Result, Is.EqualTo(15));
        Assert.That((long)get.Result, Is.EqualTo(15));

        // A condition is WATCH underneath; a failing one aborts. WATCH is what this tests, so the client's
        // advice to use SET IFEQ (Redis 8.4) instead does not apply.
        var conditional = db.CreateTransaction();
#pragma warning disable SER301
        conditional.AddCondition(StackExchange.Redis.Condition.StringEqual("x", 99));
        _ = conditional.StringSetAsync("x", 1);
#pragma warning restore SER301
        Assert.That(conditional.Execute(), Is.False);
        Assert.That((long)db.StringGet("x"), Is.EqualTo(15));
    }

    [Test]
    public void CopyToAnotherDatabaseInsideMulti()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a", "1");
        client.Execute("MULTI");
        client.Execute("COPY", "a", "b", "DB", "2");
        client.Execute("INCR", "a");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n:1\r\n:2\r\n"));
        client.Execute("SELECT", "2");
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n1\r\n"));
    }

    [Test]
    public void MovableKeyCommandsRunUnderTheirLocksInsideMulti()
    {
        using var client = ConnectRaw();
        client.Execute("ZADD", "z1", "1", "a", "2", "b");
        client.Execute("ZADD", "z2", "1", "b");
        client.Execute("SADD", "s1", "a", "b");
        client.Execute("SADD", "s2", "b");
        client.Execute("RPUSH", "l1", "x", "y");
        client.Execute("GEOADD", "g", "13.361389", "38.115556", "Palermo");
        string[][] commands =
        [
            ["ZUNIONSTORE", "zout", "2", "z1", "z2"],
            ["ZINTERCARD", "2", "z1", "z2"],
            ["ZDIFF", "2", "z1", "z2"],
            ["ZMPOP", "2", "z2", "z1", "MIN"],
            ["SINTERCARD", "2", "s1", "s2"],
            ["SINTERSTORE", "sout", "s1", "s2"],
            ["LMPOP", "2", "l0", "l1", "LEFT"],
            ["BLMPOP", "0", "1", "l1", "RIGHT"],
            ["BZMPOP", "0", "1", "z1", "MAX"],
            ["GEORADIUS", "g", "15", "37", "200", "km", "STORE", "gout"],
            ["SORT", "s1", "ALPHA", "STORE", "sorted"],
            ["MEMORY", "USAGE", "s1"],
            ["RPOPLPUSH", "sorted", "l1"],
            ["MSET", "m1", "1", "m2", "2"],
            ["BITOP", "AND", "bout", "m1", "m2"],
            ["PFMERGE", "h", "h1", "h2"],
        ];
        client.Execute("MULTI");
        foreach (var command in commands)
            Assert.That(client.Execute(command), Is.EqualTo("+QUEUED\r\n"), command[0]);
        string reply = client.Execute("EXEC");
        Assert.That(reply, Does.StartWith("*" + commands.Length + "\r\n"));
        Assert.That(reply, Does.Not.Contain("-ERR"));
        Assert.That(client.Execute("ZRANGE", "zout", "0", "-1"), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(client.Execute("ZCARD", "gout"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("LRANGE", "l1", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nb\r\n"));
    }

    [Test]
    public void ClientListShowsAClientInMulti()
    {
        using var client = ConnectRaw();
        using var observer = ConnectRaw();
        Assert.That(observer.Execute("CLIENT", "LIST"), Does.Contain(" multi=-1"));
        client.Execute("MULTI");
        client.Execute("SET", "a", "1");
        client.Execute("INCR", "a");
        string list = observer.Execute("CLIENT", "LIST");
        Assert.That(list, Does.Contain(" flags=x "));
        Assert.That(list, Does.Contain(" multi=2"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n:2\r\n"));
        Assert.That(observer.Execute("CLIENT", "LIST"), Does.Not.Contain(" flags=x "));
    }
}
