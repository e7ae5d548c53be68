using System.Threading;
using NUnit.Framework;

namespace Garnet.test.ETag;

/// <summary>
/// What the other commands do to a key's ETag, as Garnet documents: writes that change the value advance it, SET without
/// WITHETAG, MSET and BITOP drop it, reads and expiration changes leave it; and the ETag commands in MULTI and Lua.
/// </summary>
public sealed class ETagInteractionTests : ServerTestBase
{
    private static string ETagOf(RawClient c, string key)
    {
        string reply = c.Execute("GETWITHETAG", key);
        int start = reply.IndexOf(':') + 1;
        return reply.Substring(start, reply.IndexOf('\r', start) - start);
    }

    [Test]
    public void WritesThatChangeTheValueAdvanceTheETag()
    {
        using var c = ConnectRaw();
        c.Execute("SET", "n", "10", "WITHETAG");
        Assert.That(c.Execute("INCR", "n"), Is.EqualTo(":11\r\n"));
        Assert.That(ETagOf(c, "n"), Is.EqualTo("2"));
        c.Execute("INCRBY", "n", "5");
        c.Execute("DECR", "n");
        c.Execute("DECRBY", "n", "2");
        c.Execute("INCRBYFLOAT", "n", "0.5");
        Assert.That(c.Execute("GETWITHETAG", "n"), Is.EqualTo("*2\r\n:6\r\n$4\r\n13.5\r\n"));

        c.Execute("SET", "s", "abc", "WITHETAG");
        Assert.That(c.Execute("APPEND", "s", "def"), Is.EqualTo(":6\r\n"));
        Assert.That(c.Execute("SETRANGE", "s", "1", "XY"), Is.EqualTo(":6\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "s"), Is.EqualTo("*2\r\n:3\r\n$6\r\naXYdef\r\n"));
        c.Execute("SETBIT", "s", "0", "1");
        Assert.That(ETagOf(c, "s"), Is.EqualTo("4"));
        c.Execute("BITFIELD", "s", "SET", "u8", "8", "65");
        Assert.That(ETagOf(c, "s"), Is.EqualTo("5"));

        // HyperLogLogs: PFADD and PFMERGE change the value of a key that has an ETag.
        const string copyWithETag = "redis.call('PFADD', 'h', 'a') "
            + "redis.call('SET', KEYS[1], redis.call('GET', 'h'), 'WITHETAG') "
            + "redis.call('PFADD', KEYS[1], 'b') redis.call('PFADD', 'h2', 'c') redis.call('PFMERGE', KEYS[1], 'h2') "
            + "return {redis.call('GETWITHETAG', KEYS[1])[1], redis.call('PFCOUNT', KEYS[1])}";
        Assert.That(c.Execute("EVAL", copyWithETag, "1", "hll"), Is.EqualTo("*2\r\n:3\r\n:3\r\n"));
    }

    [Test]
    public void AGrowingValueMovesToANewRecordWithItsETag()
    {
        using var c = ConnectRaw();
        c.Execute("SET", "g", "x", "WITHETAG");
        // Each APPEND outgrows the record's slack now and then: the copy keeps (and advances) the ETag.
        string chunk = new('a', 200);
        for (int i = 0; i < 40; i++)
            c.Execute("APPEND", "g", chunk);
        Assert.That(ETagOf(c, "g"), Is.EqualTo("41"));
        Assert.That(c.Execute("STRLEN", "g"), Is.EqualTo(":8001\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "g", "small", "41"), Is.EqualTo("*2\r\n:42\r\n$-1\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "g", new string('b', 20000), "42"), Is.EqualTo("*2\r\n:43\r\n$-1\r\n"));
        Assert.That(c.Execute("STRLEN", "g"), Is.EqualTo(":20000\r\n"));
    }

    [Test]
    public void ReadsAndExpirationChangesLeaveTheETag()
    {
        using var c = ConnectRaw();
        c.Execute("SET", "k", "hello", "WITHETAG");
        c.Execute("SET", "k", "hello", "WITHETAG");
        c.Execute("GET", "k");
        c.Execute("MGET", "k", "other");
        c.Execute("STRLEN", "k");
        c.Execute("GETRANGE", "k", "0", "1");
        c.Execute("EXPIRE", "k", "100");
        c.Execute("PEXPIRE", "k", "200000");
        c.Execute("GETEX", "k", "EX", "300");
        c.Execute("PERSIST", "k");
        c.Execute("TTL", "k");
        c.Execute("TOUCH", "k");
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo("*2\r\n:2\r\n$5\r\nhello\r\n"));
        Assert.That(c.Execute("GETDEL", "k"), Is.EqualTo("$5\r\nhello\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void SetWithoutWithETagMsetAndBitopDropTheETag()
    {
        using var c = ConnectRaw();
        foreach (var drop in new[] { new[] { "SET", "k", "new" }, new[] { "SET", "k", "new", "KEEPTTL" }, new[] { "SET", "k", "new", "XX" },
                     new[] { "SET", "k", "new", "GET" }, new[] { "GETSET", "k", "new" }, new[] { "MSET", "k", "new" }, new[] { "SETEX", "k", "100", "new" } })
        {
            c.Execute("SET", "k", "old", "WITHETAG");
            c.Execute("SET", "k", "old", "WITHETAG");
            Assert.That(c.Execute(drop), Does.Not.StartWith("-"), string.Join(' ', drop));
            Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo("*2\r\n:0\r\n$3\r\nnew\r\n"), string.Join(' ', drop));
            c.Execute("DEL", "k");
        }
        c.Execute("SET", "a", "x");
        c.Execute("SET", "dest", "y", "WITHETAG");
        c.Execute("BITOP", "NOT", "dest", "a");
        Assert.That(ETagOf(c, "dest"), Is.EqualTo("0"));
        // A key deleted and written again starts over.
        c.Execute("SET", "r", "1", "WITHETAG");
        c.Execute("SET", "r", "2", "WITHETAG");
        c.Execute("DEL", "r");
        Assert.That(c.Execute("SET", "r", "3", "WITHETAG"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void AnExpiredKeyIsMissingToTheETagCommands()
    {
        using var c = ConnectRaw();
        c.Execute("SET", "k", "v", "PX", "50", "WITHETAG");
        c.Execute("SET", "k", "v", "PX", "50", "WITHETAG");
        Thread.Sleep(120);
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(c.Execute("GETIFNOTMATCH", "k", "2"), Is.EqualTo("$-1\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "k", "9"), Is.EqualTo(":0\r\n"));
        c.Execute("SET", "k", "v", "PX", "50", "WITHETAG");
        Thread.Sleep(120);
        // Created anew: SETIFMATCH counts the ETag given as the key's.
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "4"), Is.EqualTo("*2\r\n:5\r\n$-1\r\n"));
        c.Execute("SETIFGREATER", "e", "v", "3", "PX", "50");
        Thread.Sleep(120);
        Assert.That(c.Execute("SET", "e", "w", "WITHETAG"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void InMultiExec()
    {
        using var c = ConnectRaw();
        c.Execute("MULTI");
        Assert.That(c.Execute("SET", "t", "a", "WITHETAG"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "t", "b", "1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(c.Execute("GETIFNOTMATCH", "t", "1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "t"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "t", "3"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(c.Execute("EXEC"), Is.EqualTo("*5\r\n:1\r\n*2\r\n:2\r\n$-1\r\n*2\r\n:2\r\n$1\r\nb\r\n*2\r\n:2\r\n$1\r\nb\r\n:1\r\n"));

        // An arity error is found when queued and fails the transaction.
        c.Execute("MULTI");
        Assert.That(c.Execute("SETIFGREATER", "t", "x"), Does.StartWith("-ERR wrong number of arguments"));
        Assert.That(c.Execute("EXEC"), Does.StartWith("-EXECABORT"));

        // WATCH sees an ETag write as a change of the key.
        c.Execute("SET", "w", "1", "WITHETAG");
        c.Execute("WATCH", "w");
        using (var other = ConnectRaw())
            Assert.That(other.Execute("SETIFMATCH", "w", "2", "1"), Is.EqualTo("*2\r\n:2\r\n$-1\r\n"));
        c.Execute("MULTI");
        c.Execute("GET", "w");
        Assert.That(c.Execute("EXEC"), Is.EqualTo("*-1\r\n"));
    }

    [Test]
    public void FromLua()
    {
        using var c = ConnectRaw();
        const string script = "local e = redis.call('SET', KEYS[1], 'a', 'WITHETAG') "
            + "local r = redis.call('SETIFMATCH', KEYS[1], 'b', e) "
            + "local g = redis.call('GETWITHETAG', KEYS[1]) "
            + "return {e, r[1], g[1], g[2], redis.call('DELIFGREATER', KEYS[1], 9)}";
        Assert.That(c.Execute("EVAL", script, "1", "lk"), Is.EqualTo("*5\r\n:1\r\n:2\r\n:2\r\n$1\r\nb\r\n:1\r\n"));
        Assert.That(c.Execute("EVAL", "return redis.pcall('GETIFNOTMATCH', KEYS[1], 'no')", "1", "lk"),
            Does.StartWith("-ETAG must be a numerical value"));
        // A read-only script may read ETags but not write them.
        Assert.That(c.Execute("EVAL_RO", "return redis.call('GETWITHETAG', KEYS[1])", "1", "lk"), Is.EqualTo("$-1\r\n"));
        Assert.That(c.Execute("EVAL_RO", "return redis.call('SETIFGREATER', KEYS[1], 'v', 1)", "1", "lk"), Does.StartWith("-ERR"));
    }

    [Test]
    public void CommandInfoAndAcl()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("COMMAND", "INFO", "SETIFMATCH"), Does.Contain("setifmatch").And.Contain("@string"));
        c.Execute("ACL", "SETUSER", "reader", "on", "nopass", "~*", "+@read");
        Assert.That(c.Execute("AUTH", "reader", "x"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "v", "0"), Does.StartWith("-NOPERM"));
    }
}
