using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// One session's change to its store's key count. Only the session's thread writes it (a plain add, no atomic
/// on the hot path); readers of <see cref="TsavoriteKV.KeyCount"/> read it with a volatile read. Padded so that two
/// sessions' counters do not share a cache line.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 128)]
internal sealed class KeyCountDelta
{
    [FieldOffset(64)]
    internal long Value;
}

/// <summary>
/// The exact number of keys in the store, kept as operations change it so that counting is O(1) (DBSIZE).
/// </summary>
/// <remarks>
/// <para>
/// Invariant: the count is the number of keys whose newest record reachable from the index (in memory, or on the
/// device with the storage tier) is not a tombstone. Expired records that were not reclaimed yet count, as in Redis;
/// reclaiming one (Delete, the head mover dropping it, compaction leaving it behind) takes it off. Every change of a
/// key between present and absent happens under its bucket's exclusive latch, and is counted there: +1 when an
/// Upsert or RMW writes a key whose newest record was absent or a tombstone, -1 when a Delete (or an updater's
/// ExpireAndStop) puts a tombstone over a present one, -1 when the head mover drops a record without the storage
/// tier, -1 when compaction removes a key's newest record with the range it drops (it links a tombstone first, so a
/// write racing with it sees the key absent). Copies (head mover, compaction, reads copied to the tail), in-place
/// updates, index growth and revivification (of abandoned space) leave it unchanged.
/// </para>
/// <para>
/// Sessions count into a <see cref="KeyCountDelta"/> of their own, registered with the store and folded into the
/// store's total when the session ends; background work (head mover, compaction) adds to the total atomically. A
/// read sums the total and the registered deltas; while operations run it is a snapshot that may be off by the
/// operations in flight, and exact once they have finished.
/// </para>
/// </remarks>
public sealed partial class TsavoriteKV
{
    private readonly object _keyCountLock = new();
    private readonly List<KeyCountDelta> _keyCountDeltas = [];
    private long _keyCountFolded;

    /// <summary>
    /// The number of keys in the store, including expired keys not reclaimed yet (see the remarks on this file's
    /// invariant). Sums the sessions' counters: cheap, but not for a hot path.
    /// </summary>
    public long KeyCount
    {
        get
        {
            lock (_keyCountLock)
            {
                long sum = Volatile.Read(ref _keyCountFolded);
                foreach (var delta in _keyCountDeltas)
                    sum += Volatile.Read(ref delta.Value);
                // Concurrent sessions' counters are read one after another: a delete counted by one session may be
                // seen without the insert another counted just before it.
                return Math.Max(0, sum);
            }
        }
    }

    /// <summary>A counter for a new session, counted in <see cref="KeyCount"/> until <see cref="ReleaseKeyCountDelta"/>.</summary>
    internal KeyCountDelta NewKeyCountDelta()
    {
        var delta = new KeyCountDelta();
        lock (_keyCountLock)
            _keyCountDeltas.Add(delta);
        return delta;
    }

    /// <summary>Folds an ending session's counter into the total; the session no longer writes it.</summary>
    internal void ReleaseKeyCountDelta(KeyCountDelta delta)
    {
        lock (_keyCountLock)
        {
            if (!_keyCountDeltas.Remove(delta))
                return;
            Interlocked.Add(ref _keyCountFolded, delta.Value);
            delta.Value = 0;
        }
    }

    /// <summary>Counts a change made off the sessions' paths (head mover, compaction).</summary>
    private void CountKeysInBackground(long change) => Interlocked.Add(ref _keyCountFolded, change);
}
