using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;
using Tsavorite;

namespace Garnet.test.Objects;

/// <summary>
/// When a page is flushed, the objects its live records refer to are serialized into the object log
/// and the flushed records lead to them; reading the device back yields the objects as they were.
/// Flushes run while clients keep changing the objects (copy updates move an object to a new record).
/// </summary>
public class ObjectFlushTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { UseLogDirectory = true };

    private GarnetDatabase Database => Server.Store.GetDatabase(0);

    private HybridLog Log => Database.MainStore.Log;

    /// <summary>Makes every record read-only and waits until the device has all of them.</summary>
    private void FlushAll()
    {
        Assert.That(Log.FlushToTail(TimeSpan.FromSeconds(30)), Is.True, "the flush did not complete");
        Assert.That(Log.FlushErrors, Is.Zero);
    }

    /// <summary>The flushed object records in address order: key, object log address (0 for none).</summary>
    private List<(string Key, long Entry)> FlushedObjectRecords(long from = LogAddress.FirstValidAddress)
    {
        var records = new List<(string, long)>();
        Log.ForEachFlushedRecord(from, Log.FlushedUntilAddress, (in LogRecord record, long address) =>
        {
            if (record.Info.ValueIsObject && record.Info.Valid && !record.Info.Tombstone)
                records.Add((Encoding.UTF8.GetString(record.Key), ObjectRecord.ObjectLogAddress(in record)));
        });
        return records;
    }

    /// <summary>The newest flushed copy of each key's object, read back from the object log.</summary>
    private Dictionary<string, byte[]> NewestFlushedEntries(long from = LogAddress.FirstValidAddress)
    {
        var newest = new Dictionary<string, byte[]>();
        foreach (var (key, entry) in FlushedObjectRecords(from))
        {
            if (entry != 0)
                newest[key] = Log.ObjectLog!.ReadEntry(entry);
        }
        return newest;
    }

    private static byte[] SerializeEntry(GarnetObject obj)
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write((byte)obj.Type);
            obj.Serialize(writer);
        }
        return stream.ToArray();
    }

    /// <summary>
    /// The live object of <paramref name="key"/>, as its entry would be written now: DUMP's payload
    /// is the same type byte and bytes followed by a 10-byte trailer (version and CRC).
    /// </summary>
    private byte[] LiveEntry(string key)
    {
        using var connection = Connect();
        var payload = connection.GetDatabase().KeyDump(key);
        Assert.That(payload, Is.Not.Null, key);
        return payload![..^10];
    }

    [Test]
    public void EachKindIsReadBackAsItWasWhenFlushed()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("RPUSH", "list", "a", "b", "c"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("HSET", "hash", "f1", "v1", "f2", "v2"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("SADD", "set", "x", "y", "z"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("ZADD", "zset", "1.5", "m1", "-inf", "m2"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("SET", "string", "v"), Is.EqualTo("+OK\r\n"));

        FlushAll();

        var entries = NewestFlushedEntries();
        Assert.That(entries.Keys, Is.EquivalentTo(new[] { "list", "hash", "set", "zset" }));
        var expectedTypes = new Dictionary<string, (GarnetObjectType, long)>
        {
            ["list"] = (GarnetObjectType.List, 3),
            ["hash"] = (GarnetObjectType.Hash, 2),
            ["set"] = (GarnetObjectType.Set, 3),
            ["zset"] = (GarnetObjectType.SortedSet, 2),
        };
        foreach (var (key, entry) in entries)
        {
            var obj = ObjectFlushSerializer.Deserialize(entry);
            Assert.That((obj.Type, obj.Count), Is.EqualTo(expectedTypes[key]), key);
            Assert.That(entry, Is.EqualTo(LiveEntry(key)), key);
            Assert.That(SerializeEntry(obj), Is.EqualTo(entry), "a read-back object serializes to the same bytes");
        }
    }

    [Test]
    public void AnUpdateAfterTheFlushMovesTheObjectAndTheNextFlushHasTheNewState()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("RPUSH", "list", "a", "b"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("SADD", "gone", "x"), Is.EqualTo(":1\r\n"));
        FlushAll();
        var first = NewestFlushedEntries();
        long firstEnd = Log.FlushedUntilAddress;

        // Read-only records: the push copies the record and the object moves with it; DEL appends a tombstone.
        Assert.That(client.Execute("LPUSH", "list", "z"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("DEL", "gone"), Is.EqualTo(":1\r\n"));
        Assert.That(Database.Objects.Count, Is.EqualTo(1), "no object is left behind by the copy or the delete");
        FlushAll();

        Assert.That(ObjectFlushSerializer.Deserialize(first["list"]).Count, Is.EqualTo(2), "the first flush kept what it wrote");
        var second = NewestFlushedEntries(firstEnd);
        Assert.That(second.Keys, Is.EquivalentTo(new[] { "list" }));
        var list = ObjectFlushSerializer.Deserialize(second["list"]);
        Assert.That(list.Count, Is.EqualTo(3));
        Assert.That(second["list"], Is.EqualTo(LiveEntry("list")));
        Assert.That(client.Execute("LRANGE", "list", "0", "-1"), Is.EqualTo("*3\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n"));
    }

    [Test]
    public void FlushesWhileClientsChangeObjectsWriteConsistentObjects()
    {
        const int Clients = 3;
        using var stop = new CancellationTokenSource();
        long operations = 0;
        var workers = new Task[Clients];
        for (int c = 0; c < Clients; c++)
        {
            int id = c;
            workers[c] = Task.Run(() =>
            {
                using var client = ConnectRaw();
                var random = new Random(id);
                long i = 0;
                while (!stop.IsCancellationRequested)
                {
                    string member = "m" + random.Next(5000);
                    switch (random.Next(4))
                    {
                        case 0: client.Execute("ZADD", "zset" + id, (i++).ToString(System.Globalization.CultureInfo.InvariantCulture), member); break;
                        case 1: client.Execute("HSET", "hash" + id, member, new string('v', random.Next(1, 64))); break;
                        case 2: client.Execute("RPUSH", "list" + id, member); break;
                        default: client.Execute("SREM", "set" + id, member); client.Execute("SADD", "set" + id, member, "x" + member); break;
                    }
                    Interlocked.Increment(ref operations);
                }
            });
        }

        // Flush repeatedly while the clients run; each round's records become read-only, so the next
        // change to each key copies its record. A record changed before its flush serialized it hands
        // its object to the copy and is written without an entry, which the clients' keys, changed
        // every few microseconds, may always be. One more key changes only between flushes, so every
        // round writes at least its entry.
        using var steady = ConnectRaw();
        int rounds = 0;
        var deadline = DateTime.UtcNow.AddSeconds(60);
        for (; rounds < 15 || Interlocked.Read(ref operations) < 3000; rounds++)
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(deadline), "the clients made too little progress");
            steady.Execute("HSET", "steady", "round", rounds.ToString(System.Globalization.CultureInfo.InvariantCulture));
            Thread.Sleep(20);
            FlushAll();
        }
        stop.Cancel();
        Task.WaitAll(workers);
        FlushAll();

        // Every entry any flush wrote reads back whole.
        int entries = 0;
        foreach (var (_, entry) in FlushedObjectRecords())
        {
            if (entry == 0)
                continue;
            var bytes = Log.ObjectLog!.ReadEntry(entry);
            Assert.That(SerializeEntry(ObjectFlushSerializer.Deserialize(bytes)), Is.EqualTo(bytes));
            entries++;
        }
        Assert.That(entries, Is.GreaterThanOrEqualTo(rounds + (Clients * 4)));

        // The last flush, after the clients stopped, has each key as it is now.
        var newest = NewestFlushedEntries();
        Assert.That(newest, Has.Count.EqualTo((Clients * 4) + 1));
        foreach (var (key, entry) in newest)
            Assert.That(entry, Is.EqualTo(LiveEntry(key)), key);
        Assert.That(Database.Objects.Count, Is.EqualTo((Clients * 4) + 1), "moved objects were not duplicated");
    }
}
