using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// Key locks (ClientSession.LockKeys / UnlockKeys): bucket latches held across operations, taken in
/// bucket order, exclusive for written keys and shared for read ones; operations on locked keys do
/// not latch again, so a session never waits for itself.
/// </summary>
[TestFixture]
public sealed unsafe class KeyLockTests
{
    /// <summary>256 bytes of index: four buckets, so keys share buckets and locks must merge.</summary>
    private static StoreOptions TinyIndex => new() { IndexSize = 1L << 8, MemorySize = 1L << 24 };

    private static long BucketOf(TestStore ts, ReadOnlySpan<byte> key) => ts.Store.Index.BucketIndexOf(KeyHash.Hash(key));

    private static bool IsLatched(TestStore ts, long bucketIndex) => HashBucket.IsLatched(ts.Store.Index.Bucket(bucketIndex));

    /// <summary>
    /// A few keys (sorted by insertion) and many (sorted in bulk); in four buckets, so they merge,
    /// and in a large index, so that more than a handful of buckets are held (looked up by search).
    /// </summary>
    [Test]
    public void LockKeysLatchesEachBucketOnceAndUnlockReleasesThem([Values(6, 20, 40)] int keyCount, [Values] bool tinyIndex)
    {
        using var ts = new TestStore(tinyIndex ? TinyIndex : new StoreOptions { IndexSize = 1L << 16, MemorySize = 1L << 24 });
        var keys = new List<KeyLockRequest>();
        for (int i = 0; i < keyCount; i++)
            keys.Add(KeyLockRequest.For(TestData.Key(i), exclusive: i % 3 == 0));

        ts.Session.LockKeys(keys.ToArray());
        Assert.That(ts.Session.HoldsKeyLocks, Is.True);
        for (long b = 0; b < ts.Store.IndexBucketCount; b++)
        {
            bool anyKey = false;
            bool anyExclusive = false;
            for (int i = 0; i < keyCount; i++)
            {
                if (BucketOf(ts, TestData.Key(i)) == b)
                {
                    anyKey = true;
                    anyExclusive |= i % 3 == 0;
                }
            }
            Assert.That(IsLatched(ts, b), Is.EqualTo(anyKey), $"bucket {b}");
        }
        for (int i = 0; i < keyCount; i++)
        {
            Assert.That(ts.Session.IsKeyLocked(TestData.Key(i), out bool exclusive), Is.True);
            // A bucket is exclusive if any key in it asked for exclusive.
            bool expected = false;
            for (int j = 0; j < keyCount; j++)
                expected |= j % 3 == 0 && BucketOf(ts, TestData.Key(j)) == BucketOf(ts, TestData.Key(i));
            Assert.That(exclusive, Is.EqualTo(expected), $"key {i}");
        }
        // Keys of buckets not held are found not locked (with many held, the lookup is a binary search).
        for (int i = keyCount; i < keyCount + 200; i++)
        {
            bool held = false;
            for (int j = 0; j < keyCount; j++)
                held |= BucketOf(ts, TestData.Key(j)) == BucketOf(ts, TestData.Key(i));
            Assert.That(ts.Session.IsKeyLocked(TestData.Key(i), out _), Is.EqualTo(held), $"key {i}");
        }

        ts.Session.UnlockKeys();
        Assert.That(ts.Session.HoldsKeyLocks, Is.False);
        for (long b = 0; b < ts.Store.IndexBucketCount; b++)
            Assert.That(IsLatched(ts, b), Is.False, $"bucket {b}");
    }

    [Test]
    public void SharedLocksOfTwoSessionsCoexistAndCountTheirHolders()
    {
        using var ts = new TestStore(TinyIndex);
        using var other = ts.NewSession();
        var key = TestData.Key(1);
        ts.Session.LockKeys([KeyLockRequest.For(key, exclusive: false), KeyLockRequest.For(key, exclusive: false)]);
        other.LockKeys([KeyLockRequest.For(key, exclusive: false)]);
        Assert.That(ts.Session.IsKeyLocked(key, out bool exclusive) && !exclusive, Is.True);

        // An exclusive latch cannot be had while either holds it shared.
        Assert.That(HashBucket.TryAcquireExclusive(ts.Store.Index.Bucket(BucketOf(ts, key))), Is.False);
        ts.Session.UnlockKeys();
        Assert.That(HashBucket.TryAcquireExclusive(ts.Store.Index.Bucket(BucketOf(ts, key))), Is.False);
        other.UnlockKeys();
        Assert.That(IsLatched(ts, BucketOf(ts, key)), Is.False);
    }

