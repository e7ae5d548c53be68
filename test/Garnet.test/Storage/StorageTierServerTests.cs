using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// The storage tier seen by clients (--storage-tier): a data set four times the memory budget stays whole, and
/// commands over keys whose records are on the log device answer as over keys in memory.
/// </summary>
[TestFixture]
public sealed class StorageTierServerTests : ServerTestBase
{
    private const long Memory = 4L << 20;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        // The heap objects count too: the head moves when they and the log reach it.
        MaxMemory = Memory,
        Databases = 2,
        StorageTier = true,
    };

    private static string Value(int key, int length)
    {
        var text = new StringBuilder(length);
        string stamp = key.ToString(CultureInfo.InvariantCulture) + ":";
        while (text.Length < length)
            text.Append(stamp);
        return text.ToString(0, length);
    }

    private static string Bulk(string value) => $"${Encoding.UTF8.GetByteCount(value)}\r\n{value}\r\n";

    /// <summary>Writes keys of 10-600 byte values in pipelines until four times the memory budget was written.</summary>
    private Dictionary<string, string> FillFourTimesTheMemory(RawClient client)
    {
        var model = new Dictionary<string, string>();
        var random = new Random(11);
        long written = 0;
        int next = 0;
        while (written < 4 * Memory)
        {
            var batch = new StringBuilder();
            for (int i = 0; i < 200; i++, next++)
            {
                string key = "key:" + next.ToString(CultureInfo.InvariantCulture);
                string value = Value(next, random.Next(10, 600));
                model[key] = value;
                written += value.Length + key.Length + 32;
                batch.Append(RawClient.Encode("SET", key, value));
            }
            client.SendRaw(batch.ToString());
            for (int i = 0; i < 200; i++)
                Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        }
        return model;
    }

    [Test]
    public void EveryKeyOfFourTimesTheMemoryReadsBackAndOnDiskKeysUpdateAndDelete()
    {
        using var client = ConnectRaw();
        var model = FillFourTimesTheMemory(client);
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(info["storage_tier"], Is.EqualTo("1"));
        Assert.That(long.Parse(info["log_disk_bytes"], CultureInfo.InvariantCulture), Is.GreaterThan(2 * Memory), "most of the data is on the device");
        Assert.That(long.Parse(info["used_memory"], CultureInfo.InvariantCulture), Is.LessThan(2 * Memory), "memory stays near the budget");

        foreach (var (key, value) in model)
            Assert.That(client.Execute("GET", key), Is.EqualTo(Bulk(value)), key);
        info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_pending_reads"], CultureInfo.InvariantCulture), Is.GreaterThan(model.Count / 2));
        Assert.That(info["log_device_read_errors"], Is.EqualTo("0"));

        // key:0 .. key:9 were written first, so they are on the device now.
        Assert.That(client.Execute("APPEND", "key:0", "+tail"), Is.EqualTo($":{model["key:0"].Length + 5}\r\n"));
        Assert.That(client.Execute("GET", "key:0"), Is.EqualTo(Bulk(model["key:0"] + "+tail")));
        Assert.That(client.Execute("GETRANGE", "key:1", "0", "1"), Is.EqualTo(Bulk(model["key:1"][..2])));
        Assert.That(client.Execute("STRLEN", "key:2"), Is.EqualTo($":{model["key:2"].Length}\r\n"));
        Assert.That(client.Execute("GETSET", "key:3", "new"), Is.EqualTo(Bulk(model["key:3"])));
        Assert.That(client.Execute("GET", "key:3"), Is.EqualTo(Bulk("new")));
        Assert.That(client.Execute("SET", "key:4", "x", "NX"), Is.EqualTo("$-1\r\n"), "NX sees the key on the device");
        Assert.That(client.Execute("SET", "key:5", "y", "XX", "GET"), Is.EqualTo(Bulk(model["key:5"])));
        Assert.That(client.Execute("INCR", "key:6"), Does.StartWith("-ERR value is not an integer"));
        Assert.That(client.Execute("EXISTS", "key:7", "key:8", "nokey"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("DEL", "key:7"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("DEL", "key:7"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "key:7"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("TYPE", "key:8"), Is.EqualTo("+string\r\n"));
        Assert.That(client.Execute("EXPIRE", "key:9", "1000"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TTL", "key:9"), Does.Match(@"^:\d+\r\n$"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{model.Count - 1}\r\n"));
    }

    [Test]
    public void CountersOnTheDeviceKeepEveryIncrement()
    {
        using var client = ConnectRaw();
        const int Counters = 30_000;
        for (int round = 1; round <= 3; round++)
        {
            for (int start = 0; start < Counters; start += 500)
            {
                var batch = new StringBuilder();
                for (int i = start; i < start + 500; i++)
                    batch.Append(RawClient.Encode("INCRBY", "counter:" + i.ToString(CultureInfo.InvariantCulture), i.ToString(CultureInfo.InvariantCulture)));
                client.SendRaw(batch.ToString());
                for (int i = start; i < start + 500; i++)
                    Assert.That(client.ReadReply(), Is.EqualTo($":{(long)round * i}\r\n"), $"round {round}, counter {i}");
            }
            // Long values push the counters out of memory between rounds.
            for (int i = 0; i < 400; i++)
                client.Execute("SET", "filler:" + round + ":" + i, new string('f', 10_000));
        }
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_pending_reads"], CultureInfo.InvariantCulture), Is.GreaterThan(Counters));
    }

    [Test]
    public void ScanKeysAndRandomKeySeeKeysOnTheDevice()
    {
        using var client = ConnectRaw();
        var model = FillFourTimesTheMemory(client);
        var seen = new HashSet<string>();
        string cursor = "0";
        do
        {
            string reply = client.Execute("SCAN", cursor, "COUNT", "1000");
            var (next, keys) = Garnet.test.Keyspace.Resp.ScanReply(reply);
            foreach (var key in keys)
                Assert.That(seen.Add(key), Is.True, $"{key} returned once");
            cursor = next;
        }
        while (cursor != "0");
        Assert.That(seen, Is.EquivalentTo(model.Keys));
        Assert.That(client.Execute("KEYS", "key:1234*"), Does.Contain("key:1234\r\n"));
        Assert.That(client.Execute("RANDOMKEY"), Does.Match(@"^\$\d+\r\nkey:\d+\r\n$"));
    }

    [Test]
    public void PipelinesOfEightClientsOverDeviceAndMemoryKeysKeepTheirOrder()
    {
        Dictionary<string, string> model;
        using (var setup = ConnectRaw())
            model = FillFourTimesTheMemory(setup);
        int keys = model.Count;
        var clients = new Task[8];
        for (int c = 0; c < clients.Length; c++)
        {
            int self = c;
            clients[c] = Task.Factory.StartNew(() =>
            {
                using var client = ConnectRaw();
                var random = new Random(self);
                for (int round = 0; round < 20; round++)
                {
                    // Old keys (on the device) and new ones (in memory) mixed, with writes of the client's own keys.
                    var expected = new List<string>();
                    var batch = new StringBuilder();
                    for (int i = 0; i < 64; i++)
                    {
                        int k = random.Next(2) == 0 ? random.Next(keys / 4) : keys - 1 - random.Next(keys / 8);
                        string key = "key:" + k.ToString(CultureInfo.InvariantCulture);
                        batch.Append(RawClient.Encode("GET", key));
                        expected.Add(Bulk(model[key]));
                        string own = $"own:{self}:{i}";
                        batch.Append(RawClient.Encode("SET", own, round.ToString(CultureInfo.InvariantCulture)));
                        expected.Add("+OK\r\n");
                        batch.Append(RawClient.Encode("GET", own));
                        expected.Add(Bulk(round.ToString(CultureInfo.InvariantCulture)));
                    }
                    client.SendRaw(batch.ToString());
                    foreach (var reply in expected)
                        Assert.That(client.ReadReply(), Is.EqualTo(reply));
                }
            }, TaskCreationOptions.LongRunning);
        }
        Assert.That(Task.WaitAll(clients, TimeSpan.FromMinutes(2)), Is.True);
    }

    [Test]
    public void TransactionsAndScriptsOverDeviceKeysStayAtomic()
    {
        using var client = ConnectRaw();
        var model = FillFourTimesTheMemory(client);
        client.Execute("SET", "acct:a", "100");
        client.Execute("SET", "acct:b", "0");
        // Push the two counters out of memory (the same keys and values are written again).
        FillFourTimesTheMemory(client);
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DECRBY", "acct:a", "30"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("INCRBY", "acct:b", "30"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("GET", "key:22"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo($"*3\r\n:70\r\n:30\r\n{Bulk(model["key:22"])}"));
        Assert.That(client.Execute("EVAL", "return redis.call('GET', KEYS[1]) .. '|' .. redis.call('INCRBY', KEYS[2], 5)", "2", "key:23", "acct:b"),
            Is.EqualTo(Bulk(model["key:23"] + "|35")));
        Assert.That(client.Execute("MGET", "key:24", "acct:a", "nokey"), Is.EqualTo($"*3\r\n{Bulk(model["key:24"])}$2\r\n70\r\n$-1\r\n"));
    }

    [Test]
    public void ObjectsOfEveryTypeLeaveMemoryAndComeBack()
    {
        using var client = ConnectRaw();
        const int Keys = 1500;
        // Per key a list, a hash, a set, a sorted set, a geo set, an HLL and a bitmap: about 20 MB in all.
        for (int start = 0; start < Keys; start += 50)
        {
            var batch = new StringBuilder();
            int replies = 0;
            for (int k = start; k < start + 50; k++)
            {
                string n = k.ToString(CultureInfo.InvariantCulture);
                var fields = new List<string> { "HSET", "hash:" + n };
                var members = new List<string> { "SADD", "set:" + n };
                var items = new List<string> { "RPUSH", "list:" + n };
                var scored = new List<string> { "ZADD", "zset:" + n };
                for (int f = 0; f < 40; f++)
                {
                    string fs = f.ToString(CultureInfo.InvariantCulture);
                    fields.Add("field" + fs);
                    fields.Add(n + "-" + fs + new string('h', 40));
                    members.Add("member" + fs + ":" + n);
                    items.Add(n + "/" + fs + new string('l', 30));
                    scored.Add((k + f).ToString(CultureInfo.InvariantCulture));
                    scored.Add("z" + fs);
                }
                batch.Append(RawClient.Encode(fields.ToArray()));
                batch.Append(RawClient.Encode(members.ToArray()));
                batch.Append(RawClient.Encode(items.ToArray()));
                batch.Append(RawClient.Encode(scored.ToArray()));
                batch.Append(RawClient.Encode("GEOADD", "geo:" + n, "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"));
                batch.Append(RawClient.Encode("PFADD", "hll:" + n, "a" + n, "b" + n, "c" + n));
                batch.Append(RawClient.Encode("SETBIT", "bits:" + n, (k % 1000).ToString(CultureInfo.InvariantCulture), "1"));
                replies += 7;
            }
            client.SendRaw(batch.ToString());
            for (int i = 0; i < replies; i++)
                Assert.That(client.ReadReply(), Does.StartWith(":"));
        }
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_disk_bytes"], CultureInfo.InvariantCulture), Is.GreaterThan(0), "objects left memory");
        Assert.That(long.Parse(info["used_memory"], CultureInfo.InvariantCulture), Is.LessThan(3 * Memory), "their heap copies were released");

        for (int k = 0; k < Keys; k += 7)
        {
            string n = k.ToString(CultureInfo.InvariantCulture);
            Assert.That(client.Execute("HGET", "hash:" + n, "field3"), Is.EqualTo(Bulk(n + "-3" + new string('h', 40))), "hash " + n);
            Assert.That(client.Execute("HLEN", "hash:" + n), Is.EqualTo(":40\r\n"), "hash " + n);
            Assert.That(client.Execute("SISMEMBER", "set:" + n, "member39:" + n), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("LINDEX", "list:" + n, "5"), Is.EqualTo(Bulk(n + "/5" + new string('l', 30))));
            Assert.That(client.Execute("ZSCORE", "zset:" + n, "z7"), Is.EqualTo(Bulk((k + 7).ToString(CultureInfo.InvariantCulture))));
            Assert.That(client.Execute("GEODIST", "geo:" + n, "Palermo", "Catania", "km"), Does.StartWith("$8\r\n166.274"));
            Assert.That(client.Execute("PFCOUNT", "hll:" + n), Is.EqualTo(":3\r\n"));
            Assert.That(client.Execute("GETBIT", "bits:" + n, (k % 1000).ToString(CultureInfo.InvariantCulture)), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("TYPE", "zset:" + n), Is.EqualTo("+zset\r\n"));
        }

        // Updates of objects read back from the device become live objects at the tail; deletes shadow them.
        Assert.That(client.Execute("HSET", "hash:1", "extra", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("HLEN", "hash:1"), Is.EqualTo(":41\r\n"));
        Assert.That(client.Execute("LPUSH", "list:2", "head"), Is.EqualTo(":41\r\n"));
        Assert.That(client.Execute("LPOP", "list:2"), Is.EqualTo(Bulk("head")));
        Assert.That(client.Execute("ZINCRBY", "zset:3", "10", "z0"), Is.EqualTo(Bulk("13")));
        Assert.That(client.Execute("SREM", "set:4", "member0:4"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("SCARD", "set:4"), Is.EqualTo(":39\r\n"));
        Assert.That(client.Execute("DEL", "hash:5", "set:5", "nokey"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("EXISTS", "hash:5"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SET", "list:6", "now a string"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("LLEN", "list:6"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("GET", "hash:7"), Does.StartWith("-WRONGTYPE"));
        var (_, hashes) = Garnet.test.Keyspace.Resp.ScanReply(client.Execute("SCAN", "0", "TYPE", "hash", "COUNT", "100000"));
        Assert.That(hashes, Has.Count.EqualTo(Keys - 1));
    }
}
