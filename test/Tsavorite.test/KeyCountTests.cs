using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// The store's key count (<see cref="TsavoriteKV.KeyCount"/>) is exact after every kind of change: writes of new and
/// existing keys, deletes, writes over tombstones and expired records, eviction with and without the storage tier,
/// compaction, and sessions on several threads. The model is a scan that includes expired keys, or the test's own map.
/// </summary>
[TestFixture]
public sealed class KeyCountTests
{
    private const int PageSize = 1 << 12;

    private string _directory = null!;

    [SetUp]
    public void SetUp()
    {
        _directory = Path.Combine(Path.GetTempPath(), "tsavorite-keycount-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
    }

    [TearDown]
    public void TearDown()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    /// <summary>Keys a scan reports, expired ones included: what the count must equal.</summary>
    private static long ScannedKeys(TestSession session)
    {
        var counter = new Counter();
        session.Scan(ref counter, flags: ScanFlags.IncludeExpired);
        return counter.Count;
    }

    /// <summary>
    /// Keys among key0..key(<paramref name="keys"/>-1) that a read finds, live or expired: the model for stores with
    /// the storage tier, where a scan that races with the head passing pages to the device was seen to miss a key now
    /// and then (a scan issue of its own: the next scan finds it, and so do reads).
    /// </summary>
    private static long PresentKeys(TestSession session, int keys)
    {
        long present = 0;
        for (int key = 0; key < keys; key++)
        {
            var status = session.Read(TestData.Key(key), out _);
            present += status.Found || status.IsExpired ? 1 : 0;
        }
        return present;
    }

    private struct Counter : IScanFunctions
    {
        public long Count;

        public bool OnRecord(in LogRecord record, long address)
        {
            Count++;
            return true;
        }
    }

    /// <summary>
    /// Waits until the head mover has stopped passing pages for a while: it goes on dropping records after the writes
    /// that filled the budget, so the count and the model are compared only once the store is quiet.
    /// </summary>
    private static void WaitForTheHeadMover(TsavoriteKV store)
    {
        long pages = store.PagesEvicted;
        for (int quiet = 0; quiet < 5;)
        {
            Thread.Sleep(100);
            long now = store.PagesEvicted;
            quiet = now == pages ? quiet + 1 : 0;
            pages = now;
        }
    }

    private StoreOptions TieredLog(IDevice device)
        => new() { PageSizeBits = 12, MemorySize = 16 * PageSize, MutableFraction = 0.3, LogDevice = device, StorageTier = true };

    [Test]
    public void InsertsOverwritesDeletesAndReinsertsAreCountedExactly([Values(false, true)] bool readOnly)
    {
        using var ts = new TestStore();
        var session = ts.Session;
        for (int i = 0; i < 100; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 8), default); // 8 bytes: a counter RMW can update
        Assert.That(ts.Store.KeyCount, Is.EqualTo(100));
        if (readOnly)
            ts.Log.ShiftReadOnlyToTail(); // the updates below then write new records and tombstones at the tail

        for (int i = 0; i < 50; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i + 1, 40), default);
        for (int i = 50; i < 60; i++)
            session.Increment(TestData.Key(i), 1); // RMW over an existing value: not a new key
        Assert.That(ts.Store.KeyCount, Is.EqualTo(100), "overwrites");

        for (int i = 0; i < 30; i++)
            Assert.That(session.Delete(TestData.Key(i)).Found, Is.True);
        Assert.That(session.Delete(TestData.Key(5)).Found, Is.False);
        Assert.That(session.Delete(TestData.Key(1000)).Found, Is.False);
        Assert.That(ts.Store.KeyCount, Is.EqualTo(70), "deletes, each once");

