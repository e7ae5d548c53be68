using System.Text;
using System.Threading;
using NUnit.Framework;
using Replies = Garnet.test.Keyspace.Resp;

namespace Garnet.test.Objects;

/// <summary>
/// Keys holding objects (lists, hashes, sets, sorted sets) in the one log: the keyspace commands see
/// them, the string commands answer WRONGTYPE, SET replaces them, and every way a key goes away
/// releases its object (the object table's count says so).
/// </summary>
public class ObjectKeyspaceTests : ServerTestBase
{
    private const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

    private long LiveObjects(int database = 0) => Server.Store.GetDatabase(database).Objects.Count;

    private static void CreateOneOfEach(RawClient client)
    {
        Assert.That(client.Execute("SET", "s", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("RPUSH", "l", "a", "b"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("HSET", "h", "f", "v"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("SADD", "st", "m"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("ZADD", "z", "1", "m"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void TypeNamesEachKind()
    {
        using var client = ConnectRaw();
        CreateOneOfEach(client);
        Assert.That(client.Execute("TYPE", "s"), Is.EqualTo("+string\r\n"));
        Assert.That(client.Execute("TYPE", "l"), Is.EqualTo("+list\r\n"));
        Assert.That(client.Execute("TYPE", "h"), Is.EqualTo("+hash\r\n"));
        Assert.That(client.Execute("TYPE", "st"), Is.EqualTo("+set\r\n"));
        Assert.That(client.Execute("TYPE", "z"), Is.EqualTo("+zset\r\n"));
        Assert.That(client.Execute("TYPE", "missing"), Is.EqualTo("+none\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(4));
    }

    [Test]
    public void StringCommandsOnAnObjectAnswerWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        string[][] commands =
        [
            ["GET", "l"], ["APPEND", "l", "x"], ["INCR", "l"], ["INCRBY", "l", "2"], ["DECR", "l"], ["INCRBYFLOAT", "l", "1.5"],
            ["STRLEN", "l"], ["GETRANGE", "l", "0", "1"], ["SETRANGE", "l", "0", "x"], ["SETRANGE", "l", "0", ""], ["GETSET", "l", "x"],
            ["GETDEL", "l"], ["GETEX", "l"], ["GETEX", "l", "PERSIST"], ["SET", "l", "x", "GET"], ["SETBIT", "l", "1", "1"], ["GETBIT", "l", "1"],
            ["BITCOUNT", "l"], ["BITPOS", "l", "1"], ["BITFIELD", "l", "GET", "u8", "0"], ["BITFIELD", "l", "SET", "u8", "0", "1"],
            ["BITOP", "AND", "dest", "l"], ["PFADD", "l", "x"], ["PFCOUNT", "l"], ["PFMERGE", "dest", "l"],
        ];
        foreach (var command in commands)
            Assert.That(client.Execute(command), Is.EqualTo(WrongType), string.Join(' ', command));
        Assert.That(client.Execute("MGET", "l", "missing"), Is.EqualTo("*2\r\n$-1\r\n$-1\r\n"), "MGET reads a non-string as nil");
        // LCS words its type error its own way, and looks the keys up before it reads the options.
        Assert.That(client.Execute("LCS", "l", "l"), Is.EqualTo("-ERR The specified keys must contain string values\r\n"));
        Assert.That(client.Execute("LCS", "missing", "l", "BOGUS"), Is.EqualTo("-ERR The specified keys must contain string values\r\n"));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo("*1\r\n$1\r\na\r\n"), "nothing changed");
        Assert.That(client.Execute("EXISTS", "dest"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void ObjectCommandsOnAStringAnswerWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LPUSH", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LRANGE", "s", "0", "-1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("HSET", "s", "f", "v"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("HGET", "s", "f"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SADD", "s", "m"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZADD", "s", "1", "m"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZSCORE", "s", "m"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo("$1\r\nv\r\n"));

        client.Execute("RPUSH", "l", "a");
        Assert.That(client.Execute("HGET", "l", "f"), Is.EqualTo(WrongType), "one object type against another");
        Assert.That(client.Execute("SADD", "l", "m"), Is.EqualTo(WrongType));
    }

    [Test]
    public void SetReplacesAnObjectAndReleasesIt()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l1", "a");
        client.Execute("RPUSH", "l2", "a");
        client.Execute("RPUSH", "l3", "a");
        client.Execute("RPUSH", "l4", "a");
        Assert.That(LiveObjects(), Is.EqualTo(4));

        Assert.That(client.Execute("SET", "l1", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "l2", "v", "XX"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "l3", "v", "KEEPTTL"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MSET", "l4", "v"), Is.EqualTo("+OK\r\n"));
        foreach (var key in new[] { "l1", "l2", "l3", "l4" })
        {
            Assert.That(client.Execute("TYPE", key), Is.EqualTo("+string\r\n"), key);
            Assert.That(client.Execute("GET", key), Is.EqualTo("$1\r\nv\r\n"), key);
        }
        Assert.That(LiveObjects(), Is.EqualTo(0));
    }

    [Test]
    public void ConditionalSetsSeeAnObjectAsAnExistingKey()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        Assert.That(client.Execute("SETNX", "l", "v"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SET", "l", "v", "NX"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("MSETNX", "l", "v", "other", "v"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EXISTS", "other"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TYPE", "l"), Is.EqualTo("+list\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(1));
    }

    [Test]
    public void KeyspaceCommandsWorkOnObjects()
    {
        using var client = ConnectRaw();
        CreateOneOfEach(client);
        Assert.That(client.Execute("EXISTS", "l", "h", "st", "z", "s", "missing"), Is.EqualTo(":5\r\n"));
        Assert.That(client.Execute("TOUCH", "l", "z"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("TTL", "h"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("EXPIRE", "h", "100"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "h"), Is.EqualTo(":100\r\n"));
        Assert.That(Replies.Integer(client.Execute("PEXPIRETIME", "h")), Is.GreaterThan(0));
        Assert.That(client.Execute("HGET", "h", "f"), Is.EqualTo("$1\r\nv\r\n"), "the object survives an expiration change");
        Assert.That(client.Execute("PERSIST", "h"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "h"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":5\r\n"));
        Assert.That(client.Execute("DEL", "l", "st", "s"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("UNLINK", "z"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(1));
    }

    [Test]
    public void AnExpiredObjectIsGoneAndReleased()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b");
        Assert.That(client.Execute("PEXPIRE", "l", "1"), Is.EqualTo(":1\r\n"));
        Thread.Sleep(20);
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TYPE", "l"), Is.EqualTo("+none\r\n"));
        Assert.That(client.Execute("RPUSH", "l", "c"), Is.EqualTo(":1\r\n"), "a write recreates the key from empty");
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nc\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(1), "the expired list was released when the new one replaced it");
        Assert.That(client.Execute("EXPIRE", "l", "-1"), Is.EqualTo(":1\r\n"), "a past expiration deletes");
        Assert.That(LiveObjects(), Is.EqualTo(0));
    }

    [Test]
    public void ActiveExpirationReleasesObjectsNobodyReads()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 50; i++)
        {
            client.Execute("SADD", "set" + i, "m");
            client.Execute("PEXPIRE", "set" + i, "1");
        }
        var deadline = System.Diagnostics.Stopwatch.StartNew();
        while (LiveObjects() > 0)
        {
            Assert.That(deadline.Elapsed.TotalSeconds, Is.LessThan(20), "active expiration should delete the expired sets");
            Thread.Sleep(50);
        }
    }

    [Test]
    public void AnEmptiedCollectionDeletesItsKey()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("HSET", "h", "f", "v");
        client.Execute("SADD", "st", "m");
        client.Execute("ZADD", "z", "1", "m");
        Assert.That(client.Execute("LPOP", "l"), Is.EqualTo("$1\r\na\r\n"));
        Assert.That(client.Execute("HDEL", "h", "f"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("SREM", "st", "m"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("ZREM", "z", "m"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "l", "h", "st", "z"), Is.EqualTo(":0\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(0));
    }

    [Test]
    public void WritesThatAddNothingCreateNoKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LPUSHX", "l", "a"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("ZADD", "z", "XX", "1", "m"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SREM", "st", "m"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(0));
    }

    [Test]
    public void RenameMovesTheObjectWithItsExpiration()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b");
        client.Execute("EXPIRE", "l", "100");
        client.Execute("SET", "dest", "string");
        Assert.That(client.Execute("RENAME", "l", "dest"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TYPE", "dest"), Is.EqualTo("+list\r\n"));
        Assert.That(client.Execute("LRANGE", "dest", "0", "-1"), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(client.Execute("TTL", "dest"), Is.EqualTo(":100\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(1));

        client.Execute("SADD", "other", "m");
        Assert.That(client.Execute("RENAMENX", "dest", "other"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("RENAMENX", "dest", "fresh"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RENAME", "fresh", "other"), Is.EqualTo("+OK\r\n"), "RENAME replaces an object of another type");
        Assert.That(client.Execute("TYPE", "other"), Is.EqualTo("+list\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(1));
    }

    [Test]
    public void CopyMakesAnIndependentObject()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "f", "v");
        Assert.That(client.Execute("COPY", "h", "h2"), Is.EqualTo(":1\r\n"));
        client.Execute("HSET", "h2", "f", "changed");
        Assert.That(client.Execute("HGET", "h", "f"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("HGET", "h2", "f"), Is.EqualTo("$7\r\nchanged\r\n"));
        Assert.That(client.Execute("COPY", "h", "h2"), Is.EqualTo(":0\r\n"), "no REPLACE");
        Assert.That(client.Execute("COPY", "h", "h2", "REPLACE"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("HGET", "h2", "f"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("COPY", "h", "h", "DB", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("SELECT", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("HGET", "h", "f"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(LiveObjects(0), Is.EqualTo(2));
        Assert.That(LiveObjects(1), Is.EqualTo(1));
    }

    [Test]
    public void DumpAndRestoreRoundTripEveryObjectType()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b\0c", "");
        client.Execute("HSET", "h", "f1", "v1", "f2", "");
        client.Execute("SADD", "st", "m1", "m2", "m3");
        client.Execute("ZADD", "z", "1.5", "a", "-inf", "b", "3", "c");
        foreach (var key in new[] { "l", "h", "st", "z" })
        {
            string dump = client.Execute("DUMP", key);
            Assert.That(dump, Does.StartWith("$"), key);
            string payload = Replies.Bulk(dump)!;
            Assert.That(client.Execute("RESTORE", key, "0", payload), Is.EqualTo("-BUSYKEY Target key name already exists.\r\n"), key);
            Assert.That(client.Execute("RESTORE", key + "-copy", "0", payload), Is.EqualTo("+OK\r\n"), key);
            Assert.That(client.Execute("TYPE", key + "-copy"), Is.EqualTo(client.Execute("TYPE", key)), key);
            Assert.That(client.Execute("DUMP", key + "-copy"), Is.EqualTo(dump), key);
            Assert.That(client.Execute("RESTORE", "s", "0", payload, "REPLACE"), Is.EqualTo("+OK\r\n"), key);
        }
        Assert.That(client.Execute("LRANGE", "l-copy", "0", "-1"), Is.EqualTo("*3\r\n$1\r\na\r\n$3\r\nb\0c\r\n$0\r\n\r\n"));
        Assert.That(client.Execute("ZSCORE", "z-copy", "b"), Is.EqualTo("$4\r\n-inf\r\n"));
        Assert.That(client.Execute("HGET", "h-copy", "f2"), Is.EqualTo("$0\r\n\r\n"));
        Assert.That(client.Execute("SCARD", "st-copy"), Is.EqualTo(":3\r\n"));

        string listPayload = Replies.Bulk(client.Execute("DUMP", "l"))!;
        var corrupted = new StringBuilder(listPayload);
        corrupted[2] = (char)(corrupted[2] ^ 1);
        Assert.That(client.Execute("RESTORE", "bad", "0", corrupted.ToString()), Is.EqualTo("-ERR DUMP payload version or checksum are wrong\r\n"));
        Assert.That(client.Execute("RESTORE", "ttl", "100000", listPayload), Is.EqualTo("+OK\r\n"));
        Assert.That(Replies.Integer(client.Execute("PTTL", "ttl")), Is.InRange(90000, 100000));
    }

    [Test]
    public void ScanFiltersByTypeAndKeysSeesEverything()
    {
        using var client = ConnectRaw();
        CreateOneOfEach(client);
        foreach (var (type, key) in new[] { ("string", "s"), ("list", "l"), ("hash", "h"), ("set", "st"), ("zset", "z") })
        {
            var (cursor, keys) = Replies.ScanReply(client.Execute("SCAN", "0", "COUNT", "1000", "TYPE", type));
            Assert.That(cursor, Is.EqualTo("0"));
            Assert.That(keys, Is.EquivalentTo(new[] { key }), type);
        }
        Assert.That(Replies.ScanReply(client.Execute("SCAN", "0", "COUNT", "1000", "TYPE", "stream")).Keys, Is.Empty);
        Assert.That(Replies.Strings(client.Execute("KEYS", "*")), Is.EquivalentTo(new[] { "s", "l", "h", "st", "z" }));
        Assert.That(Replies.Bulk(client.Execute("RANDOMKEY")), Is.AnyOf("s", "l", "h", "st", "z"));
    }

    [Test]
    public void FlushReleasesEveryObject()
    {
        using var client = ConnectRaw();
        CreateOneOfEach(client);
        Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(LiveObjects(), Is.EqualTo(0));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void MemoryUsageAndInfoCountObjectSizes()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        long small = Replies.Integer(client.Execute("MEMORY", "USAGE", "l"));
        var values = new string[1002];
        values[0] = "RPUSH";
        values[1] = "l";
        for (int i = 2; i < values.Length; i++)
            values[i] = new string('x', 100);
        client.Execute(values);
        long large = Replies.Integer(client.Execute("MEMORY", "USAGE", "l"));
        Assert.That(large, Is.GreaterThan(small + 100_000));
        string info = Replies.Bulk(client.Execute("INFO", "memory"))!;
        Assert.That(info, Does.Contain("used_memory_objects:"));
        Assert.That(Server.Store.GetDatabase(0).Objects.HeapSize, Is.GreaterThan(100_000));
        client.Execute("DEL", "l");
        Assert.That(Server.Store.GetDatabase(0).Objects.HeapSize, Is.EqualTo(0));
    }

    [Test]
    public void DebugObjectDescribesObjects()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("SADD", "st", "a");
        Assert.That(client.Execute("DEBUG", "OBJECT", "l"), Does.Contain("encoding:listpack"));
        Assert.That(client.Execute("DEBUG", "OBJECT", "l"), Does.Not.Contain("ql_nodes"));
        Assert.That(client.Execute("DEBUG", "OBJECT", "st"), Does.Contain("encoding:listpack"));
        // A quicklist shows its nodes as Redis fills them: 79 elements of 100 bytes in the first, 1 in the second.
        for (int i = 0; i < 80; i++)
            client.Execute("RPUSH", "q", new string('x', 100));
        Assert.That(client.Execute("DEBUG", "OBJECT", "q"), Does.Match(@"encoding:quicklist serializedlength:\d+ lru:\d+ lru_seconds_idle:\d+ ql_nodes:2 ql_avg_node:40\.00 ql_listpack_max:-2 ql_compressed:0 ql_uncompressed_size:8254\r\n$"));
    }

    [Test]
    public void ObjectsInTheReadOnlyRegionAreUpdatedByCopyKeepingTheirObject()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("HSET", "h", "f", "v");
        client.Execute("SADD", "st", "m");
        client.Execute("ZADD", "z", "1", "m");
        client.Execute("RPUSH", "gone", "x");
        var log = Server.Store.GetDatabase(0).MainStore.Log;

        log.ShiftReadOnlyToTail();
        Assert.That(client.Execute("RPUSH", "l", "b"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("HSET", "h", "g", "w"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXPIRE", "st", "100"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("ZINCRBY", "z", "2", "m"), Is.EqualTo("$1\r\n3\r\n"));
        Assert.That(client.Execute("LPOP", "gone"), Is.EqualTo("$1\r\nx\r\n"), "emptied by a copy update");
        Assert.That(LiveObjects(), Is.EqualTo(4));

        log.ShiftReadOnlyToTail();
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(client.Execute("HLEN", "h"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("SISMEMBER", "st", "m"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "st"), Is.EqualTo(":100\r\n"));
        Assert.That(client.Execute("SET", "l", "string"), Is.EqualTo("+OK\r\n"), "SET over a read-only object record");
        Assert.That(client.Execute("SET", "h", "string", "XX"), Is.EqualTo("+OK\r\n"), "conditional SET over a read-only object record");
        Assert.That(client.Execute("DEL", "st", "z"), Is.EqualTo(":2\r\n"), "DEL of read-only object records");
        Assert.That(LiveObjects(), Is.EqualTo(0));
        Assert.That(client.Execute("GET", "l"), Is.EqualTo("$6\r\nstring\r\n"));
    }

    [Test]
    public void RemovalsOnAbsentKeysAllocateNothingAndLeaveTheSharedEmptyObjectsEmpty()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "warm", "up");
        var log = Server.Store.GetDatabase(0).MainStore.Log;
        long tail = log.TailAddress;
        for (int i = 0; i < 100; i++)
        {
            Assert.That(client.Execute("LPOP", "l" + i), Is.EqualTo("$-1\r\n"));
            Assert.That(client.Execute("RPOP", "l" + i, "2"), Is.EqualTo("*-1\r\n"));
            Assert.That(client.Execute("SPOP", "s" + i, "3"), Is.EqualTo("*0\r\n"));
            Assert.That(client.Execute("SREM", "s" + i, "m"), Is.EqualTo(":0\r\n"));
            Assert.That(client.Execute("HDEL", "h" + i, "f"), Is.EqualTo(":0\r\n"));
            Assert.That(client.Execute("ZPOPMIN", "z" + i), Is.EqualTo("*0\r\n"));
            Assert.That(client.Execute("ZREMRANGEBYRANK", "z" + i, "0", "-1"), Is.EqualTo(":0\r\n"));
            Assert.That(client.Execute("LTRIM", "l" + i, "0", "1"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("LREM", "l" + i, "0", "x"), Is.EqualTo(":0\r\n"));
        }
        Assert.That(log.TailAddress, Is.EqualTo(tail), "no record was allocated for a removal on an absent key");
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1\r\n"));

        client.Execute("SADD", "source", "m");
        Assert.That(client.Execute("SMOVE", "source", "created", "m"), Is.EqualTo(":1\r\n"), "SMOVE creates its destination");
        Assert.That(client.Execute("SMEMBERS", "created"), Is.EqualTo("*1\r\n$1\r\nm\r\n"));
        foreach (var type in new[] { Garnet.server.GarnetObjectType.List, Garnet.server.GarnetObjectType.Hash, Garnet.server.GarnetObjectType.Set, Garnet.server.GarnetObjectType.SortedSet })
            Assert.That(Garnet.server.GarnetObjectFactory.Empty(type).Count, Is.EqualTo(0), type.ToString());
    }
}
