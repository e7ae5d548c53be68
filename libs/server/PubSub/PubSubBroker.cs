using System;
using System.Collections.Generic;
using System.Threading;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The server's pub/sub registry: which subscribers listen on each channel and on each pattern,
/// and the delivery of published messages into their <see cref="PubSubOutbox"/>es.
/// </summary>
/// <remarks>
/// Subscriber lists are copy-on-write arrays, so a publisher only holds the read lock while it
/// looks a channel up and picks up the arrays, and delivers after releasing it. PUBLISH to a
/// channel nobody listens to (no subscriber of it by the hash filter, no matching pattern) takes no
/// lock and allocates nothing; with subscribers, it
/// encodes each message once (per channel or matching pattern) and shares the bytes among the
/// subscribers' outboxes. Lock order: a session's gate, then this lock, then an outbox's lock.
/// </remarks>
public sealed class PubSubBroker
{
    private readonly ReaderWriterLockSlim _lock = new(LockRecursionPolicy.NoRecursion);

    /// <summary>Channels with at least one subscriber, by hash of the name; colliding names chain through <see cref="Subscription.Next"/>.</summary>
    private readonly Dictionary<int, Subscription> _channels = new();

    /// <summary>Patterns with at least one subscriber (copy-on-write, so counting needs no lock).</summary>
    private Subscription[] _patterns = Array.Empty<Subscription>();

    private int _channelCount;
    private readonly bool _sharded;

    /// <summary>
    /// Bits set by the hashes of the subscribed channels' names (copy-on-write): a publisher whose channel's bit is
    /// clear, and whom no pattern matches, knows without the lock that nobody listens (keyspace notifications
    /// publish on every write).
    /// </summary>
    private ulong[] _channelFilter = new ulong[FilterWords];

    private const int FilterWords = 64;

    /// <summary>A registry of channels and patterns; <paramref name="sharded"/>: of shard channels (no patterns), whose messages are "smessage"s.</summary>
    public PubSubBroker(bool sharded = false) => _sharded = sharded;

    /// <summary>Number of channels with at least one subscriber (PUBSUB CHANNELS, INFO pubsub_channels).</summary>
    public int ChannelCount => Volatile.Read(ref _channelCount);

    /// <summary>Number of distinct patterns subscribed to (PUBSUB NUMPAT, INFO pubsub_patterns).</summary>
    public int PatternCount => Volatile.Read(ref _patterns).Length;

    /// <summary>A channel or pattern and its subscribers.</summary>
    private sealed class Subscription
    {
        public Subscription(byte[] name, int hash)
        {
            Name = name;
            Hash = hash;
        }

        public byte[] Name { get; }

        public int Hash { get; }

        /// <summary>Replaced, never changed in place, so publishers may keep using the array they read.</summary>
        public PubSubOutbox[] Subscribers = Array.Empty<PubSubOutbox>();

        /// <summary>The next channel whose name has the same hash.</summary>
        public Subscription? Next;
    }

    private static int HashOf(ReadOnlySpan<byte> name)
    {
        var hash = new HashCode();
        hash.AddBytes(name);
        return hash.ToHashCode();
    }

    /// <summary>Adds <paramref name="subscriber"/> to <paramref name="channel"/>; false if it was already there.</summary>
    internal bool SubscribeChannel(byte[] channel, PubSubOutbox subscriber)
    {
        int hash = HashOf(channel);
        _lock.EnterWriteLock();
        try
        {
            var entry = FindChannel(channel, hash);
            if (entry == null)
            {
                entry = new Subscription(channel, hash);
                if (_channels.TryGetValue(hash, out var first))
                    entry.Next = first;
                _channels[hash] = entry;
                _channelCount++;
                var filter = (ulong[])_channelFilter.Clone();
                SetFilterBit(filter, hash);
                Volatile.Write(ref _channelFilter, filter);
            }
            return TryAdd(entry, subscriber);
        }
        finally
        {
            _lock.ExitWriteLock();
        }
    }

