using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The hash index: a power-of-two table of 64-byte buckets in native memory, each with seven tagged
/// entries and a link to overflow buckets. An entry points at the newest record of the chain of
/// records whose keys share its bucket and tag. Entries are created without latches by a two-phase
/// tentative insert that guarantees at most one entry per tag in a bucket chain.
/// </summary>
/// <remarks>
/// <para>
/// The index starts at its configured size and doubles, up to its maximum, once the entries in use
/// pass <see cref="GrowthFill"/> of the seven per bucket (see <see cref="IndexResize"/>). Entries are
/// counted as they are created and freed (<see cref="EntryCounter"/>), so the check costs an
/// interlocked add on insert and no scan.
/// </para>
/// <para>
/// Operations find a key's primary bucket with <see cref="Locate"/> and take its latch; during a
/// resize that bucket is in the old table until the resize has moved it, in the new one after. The
/// latch of a moved bucket cannot be taken (<see cref="HashBucket"/>), so an operation holding a
/// latch works on the bucket that is in use, and one whose bucket moved while it waited starts over
/// with <see cref="Locate"/>. An operation must therefore locate its bucket again after every epoch
/// refresh: the old table is freed once every thread has refreshed since the resize ended.
/// </para>
/// </remarks>
internal sealed unsafe class HashIndex : IDisposable
{
    /// <summary>
    /// Fraction of the entry capacity (buckets × 7) in use at which the index doubles. At 0.75 about
    /// one bucket in six has an overflow bucket just before a resize; a resize halves the fill.
    /// </summary>
    public const double GrowthFill = 0.75;

    private readonly OverflowBucketPool _overflow = new();
    private readonly EntryCounter _entries = new();
    private readonly IndexResize? _resize;
    private BucketTable _table;
    private long _growAt;
    private long _resizeCount;
    // Entries announced ahead (ExpectEntries): the index grows for them while it is still small, not during their inserts.
    private long _expected;

    /// <param name="sizeBytes">Bytes of primary buckets; rounded down to a power of two, at least one bucket. The index never grows.</param>
    public HashIndex(long sizeBytes)
        : this(sizeBytes, 0, null, null)
    {
    }

    /// <param name="sizeBytes">Initial bytes of primary buckets; rounded down to a power of two, at least one bucket.</param>
    /// <param name="maxSizeBytes">Bytes the index may double up to (rounded down likewise); no more than <paramref name="sizeBytes"/> keeps it fixed.</param>
    /// <param name="log">The log whose chains a resize splits; without it the index never grows.</param>
    /// <param name="epoch">The store's epoch protection.</param>
    public HashIndex(long sizeBytes, long maxSizeBytes, HybridLog? log, LightEpoch? epoch)
    {
        long buckets = BucketsFor(sizeBytes);
        _table = new BucketTable(buckets);
        MaxBucketCount = Math.Max(buckets, BucketsFor(maxSizeBytes));
        if (log != null && epoch != null && MaxBucketCount > buckets)
            _resize = new IndexResize(this, log, epoch);
        SetGrowthLimit();
    }

    /// <summary>The store's read cache, whose records a resize leaves behind (see <see cref="BucketSplit"/>); null when it has none.</summary>
    internal ReadCacheLog? ReadCache { get; set; }

    /// <summary>The table operations start from (the old one while a resize runs).</summary>
    internal BucketTable Table => Volatile.Read(ref _table);

    /// <summary>The overflow buckets of every table.</summary>
    internal OverflowBucketPool Overflow => _overflow;

    /// <summary>The count of entries in use.</summary>
    internal EntryCounter Entries => _entries;

    /// <summary>Number of primary buckets (a power of two); the old table's while a resize runs.</summary>
    public long BucketCount => Table.Count;

    /// <summary>Most primary buckets the index may grow to.</summary>
    public long MaxBucketCount { get; }

    /// <summary>Number of overflow buckets in use.</summary>
    public long OverflowBucketCount => _overflow.Count;

    /// <summary>Hash entries in use (keys, or chains of keys sharing a bucket and tag).</summary>
    public long EntryCount => _entries.Total;

    /// <summary>Times the index doubled.</summary>
    public long ResizeCount => Volatile.Read(ref _resizeCount);

    /// <summary>Whether a resize is under way.</summary>
    public bool IsResizing => Table.Next != null;

    /// <summary>Bytes of index memory: primary buckets of both tables during a resize, and overflow buckets.</summary>
    public long MemoryBytes
    {
        get
        {
            var table = Table;
            return table.Bytes + (table.Next?.Bytes ?? 0) + (_overflow.Count * HashBucket.Size);
        }
    }

    /// <summary>
    /// The primary bucket of a key hash in the table that holds it now: the current table's, or
    /// during a resize the new table's once the resize moved the old bucket there.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public BucketRef Locate(long hash)
    {
        var table = Volatile.Read(ref _table);
        long* bucket = table.BucketOf(hash);
        var next = table.Next;
        if (next != null && HashBucket.IsMoved(bucket))
            return new BucketRef(next.BucketOf(hash), next);
        return new BucketRef(bucket, table);
    }

