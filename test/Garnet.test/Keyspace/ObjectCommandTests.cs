using System.Threading;
using NUnit.Framework;
using StackExchange.Redis;
using Tsavorite;

namespace Garnet.test.Keyspace;

/// <summary>
/// OBJECT ENCODING / REFCOUNT / IDLETIME / FREQ / HELP: replies and errors, and which commands count as an
/// access of a key (reads, writes and TOUCH do; TTL, TYPE, EXISTS, MEMORY USAGE and OBJECT do not). Access
/// times are set with RESTORE ... IDLETIME or FREQ rather than waited for. The encodings of each type are
/// tested with the type (*EncodingTests).
/// </summary>
/// <remarks>
/// Until CONFIG SET maxmemory-policy exists, the LFU tests switch the policy on the database's memory budget.
/// </remarks>
public class ObjectCommandTests : ServerTestBase
{
    private MemoryBudget Budget => Server.Store.GetDatabase(0).MainStore.Budget;

    /// <summary>Switches to an LFU policy whose counters do not decay during the test.</summary>
    private void UseLfu()
    {
        Budget.Policy = EvictionPolicy.AllKeysLfu;
        Budget.LfuDecayTime = 0;
    }

    /// <summary>A DUMP payload of a string, to RESTORE with an access time.</summary>
    private static string DumpOf(RawClient client, string value)
    {
        client.Execute("SET", "dump-source", value);
        string payload = Resp.Bulk(client.Execute("DUMP", "dump-source"))!;
        client.Execute("DEL", "dump-source");
        return payload;
    }

