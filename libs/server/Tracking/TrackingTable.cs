using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Client-side caching, server side (CLIENT TRACKING): the clients that track, the keys each client in the default
/// mode read (by key, as Redis keeps them: one table for every database), and the prefixes broadcasting clients
/// listen on. A write asks <see cref="Active"/> first, one read of a count, so it costs nothing more while no client
/// tracks.
/// </summary>
/// <remarks>
/// <para>
/// The keys are spread over shards, each a dictionary by hash under its own lock, so readers remembering keys and
/// writers invalidating them meet only on the same shard. An invalidated key leaves the table with all its clients:
/// each gets one message, and the key is tracked again only if read again. A client remembers the entries it was
/// added to (<see cref="ClientTracking"/>), so turning tracking off or disconnecting takes it out of them at once.
/// </para>
/// <para>
/// A reader remembers its keys before the read runs, and a writer looks the key up after its write: either the
/// writer finds the reader's entry (an invalidation, perhaps needless) or the reader reads the new value.
/// </para>
/// </remarks>
public sealed class TrackingTable
{
    private const int ShardCount = 64;

    /// <summary>Redis's default for tracking-table-max-keys.</summary>
    public const long DefaultMaxKeys = 1_000_000;

    private readonly Shard[] _shards;
    private readonly ClientRegistry _clients;
    private readonly object _registrationLock = new();

    /// <summary>The tracking clients (copy-on-write, for a flush's invalidation).</summary>
    private ClientTracking[] _trackers = [];

    /// <summary>The prefixes broadcasting clients listen on (copy-on-write, read without a lock by writers).</summary>
    private PrefixGroup[] _prefixes = [];

    private volatile int _trackerCount;
    private long _keys;
    private long _items;
    private long _maxKeys = DefaultMaxKeys;

    /// <summary>How many times in a row the table stayed over its limit after evicting: each time evicts more, as in Redis.</summary>
    private int _overLimitRounds;
    private int _nextEvictionShard;

    private readonly CommandObservers _observers;

    internal TrackingTable(ClientRegistry clients, CommandObservers observers)
    {
        _clients = clients;
        _observers = observers;
        _shards = new Shard[ShardCount];
        for (int i = 0; i < _shards.Length; i++)
            _shards[i] = new Shard();
    }

    /// <summary>Whether any client tracks: the one look a write takes while none does.</summary>
    public bool Active => _trackerCount != 0;

    /// <summary>Number of tracking clients (INFO tracking_clients).</summary>
    public int ClientCount => _trackerCount;

    /// <summary>Keys in the table (INFO tracking_total_keys).</summary>
    public long TotalKeys => Volatile.Read(ref _keys);

    /// <summary>Key and client pairs in the table (INFO tracking_total_items).</summary>
    public long TotalItems => Volatile.Read(ref _items);

    /// <summary>Prefixes broadcasting clients listen on (INFO tracking_total_prefixes).</summary>
    public int TotalPrefixes => Volatile.Read(ref _prefixes).Length;

    /// <summary>Whether some broadcasting client listens: a write then notes its key for the batch's broadcast.</summary>
    internal bool HasPrefixes => Volatile.Read(ref _prefixes).Length != 0;

    /// <summary>The prefix groups as they are now (an array that is never changed).</summary>
    internal PrefixGroup[] Prefixes => Volatile.Read(ref _prefixes);

    /// <summary>tracking-table-max-keys: past it, keys are invalidated to make room; 0 for no limit.</summary>
    public long MaxKeys
    {
        get => Volatile.Read(ref _maxKeys);
        set
        {
            Volatile.Write(ref _maxKeys, value);
            EnforceLimit();
        }
    }

    internal ClientRegistry Clients => _clients;

    /// <summary>A client turned tracking on.</summary>
    internal void Register(ClientTracking tracker)
    {
        lock (_registrationLock)
        {
            var grown = new ClientTracking[_trackers.Length + 1];
            _trackers.CopyTo(grown, 0);
            grown[^1] = tracker;
            Volatile.Write(ref _trackers, grown);
            _trackerCount = grown.Length;
            _observers.Set(CommandObservers.Tracking, true);
        }
    }

