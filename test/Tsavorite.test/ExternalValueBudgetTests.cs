using System;
using System.Diagnostics;
using System.IO;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// Out-of-line values under a memory budget (see HeadMover.LargeValues.cs): their blocks count against it, an
/// evicting policy drops them to stay within it, and a write that cannot fit is refused with out-of-memory, never
/// left waiting; with the storage tier they go to the object log with their pages and read back from it.
/// </summary>
[TestFixture]
public sealed class ExternalValueBudgetTests
{
    private const int PageSize = 1 << 12;
    private const int BlockBytes = 20_000;
    private const long Room = 256 * 1024;

    /// <summary>16 pages of 4 KB under a budget of what the empty store holds plus <see cref="Room"/>.</summary>
    private static TestStore Store(EvictionPolicy policy, out MemoryBudget budget)
    {
        budget = new MemoryBudget { Policy = policy };
        var ts = new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 16 * PageSize, Budget = budget });
        budget.Limit = ts.Store.MemoryBytes + Room;
        return ts;
    }

    private static byte[] Key(int i) => TestData.Key(i);

    [Test]
    public void AnEvictingPolicyKeepsLargeValuesWithinTheBudget()
    {
        using var ts = Store(EvictionPolicy.AllKeysLru, out var budget);
        var session = ts.Session;
        for (int i = 0; i < 100; i++) // 2 MB of values under 256 KB of room
        {
            Assert.That(session.Upsert(Key(i), TestData.Value(i, BlockBytes)).IsOutOfMemory, Is.False, $"upsert {i}");
            Assert.That(ts.Log.ExternalBytes, Is.LessThanOrEqualTo(Room), $"after upsert {i}");
        }
        Assert.That(budget.EvictedRecords, Is.GreaterThan(50));
        Assert.That(session.Read(Key(99), out var last).Found, Is.True, "the newest value stays");
        Assert.That(last, Is.EqualTo(TestData.Value(99, BlockBytes)));
        Assert.That(session.Read(Key(0), out _).NotFound, Is.True, "the oldest was evicted");
    }

    [Test]
    public void LruSparesLargeValuesReadSinceTheyWereWritten()
    {
        using var ts = Store(EvictionPolicy.AllKeysLru, out _);
        var session = ts.Session;
        for (int i = 0; i < 40; i++)
        {
            Assert.That(session.Upsert(Key(i), TestData.Value(i, BlockBytes)).IsOutOfMemory, Is.False);
            Assert.That(session.Read(Key(0), out _).Found, Is.True, $"key 0, read after each write, after upsert {i}");
        }
    }

    [Test]
    public void NoEvictionRefusesLargeValuesThatDoNotFitWithoutWaiting()
    {
        using var ts = Store(EvictionPolicy.NoEviction, out _);
        var session = ts.Session;
        var clock = Stopwatch.StartNew();
        int written = 0;
        while (written < 100 && !session.Upsert(Key(written), TestData.Value(written, BlockBytes)).IsOutOfMemory)
            written++;
        Assert.That(written, Is.InRange(5, (int)(Room / BlockBytes)), "refused once the room is taken");
        Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)));
        for (int i = 0; i < written; i++)
        {
            Assert.That(session.Read(Key(i), out var read).Found, Is.True, $"key {i}");
            Assert.That(read, Is.EqualTo(TestData.Value(i, BlockBytes)));
        }
        // Giving one back makes room for another.
        Assert.That(session.Delete(Key(0)).Found, Is.True);
        Assert.That(session.Upsert(Key(1000), TestData.Value(1000, BlockBytes)).IsOutOfMemory, Is.False);
    }

    [Test]
    public void WritersNeedingAPageTheBlocksTookGetOutOfMemoryNotAWait()
    {
        using var ts = Store(EvictionPolicy.NoEviction, out _);
        var session = ts.Session;
        int large = 0;
        while (large < 100 && !session.Upsert(Key(large), TestData.Value(large, BlockBytes)).IsOutOfMemory)
            large++;
        // Small records fill the pages the blocks left: a writer needing one more page is refused, not held.
        var clock = Stopwatch.StartNew();
        int small = 0;
        while (small < 100_000 && !session.Upsert(Key(10_000 + small), TestData.Value(small, 100)).IsOutOfMemory)
            small++;
        Assert.That(small, Is.LessThan(100_000), "refused at last");
        Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)));

        // Deleting the large values gives the room back: small writes are taken again.
        for (int i = 0; i < large; i++)
            Assert.That(session.Delete(Key(i)).Found, Is.True);
        Assert.That(ts.Log.ExternalBytes, Is.Zero);
        bool taken = false;
        for (clock.Restart(); !taken && clock.Elapsed < TimeSpan.FromSeconds(10);)
        {
            taken = !session.Upsert(Key(1_000_000), TestData.Value(1, 100)).IsOutOfMemory;
            if (!taken)
                System.Threading.Thread.Sleep(20);
        }
        Assert.That(taken, Is.True);
    }

    [Test]
    public void WithTheStorageTierLargeValuesBeyondTheBudgetGoToTheDevice()
    {
        string directory = Path.Combine(Path.GetTempPath(), "tsavorite-large-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            using var logDevice = new LocalFileDevice(Path.Combine(directory, "hlog"), segmentSize: 1L << 20);
            using var objectDevice = new LocalFileDevice(Path.Combine(directory, "obj"), segmentSize: 1L << 22);
            var budget = new MemoryBudget { Policy = EvictionPolicy.NoEviction };
            using var ts = new TestStore(new StoreOptions
            {
                PageSizeBits = 12,
                MemorySize = 16 * PageSize,
                LogDevice = logDevice,
                ObjectLogDevice = objectDevice,
                StorageTier = true,
                Budget = budget,
            });
            budget.Limit = ts.Store.MemoryBytes + Room;
            var session = ts.Session;
            // Only large values: their descriptors would never fill the tail page, which ends early for them instead.
            for (int i = 0; i < 60; i++)
            {
                Assert.That(session.Upsert(Key(i), TestData.Value(i, BlockBytes)).IsOutOfMemory, Is.False, $"upsert {i}");
                Assert.That(ts.Log.ExternalBytes, Is.LessThanOrEqualTo(Room), $"after upsert {i}");
            }
            for (int i = 0; i < 60; i++)
            {
                Assert.That(session.Read(Key(i), out var read).Found, Is.True, $"key {i}");
                Assert.That(read, Is.EqualTo(TestData.Value(i, BlockBytes)), $"key {i}");
            }
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Test]
    public void WithTheStorageTierLargeValuesLeaveWithTheirPagesAndReadBack()
    {
        string directory = Path.Combine(Path.GetTempPath(), "tsavorite-large-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            using var logDevice = new LocalFileDevice(Path.Combine(directory, "hlog"), segmentSize: 1L << 20);
            using var objectDevice = new LocalFileDevice(Path.Combine(directory, "obj"), segmentSize: 1L << 22);
            using var ts = new TestStore(new StoreOptions
            {
                PageSizeBits = 12,
                MemorySize = 16 * PageSize,
                MutableFraction = 0.3,
                LogDevice = logDevice,
                ObjectLogDevice = objectDevice,
                StorageTier = true,
            });
            var session = ts.Session;
            byte[] big = TestData.Value(7, 24_000);
            byte[] grown = TestData.Value(8, 6_000);
            Assert.That(session.Upsert("big"u8, big).IsOutOfMemory, Is.False);
            Assert.That(session.Upsert("grown"u8, grown).IsOutOfMemory, Is.False);
            Assert.That(session.Upsert("gone"u8, TestData.Value(9, 5_000)).IsOutOfMemory, Is.False);
            Assert.That(session.Delete("gone"u8).Found, Is.True);
            // Small records push the pages holding their descriptors out of memory.
            for (int i = 0; i < 3000; i++)
                Assert.That(session.Upsert(Key(i), TestData.Value(i, 100)).IsOutOfMemory, Is.False);
            Assert.That(ts.Log.ExternalCount, Is.Zero, "the blocks left memory with their pages");

            long pendingBefore = ts.Store.PendingReads;
            Assert.That(session.Read("big"u8, out var read).Found, Is.True);
            Assert.That(read, Is.EqualTo(big));
            Assert.That(ts.Store.PendingReads, Is.GreaterThan(pendingBefore), "read from the device");
            Assert.That(session.Read("gone"u8, out _).NotFound, Is.True);
            Assert.That(ts.Log.ExternalCount, Is.Zero, "the block read back was given up with the read");

            // An update of a value on the device: a new record with the whole value.
            var append = TestInput.Append(TestData.Value(10, 1000));
            Assert.That(session.RMW("grown"u8, append, out _).IsOutOfMemory, Is.False);
            Assert.That(session.Read("grown"u8, out var appended).Found, Is.True);
            Assert.That(appended, Is.EqualTo([.. grown, .. TestData.Value(10, 1000)]));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
