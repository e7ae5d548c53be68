using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// Key locks (LockKeys) and index growth together: held buckets pin the resize, locking during a
/// resize moves the keys' buckets first, and transactions running across several doublings neither
/// deadlock nor lose updates.
/// </summary>
[TestFixture]
public sealed unsafe class IndexGrowthLockTests
{
    private const int InitialBuckets = 64;

    [Test]
    public void HeldLocksPinTheirBucketsUntilReleasedAndLockingDuringAResizeWorks()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = InitialBuckets * HashBucket.Size, IndexMaxSize = 1L << 20, MemorySize = 1L << 26 });
        var x = TestData.Key(1);
        var y = TestData.Key(2);
        long xBucket = BucketOf(x);
        long yBucket = BucketOf(y);
        Assert.That(yBucket, Is.Not.EqualTo(xBucket), "x is locked exclusive and y shared, each in a bucket of its own");
        // Other keys avoid the held buckets, whose latches a resize (and any writer) must wait for.
        var others = new List<byte[]>();
        for (int i = 10; others.Count < 2_000; i++)
        {
            var key = TestData.Key(i);
            if (BucketOf(key) != xBucket && BucketOf(key) != yBucket)
                others.Add(key);
        }

        var holder = ts.NewSession();
        holder.Increment(y, 7);
        // Held shared, y's bucket makes the resize set the exclusive bit and wait for the holder to leave.
        holder.LockKeys([KeyLockRequest.For(x, exclusive: true), KeyLockRequest.For(y, exclusive: false)]);
        const int increments = 1_000;
        TestThreads.Run(2, t =>
        {
            if (t == 0)
            {
                for (int i = 0; i < increments; i++)
                {
                    holder.Increment(x, 1);
                    Assert.That(holder.ReadCounter(y), Is.EqualTo(7));
                }
                return;
            }
            var session = ts.NewSession();
            for (int i = 0; i < others.Count; i++)
                session.Upsert(others[i], TestData.Value(i, 8));
        });

        Assert.That(SpinWait.SpinUntil(() => ts.Store.Index.IsResizing, TestThreads.HangGuard), Is.True, "the inserts started a resize");
        Assert.That(ts.Store.IndexResizeCount, Is.Zero, "the resize cannot end while the held buckets are latched");
        Assert.That(holder.IsKeyLocked(x, out bool exclusive) && exclusive, Is.True);

        // Locking other keys now moves their buckets into the new table and latches them there.
        var locker = ts.NewSession();
        var lockedDuringResize = others[0];
        locker.LockKeys([KeyLockRequest.For(lockedDuringResize, exclusive: true), KeyLockRequest.For(others[1], exclusive: false)]);
        Assert.That(locker.IsKeyLocked(lockedDuringResize, out exclusive) && exclusive, Is.True);
        Assert.That(locker.Increment(lockedDuringResize, 5).IsCreatedRecord, Is.False, "the key already held a value");
        Assert.That(locker.Read(others[1], out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo(TestData.Value(1, 8)));
        locker.UnlockKeys();

        Assert.That(holder.Increment(x, 1).Found, Is.True, "the holder still works in the old table");
        Assert.That(holder.ReadCounter(y), Is.EqualTo(7));
        Assert.That(ts.Store.IndexResizeCount, Is.Zero);
        holder.UnlockKeys();
        ts.Store.Index.WaitForResize();

        Assert.That(ts.Store.IndexResizeCount, Is.GreaterThanOrEqualTo(1));
        Assert.That(ts.Session.ReadCounter(x), Is.EqualTo(increments + 1));
        Assert.That(ts.Session.ReadCounter(y), Is.EqualTo(7));
        for (int i = 1; i < others.Count; i++)
        {
            Assert.That(ts.Session.Read(others[i], out value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, 8)));
        }
        IndexGrowthTests.AssertIndexAccountsForEverything(ts);

        long BucketOf(ReadOnlySpan<byte> key) => KeyHash.Hash(key) & (InitialBuckets - 1);
    }

    /// <summary>
    /// Two threads run transfer transactions between accounts under LockKeys while two others insert
    /// enough keys to double a one-bucket index many times: money is conserved and every transaction counted.
    /// </summary>
    [Test]
    public void TransactionsAcrossResizesNeitherDeadlockNorLoseUpdates()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = HashBucket.Size, IndexMaxSize = 1L << 20, PageSizeBits = 16, MemorySize = 1L << 27 });
        const int accounts = 16;
        const long initialBalance = 1_000_000;
        const int insertsPerThread = 20_000;
        const int minimumTransfers = 2_000;
        for (int a = 0; a < accounts; a++)
            ts.Session.Increment(Account(a), initialBalance);

        int insertersDone = 0;
        var transfers = new long[2];
        TestThreads.Run(4, t =>
        {
            var session = ts.NewSession();
            // One thread of each kind runs in protected batches, as the server does.
            bool batched = t % 2 == 0;
            if (batched)
                session.BeginUnsafe();
            if (t < 2)
            {
                for (int i = 0; i < insertsPerThread; i++)
                {
                    int id = (t * insertsPerThread) + i;
                    session.Upsert(TestData.Key(id), TestData.Value(id, 8));
                    if (batched && i % 64 == 63)
                        session.Refresh();
                }
                Interlocked.Increment(ref insertersDone);
            }
            else
            {
                var random = new Random(t);
                int self = t - 2;
                var mine = TransactionCounter(self);
                long done = 0;
                while (done < minimumTransfers || Volatile.Read(ref insertersDone) < 2)
                {
                    int from = random.Next(accounts);
                    int to = (from + 1 + random.Next(accounts - 1)) % accounts;
                    session.LockKeys([
                        KeyLockRequest.For(Account(from), exclusive: true),
                        KeyLockRequest.For(Account(to), exclusive: true),
                        KeyLockRequest.For(mine, exclusive: true)]);
                    try
                    {
                        long amount = 1 + random.Next(100);
                        Assert.That(session.Increment(Account(from), -amount).Found, Is.True);
                        Assert.That(session.Increment(Account(to), amount).Found, Is.True);
                        session.Increment(mine, 1);
                    }
                    finally
                    {
                        session.UnlockKeys();
                    }
                    done++;
                    if (batched && done % 16 == 0)
                        session.Refresh();
                }
                transfers[self] = done;
            }
            if (batched)
                session.EndUnsafe();
        });
        ts.Store.Index.WaitForResize();

        long total = 0;
        for (int a = 0; a < accounts; a++)
            total += ts.Session.ReadCounter(Account(a)) ?? 0;
        Assert.That(total, Is.EqualTo(accounts * initialBalance), "transfers conserve the total");
        for (int self = 0; self < 2; self++)
            Assert.That(ts.Session.ReadCounter(TransactionCounter(self)), Is.EqualTo(transfers[self]), $"transactions of thread {self}");
        for (int id = 0; id < 2 * insertsPerThread; id++)
            Assert.That(ts.Session.Read(TestData.Key(id), out _).Found, Is.True, $"key {id}");
        Assert.That(ts.Store.IndexResizeCount, Is.GreaterThan(5));
        IndexGrowthTests.AssertIndexAccountsForEverything(ts);
    }

    private static byte[] Account(int a) => TestData.Key(5_000_000 + a);

    private static byte[] TransactionCounter(int thread) => TestData.Key(6_000_000 + thread);
}