    /// <summary>A client turned tracking off (or left): it leaves its prefixes and the keys it was tracking.</summary>
    internal void Unregister(ClientTracking tracker)
    {
        lock (_registrationLock)
        {
            int index = Array.IndexOf(_trackers, tracker);
            if (index < 0)
                return;
            var shrunk = new ClientTracking[_trackers.Length - 1];
            Array.Copy(_trackers, 0, shrunk, 0, index);
            Array.Copy(_trackers, index + 1, shrunk, index, shrunk.Length - index);
            Volatile.Write(ref _trackers, shrunk);
            _trackerCount = shrunk.Length;
            _observers.Set(CommandObservers.Tracking, shrunk.Length != 0);
            RemovePrefixesLocked(tracker);
        }
        tracker.ForgetKeys(this);
    }

    /// <summary>Adds <paramref name="tracker"/> to the clients listening on <paramref name="prefix"/>.</summary>
    internal void AddPrefix(ClientTracking tracker, byte[] prefix)
    {
        lock (_registrationLock)
        {
            var groups = _prefixes;
            for (int i = 0; i < groups.Length; i++)
            {
                if (groups[i].Prefix.AsSpan().SequenceEqual(prefix))
                {
                    groups[i].Add(tracker);
                    return;
                }
            }
            var group = new PrefixGroup(prefix);
            group.Add(tracker);
            var grown = new PrefixGroup[groups.Length + 1];
            groups.CopyTo(grown, 0);
            grown[^1] = group;
            Volatile.Write(ref _prefixes, grown);
        }
    }

    private void RemovePrefixesLocked(ClientTracking tracker)
    {
        var groups = _prefixes;
        int kept = 0;
        var remaining = new PrefixGroup[groups.Length];
        foreach (var group in groups)
        {
            group.Remove(tracker);
            if (group.Clients.Length > 0)
                remaining[kept++] = group;
        }
        if (kept != groups.Length)
            Volatile.Write(ref _prefixes, remaining.AsSpan(0, kept).ToArray());
    }

    private static int HashOf(ReadOnlySpan<byte> key)
    {
        var hash = new HashCode();
        hash.AddBytes(key);
        return hash.ToHashCode();
    }

    private Shard ShardOf(int hash) => _shards[(uint)hash % ShardCount];

    /// <summary>Remembers that <paramref name="tracker"/> read <paramref name="key"/> (a default-mode client's read).</summary>
    internal void Remember(ClientTracking tracker, ReadOnlySpan<byte> key)
    {
        int hash = HashOf(key);
        var shard = ShardOf(hash);
        lock (shard)
        {
            var entry = shard.Find(key, hash);
            if (entry == null)
            {
                entry = new TrackedKey(key.ToArray(), hash);
                shard.Insert(entry);
                Interlocked.Increment(ref _keys);
            }
            if (!entry.TryAdd(tracker))
                return;
            Interlocked.Increment(ref _items);
            tracker.Remembered(entry);
        }
    }

    /// <summary>Takes <paramref name="tracker"/> out of <paramref name="entry"/> (its tracking ended); the entry goes when it was the last.</summary>
    internal void Forget(TrackedKey entry, ClientTracking tracker)
    {
        var shard = ShardOf(entry.Hash);
        lock (shard)
        {
            // Invalidated meanwhile: whoever removed it counted its clients out.
            if (entry.Removed || !entry.Remove(tracker))
                return;
            Interlocked.Decrement(ref _items);
            if (entry.Count == 0)
            {
                shard.Unlink(entry);
                Interlocked.Decrement(ref _keys);
            }
        }
    }

    /// <summary>
    /// <paramref name="key"/> was modified (by <paramref name="writer"/>, or by the server when null: expiry, eviction):
    /// the clients that read it get one invalidation each, and the key leaves the table.
    /// </summary>
    internal void Invalidate(ReadOnlySpan<byte> key, RespServerSession? writer)
    {
        if (Volatile.Read(ref _keys) == 0)
            return;
        int hash = HashOf(key);
        var shard = ShardOf(hash);
        TrackedKey? entry;
        lock (shard)
        {
            entry = shard.Find(key, hash);
            if (entry == null)
                return;
            TakeOutLocked(shard, entry);
        }
        SendToClients(entry, writer);
    }

