using System.Collections.Concurrent;
using System.Threading;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Notifications;

/// <summary>The events each command family publishes, as Redis lists them, observed from a second client.</summary>
public class KeyspaceEventTests : KeyspaceEventTestBase
{
    [Test]
    public void Strings()
    {
        Run("SET", "s", "1");
        Run("SET", "s", "2", "EX", "100");
        Run("SETNX", "s", "3");
        Run("INCR", "s");
        Run("DECRBY", "s", "2");
        Run("INCRBYFLOAT", "s", "1.5");
        Run("APPEND", "s", "x");
        Run("SETRANGE", "s", "0", "y");
        Run("MSET", "a", "1", "b", "2");
        Run("GETSET", "a", "3");
        Run("GETDEL", "a");
        Run("GETDEL", "a");
        Run("SETEX", "c", "100", "v");
        Expect("set s", "set s", "expire s", "incrby s", "incrby s", "incrbyfloat s", "append s", "setrange s",
            "set a", "set b", "set a", "del a", "set c", "expire c");
        Run("SETNX", "s", "3");
        Run("INCR", "b-not-a-number-key-is-fine");
        Run("SET", "b", "x");
        Run("INCR", "b"); // an error changes nothing
        Expect("incrby b-not-a-number-key-is-fine", "set b");
        ExpectNone();
    }

    [Test]
    public void BitmapsAndHyperLogLog()
    {
        Run("SETBIT", "bits", "7", "1");
        Run("BITOP", "OR", "dest", "bits");
        Run("BITOP", "OR", "dest", "missing");
        Run("PFADD", "hll", "a");
        Run("PFADD", "hll", "a");
        Run("PFMERGE", "hll2", "hll");
        Expect("setbit bits", "set dest", "del dest", "pfadd hll", "pfadd hll2");
        ExpectNone();
    }

    [Test]
    public void Generic()
    {
        Run("SET", "k", "v");
        Run("EXPIRE", "k", "100");
        Run("EXPIRE", "k", "100", "NX");
        Run("PERSIST", "k");
        Run("PERSIST", "k");
        Run("RENAME", "k", "k2");
        Run("COPY", "k2", "k3");
        Run("MOVE", "k3", "1");
        Run("DEL", "k2", "missing");
        Run("SET", "e", "v");
        Run("EXPIRE", "e", "-1");
        Expect("set k", "expire k", "persist k", "rename_from k", "rename_to k2", "copy_to k3", "move_from k3");
        ExpectKeyEvents(Subscriber, 1, "move_to k3");
        Expect("del k2", "set e", "del e");
        ExpectNone();
    }

    [Test]
    public void MoveToPublishesInTheTargetDatabase()
    {
        Run("SET", "m", "v");
        Run("MOVE", "m", "2");
        Expect("set m", "move_from m");
        ExpectKeyEvents(Subscriber, 2, "move_to m");
    }

    [Test]
    public void Lists()
    {
        Run("RPUSH", "l", "a", "b", "c");
        Run("LPUSH", "l", "z");
        Run("LPUSHX", "missing", "z");
        Run("LSET", "l", "0", "y");
        Run("LINSERT", "l", "BEFORE", "a", "q");
        Run("LINSERT", "l", "BEFORE", "nope", "q");
        Run("LREM", "l", "0", "nope");
        Run("LREM", "l", "0", "q");
        Run("LMOVE", "l", "l2", "LEFT", "RIGHT");
        Run("LTRIM", "l", "0", "0");
        Run("RPOP", "l");
        Expect("rpush l", "lpush l", "lset l", "linsert l", "lrem l", "rpush l2", "lpop l", "ltrim l", "rpop l", "del l");
        Run("BLPOP", "l2", "0");
        Expect("lpop l2", "del l2");
        ExpectNone();
    }

    [Test]
    public void Hashes()
    {
        Run("HSET", "h", "f", "1");
        Run("HSET", "h", "f", "1");
        Run("HSETNX", "h", "f", "2");
        Run("HINCRBY", "h", "f", "2");
        Run("HINCRBYFLOAT", "h", "f", "0.5");
        Run("HDEL", "h", "nope");
        Run("HDEL", "h", "f");
        Expect("hset h", "hset h", "hincrby h", "hincrbyfloat h", "hdel h", "del h");
        ExpectNone();
    }