    /// <summary>The primary bucket of a key hash (for tests; operations use <see cref="Locate"/>).</summary>
    public long* BucketOf(long hash) => Locate(hash).Pointer;

    /// <summary>The primary bucket with number <paramref name="bucketIndex"/> in the current table (for tests).</summary>
    public long* Bucket(long bucketIndex) => Table.Bucket(bucketIndex);

    /// <summary>The bucket number of a key hash in the current table (for tests).</summary>
    public long BucketIndexOf(long hash) => hash & Table.Mask;

    /// <summary>The overflow bucket linked after <paramref name="bucket"/>, or null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long* NextBucket(long* bucket)
    {
        long number = HashBucket.OverflowBucketNumber(bucket);
        return number == 0 ? null : _overflow.Get(number);
    }

    /// <summary>
    /// Finds the non-tentative entry for <paramref name="tag"/> in the chain of <paramref name="bucket"/>.
    /// Returns a pointer to the entry word, or null.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long* FindTag(long* bucket, int tag)
    {
        long expectedTagBits = (long)tag << HashBucketEntry.TagShift;
        const long tagAndTentative = (HashBucketEntry.TagMask << HashBucketEntry.TagShift) | HashBucketEntry.TentativeBit;
        do
        {
            for (int i = 0; i < HashBucket.EntryCount; i++)
            {
                long word = Volatile.Read(ref bucket[i]);
                if (word != 0 && (word & tagAndTentative) == expectedTagBits)
                    return bucket + i;
            }
            bucket = NextBucket(bucket);
        }
        while (bucket != null);
        return null;
    }

    /// <summary>
    /// Finds the entry for <paramref name="tag"/>, creating it (with address 0) if there is none.
    /// Creation claims a free entry with the tentative bit, then rescans the chain: if another entry
    /// for the same tag appeared meanwhile, it backs off and starts over; otherwise it clears the
    /// tentative bit. Runs without latches.
    /// </summary>
    public long* FindOrCreateTag(long* primaryBucket, int tag)
    {
        long tagBits = (long)tag << HashBucketEntry.TagShift;
        const long tagAndTentative = (HashBucketEntry.TagMask << HashBucketEntry.TagShift) | HashBucketEntry.TentativeBit;
        while (true)
        {
            long* free = null;
            long* bucket = primaryBucket;
            long* last = primaryBucket;
            while (bucket != null)
            {
                for (int i = 0; i < HashBucket.EntryCount; i++)
                {
                    long word = Volatile.Read(ref bucket[i]);
                    if (word == 0)
                    {
                        if (free == null)
                            free = bucket + i;
                    }
                    else if ((word & tagAndTentative) == tagBits)
                    {
                        return bucket + i;
                    }
                }
                last = bucket;
                bucket = NextBucket(bucket);
            }

            if (free == null)
            {
                AppendOverflowBucket(last);
                continue;
            }

            long tentative = HashBucketEntry.Make(tag, 0, tentative: true);
            if (Interlocked.CompareExchange(ref *free, tentative, 0) != 0)
                continue;

            if (HasOtherEntryForTag(primaryBucket, tag, free))
            {
                Volatile.Write(ref *free, 0);
                Thread.Yield();
                continue;
            }

            Volatile.Write(ref *free, HashBucketEntry.Make(tag, 0, tentative: false));
            if (_entries.Increment(tag))
                OnStripeFull();
            return free;
        }
    }

    private bool HasOtherEntryForTag(long* bucket, int tag, long* self)
    {
        long tagBits = (long)tag << HashBucketEntry.TagShift;
        const long tagOnly = HashBucketEntry.TagMask << HashBucketEntry.TagShift;
        do
        {
            for (int i = 0; i < HashBucket.EntryCount; i++)
            {
                long* entry = bucket + i;
                if (entry == self)
                    continue;
                long word = Volatile.Read(ref *entry);
                if (word != 0 && (word & tagOnly) == tagBits)
                    return true;
            }
            bucket = NextBucket(bucket);
        }
        while (bucket != null);
        return false;
    }

    /// <summary>Links a new overflow bucket after <paramref name="last"/> unless someone already did.</summary>
    private void AppendOverflowBucket(long* last)
    {
        long* word = HashBucket.OverflowWord(last);
        long number = _overflow.Allocate();
        while (true)
        {
            long current = Volatile.Read(ref *word);
            if ((current & HashBucket.OverflowNumberMask) != 0)
            {
                _overflow.Free(number);
                return;
            }
            // Keep the latch and moved bits of the word: only the overflow number changes.
            if (Interlocked.CompareExchange(ref *word, current | number, current) == current)
                return;
        }
    }