        for (int i = 0; i < 10; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 20), default); // over a tombstone
        for (int i = 10; i < 15; i++)
            session.Increment(TestData.Key(i), 1); // RMW creating a deleted key again
        for (int i = 200; i < 205; i++)
            session.Increment(TestData.Key(i), 1); // RMW creating a new key
        Assert.That(ts.Store.KeyCount, Is.EqualTo(90), "re-inserts");
        Assert.That(ts.Store.KeyCount, Is.EqualTo(ScannedKeys(session)));
    }

    [Test]
    public void CanceledWritesLeaveTheCountAlone()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        Assert.That(session.Upsert(TestData.Key(1), TestData.Value(1, 20), new TestInput { CancelIn = Callback.InitialWriter }).IsCanceled, Is.True);
        Assert.That(session.RMW(TestData.Key(2), new TestInput { Op = TestOp.Increment, Delta = 1, CancelIn = Callback.InitialUpdater }, out _).IsCanceled, Is.True);
        Assert.That(session.RMW(TestData.Key(3), new TestInput { Op = TestOp.Increment, Delta = 1, RefuseIn = Callback.NeedInitialUpdate }, out _).Found, Is.False);
        Assert.That(ts.Store.KeyCount, Is.Zero);

        session.Upsert(TestData.Key(1), TestData.Value(1, 20), default);
        session.Delete(TestData.Key(1));
        // The tombstone's space is reused in place and the write canceled: still deleted.
        session.Upsert(TestData.Key(1), TestData.Value(1, 8), new TestInput { CancelIn = Callback.InitialWriter });
        Assert.That(ts.Store.KeyCount, Is.Zero);
        Assert.That(ScannedKeys(session), Is.Zero);
    }

    [Test]
    public void ExpiredKeysCountUntilTheyAreReclaimed()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        long soon = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 20;
        for (int i = 0; i < 10; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 20), new TestInput { ExpirationUnixMs = soon });
        Thread.Sleep(50);
        Assert.That(session.Read(TestData.Key(0), out _).IsExpired, Is.True);
        Assert.That(ts.Store.KeyCount, Is.EqualTo(10), "expired keys not reclaimed yet count, as in Redis");

        session.Upsert(TestData.Key(0), TestData.Value(0, 20), default); // over the expired record, in place
        session.Upsert(TestData.Key(1), TestData.Value(1, 200), default); // over it, in a new record
        session.Increment(TestData.Key(2), 1); // RMW over it
        Assert.That(ts.Store.KeyCount, Is.EqualTo(10));

        Assert.That(session.Delete(TestData.Key(3)).IsExpired, Is.True, "deleting an expired key reclaims it");
        Assert.That(ts.Store.KeyCount, Is.EqualTo(9));
        // A canceled write over an expired record leaves it deleted.
        session.Upsert(TestData.Key(4), TestData.Value(4, 8), new TestInput { CancelIn = Callback.InitialWriter });
        Assert.That(ts.Store.KeyCount, Is.EqualTo(8));
        Assert.That(ts.Store.KeyCount, Is.EqualTo(ScannedKeys(session)));
    }

    [Test]
    public void EvictionWithoutTheStorageTierTakesDroppedKeysOff([Values(EvictionPolicy.AllKeysRandom, EvictionPolicy.AllKeysLru)] EvictionPolicy policy)
    {
        var budget = new MemoryBudget { Policy = policy };
        using var ts = new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 16 * PageSize, MutableFraction = 0.2, Budget = budget });
        var session = ts.Session;
        for (int i = 0; i < 3000; i++)
            Assert.That(session.Upsert(TestData.Key(i), TestData.Value(i, 150), default).IsOutOfMemory, Is.False);
        Assert.That(budget.EvictedRecords, Is.GreaterThan(1000));
        WaitForTheHeadMover(ts.Store);
        long found = 0;
        for (int i = 0; i < 3000; i++)
            found += session.Read(TestData.Key(i), out _).Found ? 1 : 0;
        Assert.That(ts.Store.KeyCount, Is.EqualTo(found));
        Assert.That(ts.Store.KeyCount, Is.EqualTo(ScannedKeys(session)));
    }

    [Test]
    public void ExpiredRecordsTheHeadDropsAreTakenOff()
    {
        using var ts = new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 16 * PageSize, MutableFraction = 0.2, Budget = new MemoryBudget() });
        var session = ts.Session;
        for (int round = 0; round < 40; round++)
        {
            long expiration = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(); // due at once
            for (int i = 0; i < 100; i++)
                session.Upsert(TestData.Key((round * 100) + i), TestData.Value(i, 300), new TestInput { ExpirationUnixMs = expiration });
        }
        Assert.That(ts.Store.PagesEvicted, Is.GreaterThan(0));
        WaitForTheHeadMover(ts.Store);
        Assert.That(ts.Store.KeyCount, Is.LessThan(4000));
        Assert.That(ts.Store.KeyCount, Is.EqualTo(ScannedKeys(session)));
    }

    [Test]
    public void KeysOnTheDeviceStayCountedAndTheirOverwritesAndDeletesAreExact()
    {
        using var device = new LocalFileDevice(Path.Combine(_directory, "hlog"), segmentSize: 1L << 20);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        const int Keys = 2000;
        for (int i = 0; i < Keys; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 100), default);
        Assert.That(ts.Log.HeadAddress, Is.GreaterThan(ts.Log.BeginAddress + (8L * PageSize)), "most keys left memory");
        Assert.That(ts.Store.KeyCount, Is.EqualTo(Keys), "paging out removes nothing");

        long pendingBefore = ts.Store.PendingReads;
        for (int i = 0; i < 100; i++)
            Assert.That(session.Upsert(TestData.Key(i), TestData.Value(i + 1, 100), default).Found, Is.True, $"overwrite of on-disk key {i}");
        Assert.That(ts.Store.PendingReads, Is.GreaterThan(pendingBefore), "the overwrites read the chains on the device");
        Assert.That(ts.Store.KeyCount, Is.EqualTo(Keys));

        for (int i = 100; i < 300; i++)
            Assert.That(session.Delete(TestData.Key(i)).Found, Is.True);
        Assert.That(ts.Store.KeyCount, Is.EqualTo(Keys - 200));
        // Push the tombstones to the device too, then write the keys again.
        for (int i = Keys; i < 2 * Keys; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 100), default);
        for (int i = 100; i < 200; i++)
            Assert.That(session.Upsert(TestData.Key(i), TestData.Value(i, 100), default).Found, Is.False, $"key {i} was deleted");
        Assert.That(ts.Store.KeyCount, Is.EqualTo((2 * Keys) - 100));
        Assert.That(ts.Store.KeyCount, Is.EqualTo(PresentKeys(session, 2 * Keys)));
    }

    [Test]
    public void CompactionKeepsTheCountExact([Values(CompactionType.Lookup, CompactionType.Scan, CompactionType.Shift)] CompactionType type)
    {
        const long SegmentSize = 4 * PageSize;
        using var device = new LocalFileDevice(Path.Combine(_directory, "hlog"), segmentSize: SegmentSize);
        using var ts = new TestStore(TieredLog(device));
        var session = ts.Session;
        var model = new HashSet<int>();
        var random = new Random(5);
        const int Keys = 1500;
        long soon = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 200;
        for (int op = 0; op < 8 * Keys; op++)
        {
            int key = random.Next(Keys);
            if (random.Next(20) == 0)
            {
                session.Delete(TestData.Key(key));
                model.Remove(key);
            }
            else
            {
                // Some keys expire early on: compaction then leaves them behind and must take them off.
                long expiration = op < Keys && random.Next(4) == 0 ? soon : 0;
                session.Upsert(TestData.Key(key), TestData.Value(op, random.Next(20, 100)), new TestInput { ExpirationUnixMs = expiration });
                model.Add(key);
            }
            if (op == Keys)
                Thread.Sleep(250);
            if (op % 500 == 499)
            {
                long until = ts.Log.HeadAddress - (6 * SegmentSize);
                if (until > ts.Log.BeginAddress)
                    ts.Store.Compact(until - (until % SegmentSize), type);
                Assert.That(ts.Store.KeyCount, Is.EqualTo(PresentKeys(session, Keys)), $"after op {op}");
            }
        }
        Assert.That(ts.Store.Compactions, Is.GreaterThan(3));
        Assert.That(ts.Store.KeysDroppedByCompaction, Is.GreaterThan(0));
        Assert.That(ts.Store.KeyCount, Is.EqualTo(PresentKeys(session, Keys)));
        if (type != CompactionType.Shift)
        {
            // Only expired keys were dropped: every key of the model is readable or expired.
            long present = 0;
            foreach (int key in model)
            {
                var status = session.Read(TestData.Key(key), out _);
                present += status.Found ? 1 : 0;
            }
            Assert.That(ts.Store.KeyCount, Is.GreaterThanOrEqualTo(present));
            Assert.That(ts.Store.KeyCount, Is.LessThanOrEqualTo(model.Count));
        }
    }

    [Test]
    public void ConcurrentSessionsCountExactly([Values(false, true)] bool sharedKeys)
    {
        using var ts = new TestStore(new StoreOptions { MemorySize = 1L << 22 });
        const int Threads = 4;
        const int Keys = 2000;
        var models = new HashSet<int>[Threads];
        var threads = new Thread[Threads];
        for (int t = 0; t < Threads; t++)
        {
            int thread = t;
            models[t] = new HashSet<int>();
            threads[t] = new Thread(() =>
            {
                using var session = ts.NewSession();
                var random = new Random(thread + 11);
                for (int op = 0; op < 40_000; op++)
                {
                    // Each thread owns the keys equal to it modulo the thread count, unless keys are shared.
                    int key = sharedKeys ? random.Next(Keys) : (random.Next(Keys / Threads) * Threads) + thread;
                    switch (random.Next(4))
                    {
                        case 0:
                            session.Delete(TestData.Key(key));
                            models[thread].Remove(key);
                            break;
                        case 1:
                            session.Increment(TestData.Key(key), 1);
                            models[thread].Add(key);
                            break;
                        default:
                            session.Upsert(TestData.Key(key), TestData.Value(op, 8), default); // a counter the increments can update
                            models[thread].Add(key);
                            break;
                    }
                    if (op % 5000 == 0)
                        ts.Log.ShiftReadOnlyToTail();
                }
            });
            threads[t].Start();
        }
        foreach (var thread in threads)
            thread.Join();

        long expected;
        if (sharedKeys)
        {
            expected = 0;
            for (int key = 0; key < Keys; key++)
                expected += ts.Session.Read(TestData.Key(key), out _).Found ? 1 : 0;
        }
        else
        {
            expected = 0;
            foreach (var model in models)
                expected += model.Count;
        }
        Assert.That(ts.Store.KeyCount, Is.EqualTo(expected), "after the sessions ended (folded)");
        Assert.That(ts.Store.KeyCount, Is.EqualTo(ScannedKeys(ts.Session)));
    }
}