    [Test]
    public void Sets()
    {
        Run("SADD", "s1", "a", "b");
        Run("SADD", "s1", "a");
        Run("SREM", "s1", "zz");
        Run("SMOVE", "s1", "s2", "a");
        Run("SINTERSTORE", "dest", "s1", "s2");
        Run("SUNIONSTORE", "dest", "s1", "s2");
        Run("SINTERSTORE", "dest", "s1", "s2");
        Run("SPOP", "s1");
        Expect("sadd s1", "srem s1", "sadd s2", "sunionstore dest", "del dest", "spop s1", "del s1");
        ExpectNone();
    }

    [Test]
    public void SortedSetsAndGeo()
    {
        Run("ZADD", "z", "1", "a");
        Run("ZADD", "z", "1", "a");
        Run("ZADD", "z", "2", "a");
        Run("ZADD", "z", "INCR", "1", "a");
        Run("ZINCRBY", "z", "1", "b");
        Run("ZREM", "z", "nope");
        Run("ZREMRANGEBYSCORE", "z", "0", "3");
        Run("ZPOPMAX", "z");
        Expect("zadd z", "zadd z", "zincr z", "zincr z", "zremrangebyscore z", "del z"); // both members were in 0..3: ZPOPMAX finds no key
        ExpectNone();
    }

    [Test]
    public void NewAndKeyMiss()
    {
        Assert.That(Client.Execute("CONFIG", "SET", "notify-keyspace-events", "E$nm"), Is.EqualTo("+OK\r\n"));
        Run("GET", "absent");
        Run("SET", "fresh", "1");
        Run("SET", "fresh", "2");
        Run("HGET", "absent-hash", "f");
        Expect("keymiss absent", "new fresh", "set fresh", "set fresh", "keymiss absent-hash");
    }

    [Test]
    public void ExpiredOnAccessAndOnDelete()
    {
        Assert.That(Client.Execute("CONFIG", "SET", "notify-keyspace-events", "E$xm"), Is.EqualTo("+OK\r\n"));
        Run("SET", "soon", "v", "PX", "1");
        Run("SET", "later", "v", "PX", "1");
        Thread.Sleep(20);
        Run("GET", "soon");
        Run("GET", "soon");
        Run("DEL", "later");
        Expect("set soon", "set later", "expired soon", "keymiss soon", "keymiss soon", "expired later");
    }

    [Test]
    public void TransactionsScriptsAndSelectedDatabase()
    {
        Run("SELECT", "3");
        Assert.That(Client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Run("SET", "t", "1");
        Run("INCR", "t");
        Assert.That(Client.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n:2\r\n"));
        Run("EVAL", "redis.call('SET', KEYS[1], 'x'); return redis.call('DEL', KEYS[1])", "1", "lua");
        ExpectKeyEvents(Subscriber, 3, "set t", "incrby t", "set lua", "del lua");
    }

    [Test]
    public void StackExchangeKeyspaceSubscription()
    {
        Client.Execute("CONFIG", "SET", "notify-keyspace-events", "KEA");
        using var redis = Connect();
        var received = new BlockingCollection<string>();
        // A queue delivers one channel's messages in order (a handler may run concurrently with the one before).
        redis.GetSubscriber().Subscribe(RedisChannel.Literal("__keyspace@0__:watched")).OnMessage(message => received.Add(message.Message!));
        redis.GetSubscriber().Subscribe(RedisChannel.Literal("__keyevent@0__:lpush"), (_, message) => received.Add("lpush:" + message));
        var db = redis.GetDatabase();
        db.StringSet("watched", "1");
        db.ListLeftPush("other", "x");
        db.KeyDelete("watched");
        Assert.That(received.TryTake(out var first, 5000), Is.True);
        Assert.That(received.TryTake(out var second, 5000), Is.True);
        Assert.That(received.TryTake(out var third, 5000), Is.True);
        // Different channels' messages may interleave either way: only the queued channel's keep their order.
        var messages = new[] { first, second, third };
        Assert.That(messages, Is.EquivalentTo(new[] { "set", "lpush:other", "del" }));
        Assert.That(System.Array.IndexOf(messages, "set"), Is.LessThan(System.Array.IndexOf(messages, "del")));
    }
}