    /// <summary>Removes <paramref name="subscriber"/> from <paramref name="channel"/>; false if it was not there.</summary>
    internal bool UnsubscribeChannel(ReadOnlySpan<byte> channel, PubSubOutbox subscriber)
    {
        int hash = HashOf(channel);
        _lock.EnterWriteLock();
        try
        {
            var entry = FindChannel(channel, hash);
            if (entry == null || !TryRemove(entry, subscriber))
                return false;
            if (entry.Subscribers.Length == 0)
            {
                RemoveChannel(entry);
                RebuildFilter();
            }
            return true;
        }
        finally
        {
            _lock.ExitWriteLock();
        }
    }

    /// <summary>Adds <paramref name="subscriber"/> to <paramref name="pattern"/>; false if it was already there.</summary>
    internal bool SubscribePattern(byte[] pattern, PubSubOutbox subscriber)
    {
        _lock.EnterWriteLock();
        try
        {
            var patterns = _patterns;
            var entry = FindPattern(patterns, pattern);
            if (entry == null)
            {
                entry = new Subscription(pattern, 0);
                var grown = new Subscription[patterns.Length + 1];
                patterns.CopyTo(grown, 0);
                grown[^1] = entry;
                Volatile.Write(ref _patterns, grown);
            }
            return TryAdd(entry, subscriber);
        }
        finally
        {
            _lock.ExitWriteLock();
        }
    }

    /// <summary>Removes <paramref name="subscriber"/> from <paramref name="pattern"/>; false if it was not there.</summary>
    internal bool UnsubscribePattern(ReadOnlySpan<byte> pattern, PubSubOutbox subscriber)
    {
        _lock.EnterWriteLock();
        try
        {
            var patterns = _patterns;
            var entry = FindPattern(patterns, pattern);
            if (entry == null || !TryRemove(entry, subscriber))
                return false;
            if (entry.Subscribers.Length == 0)
            {
                var shrunk = new Subscription[patterns.Length - 1];
                int at = 0;
                foreach (var other in patterns)
                {
                    if (other != entry)
                        shrunk[at++] = other;
                }
                Volatile.Write(ref _patterns, shrunk);
            }
            return true;
        }
        finally
        {
            _lock.ExitWriteLock();
        }
    }

    /// <summary>
    /// PUBLISH: queues <paramref name="message"/> for every subscriber of <paramref name="channel"/>
    /// and for every subscription to a matching pattern; returns how many deliveries that made.
    /// </summary>
    /// <remarks>
    /// The messages are queued under the read lock, so an unsubscribe (which takes the write lock)
    /// is ordered after every publish that reached the subscriber: the subscriber writes those
    /// messages before its unsubscribe confirmation, as in Redis.
    /// </remarks>
    public int Publish(ReadOnlySpan<byte> channel, ReadOnlySpan<byte> message)
    {
        int hash = HashOf(channel);
        if (!MayDeliver(channel, hash))
            return 0;

        int receivers = 0;
        List<PubSubOutbox>? overflowed = null;
        _lock.EnterReadLock();
        try
        {
            if (_channelCount != 0)
            {
                var entry = FindChannel(channel, hash);
                if (entry != null)
                {
                    var encoded = _sharded ? PubSubMessages.ShardMessage(channel, message) : PubSubMessages.Message(channel, message);
                    foreach (var subscriber in entry.Subscribers)
                    {
                        if (!subscriber.Enqueue(encoded))
                            (overflowed ??= new()).Add(subscriber);
                    }
                    receivers += entry.Subscribers.Length;
                }
            }
            foreach (var pattern in _patterns)
            {
                if (!GlobPattern.IsMatch(pattern.Name, channel))
                    continue;
                var encoded = PubSubMessages.PatternMessage(pattern.Name, channel, message);
                foreach (var subscriber in pattern.Subscribers)
                {
                    if (!subscriber.Enqueue(encoded))
                        (overflowed ??= new()).Add(subscriber);
                }
                receivers += pattern.Subscribers.Length;
            }
        }
        finally
        {
            _lock.ExitReadLock();
        }

        // Disconnecting touches the socket and other registries: not under this lock.
        if (overflowed != null)
        {
            foreach (var subscriber in overflowed)
                subscriber.Disconnect();
        }
        return receivers;
    }