    [Test]
    public void LockingTwiceWithoutUnlockingThrows()
    {
        using var ts = new TestStore();
        ts.Session.LockKeys([KeyLockRequest.For("a"u8, true)]);
        Assert.Throws<InvalidOperationException>(() => ts.Session.LockKeys([KeyLockRequest.For("b"u8, true)]));
        ts.Session.UnlockKeys();
        ts.Session.UnlockKeys(); // a second unlock does nothing
        Assert.That(IsLatched(ts, BucketOf(ts, "a"u8)), Is.False);
    }

    [Test]
    public void OperationsOnLockedKeysRunWithoutWaitingForThemselves([Values] bool batched)
    {
        using var ts = new TestStore(TinyIndex);
        var session = ts.Session;
        if (batched)
            session.BeginUnsafe();
        session.Upsert("gone"u8, "x"u8);
        session.LockKeys([KeyLockRequest.For("a"u8, true), KeyLockRequest.For("b"u8, true), KeyLockRequest.For("gone"u8, true), KeyLockRequest.For("r"u8, false)]);

        Assert.That(session.Upsert("a"u8, "1"u8).IsCreatedRecord, Is.True);
        Assert.That(session.Increment("b"u8, 5).IsCreatedRecord, Is.True);
        Assert.That(session.Increment("b"u8, 5).Found, Is.True);
        Assert.That(session.Delete("gone"u8).Found, Is.True);
        Assert.That(session.Read("a"u8, out var a).Found, Is.True);
        Assert.That(a, Is.EqualTo("1"u8.ToArray()));
        Assert.That(session.ReadCounter("b"u8), Is.EqualTo(10));
        Assert.That(session.Read("r"u8, out _).NotFound, Is.True);
        // A scan meets locked buckets too.
        Assert.That(session.ScanAll(), Has.Count.EqualTo(2));

        // A key that was not declared is latched per operation; with four buckets it may share one with a locked key.
        Assert.That(session.Upsert("undeclared"u8, "u"u8).IsCreatedRecord, Is.True);
        Assert.That(session.Read("undeclared"u8, out _).Found, Is.True);

        session.UnlockKeys();
        if (batched)
            session.EndUnsafe();
        for (long b = 0; b < ts.Store.IndexBucketCount; b++)
            Assert.That(IsLatched(ts, b), Is.False);
        Assert.That(ts.Session.ReadCounter("b"u8), Is.EqualTo(10));
    }

