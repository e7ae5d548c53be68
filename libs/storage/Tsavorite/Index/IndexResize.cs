using System;
using System.Collections.Generic;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Doubles the hash index while operations go on: a background thread allocates a table twice the
/// size, moves the buckets of the old table into it one at a time, and frees the old table once no
/// thread can still be reading it. Started by <see cref="HashIndex"/> when its fill passes the threshold.
/// </summary>
/// <remarks>
/// <para>
/// The phases follow the paper's BARRIER → RESIZE → REST, with the barrier kept per bucket instead
/// of for the whole table:
/// <list type="number">
/// <item>Prepare: the new table is allocated and published as the old table's successor. Every
/// bucket is still authoritative in the old table.</item>
/// <item>Split: each old bucket b is moved under its exclusive latch: its chains are split between
/// new buckets b and b + oldCount (see <see cref="BucketSplit"/>), then b is marked moved and its
/// latch released. The latch is the barrier: operations take the latch of the bucket their key is in
/// before they touch its entries, and a moved bucket's latch cannot be taken, so no operation works
/// on an old bucket once it moved, and none works on its new buckets before (<see cref="HashIndex.Locate"/>
/// only leads there once the old bucket is marked). Operations therefore wait only for the one bucket
/// being moved, never for the table.</item>
/// <item>Retire: once every bucket moved, the new table becomes the one operations start from, the
/// old one is marked retired and the epoch is bumped. When every thread has refreshed past that bump
/// nobody can hold a pointer into the old table (latch waiters check for retirement after each
/// refresh), so its primary buckets are freed and its overflow buckets go back to the pool.</item>
/// <item>Rest: the count of resizes goes up and the growth threshold doubles; if the entries already
/// pass the new threshold, the next resize starts at once.</item>
/// </list>
/// </para>
/// <para>
/// Latches held across operations (LockKeys) pin their buckets: a latched bucket cannot be moved, so
/// the thread skips it and comes back later, and the resize cannot end before the locks are released.
/// LockKeys during a resize moves the buckets of its keys itself, holding no other latch meanwhile,
/// and then latches them in the new table (see <see cref="HeldLocks"/>). A new resize starts only once
/// the previous old table was freed, so at most two tables exist and a thread that read the old table
/// finds the new one through <see cref="BucketTable.Next"/>.
/// </para>
/// </remarks>
internal sealed unsafe class IndexResize
{
    /// <summary>Buckets moved between epoch refreshes of the resize thread, so it never holds the log back for long.</summary>
    private const int BucketsPerRefresh = 256;

    /// <summary>
    /// Passes over busy buckets in which the thread only tries their latches; after these it takes the
    /// exclusive bit and waits for the readers in, so a stream of readers that always overlap cannot
    /// hold a bucket forever.
    /// </summary>
    private const int TryOnlyPasses = 64;

    private readonly HashIndex _index;
    private readonly HybridLog _log;
    private readonly LightEpoch _epoch;
    private readonly object _threadLock = new();
    private Thread? _thread;
    private int _running;
    private int _stopping;

    /// <summary>An old table retired but not yet freed when the resize was stopped; freed by <see cref="Stop"/>.</summary>
    private BucketTable? _retired;

    public IndexResize(HashIndex index, HybridLog log, LightEpoch epoch)
    {
        _index = index;
        _log = log;
        _epoch = epoch;
    }

    private bool Stopping => Volatile.Read(ref _stopping) != 0;

    /// <summary>Starts the resize thread unless it runs already.</summary>
    public void Start()
    {
        if (Interlocked.CompareExchange(ref _running, 1, 0) != 0)
            return;
        lock (_threadLock)
        {
            if (Stopping)
            {
                Volatile.Write(ref _running, 0);
                return;
            }
            _thread = new Thread(Run) { IsBackground = true, Name = "Tsavorite index resize" };
            _thread.Start();
        }
    }

    /// <summary>Stops the resize thread (a resize under way is left as it is) and waits for it.</summary>
    public void Stop()
    {
        Thread? thread;
        lock (_threadLock)
        {
            Volatile.Write(ref _stopping, 1);
            thread = _thread;
        }
        thread?.Join();
        _retired?.Free();
    }

    /// <summary>Waits until no resize runs (for tests).</summary>
    public void WaitUntilIdle()
    {
        Thread? thread;
        lock (_threadLock)
            thread = _thread;
        thread?.Join();
    }

    private void Run()
    {
        while (true)
        {
            while (!Stopping && _index.WantsToGrow)
                Grow();
            Volatile.Write(ref _running, 0);
            // An insert that asked for growth while this thread was finishing found it still running.
            if (Stopping || !_index.WantsToGrow || Interlocked.CompareExchange(ref _running, 1, 0) != 0)
                return;
        }
    }

    /// <summary>One doubling: prepare, split, retire (see the type's remarks).</summary>
    private void Grow()
    {
        var old = _index.Table;
        BucketTable next;
        try
        {
            next = new BucketTable(old.Count * 2);
        }
        catch (OutOfMemoryException)
        {
            _index.StopGrowing();
            return;
        }

        _index.PauseGrowthChecks();
        old.SetNext(next);
        if (!MoveAll(old, next))
            return;

        _index.Publish(next);
        old.Retire();
        long retiredAt = _epoch.BumpCurrentEpoch() - 1;
        if (!WaitUntilSafe(retiredAt))
        {
            _retired = old;
            return;
        }
        ReleaseTable(old);
        _index.OnResized();
    }

