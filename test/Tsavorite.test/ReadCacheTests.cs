using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// The read cache: records reads find on the device are copied into memory of their own at the front of their chains,
/// so a hot set is served from memory; writes of a cached key drop the copy; the cache makes room FIFO with a second
/// chance; index growth and concurrent writers leave every read exact.
/// </summary>
[TestFixture]
public sealed class ReadCacheTests
{
    private const int PageSizeBits = 12;
    private const int PageSize = 1 << PageSizeBits;
    private const int Frames = 16;

    private string _directory = null!;

    [SetUp]
    public void SetUp()
    {
        _directory = Path.Combine(Path.GetTempPath(), "tsavorite-readcache-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
    }

    [TearDown]
    public void TearDown()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    /// <summary>64 KB of log memory over a file device, with a read cache of <paramref name="cacheBytes"/> in 4 KB pages.</summary>
    private StoreOptions CachedLog(IDevice device, long cacheBytes = 1L << 16, long indexSize = 1L << 13, long indexMaxSize = 0)
        => new()
        {
            PageSizeBits = PageSizeBits,
            MemorySize = Frames * PageSize,
            MutableFraction = 0.3,
            LogDevice = device,
            StorageTier = true,
            ReadCache = true,
            ReadCacheMemorySize = cacheBytes,
            IndexSize = indexSize,
            IndexMaxSize = indexMaxSize,
        };

    private LocalFileDevice NewDevice() => new(Path.Combine(_directory, "hlog"), segmentSize: 1L << 20);

    /// <summary>
    /// Writes keys <paramref name="firstKey"/>, the next, ... with 100-byte values until the head passed
    /// <paramref name="pages"/> pages; returns how many.
    /// </summary>
    private static int FillPastMemory(TestStore ts, int pages = 8, int firstKey = 0)
    {
        int i = 0;
        for (; ts.Log.HeadAddress < (long)pages * PageSize; i++)
            Assert.That(ts.Session.Upsert(TestData.Key(firstKey + i), TestData.Value(firstKey + i, 100), default).IsOutOfMemory, Is.False);
        return i;
    }

    [Test]
    public void LargeValuesReadFromTheDeviceAreNotCachedAndReadBackExactly()
    {
        // A value over a quarter of a page lives out of line, in a block the read's copy owns and releases: the cache,
        // which never gives blocks back, leaves such records to the device.
        using var device = NewDevice();
        using var objectDevice = new LocalFileDevice(Path.Combine(_directory, "obj"), segmentSize: 1L << 22);
        using var ts = new TestStore(CachedLog(device) with { ObjectLogDevice = objectDevice });
        var session = ts.Session;
        var large = TestData.Value(7, 3 * PageSize / 4);
        Assert.That(large.Length, Is.GreaterThan(ts.Log.ExternalValueThreshold));
        Assert.That(session.Upsert("large"u8, large, default).IsOutOfMemory, Is.False);
        FillPastMemory(ts);

        long inserts = ts.Store.ReadCacheInserts;
        for (int round = 0; round < 3; round++)
        {
            Assert.That(session.Read("large"u8, out var value).Found, Is.True, $"round {round}");
            Assert.That(value, Is.EqualTo(large), $"round {round}");
        }
        Assert.That(ts.Store.ReadCacheInserts, Is.EqualTo(inserts), "not cached");
        Assert.That(session.Read(TestData.Key(2), out var small).Found, Is.True);
        Assert.That(small, Is.EqualTo(TestData.Value(2, 100)));
        Assert.That(ts.Store.ReadCacheInserts, Is.EqualTo(inserts + 1), "a small record is");
    }

    [Test]
    public void SecondReadOfAnOnDiskKeyIsServedFromTheCache()
    {
        using var device = NewDevice();
        using var ts = new TestStore(CachedLog(device));
        var session = ts.Session;
        FillPastMemory(ts);
        Assert.That(ts.Store.HasReadCache, Is.True);

        long pending = ts.Store.PendingReads;
        Assert.That(session.Read(TestData.Key(3), out var first).Found, Is.True);
        Assert.That(first, Is.EqualTo(TestData.Value(3, 100)));
        Assert.That(ts.Store.PendingReads - pending, Is.EqualTo(1), "the first read went to the device");
        Assert.That(ts.Store.ReadCacheInserts, Is.EqualTo(1));
        Assert.That(ts.Store.ReadCacheMisses, Is.EqualTo(1));
        Assert.That(ts.ChainHead(TestData.Key(3)), Is.GreaterThanOrEqualTo(LogAddress.ReadCacheBit), "the copy heads the chain");

        long tail = ts.Log.TailAddress;
        for (int n = 0; n < 10; n++)
        {
            Assert.That(session.Read(TestData.Key(3), out var again).Found, Is.True);
            Assert.That(again, Is.EqualTo(first));
        }
        Assert.That(ts.Store.PendingReads - pending, Is.EqualTo(1), "served from memory");
        Assert.That(ts.Store.ReadCacheHits, Is.EqualTo(10));
        Assert.That(ts.Log.TailAddress, Is.EqualTo(tail), "the log did not grow");
        Assert.That(ts.Store.ReadCacheMemoryBytes, Is.EqualTo(PageSize));

        // Another key of the same chain (or none) still reads right past the copy.
        Assert.That(session.Read(TestData.Key(4), out var other).Found, Is.True);
        Assert.That(other, Is.EqualTo(TestData.Value(4, 100)));
        Assert.That(session.Read(TestData.Key(1_000_000), out _).NotFound, Is.True);
    }

    [Test]
    public void WritesOfCachedKeysInvalidateTheirCopies()
    {
        using var device = NewDevice();
        using var ts = new TestStore(CachedLog(device));
        var session = ts.Session;
        FillPastMemory(ts);
        for (int k = 1; k <= 3; k++)
            Assert.That(session.Read(TestData.Key(k), out _).Found, Is.True);
        Assert.That(ts.Store.ReadCacheInserts, Is.EqualTo(3));

        var upserted = TestData.Value(77, 50);
        Assert.That(session.Upsert(TestData.Key(1), upserted, default).Found, Is.True);
        Assert.That(session.RMW(TestData.Key(2), TestInput.Append([9, 9]), out _).Found, Is.True);
        Assert.That(session.Delete(TestData.Key(3)).Found, Is.True);
        Assert.That(ts.Store.ReadCacheInvalidations, Is.GreaterThanOrEqualTo(3));

        Assert.That(session.Read(TestData.Key(1), out var one).Found, Is.True);
        Assert.That(one, Is.EqualTo(upserted));
        Assert.That(session.Read(TestData.Key(2), out var two).Found, Is.True);
        Assert.That(two, Is.EqualTo([.. TestData.Value(2, 100), 9, 9]));
        Assert.That(session.Read(TestData.Key(3), out _).NotFound, Is.True);

        // Once the new records left memory too, reads (through new copies) still give them.
        FillPastMemory(ts, pages: (int)(ts.Log.TailAddress / PageSize) + Frames, firstKey: 500_000);
        for (int n = 0; n < 2; n++)
        {
            Assert.That(session.Read(TestData.Key(1), out one).Found, Is.True);
            Assert.That(one, Is.EqualTo(upserted));
            Assert.That(session.Read(TestData.Key(2), out two).Found, Is.True);
            Assert.That(two, Is.EqualTo([.. TestData.Value(2, 100), 9, 9]));
            Assert.That(session.Read(TestData.Key(3), out _).NotFound, Is.True);
        }
        Assert.That(ts.Store.ReadCacheHits, Is.GreaterThanOrEqualTo(2));
    }

    [Test]
    public void HotSetSurvivesAStreamOfColdReads()
    {
        using var device = NewDevice();
        using var ts = new TestStore(CachedLog(device));
        var session = ts.Session;
        int keys = FillPastMemory(ts, pages: 160);
        const int Hot = 40; // about 6 KB of copies: a tenth of the cache
        for (int pass = 0; pass < 2; pass++)
        {
            for (int k = 0; k < Hot; k++)
                Assert.That(session.Read(TestData.Key(k), out _).Found, Is.True);
        }

        // Cold keys, five times the cache's size, each read once; the hot set is read again every 100 of them.
        int cold = Hot;
        for (int round = 0; round < 20; round++)
        {
            for (int n = 0; n < 100 && cold < keys; n++, cold++)
            {
                Assert.That(session.Read(TestData.Key(cold), out var value).Found, Is.True);
                Assert.That(value, Is.EqualTo(TestData.Value(cold, 100)), $"key {cold}");
            }
            for (int k = 0; k < Hot; k++)
            {
                Assert.That(session.Read(TestData.Key(k), out var value).Found, Is.True);
                Assert.That(value, Is.EqualTo(TestData.Value(k, 100)), $"hot key {k}");
            }
        }
        Assert.That(cold, Is.GreaterThan(1500), "enough cold keys");
        Assert.That(ts.Store.ReadCacheEvictions, Is.GreaterThan(1000), "the cold keys went through the cache");
        Assert.That(ts.Store.ReadCacheSecondChances, Is.GreaterThan(0));
        Assert.That(ts.Store.ReadCacheMemoryBytes, Is.EqualTo(1L << 16), "the cache stayed in its budget");

        long pending = ts.Store.PendingReads;
        long hits = ts.Store.ReadCacheHits;
        for (int k = 0; k < Hot; k++)
            Assert.That(session.Read(TestData.Key(k), out _).Found, Is.True);
        Assert.That(ts.Store.PendingReads, Is.EqualTo(pending), "the hot set is served from memory");
        Assert.That(ts.Store.ReadCacheHits - hits, Is.EqualTo(Hot));
    }

    [Test]
    public void IndexGrowthWithCachedRecordsInChainsKeepsReadsExact()
    {
        using var device = NewDevice();
        using var ts = new TestStore(CachedLog(device, cacheBytes: 1L << 18, indexSize: 1L << 14, indexMaxSize: 1L << 20));
        var session = ts.Session;
        var model = new Dictionary<int, byte[]>();
        int keys = FillPastMemory(ts, pages: 24);
        for (int i = 0; i < keys; i++)
            model[i] = TestData.Value(i, 100);
        ts.Store.Index.WaitForResize();

        Assert.That(ts.Store.IndexResizeCount, Is.Zero, "the index has room for the first keys");

        // Cache every key, then grow the index with new keys while the copies head their chains.
        for (int i = 0; i < keys; i++)
            Assert.That(session.Read(TestData.Key(i), out _).Found, Is.True);
        Assert.That(ts.Store.ReadCacheInserts, Is.GreaterThan(keys / 2));
        long resizes = ts.Store.IndexResizeCount;
        for (int more = keys; ts.Store.IndexResizeCount == resizes && more < keys + 30_000; more++)
        {
            model[more] = TestData.Value(more, 20);
            Assert.That(session.Upsert(TestData.Key(more), model[more], default).IsOutOfMemory, Is.False);
            // Reads during the resize go through the copies too.
            int k = more % keys;
            Assert.That(session.Read(TestData.Key(k), out var during).Found, Is.True);
            Assert.That(during, Is.EqualTo(model[k]), $"key {k} during growth");
        }
        ts.Store.Index.WaitForResize();
        Assert.That(ts.Store.IndexResizeCount, Is.GreaterThan(resizes), "the index grew with copies in its chains");

        for (int pass = 0; pass < 2; pass++)
        {
            foreach (var (key, value) in model)
            {
                Assert.That(session.Read(TestData.Key(key), out var read).Found, Is.True, $"key {key}");
                Assert.That(read, Is.EqualTo(value), $"key {key}");
            }
        }
        // Updates after the growth still drop the copies.
        for (int i = 0; i < 50; i++)
        {
            model[i] = TestData.Value(i + 5000, 30);
            session.Upsert(TestData.Key(i), model[i], default);
            Assert.That(session.Read(TestData.Key(i), out var read).Found, Is.True);
            Assert.That(read, Is.EqualTo(model[i]));
        }
    }

    [Test]
    public void ConcurrentReadersAndWritersSeeCountersOnlyGrow()
    {
        using var device = NewDevice();
        // A cache of four pages, so copies are evicted all the time.
        using var ts = new TestStore(CachedLog(device, cacheBytes: 4 * PageSize));
        const int Counters = 300;
        const int Fixed = 200;
        for (int k = 0; k < Counters; k++)
            Assert.That(ts.Session.Increment(TestData.Key(k), 1).IsOutOfMemory, Is.False);
        // Push the counters to the device.
        for (int i = 0; ts.Log.HeadAddress < ts.Log.TailAddress / 2 || i < 2000; i++)
            ts.Session.Upsert(TestData.Key(100_000 + i), TestData.Value(i, 200), default);

        const int Writers = 2;
        const int Readers = 2;
        const int Operations = 4000;
        var increments = new long[Writers];
        var failures = new List<string>();
        var threads = new List<Thread>();
        for (int w = 0; w < Writers; w++)
        {
            int id = w;
            threads.Add(new Thread(() =>
            {
                using var session = ts.NewSession();
                var random = new Random(id);
                for (int n = 0; n < Operations; n++)
                {
                    if (session.Increment(TestData.Key(random.Next(Counters)), 1).IsOutOfMemory)
                        lock (failures)
                            failures.Add("increment out of memory");
                    else
                        increments[id]++;
                }
            }));
        }
        for (int r = 0; r < Readers; r++)
        {
            int id = r;
            threads.Add(new Thread(() =>
            {
                using var session = ts.NewSession();
                var random = new Random(100 + id);
                var seen = new long[Counters];
                for (int n = 0; n < Operations * 2; n++)
                {
                    // Every other read is of a key only ever written before: its copies are evicted but never stale.
                    if (n % 2 == 0)
                    {
                        int f = random.Next(Fixed);
                        if (session.Read(TestData.Key(100_000 + f), out var read).Found && read.AsSpan().SequenceEqual(TestData.Value(f, 200)))
                            continue;
                        lock (failures)
                            failures.Add($"fixed key {f}: read {(read == null ? "nothing" : Convert.ToHexString(read))}");
                        return;
                    }
                    int k = random.Next(Counters);
                    long? value = session.ReadCounter(TestData.Key(k));
                    if (value == null || value < seen[k])
                    {
                        lock (failures)
                            failures.Add($"key {k}: read {value} after {seen[k]}");
                        return;
                    }
                    seen[k] = value.Value;
                }
            }));
        }
        foreach (var thread in threads)
            thread.Start();
        foreach (var thread in threads)
            thread.Join();

        Assert.That(failures, Is.Empty);
        long total = 0;
        for (int k = 0; k < Counters; k++)
            total += ts.Session.ReadCounter(TestData.Key(k)) ?? 0;
        Assert.That(total, Is.EqualTo(Counters + increments[0] + increments[1]));
        Assert.That(ts.Store.ReadCacheHits, Is.GreaterThan(0));
    }
}
