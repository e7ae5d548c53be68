using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// The storage tier: pages that leave memory stay on the log device, and reads, updates and deletes of records there
/// read them back (pending reads completed by the session) and give the answers an all-in-memory store would.
/// </summary>
[TestFixture]
public sealed class StorageTierTests
{
    private const int PageSizeBits = 12;
    private const int PageSize = 1 << PageSizeBits;
    private const int Frames = 16;

    private string _directory = null!;

    [SetUp]
    public void SetUp()
    {
        _directory = Path.Combine(Path.GetTempPath(), "tsavorite-tier-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
    }

    [TearDown]
    public void TearDown()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    /// <summary>16 frames of 4 KB (64 KB of memory), most of them read-only, over a file device.</summary>
    private StoreOptions TieredLog(IDevice device, long indexMaxSize = 0)
        => new()
        {
            PageSizeBits = PageSizeBits,
            MemorySize = Frames * PageSize,
            MutableFraction = 0.3,
            LogDevice = device,
            StorageTier = true,
            IndexMaxSize = indexMaxSize,
        };

    private LocalFileDevice NewDevice() => new(Path.Combine(_directory, "hlog"), segmentSize: 1L << 20);

    [Test]
    public void DataFourTimesTheMemoryReadsBackExactly()
    {
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        var values = new Dictionary<int, byte[]>();
        // Values of 20-300 bytes until four times the memory was written, all to distinct keys.
        var random = new Random(3);
        long written = 0;
        for (int i = 0; written < 4L * Frames * PageSize; i++)
        {
            var value = TestData.Value(i, random.Next(20, 300));
            Assert.That(session.Upsert(TestData.Key(i), value, default).IsOutOfMemory, Is.False, $"upsert {i}");
            values[i] = value;
            written += value.Length + 32;
        }

        Assert.That(ts.Log.HeadAddress, Is.GreaterThan(ts.Log.BeginAddress + (2L * Frames * PageSize)), "most of the log left memory");
        long pendingBefore = ts.Store.PendingReads;
        foreach (var (key, value) in values)
        {
            Assert.That(session.Read(TestData.Key(key), out var read).Found, Is.True, $"key {key}");
            Assert.That(read, Is.EqualTo(value), $"key {key}");
        }
        Assert.That(session.Read(TestData.Key(values.Count + 5), out _).NotFound, Is.True, "a key never written");
        Assert.That(ts.Store.PendingReads - pendingBefore, Is.GreaterThan(values.Count / 2), "most reads went to the device");
        Assert.That(ts.Store.DeviceReadErrors, Is.Zero);
    }

    [Test]
    public void UpdatesAndDeletesOfOnDiskRecordsMatchAModel([Values(1, 9)] int seed)
    {
        using var device = NewDevice();
        // The index starts at 128 buckets and may double while records are on the device.
        using var ts = new TestStore(TieredLog(device, indexMaxSize: 1L << 16));
        var session = ts.Session;
        var random = new Random(seed);
        var model = new Dictionary<int, byte[]>();
        const int Keys = 1500;
        for (int op = 0; op < 20_000; op++)
        {
            int key = random.Next(Keys);
            var keyBytes = TestData.Key(key);
            switch (random.Next(10))
            {
                case 0:
                    {
                        var status = session.Delete(keyBytes);
                        Assert.That(status.Found, Is.EqualTo(model.Remove(key)), $"op {op}: delete {key}: {status}");
                        break;
                    }
                case 1:
                case 2:
                    {
                        var suffix = TestData.Value(op, random.Next(1, 30));
                        var status = session.RMW(keyBytes, TestInput.Append(suffix), out _);
                        bool existed = model.TryGetValue(key, out var old);
                        Assert.That(status.Found, Is.EqualTo(existed), $"op {op}: append {key}: {status}");
                        model[key] = existed ? old!.Concat(suffix).ToArray() : suffix;
                        break;
                    }
                case 3:
                case 4:
                    {
                        var status = session.Read(keyBytes, out var read);
                        Assert.That(status.Found, Is.EqualTo(model.ContainsKey(key)), $"op {op}: read {key}: {status}");
                        if (status.Found)
                            Assert.That(read, Is.EqualTo(model[key]), $"op {op}: read {key}");
                        break;
                    }
                default:
                    {
                        var value = TestData.Value(op, random.Next(10, 120));
                        Assert.That(session.Upsert(keyBytes, value, default).IsOutOfMemory, Is.False, $"op {op}: upsert {key}");
                        model[key] = value;
                        break;
                    }
            }
        }

        Assert.That(ts.Store.PendingReads, Is.GreaterThan(1000), "operations met records on the device");
        Assert.That(ts.Store.IndexResizeCount, Is.GreaterThan(0), "the index grew with records on the device");
        for (int key = 0; key < Keys; key++)
        {
            var status = session.Read(TestData.Key(key), out var read);
            Assert.That(status.Found, Is.EqualTo(model.ContainsKey(key)), $"key {key}");
            if (status.Found)
                Assert.That(read, Is.EqualTo(model[key]), $"key {key}");
        }
    }

    [Test]
    public void ScansReportEveryLiveKeyOnceFromTheDeviceAndFromMemory()
    {
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        var model = new Dictionary<string, string>();
        var random = new Random(5);
        // Keys rewritten and deleted while older versions of them leave memory: only the newest live version counts.
        for (int op = 0; op < 6000; op++)
        {
            int key = random.Next(1200);
            if (random.Next(8) == 0)
            {
                session.Delete(TestData.Key(key));
                model.Remove(Convert.ToHexString(TestData.Key(key)));
                continue;
            }
            var value = TestData.Value(op, random.Next(20, 200));
            session.Upsert(TestData.Key(key), value, default);
            model[Convert.ToHexString(TestData.Key(key))] = Convert.ToHexString(value);
        }
        Assert.That(ts.Log.HeadAddress, Is.GreaterThan(ts.Log.BeginAddress + (2L * Frames * PageSize)), "most of the log left memory");

        var scanned = session.ScanAll();
        Assert.That(scanned.Select(r => Convert.ToHexString(r.Key)).Distinct().Count(), Is.EqualTo(scanned.Count), "each key once");
        Assert.That(session.Snapshot(), Is.EqualTo(new SortedDictionary<string, string>(model, StringComparer.Ordinal)));
        Assert.That(scanned.Any(r => r.Address < ts.Log.HeadAddress), Is.True, "some came from the device");

        // A scan resumed from a cursor on the device goes on from there.
        var first = new ScanCollector { Limit = 10 };
        long cursor = session.Scan(ref first);
        Assert.That(cursor, Is.LessThan(ts.Log.HeadAddress));
        var rest = new ScanCollector();
        session.Scan(ref rest, cursor);
        Assert.That(first.Records.Count + rest.Records.Count, Is.EqualTo(model.Count));
    }

    [Test]
    public void FullScansWhileTheHeadMovesReportEveryKeyOnce()
    {
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        const int StableKeys = 1500;
        for (int i = 0; i < StableKeys; i++)
            session.Upsert(TestData.FixedKey(i), TestData.Value(i, 40), default);

        // A writer of new keys keeps the head moving (records in memory go to the device under the scans), for a bounded
        // number of keys so each scan stays short.
        using var stop = new CancellationTokenSource();
        var writer = new Thread(() =>
        {
            var writes = ts.NewSession();
            for (int n = 0; n < 15_000 && !stop.IsCancellationRequested; n++)
                writes.Upsert(TestData.Key(1_000_000 + n), TestData.Value(n, 60), default);
        });
        writer.Start();
        try
        {
            for (int round = 0; writer.IsAlive || round < 10; round++)
            {
                var stable = new HashSet<string>();
                foreach (var record in session.ScanAll())
                {
                    if (record.Key.Length == 7 && record.Key[0] == (byte)'k')
                        Assert.That(stable.Add(Convert.ToHexString(record.Key)), Is.True, $"round {round}: a key reported twice");
                }
                Assert.That(stable, Has.Count.EqualTo(StableKeys), $"round {round}: every key once");
            }
        }
        finally
        {
            stop.Cancel();
            writer.Join();
        }
    }

    [Test]
    public void TheIndexGrowsWithTheKeysNotWithTheChainsOnTheDevice()
    {
        // From one bucket, with most records on the device while the index grows: a split cannot tell the keys of a
        // chain on the device apart, so both halves keep it; counting both copies grew the index on and on.
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device, indexMaxSize: 1L << 26) with { IndexSize = HashBucket.Size });
        var session = ts.Session;
        const int Keys = 20_000;
        for (int i = 0; i < Keys; i++)
            Assert.That(session.Upsert(TestData.FixedKey(i), TestData.Value(i, 40), default).IsOutOfMemory, Is.False);
        Assert.That(ts.Log.HeadAddress, Is.GreaterThan(ts.Log.BeginAddress + (8L * Frames * PageSize)), "most of the log left memory");