    private void TakeOutLocked(Shard shard, TrackedKey entry)
    {
        shard.Unlink(entry);
        Interlocked.Decrement(ref _keys);
        Interlocked.Add(ref _items, -entry.Count);
    }

    /// <summary>Sends the invalidation of a key taken out of the table to the clients that read it (no lock held: nobody changes it now).</summary>
    private void SendToClients(TrackedKey entry, RespServerSession? writer)
    {
        InvalidationMessage? message = null;
        for (int i = 0; i < entry.Count; i++)
        {
            var tracker = entry.Clients[i];
            tracker.Forgotten();
            // A client that switched to broadcasting keeps no default-mode keys, as in Redis.
            if (!tracker.Enabled || tracker.Broadcast || (tracker.NoLoop && ReferenceEquals(tracker.Session, writer)))
                continue;
            message ??= InvalidationMessage.ForKey(entry.Key);
            tracker.Send(message, _clients);
        }
    }

    /// <summary>
    /// Keys modified outside any client (expiry, eviction): the default-mode clients that read one and the broadcasting
    /// clients whose prefix it matches are told at once.
    /// </summary>
    internal void InvalidateFromServer(ReadOnlySpan<byte> key)
    {
        Invalidate(key, writer: null);
        var groups = Prefixes;
        if (groups.Length == 0)
            return;
        InvalidationMessage? message = null;
        foreach (var group in groups)
        {
            if (!key.StartsWith(group.Prefix))
                continue;
            message ??= InvalidationMessage.ForKey(key.ToArray());
            foreach (var tracker in group.Clients)
            {
                if (tracker.Enabled)
                    tracker.Send(message, _clients);
            }
        }
    }

    /// <summary>
    /// FLUSHDB / FLUSHALL: every tracking client, broadcasting or not, gets the invalidation with a null key list (in
    /// its own protocol's null, as Redis sends it), and the table is emptied.
    /// </summary>
    internal void InvalidateAll()
    {
        foreach (var tracker in Volatile.Read(ref _trackers))
        {
            if (tracker.Enabled)
                tracker.Send(tracker.Session.ProtocolVersion == 3 ? InvalidationMessage.FlushResp3 : InvalidationMessage.FlushResp2, _clients);
        }
        foreach (var shard in _shards)
        {
            List<TrackedKey> taken;
            lock (shard)
            {
                taken = shard.TakeAll();
                foreach (var entry in taken)
                    TakeOutLocked(shard, entry);
            }
            foreach (var entry in taken)
            {
                for (int i = 0; i < entry.Count; i++)
                    entry.Clients[i].Forgotten();
            }
        }
    }

    /// <summary>
    /// Over tracking-table-max-keys: keys are invalidated (their clients told, as if they were modified) until the table
    /// is back under it, up to an effort that grows while it stays over, as Redis does it.
    /// </summary>
    internal void EnforceLimit()
    {
        long max = MaxKeys;
        if (max <= 0 || Volatile.Read(ref _keys) <= max)
        {
            _overLimitRounds = 0;
            return;
        }
        int effort = 100 * (Volatile.Read(ref _overLimitRounds) + 1);
        for (int round = 0; round < ShardCount && effort > 0; round++)
        {
            var shard = _shards[(uint)Interlocked.Increment(ref _nextEvictionShard) % ShardCount];
            TrackedKey? entry;
            while (effort-- > 0 && Volatile.Read(ref _keys) > max)
            {
                lock (shard)
                {
                    entry = shard.Any();
                    if (entry == null)
                        break;
                    TakeOutLocked(shard, entry);
                }
                SendToClients(entry, writer: null);
            }
            if (Volatile.Read(ref _keys) <= max)
            {
                _overLimitRounds = 0;
                return;
            }
        }
        Interlocked.Increment(ref _overLimitRounds);
    }

    /// <summary>One shard: tracked keys by hash, keys of the same hash chained.</summary>
    private sealed class Shard
    {
        private readonly Dictionary<int, TrackedKey> _byHash = new();

        public TrackedKey? Find(ReadOnlySpan<byte> key, int hash)
        {
            if (!_byHash.TryGetValue(hash, out var entry))
                return null;
            for (; entry != null; entry = entry.Next)
            {
                if (entry.Key.AsSpan().SequenceEqual(key))
                    return entry;
            }
            return null;
        }

