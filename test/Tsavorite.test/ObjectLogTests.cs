using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// A store with an object log serializes, on each flush, the objects its live object records refer
/// to, and the flushed page leads to each one's entry. Here an "object" record's 16-byte value holds
/// an id (8 bytes) and the slot where the serializer notes the entry address (8 bytes).
/// </summary>
[TestFixture]
public sealed class ObjectLogTests
{
    private string _directory = null!;
    private LocalFileDevice _logDevice = null!;
    private LocalFileDevice _objectDevice = null!;
    private TestStore _ts = null!;

    [SetUp]
    public void SetUp()
    {
        _directory = Path.Combine(Path.GetTempPath(), "objlog-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        _logDevice = new LocalFileDevice(Path.Combine(_directory, "hlog"), deleteOnClose: true);
        _objectDevice = new LocalFileDevice(Path.Combine(_directory, "obj"), deleteOnClose: true);
        _ts = new TestStore(new StoreOptions { IndexSize = 1L << 16, LogDevice = _logDevice, ObjectLogDevice = _objectDevice });
    }

    [TearDown]
    public void TearDown()
    {
        _ts.Dispose();
        _logDevice.Dispose();
        _objectDevice.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    private HybridLog Log => _ts.Log;

    /// <summary>Writes the id's name into the object log and notes the entry's address in the record.</summary>
    private sealed unsafe class NamingSerializer : IObjectSerializer
    {
        public readonly List<long> Serialized = new();
        public bool Throw;

        public void Serialize(ref LogRecord record, ObjectLogWriter objectLog)
        {
            long id = BinaryPrimitives.ReadInt64LittleEndian(record.Value);
            if (Throw)
                throw new InvalidOperationException("serializer bug");
            long address = objectLog.BeginEntry();
            objectLog.Stream.Write(Encoding.ASCII.GetBytes(Name(id)));
            objectLog.EndEntry();
            BinaryPrimitives.WriteInt64LittleEndian(record.Value.Slice(8), address);
            lock (Serialized)
                Serialized.Add(id);
        }
    }

    private static string Name(long id) => "object-" + id;

    private static byte[] ObjectValue(long id)
    {
        var value = new byte[16];
        BinaryPrimitives.WriteInt64LittleEndian(value, id);
        return value;
    }

    private void WriteObject(string key, long id)
        => Assert.That(_ts.Session.Upsert(Encoding.ASCII.GetBytes(key), ObjectValue(id), new TestInput { MarkObject = true }).IsCreatedRecord, Is.True);

    private void FlushAll()
    {
        Assert.That(Log.FlushToTail(TimeSpan.FromSeconds(30)), Is.True, "the flush did not complete");
        Assert.That(Log.FlushErrors, Is.Zero);
    }

    /// <summary>Every object record read back from the device, by key: the name its entry holds (null for no entry).</summary>
    private Dictionary<string, string?> ReadBackObjects(long from = LogAddress.FirstValidAddress)
    {
        var found = new Dictionary<string, string?>();
        var objectLog = Log.ObjectLog!;
        Log.ForEachFlushedRecord(from, Log.FlushedUntilAddress, (in LogRecord record, long address) =>
        {
            if (!record.Info.ValueIsObject || !record.Info.Valid || record.Info.Tombstone)
                return;
            long entry = BinaryPrimitives.ReadInt64LittleEndian(record.Value.Slice(8));
            found[Encoding.ASCII.GetString(record.Key)] = entry == 0 ? null : Encoding.ASCII.GetString(objectLog.ReadEntry(entry));
        });
        return found;
    }

    [Test]
    public void EachLiveObjectRecordIsSerializedOnceAndItsFlushedPageLeadsToIt()
    {
        var serializer = new NamingSerializer();
        Log.ObjectSerializer = serializer;
        for (int i = 0; i < 200; i++)
        {
            WriteObject("o" + i, i);
            Assert.That(_ts.Session.Upsert(TestData.Key(i), TestData.Value(i, 24), default).IsCreatedRecord, Is.True);
        }
        Assert.That(_ts.Session.Delete("o7"u8).Found, Is.True); // a tombstone in place: nothing to serialize

        FlushAll();

        Assert.That(serializer.Serialized, Has.Count.EqualTo(199));
        Assert.That(serializer.Serialized, Does.Not.Contain(7L));
        var found = ReadBackObjects();
        Assert.That(found, Has.Count.EqualTo(199));
        for (int i = 0; i < 200; i++)
        {
            if (i != 7)
                Assert.That(found["o" + i], Is.EqualTo(Name(i)));
        }
        // String records reach the device unchanged.
        int strings = 0;
        Log.ForEachFlushedRecord(LogAddress.FirstValidAddress, Log.FlushedUntilAddress, (in LogRecord record, long address) =>
        {
            if (!record.Info.ValueIsObject && record.Key.StartsWith("key"u8))
            {
                int i = int.Parse(Encoding.ASCII.GetString(record.Key[3..]), System.Globalization.CultureInfo.InvariantCulture);
                Assert.That(record.Value.ToArray(), Is.EqualTo(TestData.Value(i, 24)));
                strings++;
            }
        });
        Assert.That(strings, Is.EqualTo(200));
    }

    [Test]
    public void FlushesThatShareASectorKeepTheEarlierEntryAddresses()
    {
        var serializer = new NamingSerializer();
        Log.ObjectSerializer = serializer;
        // Tails after a few records are not sector-aligned, so each flush rewrites the previous one's last sector.
        for (int round = 0; round < 5; round++)
        {
            for (int i = 0; i < 3; i++)
                WriteObject($"r{round}-{i}", round * 10 + i);
            Assert.That(Log.TailAddress % _logDevice.SectorSize, Is.Not.Zero);
            FlushAll();
        }

        var found = ReadBackObjects();
        Assert.That(found, Has.Count.EqualTo(15));
        for (int round = 0; round < 5; round++)
        {
            for (int i = 0; i < 3; i++)
                Assert.That(found[$"r{round}-{i}"], Is.EqualTo(Name(round * 10 + i)));
        }
    }

    [Test]
    public void ASupersededObjectRecordIsNotSerializedAgainAndItsSuccessorIsOnTheNextFlush()
    {
        var serializer = new NamingSerializer();
        Log.ObjectSerializer = serializer;
        WriteObject("k", 1);
        FlushAll();
        long firstFlushEnd = Log.FlushedUntilAddress;

        WriteObject("k", 2); // read-only now: a new record at the tail
        FlushAll();

        Assert.That(serializer.Serialized, Is.EqualTo(new[] { 1L, 2L }));
        Assert.That(ReadBackObjects(firstFlushEnd)["k"], Is.EqualTo(Name(2)));
    }

    [Test]
    public void ASerializerThatThrowsLeavesTheRangeUnflushedAndTheStoreWorking()
    {
        var serializer = new NamingSerializer { Throw = true };
        Log.ObjectSerializer = serializer;
        WriteObject("k", 1);
        long tail = Log.TailAddress;
        Log.ShiftReadOnlyToTail();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (Log.FlushErrors == 0)
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(deadline), "the failure was not reported");
            Thread.Sleep(5);
        }
        Assert.That(Log.FlushedUntilAddress, Is.LessThan(tail));
        Assert.That(_ts.Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(BinaryPrimitives.ReadInt64LittleEndian(value), Is.EqualTo(1));
    }

    [Test]
    public void WithoutASerializerObjectRecordsAreFlushedAsTheyAre()
    {
        WriteObject("k", 5);
        FlushAll();

        Assert.That(Log.ObjectLog!.TailAddress, Is.EqualTo(_objectDevice.SectorSize), "nothing was appended");
        Log.ForEachFlushedRecord(LogAddress.FirstValidAddress, Log.FlushedUntilAddress, (in LogRecord record, long address) =>
            Assert.That(record.Value.ToArray(), Is.EqualTo(ObjectValue(5))));
    }

    /// <summary>
    /// Writes <see cref="Pattern"/> bytes of the size <see cref="SizeOf"/> gives for the record's id, and abandons the
    /// entry (after writing it) for the ids <see cref="Abandon"/> names, noting address 0 for them.
    /// </summary>
    private sealed class PatternSerializer : IObjectSerializer
    {
        public Func<long, int> SizeOf = _ => 1;
        public Func<long, bool> Abandon = _ => false;

        public void Serialize(ref LogRecord record, ObjectLogWriter objectLog)
        {
            long id = BinaryPrimitives.ReadInt64LittleEndian(record.Value);
            long address = objectLog.BeginEntry();
            objectLog.Stream.Write(Pattern(id, SizeOf(id)));
            if (Abandon(id))
            {
                objectLog.CancelEntry();
                address = 0;
            }
            else
            {
                objectLog.EndEntry();
            }
            BinaryPrimitives.WriteInt64LittleEndian(record.Value.Slice(8), address);
        }
    }

    private static byte[] Pattern(long id, int size)
    {
        var bytes = new byte[size];
        for (int i = 0; i < size; i++)
            bytes[i] = (byte)(i * 31 + id);
        return bytes;
    }

    [Test]
    public void EntriesLargerThanTheStagingBufferAndAbandonedOnesAroundThemReadBackExactly()
    {
        // Entries cross the staging buffer's end (so their length is patched on the device), fill it exactly, and are
        // abandoned after part of them went out; small entries between them land at every offset within a sector.
        int staging = ObjectLogWriter.StagingBytes;
        var sizes = new Dictionary<long, int>
        {
            [0] = 10_000_000,
            [1] = 3,
            [2] = 5_000_000,
            [3] = 509,
            [4] = 6_000_000,
            [5] = staging - 4,
            [6] = 1,
            [7] = staging + 1,
        };
        for (long id = 8; id < 60; id++)
            sizes[id] = (int)(id * 37 % 700) + 1;
        var serializer = new PatternSerializer { SizeOf = id => sizes[id], Abandon = id => id is 2 or 4 or 20 };
        Log.ObjectSerializer = serializer;
        foreach (long id in sizes.Keys)
            WriteObject("p" + id, id);

        FlushAll();

        var objectLog = Log.ObjectLog!;
        int read = 0;
        Log.ForEachFlushedRecord(LogAddress.FirstValidAddress, Log.FlushedUntilAddress, (in LogRecord record, long address) =>
        {
            if (!record.Info.ValueIsObject || !record.Info.Valid)
                return;
            long id = BinaryPrimitives.ReadInt64LittleEndian(record.Value);
            long entry = BinaryPrimitives.ReadInt64LittleEndian(record.Value.Slice(8));
            if (id is 2 or 4 or 20)
            {
                Assert.That(entry, Is.Zero, $"abandoned entry of {id}");
            }
            else
            {
                Assert.That(entry, Is.Not.Zero, $"entry of {id}");
                Assert.That(objectLog.ReadEntry(entry), Is.EqualTo(Pattern(id, sizes[id])), $"entry of {id}");
            }
            read++;
        });
        Assert.That(read, Is.EqualTo(sizes.Count));
        // The abandoned bytes took no room: the log holds the kept entries, their lengths, and sector padding.
        long kept = 0;
        foreach (var (id, size) in sizes)
        {
            if (id is not (2 or 4 or 20))
                kept += size + sizeof(int);
        }
        Assert.That(objectLog.TailAddress, Is.LessThan(_objectDevice.SectorSize + kept + 64 * _objectDevice.SectorSize));
    }

    [Test]
    public void AnEntryAddressOutsideTheObjectLogIsRefused()
    {
        Assert.That(() => Log.ObjectLog!.ReadEntry(0), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => Log.ObjectLog!.ReadEntry(1L << 40), Throws.TypeOf<ArgumentOutOfRangeException>());
    }
}
