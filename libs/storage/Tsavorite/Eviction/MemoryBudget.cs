using System;
using System.Collections.Generic;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The memory budget shared by stores (a server's databases): a byte limit on what they hold together — log
/// pages in memory, hash indexes and whatever their users report as held outside the log (heap objects) —
/// and the eviction policy that applies when a store's log must move its head to stay within it.
/// </summary>
/// <remarks>
/// The budget does not allocate anything. A store asks it how many pages its log may keep in memory
/// (<see cref="PageCapFor"/>), which is the limit less what every other part uses; when a store cannot open a
/// page, it moves its own head, and asks the store with the most pages to move its head too when its own
/// log is too small to give anything back. Settings may change at any time (CONFIG SET): a change wakes the
/// stores so that they move their heads or retry writes they refused.
/// </remarks>
public sealed class MemoryBudget
{
    private readonly object _storesLock = new();
    private TsavoriteKV[] _stores = [];
    private long _limit;
    private EvictionPolicy _policy;
    private bool _tracksFrequency;
    private int _lfuLogFactor = 10;
    private int _lfuDecayTime = 1;
    private long _evictedRecords;
    private long _expiredRecords;
    private long _reclaimedBytes;

    /// <summary>Bytes the stores may hold together; 0 leaves each store to its log's own frame count.</summary>
    public long Limit
    {
        get => Volatile.Read(ref _limit);
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            Volatile.Write(ref _limit, value);
            OnChanged();
        }
    }

    /// <summary>What happens to live records at the head of a log when it must move.</summary>
    public EvictionPolicy Policy
    {
        get => _policy;
        set
        {
            _policy = value;
            _tracksFrequency = value.TracksFrequency();
            OnChanged();
        }
    }

    /// <summary>Whether access words hold LFU counters (the policy is an LFU one).</summary>
    public bool TracksFrequency => _tracksFrequency;

    /// <summary>How slowly LFU counters grow (Redis's <c>lfu-log-factor</c>, default 10).</summary>
    public int LfuLogFactor
    {
        get => _lfuLogFactor;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            _lfuLogFactor = value;
        }
    }

    /// <summary>Minutes per one-step decay of an LFU counter; 0 never decays (Redis's <c>lfu-decay-time</c>, default 1).</summary>
    public int LfuDecayTime
    {
        get => _lfuDecayTime;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            _lfuDecayTime = value;
        }
    }

    /// <summary>Live records dropped by the policy so far (INFO's evicted_keys).</summary>
    public long EvictedRecords => Volatile.Read(ref _evictedRecords);

    /// <summary>Expired records dropped at the head of a log so far.</summary>
    public long ExpiredRecords => Volatile.Read(ref _expiredRecords);

    /// <summary>Bytes of log pages given back by moving heads, less what was copied forward.</summary>
    public long ReclaimedBytes => Volatile.Read(ref _reclaimedBytes);

    /// <summary>The stores counting against the budget now (a snapshot; flushed databases stay until they are freed).</summary>
    public IReadOnlyList<TsavoriteKV> Stores => Volatile.Read(ref _stores);

    /// <summary>Bytes the registered stores hold now.</summary>
    public long Used
    {
        get
        {
            long used = 0;
            foreach (var store in Volatile.Read(ref _stores))
                used += store.MemoryBytes;
            return used;
        }
    }

    /// <summary>Whether the stores hold more than <see cref="Limit"/> (never when there is no limit).</summary>
    public bool OverLimit
    {
        get
        {
            long limit = Limit;
            return limit > 0 && Used > limit;
        }
    }

    /// <summary>
    /// Pages <paramref name="store"/>'s log may keep in memory: the limit less what everything else uses, in
    /// whole pages; unbounded when there is no limit.
    /// </summary>
    internal long PageCapFor(TsavoriteKV store)
    {
        long limit = Limit;
        if (limit == 0)
            return long.MaxValue;
        long others = Used - store.Log.InMemoryBytes;
        return Math.Max(0, limit - others) >> store.Log.PageSizeBits;
    }

    /// <summary>
    /// Asks the store holding the most log pages, other than <paramref name="requester"/>, to move its head: the
    /// requester's own log is too small to make room.
    /// </summary>
    internal void RequestReclaimElsewhere(TsavoriteKV requester)
    {
        TsavoriteKV? largest = null;
        foreach (var store in Volatile.Read(ref _stores))
        {
            if (!ReferenceEquals(store, requester) && (largest == null || store.Log.InMemoryBytes > largest.Log.InMemoryBytes))
                largest = store;
        }
        largest?.RequestHeadMove();
    }

    internal void CountEvicted() => Interlocked.Increment(ref _evictedRecords);

    internal void CountExpired() => Interlocked.Increment(ref _expiredRecords);

    internal void CountReclaimed(long bytes) => Interlocked.Add(ref _reclaimedBytes, bytes);

    internal void Register(TsavoriteKV store)
    {
        lock (_storesLock)
        {
            var grown = new TsavoriteKV[_stores.Length + 1];
            Array.Copy(_stores, grown, _stores.Length);
            grown[^1] = store;
            Volatile.Write(ref _stores, grown);
        }
    }

    internal void Unregister(TsavoriteKV store)
    {
        lock (_storesLock)
        {
            int index = Array.IndexOf(_stores, store);
            if (index < 0)
                return;
            var shrunk = new TsavoriteKV[_stores.Length - 1];
            Array.Copy(_stores, shrunk, index);
            Array.Copy(_stores, index + 1, shrunk, index, _stores.Length - index - 1);
            Volatile.Write(ref _stores, shrunk);
        }
    }

    /// <summary>A setting changed: stores that refused writes for memory look again.</summary>
    private void OnChanged()
    {
        foreach (var store in Volatile.Read(ref _stores))
        {
            store.Log.ClearFull();
            store.RequestHeadMove();
        }
    }
}
