using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The hash index: a power-of-two array of 64-byte buckets in native memory, each with seven tagged
/// entries and a link to overflow buckets. An entry points at the newest record of the chain of
/// records whose keys share its bucket and tag. Entries are created without latches by a two-phase
/// tentative insert that guarantees at most one entry per tag in a bucket chain.
/// </summary>
internal sealed unsafe class HashIndex : IDisposable
{
    private readonly long* _buckets;
    private readonly OverflowBucketPool _overflow = new();

    /// <summary>Number of primary buckets (a power of two).</summary>
    public long BucketCount { get; }

    private readonly long _bucketMask;

    /// <param name="sizeBytes">Bytes of primary buckets; rounded down to a power of two, at least one bucket.</param>
    public HashIndex(long sizeBytes)
    {
        long buckets = Math.Max(1, sizeBytes / HashBucket.Size);
        buckets = (long)BitOperations.RoundUpToPowerOf2((ulong)buckets);
        if (buckets * HashBucket.Size > sizeBytes && buckets > 1)
            buckets >>= 1;
        BucketCount = buckets;
        _bucketMask = buckets - 1;
        nuint bytes = (nuint)(buckets * HashBucket.Size);
        _buckets = (long*)NativeMemory.AlignedAlloc(bytes, HashBucket.Size);
        NativeMemory.Clear(_buckets, bytes);
    }

    /// <summary>Number of overflow buckets in use.</summary>
    public long OverflowBucketCount => _overflow.Count;

    /// <summary>The primary bucket of a key hash.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long* BucketOf(long hash) => _buckets + ((hash & _bucketMask) * (HashBucket.Size / sizeof(long)));

    /// <summary>The primary bucket with number <paramref name="bucketIndex"/>.</summary>
    public long* Bucket(long bucketIndex) => _buckets + (bucketIndex * (HashBucket.Size / sizeof(long)));

    /// <summary>The bucket number of a key hash (used to order latches).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long BucketIndexOf(long hash) => hash & _bucketMask;

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
            if ((current & LogAddress.AddressMask) != 0)
            {
                _overflow.Free(number);
                return;
            }
            // Keep the latch bits of the word: only the overflow number changes.
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
    public static bool TryFree(long* entry, int tag, long expectedAddress)
        => Interlocked.CompareExchange(ref *entry, 0, HashBucketEntry.Make(tag, expectedAddress, tentative: false))
            == HashBucketEntry.Make(tag, expectedAddress, tentative: false);

    public void Dispose()
    {
        NativeMemory.AlignedFree(_buckets);
        _overflow.Dispose();
    }
}
