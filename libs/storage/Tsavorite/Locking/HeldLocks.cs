using System;

namespace Tsavorite;

/// <summary>
/// The bucket latches a session (and its linked sessions) holds across operations, from
/// <see cref="ClientSession{TInput, TOutput, TFunctions}.LockKeys"/> until UnlockKeys: bucket numbers
/// in ascending order, each with its mode. Operations on a key whose bucket is held skip their own
/// latching; any other key is latched per operation as usual.
/// </summary>
/// <remarks>
/// Deadlock freedom rests on two rules: every holder acquires its buckets in ascending bucket order,
/// and while holding them only operates on keys it declared. A holder that touches an undeclared key
/// waits for that key's latch while holding others, which can close a cycle with another holder;
/// callers that cannot declare every key must make sure no other multi-key holder runs meanwhile.
/// </remarks>
internal sealed unsafe class HeldLocks
{
    private long[] _buckets = new long[8];
    private bool[] _exclusive = new bool[8];

    /// <summary>Number of distinct buckets held (0 when nothing is locked).</summary>
    public int Count { get; private set; }

    /// <summary>The store the latches belong to.</summary>
    private TsavoriteKV? _store;

    /// <summary>
    /// Latches the buckets of <paramref name="keys"/>: sorted by bucket number, each bucket once,
    /// exclusive if any of its keys asks for it. Waiting refreshes <paramref name="epoch"/> when given.
    /// </summary>
    public void Acquire(TsavoriteKV store, ReadOnlySpan<KeyLockRequest> keys, LightEpoch? epoch)
    {
        if (Count != 0)
            throw new InvalidOperationException("This session already holds key locks; unlock them before locking again.");
        if (_buckets.Length < keys.Length)
        {
            int size = Math.Max(keys.Length, _buckets.Length * 2);
            _buckets = new long[size];
            _exclusive = new bool[size];
        }
        int count = 0;
        foreach (var key in keys)
        {
            long bucket = store.Index.BucketIndexOf(key.Hash);
            // Insertion into the sorted prefix: key sets are small, and duplicates merge in place.
            int at = Array.BinarySearch(_buckets, 0, count, bucket);
            if (at >= 0)
            {
                _exclusive[at] |= key.Exclusive;
                continue;
            }
            at = ~at;
            Array.Copy(_buckets, at, _buckets, at + 1, count - at);
            Array.Copy(_exclusive, at, _exclusive, at + 1, count - at);
            _buckets[at] = bucket;
            _exclusive[at] = key.Exclusive;
            count++;
        }

        for (int i = 0; i < count; i++)
        {
            long* bucket = store.Index.Bucket(_buckets[i]);
            if (_exclusive[i])
                HashBucket.AcquireExclusive(bucket, epoch);
            else
                HashBucket.AcquireShared(bucket, epoch);
        }
        _store = store;
        Count = count;
    }

    /// <summary>Releases every latch taken by <see cref="Acquire"/>.</summary>
    public void Release()
    {
        var store = _store;
        for (int i = Count - 1; i >= 0; i--)
        {
            long* bucket = store!.Index.Bucket(_buckets[i]);
            if (_exclusive[i])
                HashBucket.ReleaseExclusive(bucket);
            else
                HashBucket.ReleaseShared(bucket);
        }
        Count = 0;
        _store = null;
    }

    /// <summary>
    /// Whether bucket <paramref name="bucketIndex"/> is held in a mode that covers an operation that
    /// needs it <paramref name="exclusive"/>ly. A write to a bucket held only shared cannot be
    /// served (upgrading could deadlock with another reader), so it throws.
    /// </summary>
    public bool Covers(long bucketIndex, bool exclusive)
    {
        int at = Array.BinarySearch(_buckets, 0, Count, bucketIndex);
        if (at < 0)
            return false;
        if (exclusive && !_exclusive[at])
            throw new TsavoriteException("a key locked for reading was written; declare written keys as exclusive");
        return true;
    }

    /// <summary>Whether bucket <paramref name="bucketIndex"/> is held, and how (for tests and diagnostics).</summary>
    public bool TryGetMode(long bucketIndex, out bool exclusive)
    {
        int at = Array.BinarySearch(_buckets, 0, Count, bucketIndex);
        exclusive = at >= 0 && _exclusive[at];
        return at >= 0;
    }
}