    /// <summary>
    /// Moves every bucket of <paramref name="old"/>: a pass over all of them, then passes over those
    /// whose latch was held, until none is left. False when the resize was stopped.
    /// </summary>
    private bool MoveAll(BucketTable old, BucketTable next)
    {
        var busy = new List<long>();
        _epoch.Resume();
        try
        {
            for (long b = 0; b < old.Count; b++)
            {
                if (!TryMove(old, next, b, wait: false))
                    busy.Add(b);
                if ((b % BucketsPerRefresh) == BucketsPerRefresh - 1)
                {
                    if (Stopping)
                        return false;
                    _epoch.ProtectAndDrain();
                }
            }
        }
        finally
        {
            _epoch.Suspend();
        }

        for (int pass = 0; busy.Count > 0; pass++)
        {
            // Held by a transaction or a long operation: give the holders time, unprotected.
            Thread.Sleep(1);
            if (Stopping)
                return false;
            _epoch.Resume();
            try
            {
                int left = 0;
                for (int i = 0; i < busy.Count; i++)
                {
                    if (!TryMove(old, next, busy[i], wait: pass >= TryOnlyPasses))
                        busy[left++] = busy[i];
                }
                busy.RemoveRange(left, busy.Count - left);
            }
            finally
            {
                _epoch.Suspend();
            }
        }
        return true;
    }

    /// <summary>
    /// Moves bucket <paramref name="number"/> unless its latch is held; true once it is moved (by anyone).
    /// With <paramref name="wait"/>, shared holders are waited for, as a writer of the bucket would.
    /// </summary>
    private bool TryMove(BucketTable old, BucketTable next, long number, bool wait)
    {
        long* bucket = old.Bucket(number);
        if (HashBucket.IsMoved(bucket))
            return true;
        bool latched = wait ? LatchWaitingForReaders(bucket) : HashBucket.TryAcquireExclusive(bucket);
        if (!latched)
            return HashBucket.IsMoved(bucket);
        BucketSplit.Split(_index, _log, old, next, number);
        HashBucket.MarkMoved(bucket);
        HashBucket.ReleaseExclusive(bucket);
        return true;
    }

    /// <summary>
    /// Takes the exclusive bit, then waits, refreshing the epoch, until the shared holders have left;
    /// gives up when an exclusive holder is in or the resize is stopped. Holding no other latch, the
    /// thread closes no wait cycle.
    /// </summary>
    private bool LatchWaitingForReaders(long* bucket)
    {
        if (!HashBucket.TryTakeExclusiveBit(bucket))
            return false;
        var spinner = new SpinWait();
        while (HashBucket.HasSharedHolders(bucket))
        {
            if (Stopping)
            {
                HashBucket.ReleaseExclusive(bucket);
                return false;
            }
            spinner.SpinOnce(-1);
            _epoch.ProtectAndDrain();
        }
        return true;
    }

    /// <summary>
    /// Moves the old bucket of <paramref name="hash"/> now, waiting for its latch (LockKeys during a
    /// resize). The caller is protected and holds no latch; returns once the bucket is moved.
    /// </summary>
    public void MoveBucketOf(BucketTable old, long hash, LightEpoch epoch)
    {
        long* bucket = old.BucketOf(hash);
        if (HashBucket.IsMoved(bucket))
            return;
        // Fails only when someone else moved the bucket (or the whole table) meanwhile.
        if (!HashBucket.AcquireExclusive(bucket, epoch, old))
            return;
        BucketSplit.Split(_index, _log, old, old.Next!, hash & old.Mask);
        HashBucket.MarkMoved(bucket);
        HashBucket.ReleaseExclusive(bucket);
    }

    /// <summary>Waits, unprotected, until every thread has refreshed past <paramref name="epoch"/>; false when stopped first.</summary>
    private bool WaitUntilSafe(long epoch)
    {
        while (_epoch.SafeToReclaimEpoch < epoch)
        {
            if (Stopping)
                return false;
            Thread.Sleep(1);
        }
        return true;
    }

    /// <summary>
    /// Frees a retired table no thread can reach any more: its overflow buckets go back to the pool,
    /// and entries left in it with no record are uncounted. Those were created by operations that
    /// found their bucket moved when they came to latch it and started over in the new table; the
    /// split skipped them (see <see cref="BucketSplit"/>) and nothing else frees them.
    /// </summary>
    private void ReleaseTable(BucketTable old)
    {
        var entries = _index.Entries;
        var pool = _index.Overflow;
        for (long b = 0; b < old.Count; b++)
        {
            long* bucket = old.Bucket(b);
            long number = 0; // of the overflow bucket at hand; 0 for the primary
            while (true)
            {
                for (int i = 0; i < HashBucket.EntryCount; i++)
                {
                    var entry = new HashBucketEntry(bucket[i]);
                    if (!entry.IsFree && entry.Address == 0 && !entry.Tentative)
                        entries.Decrement(entry.Tag);
                }
                // Read the link before giving the bucket back: the pool may hand it out at once.
                long nextNumber = HashBucket.OverflowBucketNumber(bucket);
                if (number != 0)
                    pool.Free(number);
                if (nextNumber == 0)
                    break;
                number = nextNumber;
                bucket = pool.Get(number);
            }
        }
        old.Free();
    }
}