    [Test]
    public void WritingAKeyLockedSharedThrowsAndLeavesTheLockHeld()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = 1L << 6 }); // one bucket: every key shares it
        ts.Session.LockKeys([KeyLockRequest.For("r"u8, false)]);
        Assert.That(ts.Session.Read("r"u8, out _).NotFound, Is.True);
        Assert.Throws<TsavoriteException>(() => ts.Session.Upsert("r"u8, "v"u8));
        Assert.Throws<TsavoriteException>(() => ts.Session.Increment("r"u8, 1));
        Assert.Throws<TsavoriteException>(() => ts.Session.Delete("r"u8));
        Assert.That(ts.Session.IsKeyLocked("r"u8, out bool exclusive) && !exclusive, Is.True);
        ts.Session.UnlockKeys();
        Assert.That(ts.Session.Upsert("r"u8, "v"u8).IsCreatedRecord, Is.True);
    }

    [Test]
    public void LinkedSessionsShareTheLocks()
    {
        using var ts = new TestStore(TinyIndex);
        using var linked = ts.Session.NewLinkedSession<TestInput, TestOutput, TestFunctions>(new TestFunctions(new CallbackCounts()));
        ts.Session.LockKeys([KeyLockRequest.For("k"u8, true)]);
        Assert.That(linked.HoldsKeyLocks, Is.True);
        Assert.That(linked.Upsert("k"u8, "v"u8).IsCreatedRecord, Is.True);
        Assert.That(linked.Read("k"u8, out _).Found, Is.True);
        linked.UnlockKeys();
        Assert.That(ts.Session.HoldsKeyLocks, Is.False);
        Assert.That(IsLatched(ts, BucketOf(ts, "k"u8)), Is.False);
    }

    [Test]
    public void DisposingASessionReleasesItsLocks()
    {
        using var ts = new TestStore(TinyIndex);
        var session = ts.NewSession();
        session.LockKeys([KeyLockRequest.For("k"u8, true)]);
        session.Dispose();
        Assert.That(IsLatched(ts, BucketOf(ts, "k"u8)), Is.False);
    }

    [Test]
    public void WritesThatFillManyPagesRetryUnderTheLockWithoutReleasingIt([Values] bool batched)
    {
        // Alternating sizes defeat in-place writes, so each upsert allocates at the tail; small pages
        // and memory make allocations wait for page turns and evictions while the latch is held.
        using var ts = new TestStore(new StoreOptions { IndexSize = 1L << 8, MemorySize = 1L << 16, MutableFraction = 0.5 });
        var session = ts.Session;
        if (batched)
            session.BeginUnsafe();
        session.LockKeys([KeyLockRequest.For("big"u8, true)]);
        var bucket = BucketOf(ts, "big"u8);
        for (int i = 0; i < 2000; i++)
        {
            var value = TestData.Value(i, i % 2 == 0 ? 100 : 900);
            Assert.That(session.Upsert("big"u8, value).IsOutOfMemory, Is.False);
            Assert.That(IsLatched(ts, bucket), Is.True);
        }
        Assert.That(session.Read("big"u8, out var last).Found, Is.True);
        Assert.That(last, Is.EqualTo(TestData.Value(1999, 900)));
        session.UnlockKeys();
        if (batched)
            session.EndUnsafe();
        Assert.That(IsLatched(ts, bucket), Is.False);
    }

    [Test]
    public void AnExclusiveLockKeepsOtherSessionsOutUntilUnlock()
    {
        using var ts = new TestStore(TinyIndex);
        ts.Session.Upsert("k"u8, "before"u8);
        ts.Session.LockKeys([KeyLockRequest.For("k"u8, true)]);
        byte[]? seen = null;
        using var readerStarted = new ManualResetEventSlim();
        var reader = new Thread(() =>
        {
            using var other = ts.NewSession();
            readerStarted.Set();
            other.Read("k"u8, out seen);
        });
        reader.Start();
        readerStarted.Wait();
        // Whenever the reader gets in, the lock holder's update is complete: it can only see "after".
        ts.Session.Upsert("k"u8, "during"u8);
        ts.Session.Upsert("k"u8, "after"u8);
        ts.Session.UnlockKeys();
        Assert.That(reader.Join(TestThreads.HangGuard), Is.True);
        Assert.That(seen, Is.EqualTo("after"u8.ToArray()).Or.EqualTo("before"u8.ToArray()));
    }

    [Test]
    public void TransfersBetweenLockedKeysKeepTheTotal([Values(2, 8)] int threadCount, [Values] bool batched)
    {
        const int accounts = 10;
        const long initial = 1000;
        const int transfersPerThread = 5000;
        using var ts = new TestStore(TinyIndex);
        for (int i = 0; i < accounts; i++)
            ts.Session.Increment(TestData.Key(i), initial);
        int writersDone = 0;
        long badSums = 0;
        long audits = 0;

        TestThreads.Run(threadCount + 1, t =>
        {
            using var session = ts.NewSession();
            if (batched)
                session.BeginUnsafe();
            if (t == threadCount)
            {
                // The auditor locks every account shared and sums: a transfer is never half-seen.
                var all = new KeyLockRequest[accounts];
                for (int i = 0; i < accounts; i++)
                    all[i] = KeyLockRequest.For(TestData.Key(i), exclusive: false);
                while (Volatile.Read(ref writersDone) < threadCount)
                {
                    session.LockKeys(all);
                    long sum = 0;
                    for (int i = 0; i < accounts; i++)
                        sum += session.ReadCounter(TestData.Key(i))!.Value;
                    session.UnlockKeys();
                    if (sum != accounts * initial)
                        Interlocked.Increment(ref badSums);
                    audits++;
                    if (batched)
                        session.Refresh();
                }
            }
            else
            {
                var random = new Random(t);
                for (int n = 0; n < transfersPerThread; n++)
                {
                    int from = random.Next(accounts);
                    int to = (from + 1 + random.Next(accounts - 1)) % accounts;
                    var fromKey = TestData.Key(from);
                    var toKey = TestData.Key(to);
                    // Declared in either order: the lock sorts by bucket.
                    session.LockKeys(n % 2 == 0
                        ? [KeyLockRequest.For(fromKey, true), KeyLockRequest.For(toKey, true)]
                        : [KeyLockRequest.For(toKey, true), KeyLockRequest.For(fromKey, true)]);
                    long amount = session.ReadCounter(fromKey)!.Value % 7 + 1;
                    session.Increment(fromKey, -amount);
                    session.Increment(toKey, amount);
                    session.UnlockKeys();
                    if (batched && n % 64 == 63)
                        session.Refresh();
                }
                Interlocked.Increment(ref writersDone);
            }
            if (batched)
                session.EndUnsafe();
        });

        long total = 0;
        for (int i = 0; i < accounts; i++)
            total += ts.Session.ReadCounter(TestData.Key(i))!.Value;
        Assert.That(total, Is.EqualTo(accounts * initial));
        Assert.That(Interlocked.Read(ref badSums), Is.Zero, $"of {audits} audits");
    }
}
