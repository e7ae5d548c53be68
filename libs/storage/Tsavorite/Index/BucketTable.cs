using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// One power-of-two array of primary hash buckets in native memory. The index has one; while it
/// doubles it has two, the current one pointing at its successor through <see cref="Next"/>
/// (see <see cref="IndexResize"/>).
/// </summary>
internal sealed unsafe class BucketTable
{
    private readonly long* _buckets;
    private readonly void* _allocation;
    private BucketTable? _next;
    private int _retired;
    private int _freed;

    /// <summary>
    /// Allocates <paramref name="count"/> zeroed buckets (a power of two). They are allocated zeroed (calloc), not
    /// cleared: a large table comes as fresh pages the operating system backs only when a bucket is touched, so
    /// creating an index costs neither the time to clear it nor memory for the buckets no key uses yet.
    /// </summary>
    public BucketTable(long count)
    {
        Count = count;
        Mask = count - 1;
        nuint bytes = (nuint)(count * HashBucket.Size);
        _allocation = NativeMemory.AllocZeroed(bytes + HashBucket.Size);
        if (_allocation == null)
            throw new OutOfMemoryException($"Could not allocate a hash index of {bytes} bytes.");
        _buckets = (long*)Alignment.RoundUp((long)_allocation, HashBucket.Size);
    }

    /// <summary>Number of primary buckets.</summary>
    public long Count { get; }

    /// <summary>Count - 1: the bits of a key hash that choose its bucket.</summary>
    public long Mask { get; }

    /// <summary>Bytes of the primary buckets.</summary>
    public long Bytes => Count * HashBucket.Size;

    /// <summary>The table this one is being split into, or null when no resize runs.</summary>
    public BucketTable? Next => Volatile.Read(ref _next);

    /// <summary>
    /// Whether every bucket was moved to <see cref="Next"/> and the index no longer starts from this
    /// table; its memory is freed once every thread has refreshed its epoch since.
    /// </summary>
    public bool IsRetired => Volatile.Read(ref _retired) != 0;

    /// <summary>Bucket number <paramref name="number"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long* Bucket(long number) => _buckets + (number * (HashBucket.Size / sizeof(long)));

    /// <summary>The bucket of a key hash.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long* BucketOf(long hash) => Bucket(hash & Mask);

    /// <summary>Publishes the successor; from here on a moved bucket of this table leads there.</summary>
    public void SetNext(BucketTable next) => Volatile.Write(ref _next, next);

    /// <summary>Marks the table retired (before the epoch bump that leads to <see cref="Free"/>).</summary>
    public void Retire() => Volatile.Write(ref _retired, 1);

    /// <summary>Frees the buckets; the caller makes sure no thread can still reach them.</summary>
    public void Free()
    {
        if (Interlocked.Exchange(ref _freed, 1) == 0)
            NativeMemory.Free(_allocation);
    }
}

/// <summary>A primary bucket and the table it belongs to, as <see cref="HashIndex.Locate"/> found it.</summary>
internal readonly unsafe struct BucketRef
{
    public BucketRef(long* pointer, BucketTable table)
    {
        Pointer = pointer;
        Table = table;
    }

    /// <summary>The primary bucket.</summary>
    public long* Pointer { get; }

    /// <summary>The table it lives in; checked for retirement while waiting for the bucket's latch.</summary>
    public BucketTable Table { get; }

    /// <summary>Takes the latch shared; false when the bucket moved meanwhile (see <see cref="HashBucket.AcquireShared"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryLatchShared(LightEpoch epoch) => HashBucket.AcquireShared(Pointer, epoch, Table);

    /// <summary>Takes the latch exclusive; false when the bucket moved meanwhile (see <see cref="HashBucket.AcquireExclusive"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryLatchExclusive(LightEpoch epoch) => HashBucket.AcquireExclusive(Pointer, epoch, Table);
}