    /// <summary>
    /// Whether <paramref name="entry"/> still holds a final (not tentative) entry for <paramref name="tag"/>.
    /// Callers check this after taking the bucket latch, since entries may be freed while they wait.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool EntryHoldsTag(long* entry, int tag)
    {
        long word = Volatile.Read(ref *entry);
        return word != 0 && (word & HashBucketEntry.TentativeBit) == 0 && ((word >> HashBucketEntry.TagShift) & HashBucketEntry.TagMask) == tag;
    }

    /// <summary>Swings the entry from <paramref name="expectedAddress"/> to <paramref name="newAddress"/>, keeping its tag.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TrySwing(long* entry, int tag, long expectedAddress, long newAddress)
    {
        long expected = HashBucketEntry.Make(tag, expectedAddress, tentative: false);
        long desired = HashBucketEntry.Make(tag, newAddress, tentative: false);
        return Interlocked.CompareExchange(ref *entry, desired, expected) == expected;
    }

    /// <summary>
    /// Frees an entry whose chain became empty. The caller holds the bucket latch exclusively, so no
    /// operation is using the entry; operations that found it before waiting for the latch recheck it.
    /// </summary>
    public bool TryFree(long* entry, int tag, long expectedAddress)
    {
        long expected = HashBucketEntry.Make(tag, expectedAddress, tentative: false);
        if (Interlocked.CompareExchange(ref *entry, 0, expected) != expected)
            return false;
        _entries.Decrement(tag);
        return true;
    }

    /// <summary>
    /// The table LockKeys latches <paramref name="keys"/> in: the current one, or while a resize runs
    /// its successor, once the keys' old buckets were moved there (by this thread, if the resize had
    /// not got to them yet). Returns holding no latch.
    /// </summary>
    internal BucketTable TableForLocking(ReadOnlySpan<KeyLockRequest> keys, LightEpoch epoch)
    {
        var table = Table;
        var next = table.Next;
        if (next == null)
            return table;
        foreach (ref readonly var key in keys)
            _resize!.MoveBucketOf(table, key.Hash, epoch);
        return next;
    }

    /// <summary>Whether the entries in use call for a larger table that the maximum allows.</summary>
    internal bool WantsToGrow => _resize != null && Table.Count < MaxBucketCount
        && Math.Max(_entries.Total, Volatile.Read(ref _expected)) >= Volatile.Read(ref _growAt);

    /// <summary>
    /// Announces that the index will hold about <paramref name="entries"/> entries soon (a bulk import): it grows for
    /// them now, in the background, while growing moves few entries, instead of doubling again and again under the
    /// inserts. Only ever raises the size; within the maximum.
    /// </summary>
    internal void ExpectEntries(long entries)
    {
        long current;
        while ((current = Volatile.Read(ref _expected)) < entries && Interlocked.CompareExchange(ref _expected, entries, current) != current)
        {
        }
        if (WantsToGrow)
            _resize!.Start();
    }

    /// <summary>A stripe of the entry count passed its share of the threshold: check the total.</summary>
    private void OnStripeFull()
    {
        if (WantsToGrow)
            _resize!.Start();
    }

    /// <summary>Sets the growth threshold for the current table (none once it reached the maximum).</summary>
    internal void SetGrowthLimit()
    {
        long buckets = Table.Count;
        long growAt = _resize == null || buckets >= MaxBucketCount ? long.MaxValue : (long)(buckets * HashBucket.EntryCount * GrowthFill);
        Volatile.Write(ref _growAt, growAt);
        _entries.SetLimit(growAt);
    }

    /// <summary>Silences the growth check while a resize runs.</summary>
    internal void PauseGrowthChecks() => _entries.SetLimit(long.MaxValue);

    /// <summary>Stops growing for good (the next table could not be allocated).</summary>
    internal void StopGrowing()
    {
        Volatile.Write(ref _growAt, long.MaxValue);
        _entries.SetLimit(long.MaxValue);
    }

    /// <summary>Makes <paramref name="next"/> the table operations start from (the end of a resize).</summary>
    internal void Publish(BucketTable next) => Volatile.Write(ref _table, next);

    /// <summary>Counts a finished resize and sets the threshold for the new table.</summary>
    internal void OnResized()
    {
        Interlocked.Increment(ref _resizeCount);
        SetGrowthLimit();
    }

    /// <summary>Waits until no resize runs (for tests: growth is asynchronous to the inserts that call for it).</summary>
    internal void WaitForResize() => _resize?.WaitUntilIdle();

    private static long BucketsFor(long sizeBytes)
    {
        long buckets = Math.Max(1, sizeBytes / HashBucket.Size);
        return 1L << BitOperations.Log2((ulong)buckets);
    }

    public void Dispose()
    {
        _resize?.Stop();
        var table = Table;
        table.Next?.Free();
        table.Free();
        _overflow.Dispose();
    }
}