        // Growth aims at a few keys per bucket (seven entries each): a sixteenth of the keys is plenty, and far from
        // the maximum (a million buckets).
        Assert.That(ts.Store.IndexBucketCount, Is.LessThanOrEqualTo(Keys / 2), "buckets");
        Assert.That(ts.Store.IndexBucketCount, Is.GreaterThanOrEqualTo(Keys / 64), "the index grew");
        for (int i = 0; i < Keys; i += 7)
        {
            Assert.That(session.Read(TestData.FixedKey(i), out var value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, 40)));
        }
    }

    [Test]
    public void ReadsCopiedToTheTailServeTheNextReadsFromMemory()
    {
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device) with { CopyReadsToTail = true });
        var session = ts.Session;
        for (int i = 0; ts.Log.HeadAddress < 8L * PageSize; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 100), default);
        Assert.That(session.Read(TestData.Key(3), out var first).Found, Is.True);
        Assert.That(ts.Store.ReadsCopiedToTail, Is.EqualTo(1));
        long pending = ts.Store.PendingReads;
        for (int n = 0; n < 10; n++)
        {
            Assert.That(session.Read(TestData.Key(3), out var again).Found, Is.True);
            Assert.That(again, Is.EqualTo(first));
        }
        Assert.That(ts.Store.PendingReads, Is.EqualTo(pending), "served from memory");
        Assert.That(ts.Store.ReadsCopiedToTail, Is.EqualTo(1));
        // An update of the copy is an ordinary in-memory update; the copy leaves memory like any record.
        Assert.That(session.RMW(TestData.Key(3), TestInput.Append([9]), out _).Found, Is.True);
        long updatedAt = ts.Log.TailAddress;
        for (int i = 50_000; ts.Log.HeadAddress <= updatedAt; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 100), default);
        Assert.That(session.Read(TestData.Key(3), out var updated).Found, Is.True);
        Assert.That(updated, Is.EqualTo(first!.Concat(new byte[] { 9 }).ToArray()));
    }

    [Test]
    public void CountersIncrementedOnDiskKeepEveryIncrement()
    {
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        const int Counters = 3000;
        // Three rounds over more counters than fit in memory: each round finds most of them on the device.
        for (int round = 1; round <= 3; round++)
        {
            for (int i = 0; i < Counters; i++)
            {
                var status = session.Increment(TestData.Key(i), i);
                Assert.That(status.Found, Is.EqualTo(round > 1), $"round {round}, counter {i}: {status}");
            }
        }
        for (int i = 0; i < Counters; i++)
            Assert.That(session.ReadCounter(TestData.Key(i)), Is.EqualTo(3L * i), $"counter {i}");
    }

    [Test]
    public void DeletingAnOnDiskKeyShadowsItForGood()
    {
        using var device = NewDevice();
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        Assert.That(session.Upsert(TestData.Key(0), TestData.Value(0, 50), default).IsCreatedRecord, Is.True);
        for (int i = 1; ts.Log.HeadAddress < 4L * PageSize; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 200), default);

        Assert.That(session.Delete(TestData.Key(0)).Found, Is.True, "the record on the device was live");
        Assert.That(session.Read(TestData.Key(0), out _).NotFound, Is.True);
        Assert.That(session.Delete(TestData.Key(0)).NotFound, Is.True, "already deleted");
        // The tombstone itself leaves memory: the key stays deleted.
        long tail = ts.Log.TailAddress;
        for (int i = 10_000; ts.Log.HeadAddress <= tail; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 200), default);
        Assert.That(session.Read(TestData.Key(0), out _).NotFound, Is.True, "tombstone read back from the device");
        Assert.That(session.Delete(TestData.Key(0)).NotFound, Is.True);
        var created = session.RMW(TestData.Key(0), TestInput.Append([7, 7]), out _);
        Assert.That(created.NotFound && created.IsCreatedRecord, Is.True, $"append creates the key anew: {created}");
        Assert.That(session.Read(TestData.Key(0), out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo(new byte[] { 7, 7 }));
    }

    [Test]
    public void CompactionKeepsTheLiveSetAndBoundsTheFilesUnderOverwrites([Values(CompactionType.Lookup, CompactionType.Scan)] CompactionType type)
    {
        // Segments of four pages; compaction keeps at most six of them.
        const long SegmentSize = 4 * PageSize;
        const int MaxSegments = 6;
        using var device = new LocalFileDevice(Path.Combine(_directory, "hlog"), segmentSize: SegmentSize);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        var model = new Dictionary<int, byte[]>();
        var random = new Random(17);
        const int Keys = 1500;
        int maxFiles = 0;
        // Ten times over a live set of about 1500 x 60 bytes (more than the memory), with deletes among the writes.
        for (int op = 0; op < 10 * Keys; op++)
        {
            int key = random.Next(Keys);
            if (random.Next(20) == 0)
            {
                session.Delete(TestData.Key(key));
                model.Remove(key);
            }
            else
            {
                var value = TestData.Value(op, random.Next(20, 100));
                session.Upsert(TestData.Key(key), value, default);
                model[key] = value;
            }
            if (op % 500 == 499)
            {
                long until = ts.Log.HeadAddress - (MaxSegments * SegmentSize);
                if (until > ts.Log.BeginAddress)
                    ts.Store.Compact(until - (until % SegmentSize), type);
                maxFiles = Math.Max(maxFiles, Directory.GetFiles(_directory, "hlog.*").Length);
            }
        }

        Assert.That(ts.Store.Compactions, Is.GreaterThan(3));
        Assert.That(ts.Log.BeginAddress, Is.GreaterThan(10 * SegmentSize), "the begin address moved");
        Assert.That(ts.Store.RecordsCompacted, Is.GreaterThan(0), "live records were copied forward");
        // The files hold the compacted window, what is in memory (written too) and what was written since.
        Assert.That(maxFiles, Is.LessThanOrEqualTo(MaxSegments + Frames / 4 + 4), "the files stay bounded");
        for (int key = 0; key < Keys; key++)
        {
            var status = session.Read(TestData.Key(key), out var read);
            Assert.That(status.Found, Is.EqualTo(model.ContainsKey(key)), $"key {key}");
            if (status.Found)
                Assert.That(read, Is.EqualTo(model[key]), $"key {key}");
        }
        Assert.That(session.Snapshot(), Has.Count.EqualTo(model.Count), "a scan sees the live set exactly");
    }

    [Test]
    public void ShiftCompactionDropsTheOldestRecords()
    {
        using var device = new LocalFileDevice(Path.Combine(_directory, "hlog"), segmentSize: 4 * PageSize);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        for (int i = 0; ts.Log.HeadAddress < 16L * PageSize; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 200), default);
        Assert.That(session.Read(TestData.Key(0), out _).Found, Is.True);
        ts.Store.Compact(8L * PageSize, CompactionType.Shift);
        Assert.That(ts.Log.BeginAddress, Is.EqualTo(8L * PageSize));
        Assert.That(session.Read(TestData.Key(0), out _).NotFound, Is.True, "dropped with its segment");
        Assert.That(ts.Store.RecordsCompacted, Is.Zero);
    }

    [Test]
    public void ATieredDeviceServesNewRecordsFromItsFastTierAndOldOnesFromTheLast()
    {
        const long Segment = 4 * PageSize;
        var fast = new CountingDevice(new LocalFileDevice(Path.Combine(_directory, "fast"), segmentSize: Segment));
        var slow = new CountingDevice(new LocalFileDevice(Path.Combine(_directory, "slow"), segmentSize: Segment));
        using var device = new TieredDevice([fast, slow], [3 * Segment, -1]);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        var values = new Dictionary<int, byte[]>();
        for (int i = 0; ts.Log.HeadAddress < 16L * Segment; i++)
        {
            values[i] = TestData.Value(i, 150);
            session.Upsert(TestData.Key(i), values[i], default);
        }
        Assert.That(device.KeptFrom(0), Is.GreaterThan(8L * Segment), "the fast tier let go of the oldest segments");
        Assert.That(Directory.GetFiles(_directory, "fast.*").Length, Is.LessThanOrEqualTo(4));

        // The oldest keys come from the slow tier, keys just below the head from the fast one.
        int newest = values.Count - 1;
        while (session.Read(TestData.Key(newest), out _).Found && ts.Store.PendingReads == 0)
            newest--;
        long fastReads = fast.Reads;
        long slowReads = slow.Reads;
        Assert.That(session.Read(TestData.Key(0), out var oldest).Found, Is.True);
        Assert.That(oldest, Is.EqualTo(values[0]));
        Assert.That(slow.Reads, Is.GreaterThan(slowReads), "old data from the last tier");
        Assert.That(fast.Reads, Is.EqualTo(fastReads));
        Assert.That(session.Read(TestData.Key(newest), out var recent).Found, Is.True);
        Assert.That(recent, Is.EqualTo(values[newest]));
        Assert.That(fast.Reads, Is.GreaterThan(fastReads), "recent data from the fast tier");
        foreach (var (key, value) in values)
        {
            Assert.That(session.Read(TestData.Key(key), out var read).Found, Is.True, $"key {key}");
            Assert.That(read, Is.EqualTo(value), $"key {key}");
        }
    }

    /// <summary>Counts the reads a device served.</summary>
    private sealed class CountingDevice(IDevice inner) : IDevice
    {
        private long _reads;

        public long Reads => Interlocked.Read(ref _reads);

        public string Name => inner.Name;

        public uint SectorSize => inner.SectorSize;

        public long SegmentSize => inner.SegmentSize;

        public void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context)
            => inner.WriteAsync(source, destinationAddress, length, callback, context);

        public void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context)
        {
            Interlocked.Increment(ref _reads);
            inner.ReadAsync(sourceAddress, destination, length, callback, context);
        }

        public uint Read(ulong sourceAddress, Span<byte> destination)
        {
            Interlocked.Increment(ref _reads);
            return inner.Read(sourceAddress, destination);
        }

        public void TruncateUntilAddress(long address) => inner.TruncateUntilAddress(address);

        public void WaitForPendingWrites() => inner.WaitForPendingWrites();

        public void Dispose() => inner.Dispose();
    }

    [Test]
    public void FailedWritesAreRetriedAndThePagesWaitInMemoryForThem()
    {
        using var inner = NewDevice();
        using var device = new FailingReadDevice(inner);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        var values = new Dictionary<int, byte[]>();
        device.FailWrites = true;
        // Half the memory: pages become read-only and their flushes fail, but nothing has to leave memory yet.
        int next = 0;
        for (; ts.Log.TailAddress < 8L * PageSize; next++)
        {
            values[next] = TestData.Value(next, 150);
            session.Upsert(TestData.Key(next), values[next], default);
        }
        Assert.That(SpinWait.SpinUntil(() => ts.Log.FlushErrors > 0, TimeSpan.FromSeconds(30)), Is.True);
        Assert.That(ts.Log.HeadAddress, Is.EqualTo(ts.Log.BeginAddress), "nothing unflushed left memory");
        device.FailWrites = false;
        for (; ts.Log.HeadAddress < 32L * PageSize; next++)
        {
            values[next] = TestData.Value(next, 150);
            session.Upsert(TestData.Key(next), values[next], default);
        }
        foreach (var (key, value) in values)
        {
            Assert.That(session.Read(TestData.Key(key), out var read).Found, Is.True, $"key {key}");
            Assert.That(read, Is.EqualTo(value), $"key {key}");
        }
    }

    [Test]
    public void AFailedDeviceReadFailsOnlyThatOperation()
    {
        using var inner = NewDevice();
        using var device = new FailingReadDevice(inner);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        session.Upsert(TestData.Key(0), TestData.Value(0, 50), default);
        for (int i = 1; ts.Log.HeadAddress < 4L * PageSize; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 200), default);

        device.FailReads = true;
        var error = Assert.Throws<DeviceReadException>(() => session.Read(TestData.Key(0), out _));
        Assert.That(error!.ErrorCode, Is.EqualTo(FailingReadDevice.ErrorCode));
        Assert.Throws<DeviceReadException>(() => session.Increment(TestData.Key(0), 1));
        Assert.That(ts.Store.DeviceReadErrors, Is.EqualTo(2));
        // Records in memory are served meanwhile, and the failed update wrote nothing.
        Assert.That(session.Upsert(TestData.Key(99_999), [1, 2, 3], default).IsCreatedRecord, Is.True);
        Assert.That(session.Read(TestData.Key(99_999), out var fresh).Found, Is.True);
        Assert.That(fresh, Is.EqualTo(new byte[] { 1, 2, 3 }));

        device.FailReads = false;
        Assert.That(session.Read(TestData.Key(0), out var value).Found, Is.True, "the device is back");
        Assert.That(value, Is.EqualTo(TestData.Value(0, 50)));
        Assert.That(session.Read(TestData.Key(1), out _).Found, Is.True);
    }

    /// <summary>A device whose reads or writes fail on demand.</summary>
    private sealed class FailingReadDevice(IDevice inner) : IDevice
    {
        public const uint ErrorCode = 5;

        public volatile bool FailReads;

        public string Name => inner.Name;

        public uint SectorSize => inner.SectorSize;

        public long SegmentSize => inner.SegmentSize;

        public volatile bool FailWrites;

        public void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context)
        {
            if (FailWrites)
                callback(ErrorCode, 0, context);
            else
                inner.WriteAsync(source, destinationAddress, length, callback, context);
        }

        public void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context)
        {
            if (FailReads)
                callback(ErrorCode, 0, context);
            else
                inner.ReadAsync(sourceAddress, destination, length, callback, context);
        }

        public uint Read(ulong sourceAddress, Span<byte> destination) => FailReads ? ErrorCode : inner.Read(sourceAddress, destination);

        public void TruncateUntilAddress(long address) => inner.TruncateUntilAddress(address);

        public void WaitForPendingWrites() => inner.WaitForPendingWrites();

        public void Dispose()
        {
        }
    }
}
