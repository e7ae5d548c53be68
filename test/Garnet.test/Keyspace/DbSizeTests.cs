using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>
/// DBSIZE and INFO keyspace's keys= read the engine's key count (no walk of the log) and stay exact through every
/// command that creates, replaces, moves or removes keys. As in Redis, expired keys count until they are reclaimed.
/// </summary>
public class DbSizeTests : ServerTestBase
{
    private static long DbSize(RawClient client) => long.Parse(client.Execute("DBSIZE").AsSpan(1).TrimEnd("\r\n"), CultureInfo.InvariantCulture);

    private static void SetMany(RawClient client, string prefix, int count, params string[] options)
    {
        var batch = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            var command = new List<string> { "SET", prefix + i.ToString(CultureInfo.InvariantCulture), "value" + i.ToString(CultureInfo.InvariantCulture) };
            command.AddRange(options);
            batch.Append(RawClient.Encode(command.ToArray()));
        }
        client.SendRaw(batch.ToString());
        for (int i = 0; i < count; i++)
            Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
    }

    /// <summary>The keys= of database <paramref name="db"/> in INFO keyspace, 0 when the database is not listed.</summary>
    private static long InfoKeys(RawClient client, int db)
    {
        var fields = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "keyspace"));
        if (!fields.TryGetValue("db" + db.ToString(CultureInfo.InvariantCulture), out var line))
            return 0;
        string keys = line.Split(',')[0];
        return long.Parse(keys.AsSpan("keys=".Length), CultureInfo.InvariantCulture);
    }

    [Test]
    public void SetOverwriteAndDelAreCountedExactly()
    {
        using var client = ConnectRaw();
        Assert.That(DbSize(client), Is.Zero);
        SetMany(client, "k", 100);
        Assert.That(DbSize(client), Is.EqualTo(100));
        client.Execute("SET", "k1", "rewritten with a much longer value than before, so in a new record");
        client.Execute("SET", "k2", "v");
        Assert.That(client.Execute("SETNX", "k3", "v"), Is.EqualTo(":0\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(100), "overwrites");
        Assert.That(client.Execute("DEL", "k4", "k5", "missing"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("DEL", "k4"), Is.EqualTo(":0\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(98), "deletes");
        client.Execute("SET", "k4", "again");
        Assert.That(client.Execute("INCR", "counter"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("APPEND", "k5", "xy"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("HSET", "hash", "f", "v"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RPUSH", "list", "a", "b"), Is.EqualTo(":2\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(103), "creations");
        Assert.That(client.Execute("LPOP", "list", "2"), Does.StartWith("*2"));
        Assert.That(DbSize(client), Is.EqualTo(102), "a list emptied by LPOP is removed");
        Assert.That(client.Execute("DEL", "hash"), Is.EqualTo(":1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(101));
        Assert.That(InfoKeys(client, 0), Is.EqualTo(101), "INFO keyspace agrees");
        Assert.That(client.Execute("DBSIZE", "x"), Is.EqualTo(Resp.WrongArity("dbsize")));
    }

    [Test]
    public void ExpiredKeysCountUntilReclaimedAsInRedis()
    {
        Server.Store.ActiveExpirationEnabled = false;
        Thread.Sleep(300); // a pass already running finishes
        using var client = ConnectRaw();
        SetMany(client, "short", 10, "PX", "20");
        SetMany(client, "long", 5, "EX", "1000");
        Thread.Sleep(50);
        Assert.That(client.Execute("GET", "short0"), Is.EqualTo("$-1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(15), "expired keys not reclaimed yet are counted");
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "keyspace"));
        Assert.That(info["db0"], Does.StartWith("keys=15,expires="));

        Assert.That(client.Execute("DEL", "short1"), Is.EqualTo(":0\r\n"), "an expired key does not exist for DEL");
        Assert.That(DbSize(client), Is.EqualTo(14), "but DEL reclaims it");
        client.Execute("SET", "short2", "again");
        Assert.That(DbSize(client), Is.EqualTo(14), "a write over an expired key replaces it");

        Server.Store.ActiveExpirationEnabled = true;
        StringTestHelpers.WaitUntil(() => DbSize(client) == 6, "active expiration reclaims the other eight");
    }

    [Test]
    public void ExpireCountsAsRedisDoes()
    {
        using var client = ConnectRaw();
        SetMany(client, "k", 3);
        Assert.That(client.Execute("EXPIRE", "k0", "100"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("PERSIST", "k0"), Is.EqualTo(":1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(3));
        Assert.That(client.Execute("EXPIRE", "k1", "-1"), Is.EqualTo(":1\r\n"), "a time in the past deletes the key");
        Assert.That(DbSize(client), Is.EqualTo(2));
        Assert.That(client.Execute("EXPIRE", "missing", "10"), Is.EqualTo(":0\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(2));
    }

    [Test]
    public void FlushDbAndFlushAllResetTheCount()
    {
        using var client = ConnectRaw();
        SetMany(client, "k", 20);
        client.Execute("SELECT", "1");
        SetMany(client, "k", 7);
        Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That(DbSize(client), Is.Zero);
        SetMany(client, "k", 2);
        Assert.That(DbSize(client), Is.EqualTo(2), "counted from zero in the fresh database");
        client.Execute("SELECT", "0");
        Assert.That(DbSize(client), Is.EqualTo(20), "database 0 untouched");
        Assert.That(client.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
        Assert.That(DbSize(client), Is.Zero);
        client.Execute("SELECT", "1");
        Assert.That(DbSize(client), Is.Zero);
        Assert.That(InfoKeys(client, 0) + InfoKeys(client, 1), Is.Zero);
    }

    [Test]
    public void SwapDbSwapsTheCounts()
    {
        using var client = ConnectRaw();
        SetMany(client, "zero", 3);
        client.Execute("SELECT", "1");
        SetMany(client, "one", 5);
        Assert.That(client.Execute("SWAPDB", "0", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(3));
        client.Execute("SELECT", "0");
        Assert.That(DbSize(client), Is.EqualTo(5));
        client.Execute("SET", "more", "v");
        Assert.That(DbSize(client), Is.EqualTo(6));
        Assert.That(InfoKeys(client, 0), Is.EqualTo(6));
        Assert.That(InfoKeys(client, 1), Is.EqualTo(3));
    }

    [Test]
    public void RenameMoveAndCopyKeepTheCountExact()
    {
        using var client = ConnectRaw();
        SetMany(client, "k", 5);
        Assert.That(client.Execute("RENAME", "k0", "fresh"), Is.EqualTo("+OK\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(5), "rename to a new name");
        Assert.That(client.Execute("RENAME", "fresh", "k1"), Is.EqualTo("+OK\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(4), "rename over an existing key");
        Assert.That(client.Execute("RENAMENX", "k1", "k2"), Is.EqualTo(":0\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(4));

        Assert.That(client.Execute("COPY", "k1", "c1"), Is.EqualTo(":1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(5), "copy to a new key");
        Assert.That(client.Execute("COPY", "k1", "k2", "REPLACE"), Is.EqualTo(":1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(5), "copy over an existing key");
        Assert.That(client.Execute("COPY", "k1", "k3", "DB", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(5));

        Assert.That(client.Execute("MOVE", "k2", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("MOVE", "k3", "1"), Is.EqualTo(":0\r\n"), "k3 exists in database 1");
        Assert.That(DbSize(client), Is.EqualTo(4));
        client.Execute("SELECT", "1");
        Assert.That(DbSize(client), Is.EqualTo(2));
    }
}

/// <summary>DBSIZE with --storage-tier: keys on the device are counted, and writes and deletes of them are exact.</summary>
public sealed class DbSizeStorageTierTests : ServerTestBase
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

    private static long DbSize(RawClient client) => long.Parse(client.Execute("DBSIZE").AsSpan(1).TrimEnd("\r\n"), CultureInfo.InvariantCulture);

    private static void SetRange(RawClient client, int from, int to, int valueLength)
    {
        string value = new('v', valueLength);
        var batch = new StringBuilder();
        for (int i = from; i < to; i++)
            batch.Append(RawClient.Encode("SET", "key:" + i.ToString(CultureInfo.InvariantCulture), value));
        client.SendRaw(batch.ToString());
        for (int i = from; i < to; i++)
            Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void KeysOnTheDeviceAreCountedExactly()
    {
        using var client = ConnectRaw();
        // About three times the memory.
        const int Keys = 40_000;
        for (int from = 0; from < Keys; from += 500)
            SetRange(client, from, from + 500, 300);
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_disk_bytes"], CultureInfo.InvariantCulture), Is.GreaterThan(2 * Memory), "most keys are on the device");
        Assert.That(DbSize(client), Is.EqualTo(Keys));

        // key:0.. were written first: on the device now. Overwrites of them are not new keys.
        SetRange(client, 0, 200, 10);
        Assert.That(DbSize(client), Is.EqualTo(Keys));
        var delete = new List<string> { "DEL" };
        for (int i = 200; i < 300; i++)
            delete.Add("key:" + i.ToString(CultureInfo.InvariantCulture));
        Assert.That(client.Execute(delete.ToArray()), Is.EqualTo(":100\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(Keys - 100));
        SetRange(client, 250, 300, 10);
        Assert.That(DbSize(client), Is.EqualTo(Keys - 50), "deleted keys written again");
        Assert.That(client.Execute("RENAME", "key:400", "renamed"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MOVE", "key:401", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(DbSize(client), Is.EqualTo(Keys - 51));
        var keyspace = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "keyspace"));
        Assert.That(keyspace["db0"], Does.StartWith($"keys={Keys - 51},"));
        Assert.That(keyspace["db1"], Does.StartWith("keys=1,"));
    }
}