    /// <summary>
    /// Whether a message on <paramref name="channel"/> may have a receiver, decided without the lock: its bit in the
    /// channel filter is set, or a pattern matches it. A subscription made meanwhile may be missed, as if it came later.
    /// </summary>
    private bool MayDeliver(ReadOnlySpan<byte> channel, int hash)
    {
        if (Volatile.Read(ref _channelCount) != 0)
        {
            var filter = Volatile.Read(ref _channelFilter);
            uint bit = (uint)hash % (FilterWords * 64);
            if ((filter[bit >> 6] & (1UL << (int)(bit & 63))) != 0)
                return true;
        }
        foreach (var pattern in Volatile.Read(ref _patterns))
        {
            if (GlobPattern.IsMatch(pattern.Name, channel))
                return true;
        }
        return false;
    }

    private static void SetFilterBit(ulong[] filter, int hash)
    {
        uint bit = (uint)hash % (FilterWords * 64);
        filter[bit >> 6] |= 1UL << (int)(bit & 63);
    }

    /// <summary>A new filter from the channels left (under the write lock), so no bit of a subscribed channel is ever clear.</summary>
    private void RebuildFilter()
    {
        var filter = new ulong[FilterWords];
        foreach (var first in _channels.Values)
        {
            for (var entry = first; entry != null; entry = entry.Next)
                SetFilterBit(filter, entry.Hash);
        }
        Volatile.Write(ref _channelFilter, filter);
    }

    /// <summary>Number of subscribers of <paramref name="channel"/> (PUBSUB NUMSUB; pattern subscriptions not counted).</summary>
    public int SubscriberCount(ReadOnlySpan<byte> channel)
    {
        if (Volatile.Read(ref _channelCount) == 0)
            return 0;
        int hash = HashOf(channel);
        _lock.EnterReadLock();
        try
        {
            return FindChannel(channel, hash)?.Subscribers.Length ?? 0;
        }
        finally
        {
            _lock.ExitReadLock();
        }
    }

    /// <summary>The channels with subscribers whose names match <paramref name="pattern"/> (all when null), PUBSUB CHANNELS.</summary>
    public List<byte[]> Channels(byte[]? pattern)
    {
        var names = new List<byte[]>();
        _lock.EnterReadLock();
        try
        {
            foreach (var first in _channels.Values)
            {
                for (var entry = first; entry != null; entry = entry.Next)
                {
                    if (pattern == null || GlobPattern.IsMatch(pattern, entry.Name))
                        names.Add(entry.Name);
                }
            }
        }
        finally
        {
            _lock.ExitReadLock();
        }
        return names;
    }

    private Subscription? FindChannel(ReadOnlySpan<byte> channel, int hash)
    {
        if (!_channels.TryGetValue(hash, out var entry))
            return null;
        for (; entry != null; entry = entry.Next)
        {
            if (channel.SequenceEqual(entry.Name))
                return entry;
        }
        return null;
    }

    private static Subscription? FindPattern(Subscription[] patterns, ReadOnlySpan<byte> pattern)
    {
        foreach (var entry in patterns)
        {
            if (pattern.SequenceEqual(entry.Name))
                return entry;
        }
        return null;
    }

    private void RemoveChannel(Subscription entry)
    {
        var first = _channels[entry.Hash];
        if (first == entry)
        {
            if (entry.Next == null)
                _channels.Remove(entry.Hash);
            else
                _channels[entry.Hash] = entry.Next;
        }
        else
        {
            var previous = first;
            while (previous.Next != entry)
                previous = previous.Next!;
            previous.Next = entry.Next;
        }
        _channelCount--;
    }

    private static bool TryAdd(Subscription entry, PubSubOutbox subscriber) => OutboxList.TryAdd(ref entry.Subscribers, subscriber);

    private static bool TryRemove(Subscription entry, PubSubOutbox subscriber) => OutboxList.TryRemove(ref entry.Subscribers, subscriber);
}
