using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>An entry delivered to a consumer of a group and not yet acknowledged.</summary>
internal sealed class StreamPendingEntry
{
    public StreamPendingEntry(StreamId id, StreamConsumer consumer, long deliveryTime, long deliveryCount)
    {
        Id = id;
        Consumer = consumer;
        DeliveryTime = deliveryTime;
        DeliveryCount = deliveryCount;
    }

    public StreamId Id { get; }

    /// <summary>The consumer that owns it (XCLAIM moves it).</summary>
    public StreamConsumer Consumer;

    /// <summary>When it was last delivered (Unix milliseconds).</summary>
    public long DeliveryTime;

    public long DeliveryCount;
}

/// <summary>
/// Pending entries ordered by ID, for a group's PEL and each consumer's. Entries are mostly appended (deliveries go
/// forward in ID order) and removed anywhere (acknowledgements), so a sorted array with binary search serves.
/// </summary>
internal sealed class StreamPendingList
{
    private readonly List<StreamPendingEntry> _entries = new();

    public int Count => _entries.Count;

    public StreamPendingEntry this[int index] => _entries[index];

    /// <summary>The index of the first entry whose ID is at least <paramref name="id"/>.</summary>
    public int FirstAtOrAfter(StreamId id)
    {
        int low = 0, high = _entries.Count;
        while (low < high)
        {
            int middle = (low + high) >> 1;
            if (_entries[middle].Id < id)
                low = middle + 1;
            else
                high = middle;
        }
        return low;
    }

    public StreamPendingEntry? Find(StreamId id)
    {
        int index = FirstAtOrAfter(id);
        return index < _entries.Count && _entries[index].Id == id ? _entries[index] : null;
    }

    /// <summary>Adds an entry whose ID is not in the list.</summary>
    public void Add(StreamPendingEntry entry)
    {
        if (_entries.Count == 0 || _entries[^1].Id < entry.Id)
            _entries.Add(entry);
        else
            _entries.Insert(FirstAtOrAfter(entry.Id), entry);
    }

    public bool Remove(StreamId id)
    {
        int index = FirstAtOrAfter(id);
        if (index >= _entries.Count || _entries[index].Id != id)
            return false;
        _entries.RemoveAt(index);
        return true;
    }
}

/// <summary>A consumer of a group: its name, when it was last seen and last active, and its pending entries.</summary>
internal sealed class StreamConsumer
{
    /// <summary>Estimated heap bytes of a consumer besides its name.</summary>
    public const int Overhead = 120;

    public StreamConsumer(byte[] name, long seenTime, long activeTime)
    {
        Name = name;
        SeenTime = seenTime;
        ActiveTime = activeTime;
    }

    public byte[] Name { get; }

    /// <summary>Last time (Unix milliseconds) the consumer was named by a command.</summary>
    public long SeenTime;

    /// <summary>Last time it read or claimed entries; -1 if never.</summary>
    public long ActiveTime;

    public StreamPendingList Pending { get; } = new();
}

/// <summary>
/// A consumer group: its last delivered ID, how many entries it has read (-1 when unknown, as Redis tracks it for
/// the lag), its pending entries list and its consumers ordered by name (Redis's order in XINFO).
/// </summary>
internal sealed class StreamConsumerGroup
{
    /// <summary>Estimated heap bytes of a group besides its name.</summary>
    public const int Overhead = 160;

    /// <summary>Estimated heap bytes of one pending entry (in the group's list and its consumer's).</summary>
    public const int PendingEntrySize = 72;

    public StreamConsumerGroup(byte[] name, StreamId lastId, long entriesRead)
    {
        Name = name;
        LastId = lastId;
        EntriesRead = entriesRead;
    }

    public byte[] Name { get; }

    public StreamId LastId;

    public long EntriesRead;

    public StreamPendingList Pending { get; } = new();

    public List<StreamConsumer> Consumers { get; } = new();

    /// <summary>The index of consumer <paramref name="name"/>, or the complement of where it would go.</summary>
    public int IndexOf(ReadOnlySpan<byte> name)
    {
        int low = 0, high = Consumers.Count - 1;
        while (low <= high)
        {
            int middle = (low + high) >> 1;
            int order = Consumers[middle].Name.AsSpan().SequenceCompareTo(name);
            if (order == 0)
                return middle;
            if (order < 0)
                low = middle + 1;
            else
                high = middle - 1;
        }
        return ~low;
    }

    public StreamConsumer? FindConsumer(ReadOnlySpan<byte> name)
    {
        int index = IndexOf(name);
        return index >= 0 ? Consumers[index] : null;
    }
}
