using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// The hash index doubles while operations run (IndexResize): nothing is lost, counts stay exact, the
/// old table's overflow buckets go back to the pool, the maximum holds, and key locks pin their buckets.
/// Growth runs on a background thread, so tests wait for it to settle before checking the index itself.
/// </summary>
[TestFixture]
public sealed unsafe class IndexGrowthTests
{
    private const int ValueLength = 16;

    /// <summary>One bucket to start with, so the index doubles many times.</summary>
    private static StoreOptions Growing(long maxSize = 1L << 20)
        => new() { IndexSize = HashBucket.Size, IndexMaxSize = maxSize, PageSizeBits = 16, MemorySize = 1L << 27 };

    [Test]
    public void GrowsUnderFourThreadsOfInsertsReadsAndDeletesAndLosesNothing()
    {
        using var ts = new TestStore(Growing());
        const int threadCount = 4;
        const int keysPerThread = 15_000;
        const int counterCount = 8;
        const int incrementsPerKey = 3;
        // Keys present from the start and throughout: every scan must report each of them once.
        const int stableCount = 200;
        for (int i = 0; i < stableCount; i++)
            ts.Session.Upsert(StableKey(i), TestData.Value(i, ValueLength));

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            var random = new Random(t);
            for (int i = 0; i < keysPerThread; i++)
            {
                int id = (t * keysPerThread) + i;
                Assert.That(session.Upsert(TestData.Key(id), TestData.Value(id, ValueLength)).IsCreatedRecord, Is.True, $"insert {id}");
                if (i % incrementsPerKey == 0)
                    session.Increment(CounterKey(i % counterCount), 1);
                if (IsDeleted(id))
                    Assert.That(session.Delete(TestData.Key(id)).Found, Is.True, $"delete {id}");

                // An earlier key of this thread reads back with its value, unless this thread deleted it.
                int earlier = (t * keysPerThread) + random.Next(i + 1);
                var status = session.Read(TestData.Key(earlier), out var value);
                Assert.That(status.Found, Is.EqualTo(!IsDeleted(earlier)), $"read {earlier} after inserting {id}");
                if (status.Found)
                    Assert.That(value, Is.EqualTo(TestData.Value(earlier, ValueLength)), $"value of {earlier}");
                if (t == 0 && i % 5000 == 4999)
                    AssertScanReportsStableKeysOnce(session, stableCount);
            }
        });
        ts.Store.Index.WaitForResize();

        var session = ts.Session;
        int live = stableCount + counterCount;
        for (int id = 0; id < threadCount * keysPerThread; id++)
        {
            var status = session.Read(TestData.Key(id), out var value);
            Assert.That(status.Found, Is.EqualTo(!IsDeleted(id)), $"key {id}");
            if (status.Found)
            {
                live++;
                Assert.That(value, Is.EqualTo(TestData.Value(id, ValueLength)), $"value of {id}");
            }
        }
        for (int c = 0; c < counterCount; c++)
        {
            long perCounter = threadCount * (keysPerThread / incrementsPerKey / counterCount);
            Assert.That(session.ReadCounter(CounterKey(c)), Is.EqualTo(perCounter), $"counter {c}");
        }
        Assert.That(session.ScanAll(), Has.Count.EqualTo(live), "a scan reports exactly the live keys");
        Assert.That(ts.Store.IndexResizeCount, Is.GreaterThan(5));
        Assert.That(ts.Store.IndexBucketCount, Is.GreaterThan(1L << 5));
        Assert.That(ts.Store.IndexFill, Is.LessThan(HashIndex.GrowthFill), "growth stops below the threshold");
        AssertIndexAccountsForEverything(ts);
    }

    /// <summary>
    /// The index doubles while the head of a small log keeps moving: the head mover latches buckets to copy
    /// live records forward as the resize moves them, and neither loses a key.
    /// </summary>
    [Test]
    public void GrowsWhileTheHeadMovesAndLosesNothing()
    {
        const int pageSizeBits = 12;
        using var ts = new TestStore(new StoreOptions
        {
            IndexSize = HashBucket.Size,
            IndexMaxSize = 1L << 20,
            PageSizeBits = pageSizeBits,
            MemorySize = 64L << pageSizeBits,
            MutableFraction = 0.2,
        });
        const int threadCount = 4;
        const int keysPerThread = 300;
        const int opsPerThread = 8_000;
        const int counterCount = 4;
        var models = new Dictionary<int, byte[]>[threadCount];
        var increments = new long[threadCount];
        // Churn a few keys (too few for the index to grow) until the head moves, so every doubling below
        // runs while the head mover is at work.
        for (int i = 0; ts.Store.PagesEvicted < 4; i++)
        {
            Assert.That(i, Is.LessThan(1_000_000), "the head never moved");
            Assert.That(ts.Session.Upsert(TestData.Key(9_000_000 + (i % 4)), TestData.Value(i, 200)).IsOutOfMemory, Is.False);
            // Read-only records are copied, not overwritten or reused, so the log keeps growing.
            if (i % 4 == 3)
                ts.Log.ShiftReadOnlyToTail();
        }
        Assert.That(ts.Store.IndexResizeCount, Is.Zero);
        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            var random = new Random(t);
            var model = models[t] = new Dictionary<int, byte[]>();
            for (int op = 0; op < opsPerThread; op++)
            {
                // Each thread owns its keys, so its model is exact. New keys keep coming until half-way, so
                // the index keeps doubling after the head has started to move.
                int range = Math.Min(keysPerThread, 1 + (op * 2 * keysPerThread / opsPerThread));
                int id = (t * keysPerThread) + random.Next(range);
                int choice = random.Next(10);
                if (choice == 0)
                {
                    Assert.That(session.Delete(TestData.Key(id)).Found, Is.EqualTo(model.Remove(id)), $"delete {id}");
                }
                else if (choice < 4)
                {
                    var status = session.Read(TestData.Key(id), out var value);
                    Assert.That(status.Found, Is.EqualTo(model.TryGetValue(id, out var expected)), $"read {id}");
                    if (status.Found)
                        Assert.That(value, Is.EqualTo(expected), $"value of {id}");
                }
                else if (choice == 4)
                {
                    Assert.That(session.Increment(CounterKey(op % counterCount), 1).IsOutOfMemory, Is.False);
                    increments[t]++;
                }
                else
                {
                    var value = TestData.Value(op, random.Next(8, 48));
                    Assert.That(session.Upsert(TestData.Key(id), value).IsOutOfMemory, Is.False, $"upsert {id}");
                    model[id] = value;
                }
            }
        });
        ts.Store.Index.WaitForResize();

        var check = ts.Session;
        int live = 0;
        for (int t = 0; t < threadCount; t++)
        {
            for (int id = t * keysPerThread; id < (t + 1) * keysPerThread; id++)
            {
                var status = check.Read(TestData.Key(id), out var value);
                Assert.That(status.Found, Is.EqualTo(models[t].TryGetValue(id, out var expected)), $"key {id}");
                if (status.Found)
                {
                    live++;
                    Assert.That(value, Is.EqualTo(expected), $"value of {id}");
                }
            }
        }
        long total = 0;
        for (int c = 0; c < counterCount; c++)
            total += check.ReadCounter(CounterKey(c)) ?? 0;
        Assert.That(total, Is.EqualTo(increments[0] + increments[1] + increments[2] + increments[3]));
        Assert.That(check.ScanAll(), Has.Count.EqualTo(live + counterCount + 4));
        Assert.That(ts.Store.PagesEvicted, Is.GreaterThan(32), "the head passed the memory more than once");
        Assert.That(ts.Store.IndexResizeCount, Is.GreaterThan(3));
        AssertIndexAccountsForEverything(ts);
    }

    [Test]
    public void GrowthStopsAtTheMaximumAndEveryKeyStaysReadable()
    {
        const long maxBuckets = 16;
        using var ts = new TestStore(Growing(maxBuckets * HashBucket.Size));
        const int keyCount = 3_000;
        TestThreads.Run(2, t =>
        {
            var session = ts.NewSession();
            for (int i = t; i < keyCount; i += 2)
                session.Upsert(TestData.Key(i), TestData.Value(i, ValueLength));
        });
        ts.Store.Index.WaitForResize();

        Assert.That(ts.Store.IndexBucketCount, Is.EqualTo(maxBuckets));
        Assert.That(ts.Store.IndexMaxBucketCount, Is.EqualTo(maxBuckets));
        Assert.That(ts.Store.IndexResizeCount, Is.EqualTo(4), "1 → 16 buckets is four doublings");
        Assert.That(ts.Store.OverflowBucketCount, Is.GreaterThan(0), "past the maximum, keys go to overflow buckets");
        for (int i = 0; i < keyCount; i++)
        {
            Assert.That(ts.Session.Read(TestData.Key(i), out var value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, ValueLength)));
        }
        AssertIndexAccountsForEverything(ts);
    }

    [Test]
    public void AnIndexWithoutRoomToGrowStaysFixed()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = HashBucket.Size, IndexMaxSize = 0 });
        for (int i = 0; i < 500; i++)
            ts.Session.Upsert(TestData.Key(i), TestData.Value(i, ValueLength));
        ts.Store.Index.WaitForResize();
        Assert.That(ts.Store.IndexBucketCount, Is.EqualTo(1));
        Assert.That(ts.Store.IndexResizeCount, Is.Zero);
        AssertIndexAccountsForEverything(ts);
    }

    /// <summary>
    /// Keys of one chain that a split divides: the new head of the half that is not the old chain's
    /// head is also reached from the other half, so updating or deleting it must not free its space.
    /// If it did, revivification would reuse that space and cut the other half's chain short.
    /// </summary>
    [Test]
    public void ChainsSharedByBothHalvesSurviveUpdatesAndDeletesOfTheirHeads()
    {
        // Three keys with one tag in a one-bucket index: a, b and c in one chain, newest first c → b → a,
        // with b in the other half of the split than a and c.
        var (a, b, c) = KeysSharingATagAcrossTheFirstSplit();
        using var ts = new TestStore(Growing(2 * HashBucket.Size));
        var session = ts.Session;
        session.Upsert(a, "a-value-16-bytes"u8);
        session.Upsert(b, "b-value-16-bytes"u8);
        session.Upsert(c, "c-value-16-bytes"u8);
        Assert.That(ts.ChainHead(c), Is.EqualTo(ts.ChainHead(a)), "one chain before the split");
        for (int i = 0; ts.Store.IndexResizeCount == 0; i++)
        {
            session.Upsert(TestData.Key(i), TestData.Value(i, ValueLength));
            ts.Store.Index.WaitForResize();
        }

        long bHead = ts.ChainHead(b);
        Assert.That(ts.ChainHead(a), Is.EqualTo(ts.ChainHead(c)), "a and c keep the old head");
        Assert.That(bHead, Is.Not.EqualTo(ts.ChainHead(c)), "b's half starts deeper in the old chain");
        Assert.That(ts.Log.GetRecord(bHead).Info.SplitShared, Is.True, "c's chain passes through b's head too");

        // A larger value cannot go in place, a delete tombstones: neither may free b's record.
        session.Upsert(b, TestData.Value(1, 200));
        Assert.That(session.Delete(b).Found, Is.True);
        Assert.That(session.Delete(c).Found, Is.True);
        // Records of b's size would reuse its space, had it been freed.
        for (int i = 0; i < 50; i++)
            session.Upsert(TestData.Key(100_000 + i), "x"u8);

        Assert.That(session.Read(a, out var value).Found, Is.True, "a is still reached through b's old record");
        Assert.That(value, Is.EqualTo("a-value-16-bytes"u8.ToArray()));
        Assert.That(session.Read(b, out _).NotFound, Is.True);
        Assert.That(session.Read(c, out _).NotFound, Is.True);
        session.Upsert(b, "b-again"u8);
        Assert.That(session.Read(b, out value).Found, Is.True);
        Assert.That(value, Is.EqualTo("b-again"u8.ToArray()));
    }

    private static byte[] StableKey(int i) => TestData.Key(1_000_000 + i);

    private static byte[] CounterKey(int c) => TestData.Key(2_000_000 + c);

    private static bool IsDeleted(int id) => id % 7 == 3;

    private static void AssertScanReportsStableKeysOnce(TestSession session, int stableCount)
    {
        var seen = new HashSet<string>();
        foreach (var record in session.ScanAll())
            Assert.That(seen.Add(Convert.ToHexString(record.Key)), Is.True, "a key reported twice");
        for (int i = 0; i < stableCount; i++)
            Assert.That(seen.Contains(Convert.ToHexString(StableKey(i))), Is.True, $"stable key {i} missed by a scan");
    }

    /// <summary>
    /// Walks the settled index: the entries in use are exactly the count, the overflow buckets linked
    /// are exactly those the pool has handed out (a retired table's went back), and the memory figure
    /// adds up.
    /// </summary>
    internal static void AssertIndexAccountsForEverything(TestStore ts)
    {
        var index = ts.Store.Index;
        var table = index.Table;
        Assert.That(table.Next, Is.Null, "no resize runs");
        long entries = 0;
        long overflow = 0;
        for (long b = 0; b < table.Count; b++)
        {
            long* bucket = table.Bucket(b);
            Assert.That(HashBucket.IsLatched(bucket), Is.False, $"bucket {b} left latched");
            Assert.That(HashBucket.IsMoved(bucket), Is.False, $"bucket {b} of the current table moved");
            for (bool primary = true; bucket != null; bucket = index.NextBucket(bucket), primary = false)
            {
                if (!primary)
                    overflow++;
                for (int i = 0; i < HashBucket.EntryCount; i++)
                {
                    var entry = new HashBucketEntry(bucket[i]);
                    if (entry.IsFree)
                        continue;
                    Assert.That(entry.Tentative, Is.False, "tentative entry left behind");
                    entries++;
                }
            }
        }
        Assert.That(ts.Store.IndexEntryCount, Is.EqualTo(entries), "entries counted");
        Assert.That(ts.Store.OverflowBucketCount, Is.EqualTo(overflow), "overflow buckets in use");
        Assert.That(ts.Store.IndexBytes, Is.EqualTo((table.Count + overflow) * HashBucket.Size));
    }

    /// <summary>
    /// Three keys whose hashes share the 14-bit tag and whose lowest bit (the bucket bit of the first
    /// split of a one-bucket index) is 0, 1 and 0.
    /// </summary>
    private static (byte[] A, byte[] B, byte[] C) KeysSharingATagAcrossTheFirstSplit()
    {
        var byTag = new Dictionary<int, (List<byte[]> Even, List<byte[]> Odd)>();
        for (int i = 0; ; i++)
        {
            byte[] key = TestData.Key(3_000_000 + i);
            long hash = KeyHash.Hash(key);
            int tag = HashBucketEntry.TagOf(hash);
            if (!byTag.TryGetValue(tag, out var lists))
                byTag[tag] = lists = (new List<byte[]>(), new List<byte[]>());
            ((hash & 1) == 0 ? lists.Even : lists.Odd).Add(key);
            if (lists.Even.Count >= 2 && lists.Odd.Count >= 1)
                return (lists.Even[0], lists.Odd[0], lists.Even[1]);
        }
    }
}