        public void Insert(TrackedKey entry)
        {
            if (_byHash.TryGetValue(entry.Hash, out var first))
                entry.Next = first;
            _byHash[entry.Hash] = entry;
        }

        public void Unlink(TrackedKey entry)
        {
            entry.Removed = true;
            var first = _byHash[entry.Hash];
            if (ReferenceEquals(first, entry))
            {
                if (entry.Next == null)
                    _byHash.Remove(entry.Hash);
                else
                    _byHash[entry.Hash] = entry.Next;
                return;
            }
            for (var previous = first; previous.Next != null; previous = previous.Next)
            {
                if (ReferenceEquals(previous.Next, entry))
                {
                    previous.Next = entry.Next;
                    return;
                }
            }
        }

        /// <summary>Some entry of the shard, or null when it is empty.</summary>
        public TrackedKey? Any()
        {
            foreach (var entry in _byHash.Values)
                return entry;
            return null;
        }

        /// <summary>Every entry (still linked: the caller unlinks them).</summary>
        public List<TrackedKey> TakeAll()
        {
            var all = new List<TrackedKey>();
            foreach (var first in _byHash.Values)
            {
                for (var entry = first; entry != null; entry = entry.Next)
                    all.Add(entry);
            }
            return all;
        }
    }
}

/// <summary>A key some default-mode clients read, and those clients. Changed under its shard's lock.</summary>
internal sealed class TrackedKey
{
    public TrackedKey(byte[] key, int hash)
    {
        Key = key;
        Hash = hash;
    }

    public byte[] Key { get; }

    public int Hash { get; }

    public ClientTracking[] Clients { get; private set; } = new ClientTracking[1];

    public int Count { get; private set; }

    /// <summary>The next key of the same hash in the shard.</summary>
    public TrackedKey? Next;

    /// <summary>Set when the key leaves the table (invalidated, or its last client stopped tracking): it is never reused.</summary>
    public volatile bool Removed;

    /// <summary>Adds <paramref name="tracker"/>; false when it is there already.</summary>
    public bool TryAdd(ClientTracking tracker)
    {
        for (int i = 0; i < Count; i++)
        {
            if (ReferenceEquals(Clients[i], tracker))
                return false;
        }
        if (Count == Clients.Length)
        {
            var grown = new ClientTracking[Count * 2];
            Clients.CopyTo(grown, 0);
            Clients = grown;
        }
        Clients[Count++] = tracker;
        return true;
    }

    public bool Remove(ClientTracking tracker)
    {
        for (int i = 0; i < Count; i++)
        {
            if (ReferenceEquals(Clients[i], tracker))
            {
                Clients[i] = Clients[--Count];
                Clients[Count] = null!;
                return true;
            }
        }
        return false;
    }
}

/// <summary>A prefix broadcasting clients listen on ("" for every key), and those clients (copy-on-write).</summary>
internal sealed class PrefixGroup
{
    public PrefixGroup(byte[] prefix) => Prefix = prefix;

    public byte[] Prefix { get; }

    private ClientTracking[] _clients = [];

    /// <summary>The listening clients: an array that is replaced, never changed, so writers iterate the one they read.</summary>
    public ClientTracking[] Clients => Volatile.Read(ref _clients);

    /// <summary>Changed under the table's registration lock.</summary>
    public void Add(ClientTracking tracker)
    {
        var current = _clients;
        if (Array.IndexOf(current, tracker) >= 0)
            return;
        var grown = new ClientTracking[current.Length + 1];
        current.CopyTo(grown, 0);
        grown[^1] = tracker;
        Volatile.Write(ref _clients, grown);
    }

    /// <summary>Changed under the table's registration lock.</summary>
    public void Remove(ClientTracking tracker)
    {
        var current = _clients;
        int index = Array.IndexOf(current, tracker);
        if (index < 0)
            return;
        var shrunk = new ClientTracking[current.Length - 1];
        Array.Copy(current, 0, shrunk, 0, index);
        Array.Copy(current, index + 1, shrunk, index, shrunk.Length - index);
        Volatile.Write(ref _clients, shrunk);
    }
}
