using System;
using System.Runtime.Intrinsics.X86;

namespace Tsavorite;

/// <summary>
/// The bucket latches a session (and its linked sessions) holds across operations, from
/// <see cref="ClientSession{TInput, TOutput, TFunctions}.LockKeys"/> until UnlockKeys: primary buckets
/// of one table in ascending bucket order, each with its mode. Operations on a key whose bucket is held
/// skip their own latching; any other key is latched per operation as usual.
/// </summary>
/// <remarks>
/// <para>
/// Deadlock freedom rests on two rules: every holder acquires its buckets in ascending bucket order,
/// and while holding them only operates on keys it declared. A holder that touches an undeclared key
/// waits for that key's latch while holding others, which can close a cycle with another holder;
/// callers that cannot declare every key must make sure no other multi-key holder runs meanwhile.
/// </para>
/// <para>
/// Index resizes: <b>all buckets a holder latches are in one table, and a held bucket stays the one in
/// use until it is released.</b> A resize cannot move a latched bucket (see <see cref="IndexResize"/>),
/// so holding pins it, and operations find the held bucket itself through
/// <see cref="HashIndex.Locate"/> (held buckets are known by address). Acquiring during a resize first
/// moves the keys' buckets into the new table, holding nothing meanwhile, and then latches them there
/// (<see cref="HashIndex.TableForLocking"/>); if a bucket moves before its turn comes (a resize began
/// or went on), everything taken so far is released and acquisition starts over. So no holder ever
/// waits for a bucket while holding one of another table, and the ascending order holds within
/// each table.
/// </para>
/// </remarks>
internal sealed unsafe class HeldLocks
{
    // How far ahead of the bucket being latched Acquire loads buckets.
    private const int PrefetchDistance = 8;

    private long[] _buckets = new long[8];
    private bool[] _exclusive = new bool[8];

    /// <summary>Number of distinct buckets held (0 when nothing is locked).</summary>
    public int Count { get; private set; }

    /// <summary>
    /// Latches the buckets of <paramref name="keys"/>: sorted by bucket number, each bucket once,
    /// exclusive if any of its keys asks for it. The caller is protected on <paramref name="epoch"/>,
    /// which waits refresh.
    /// </summary>
    public void Acquire(TsavoriteKV store, ReadOnlySpan<KeyLockRequest> keys, LightEpoch epoch)
    {
        if (Count != 0)
            throw new InvalidOperationException("This session already holds key locks; unlock them before locking again.");
        if (_buckets.Length < keys.Length)
        {
            int size = Math.Max(keys.Length, _buckets.Length * 2);
            _buckets = new long[size];
            _exclusive = new bool[size];
        }
        while (true)
        {
            var table = store.Index.TableForLocking(keys, epoch);
            int count = SortedBuckets(table, keys);
            int taken = 0;
            while (taken < count)
            {
                // Many buckets (a slot migration's batch): the ones a few places on start loading while this one is latched.
                if (taken + PrefetchDistance < count && Sse.IsSupported)
                    Sse.Prefetch0(table.Bucket(_buckets[taken + PrefetchDistance]));
                long* bucket = table.Bucket(_buckets[taken]);
                bool latched = _exclusive[taken]
                    ? HashBucket.AcquireExclusive(bucket, epoch, table)
                    : HashBucket.AcquireShared(bucket, epoch, table);
                if (!latched)
                    break;
                taken++;
            }
            if (taken == count)
            {
                // Held buckets are known by address from here on, as operations locate them.
                for (int i = 0; i < count; i++)
                    _buckets[i] = (long)table.Bucket(_buckets[i]);
                Count = count;
                return;
            }
            // A bucket moved before its turn: the ones taken are still unmoved (they are latched), so releasing them is safe.
            for (int i = taken - 1; i >= 0; i--)
                Release(table.Bucket(_buckets[i]), _exclusive[i]);
        }
    }

    /// <summary>
    /// Fills the held arrays with the bucket numbers of <paramref name="keys"/> in <paramref name="table"/>,
    /// ascending and each once, exclusive if any of its keys asks for it; returns how many.
    /// </summary>
    private int SortedBuckets(BucketTable table, ReadOnlySpan<KeyLockRequest> keys)
    {
        var buckets = _buckets;
        var exclusive = _exclusive;
        int total = keys.Length;
        for (int i = 0; i < total; i++)
        {
            buckets[i] = keys[i].Hash & table.Mask;
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
        return count;
    }

    /// <summary>Releases every latch taken by <see cref="Acquire"/>.</summary>
    public void Release()
    {
        for (int i = Count - 1; i >= 0; i--)
            Release((long*)_buckets[i], _exclusive[i]);
        Count = 0;
    }

    private static void Release(long* bucket, bool exclusive)
    {
        if (exclusive)
            HashBucket.ReleaseExclusive(bucket);
        else
            HashBucket.ReleaseShared(bucket);
    }

    /// <summary>
    /// Whether primary bucket <paramref name="bucket"/> is held in a mode that covers an operation that
    /// needs it <paramref name="exclusive"/>ly. A write to a bucket held only shared cannot be
    /// served (upgrading could deadlock with another reader), so it throws.
    /// </summary>
    public bool Covers(long* bucket, bool exclusive)
    {
        int at = IndexOf((long)bucket);
        if (at < 0)
            return false;
        if (exclusive && !_exclusive[at])
            throw new TsavoriteException("a key locked for reading was written; declare written keys as exclusive");
        return true;
    }

    /// <summary>Whether primary bucket <paramref name="bucket"/> is held, and how (for tests and diagnostics).</summary>
    public bool TryGetMode(long* bucket, out bool exclusive)
    {
        int at = IndexOf((long)bucket);
        exclusive = at >= 0 && _exclusive[at];
        return at >= 0;
    }

    /// <summary>Where the bucket at <paramref name="address"/> is among the held ones, or -1: a scan for the usual few, a binary search beyond.</summary>
    private int IndexOf(long address)
    {
        int count = Count;
        if (count > 16)
            return SortedIndexOf(address, count);
        var buckets = _buckets;
        for (int i = 0; i < count; i++)
        {
            if (buckets[i] == address)
                return i;
        }
        return -1;
    }

    /// <summary>
    /// A binary search of the <paramref name="count"/> sorted held buckets without a branch per step (the halving is a
    /// conditional move): a slot migration holds thousands and looks one up for every read and delete, where the
    /// library's search, through its comparer, cost a tenth of the migration's time.
    /// </summary>
    private int SortedIndexOf(long address, int count)
    {
        fixed (long* buckets = _buckets)
        {
            long* low = buckets;
            int length = count;
            while (length > 1)
            {
                int half = length >> 1;
                low = low[half] <= address ? low + half : low;
                length -= half;
            }
            return *low == address ? (int)(low - buckets) : -1;
        }
    }
}
