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
        var buckets = _buckets;
        var exclusive = _exclusive;
        int total = keys.Length;
        for (int i = 0; i < total; i++)
        {
            buckets[i] = store.Index.BucketIndexOf(keys[i].Hash);
            exclusive[i] = keys[i].Exclusive;
        }
        // Sort by bucket: by insertion for the usual few keys (a transaction's, a multi-key
        // command's), which beats the general sort's call overhead; in O(n log n) for many.
        if (total <= 16)
        {
            for (int i = 1; i < total; i++)
            {
                long bucket = buckets[i];
                bool mode = exclusive[i];
                int at = i;
                for (; at > 0 && buckets[at - 1] > bucket; at--)
                {
                    buckets[at] = buckets[at - 1];
                    exclusive[at] = exclusive[at - 1];
                }
                buckets[at] = bucket;
                exclusive[at] = mode;
            }
        }
        else
        {
            Array.Sort(buckets, exclusive, 0, total);
        }
        // Each bucket once, exclusive if any of its keys asks for it.
        int count = 0;
        for (int i = 0; i < total; i++)
        {
            if (count > 0 && buckets[count - 1] == buckets[i])
            {
                exclusive[count - 1] |= exclusive[i];
                continue;
            }
            buckets[count] = buckets[i];
            exclusive[count] = exclusive[i];
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
        int at = IndexOf(bucketIndex);
        if (at < 0)
            return false;
        if (exclusive && !_exclusive[at])
            throw new TsavoriteException("a key locked for reading was written; declare written keys as exclusive");
        return true;
    }

    /// <summary>Whether bucket <paramref name="bucketIndex"/> is held, and how (for tests and diagnostics).</summary>
    public bool TryGetMode(long bucketIndex, out bool exclusive)
    {
        int at = IndexOf(bucketIndex);
        exclusive = at >= 0 && _exclusive[at];
        return at >= 0;
    }

    /// <summary>Where <paramref name="bucketIndex"/> is among the held buckets, or -1: a scan for the usual few, a binary search beyond.</summary>
    private int IndexOf(long bucketIndex)
    {
        int count = Count;
        if (count > 16)
            return Math.Max(-1, Array.BinarySearch(_buckets, 0, count, bucketIndex));
        var buckets = _buckets;
        for (int i = 0; i < count; i++)
        {
            if (buckets[i] == bucketIndex)
                return i;
        }
        return -1;
    }
}