    [Test]
    public void ArityAndUnknownSubcommandErrorsAreRedis()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("OBJECT"), Is.EqualTo("-ERR wrong number of arguments for 'object' command\r\n"));
        Assert.That(client.Execute("OBJECT", "ENCODING"), Is.EqualTo("-ERR wrong number of arguments for 'object|encoding' command\r\n"));
        Assert.That(client.Execute("OBJECT", "refcount", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'object|refcount' command\r\n"));
        Assert.That(client.Execute("OBJECT", "IDLETIME"), Is.EqualTo("-ERR wrong number of arguments for 'object|idletime' command\r\n"));
        Assert.That(client.Execute("OBJECT", "FREQ", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'object|freq' command\r\n"));
        Assert.That(client.Execute("OBJECT", "HELP", "x"), Is.EqualTo("-ERR wrong number of arguments for 'object|help' command\r\n"));
        Assert.That(client.Execute("OBJECT", "foo", "k"), Is.EqualTo("-ERR unknown subcommand 'foo'. Try OBJECT HELP.\r\n"));
    }

    [Test]
    public void HelpListsTheSubcommands()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("object", "help"), Is.EqualTo(
            "*15\r\n" +
            "+OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n" +
            "+ENCODING <key>\r\n" +
            "+    Return the kind of internal representation used in order to store the value\r\n" +
            "+    associated with a <key>.\r\n" +
            "+FREQ <key>\r\n" +
            "+    Return the access frequency index of the <key>. The returned integer is\r\n" +
            "+    proportional to the logarithm of the recent access frequency of the key.\r\n" +
            "+IDLETIME <key>\r\n" +
            "+    Return the idle time of the <key>, that is the approximated number of\r\n" +
            "+    seconds elapsed since the last access to the key.\r\n" +
            "+REFCOUNT <key>\r\n" +
            "+    Return the number of references of the value associated with the specified\r\n" +
            "+    <key>.\r\n" +
            "+HELP\r\n" +
            "+    Print this help.\r\n"));
    }

    [TestCase("ENCODING")]
    [TestCase("REFCOUNT")]
    [TestCase("IDLETIME")]
    [TestCase("FREQ")]
    public void MissingKeyIsNilWhateverThePolicy(string subcommand)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("OBJECT", subcommand, "missing"), Is.EqualTo("$-1\r\n"));
        client.Execute("SET", "gone", "v", "PX", "1");
        Thread.Sleep(5);
        Assert.That(client.Execute("OBJECT", subcommand, "gone"), Is.EqualTo("$-1\r\n"));
        UseLfu();
        Assert.That(client.Execute("OBJECT", subcommand, "missing"), Is.EqualTo("$-1\r\n"));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("OBJECT", subcommand, "missing"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void EncodingIsABulkStringForEveryType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "hello");
        client.Execute("RPUSH", "l", "a");
        client.Execute("HSET", "h", "f", "v");
        client.Execute("SADD", "st", "1");
        client.Execute("ZADD", "z", "1", "m");
        Assert.That(client.Execute("OBJECT", "ENCODING", "s"), Is.EqualTo("$6\r\nembstr\r\n"));
        Assert.That(client.EncodingOf("l"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("h"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("st"), Is.EqualTo("intset"));
        Assert.That(client.EncodingOf("z"), Is.EqualTo("listpack"));
    }

    [Test]
    public void RefCountIsSharedForSmallIntegersAsInRedis()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "small", "100");
        client.Execute("SET", "edge", "9999");
        client.Execute("SET", "big", "10000");
        client.Execute("SET", "negative", "-1");
        client.Execute("SET", "text", "abc");
        client.Execute("RPUSH", "list", "100");
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "small"), Is.EqualTo(":2147483647\r\n"));
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "edge"), Is.EqualTo(":2147483647\r\n"));
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "big"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "negative"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "text"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "list"), Is.EqualTo(":1\r\n"));

        // INCR's result is a shared integer too; COPY makes its own object, RENAME moves the shared one.
        client.Execute("SET", "counter", "98");
        client.Execute("INCR", "counter");
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "counter"), Is.EqualTo(":2147483647\r\n"));
        client.Execute("COPY", "small", "copied");
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "copied"), Is.EqualTo(":1\r\n"));
        Assert.That(client.EncodingOf("copied"), Is.EqualTo("int"));
        client.Execute("RENAME", "small", "renamed");
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "renamed"), Is.EqualTo(":2147483647\r\n"));
        // An integer made by editing the string (APPEND) is not shared.
        client.Execute("SET", "edited", "1");
        client.Execute("APPEND", "edited", "2");
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "edited"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void NoSharedIntegersUnderAMemoryLimitWithAnLruOrLfuPolicy()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "small", "100");
        Budget.Limit = 1L << 30;
        Budget.Policy = EvictionPolicy.AllKeysLru;
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "small"), Is.EqualTo(":1\r\n"));
        Budget.Policy = EvictionPolicy.AllKeysRandom;
        Assert.That(client.Execute("OBJECT", "REFCOUNT", "small"), Is.EqualTo(":2147483647\r\n"));
    }

    [Test]
    public void IdleTimeCountsFromTheLastAccess()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.EqualTo(0));
        // The clock counts whole seconds, so 1.1 s later the key is at least one second idle.
        Thread.Sleep(1100);
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.GreaterThanOrEqualTo(1));
        client.Execute("GET", "k");
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.EqualTo(0));
    }

    [Test]
    public void RestoreSetsTheIdleTime()
    {
        using var client = ConnectRaw();
        string payload = DumpOf(client, "v");
        Assert.That(client.Execute("RESTORE", "k", "0", payload, "IDLETIME", "1000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.InRange(1000, 1002));
        // RESTORE REPLACE over a live key rewrites it in place and still sets the idle time.
        Assert.That(client.Execute("RESTORE", "k", "0", payload, "REPLACE", "IDLETIME", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.InRange(5000, 5002));
    }

    [Test]
    public void InspectingAKeyIsNotAnAccess()
    {
        using var client = ConnectRaw();
        string payload = DumpOf(client, "v");
        client.Execute("RESTORE", "k", "0", payload, "IDLETIME", "1000");
        client.Execute("TTL", "k");
        client.Execute("PTTL", "k");
        client.Execute("EXPIRETIME", "k");
        client.Execute("PEXPIRETIME", "k");
        client.Execute("TYPE", "k");
        client.Execute("EXISTS", "k");
        client.Execute("MEMORY", "USAGE", "k");
        client.Execute("OBJECT", "ENCODING", "k");
        client.Execute("OBJECT", "REFCOUNT", "k");
        client.Execute("OBJECT", "IDLETIME", "k");
        client.Execute("DEBUG", "OBJECT", "k");
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.GreaterThanOrEqualTo(1000));
    }

    [Test]
    public void InspectingAnObjectKeyIsNotAnAccess()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "source", "a", "b");
        string payload = Resp.Bulk(client.Execute("DUMP", "source"))!;
        client.Execute("RESTORE", "l", "0", payload, "IDLETIME", "1000");
        client.Execute("TTL", "l");
        client.Execute("TYPE", "l");
        client.Execute("EXISTS", "l");
        client.Execute("OBJECT", "ENCODING", "l");
        client.Execute("DEBUG", "OBJECT", "l");
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "l")), Is.GreaterThanOrEqualTo(1000));
        client.Execute("LLEN", "l");
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "l")), Is.EqualTo(0));
    }

    [TestCase("GET", "k")]
    [TestCase("STRLEN", "k")]
    [TestCase("GETRANGE", "k", "0", "1")]
    [TestCase("TOUCH", "k")]
    [TestCase("SET", "k", "w")]
    [TestCase("APPEND", "k", "w")]
    [TestCase("EXPIRE", "k", "100")]
    [TestCase("DUMP", "k")]
    public void ReadsWritesAndTouchAreAccesses(params string[] command)
    {
        using var client = ConnectRaw();
        client.Execute("RESTORE", "k", "0", DumpOf(client, "v"), "IDLETIME", "1000");
        client.Execute(command);
        Assert.That(Resp.Integer(client.Execute("OBJECT", "IDLETIME", "k")), Is.LessThanOrEqualTo(1));
    }

    [Test]
    public void FreqCountsAccessesUnderAnLfuPolicy()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("OBJECT", "FREQ", "k"), Is.EqualTo(
            "-ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.\r\n"));

        UseLfu();
        client.Execute("SET", "fresh", "v");
        // A new key starts at Redis's LFU_INIT_VAL (5); from there the first access always counts.
        Assert.That(client.Execute("OBJECT", "FREQ", "fresh"), Is.EqualTo(":5\r\n"));
        client.Execute("TTL", "fresh");
        client.Execute("TYPE", "fresh");
        client.Execute("EXISTS", "fresh");
        Assert.That(client.Execute("OBJECT", "FREQ", "fresh"), Is.EqualTo(":5\r\n"));
        client.Execute("GET", "fresh");
        Assert.That(client.Execute("OBJECT", "FREQ", "fresh"), Is.EqualTo(":6\r\n"));

        client.Execute("RESTORE", "restored", "0", DumpOf(client, "v"), "FREQ", "200");
        Assert.That(client.Execute("OBJECT", "FREQ", "restored"), Is.EqualTo(":200\r\n"));
        Assert.That(client.Execute("OBJECT", "IDLETIME", "restored"), Is.EqualTo(
            "-ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.\r\n"));
    }

    [Test]
    public void ObjectRunsInTransactionsAndScripts()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "12345");
        client.Execute("MULTI");
        Assert.That(client.Execute("OBJECT", "ENCODING", "k"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n$3\r\nint\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.call('OBJECT', 'ENCODING', KEYS[1])", "1", "k"), Is.EqualTo("$3\r\nint\r\n"));
    }

    [Test]
    public void CommandInfoListsTheSubcommands()
    {
        using var client = ConnectRaw();
        string info = client.Execute("COMMAND", "INFO", "OBJECT");
        Assert.That(info, Does.Contain("object|encoding"));
        Assert.That(info, Does.Contain("object|freq"));
        Assert.That(info, Does.Contain("object|idletime"));
        Assert.That(info, Does.Contain("object|refcount"));
        Assert.That(info, Does.Contain("object|help"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "OBJECT", "ENCODING", "k"), Is.EqualTo("*1\r\n$1\r\nk\r\n"));
    }

    [Test]
    public void StackExchangeRedisSeesRedisReplyTypes()
    {
        // The client library's KeyEncoding, KeyRefCount, KeyIdleTime and KeyFrequency send these commands.
        using var connection = Connect();
        var db = connection.GetDatabase();
        db.StringSet("k", "12345");
        Assert.That((string?)db.Execute("OBJECT", "ENCODING", "k"), Is.EqualTo("int"));
        Assert.That((long)db.Execute("OBJECT", "REFCOUNT", "k"), Is.EqualTo(1));
        Assert.That((long)db.Execute("OBJECT", "IDLETIME", "k"), Is.EqualTo(0));
        Assert.That(db.Execute("OBJECT", "ENCODING", "missing").IsNull, Is.True);
        Assert.That(db.Execute("OBJECT", "IDLETIME", "missing").IsNull, Is.True);
        Assert.Throws<RedisServerException>(() => db.Execute("OBJECT", "FREQ", "k"));
        UseLfu();
        // A key written under LRU has its clock read as an LFU word after the switch (as Redis reads it): any counter.
        Assert.That((long)db.Execute("OBJECT", "FREQ", "k"), Is.InRange(0, 255));
        db.StringSet("fresh", "12345");
        Assert.That((long)db.Execute("OBJECT", "FREQ", "fresh"), Is.GreaterThanOrEqualTo(5), "a new key starts at Redis's LFU_INIT_VAL");
    }
}
