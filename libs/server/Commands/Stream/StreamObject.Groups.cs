using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>The stream's consumer groups (ordered by name, as Redis lists them) and the commands on them.</summary>
public sealed partial class StreamObject
{
    /// <summary>The groups, made at the first XGROUP CREATE.</summary>
    private List<StreamConsumerGroup>? _groups;

    /// <summary>The index of group <paramref name="name"/>, or the complement of where it would go.</summary>
    private int GroupIndex(ReadOnlySpan<byte> name)
    {
        if (_groups == null)
            return ~0;
        int low = 0, high = _groups.Count - 1;
        while (low <= high)
        {
            int middle = (low + high) >> 1;
            int order = _groups[middle].Name.AsSpan().SequenceCompareTo(name);
            if (order == 0)
                return middle;
            if (order < 0)
                low = middle + 1;
            else
                high = middle - 1;
        }
        return ~low;
    }

    private StreamConsumerGroup? FindGroup(ReadOnlySpan<byte> name)
    {
        int index = GroupIndex(name);
        return index >= 0 ? _groups![index] : null;
    }

    /// <summary>Adds a group whose name is not taken.</summary>
    private void AddGroup(StreamConsumerGroup group)
    {
        _groups ??= new List<StreamConsumerGroup>();
        _groups.Insert(~GroupIndex(group.Name), group);
        HeapSize += StreamConsumerGroup.Overhead + group.Name.Length;
        foreach (var consumer in group.Consumers)
            HeapSize += StreamConsumer.Overhead + consumer.Name.Length;
        HeapSize += (long)group.Pending.Count * StreamConsumerGroup.PendingEntrySize;
    }

    private void CloneGroupsFrom(StreamObject source)
    {
        if (source._groups == null)
            return;
        foreach (var group in source._groups)
        {
            var copy = new StreamConsumerGroup((byte[])group.Name.Clone(), group.LastId, group.EntriesRead);
            foreach (var consumer in group.Consumers)
                copy.Consumers.Add(new StreamConsumer((byte[])consumer.Name.Clone(), consumer.SeenTime, consumer.ActiveTime));
            for (int i = 0; i < group.Pending.Count; i++)
            {
                var pending = group.Pending[i];
                var owner = copy.Consumers[group.IndexOf(pending.Consumer.Name)];
                var entry = new StreamPendingEntry(pending.Id, owner, pending.DeliveryTime, pending.DeliveryCount);
                copy.Pending.Add(entry);
                owner.Pending.Add(entry);
            }
            AddGroup(copy);
        }
    }

    private void OperateGroups(ref ObjectInput input, ref ObjectOutput output)
    {
        switch (input.Command)
        {
            case RespCommand.XGROUP: XGroup(ref input, ref output); break;
            case RespCommand.XREADGROUP: XReadGroupKey(ref input, ref output); break;
            case RespCommand.XACK: XAck(ref input, ref output); break;
            case RespCommand.XPENDING: XPending(ref input, ref output); break;
            case RespCommand.XCLAIM: XClaim(ref input, ref output); break;
            case RespCommand.XAUTOCLAIM: XAutoClaim(ref input, ref output); break;
            case RespCommand.XINFO: XInfo(ref input, ref output); break;
            default: throw new InvalidOperationException($"{input.Command} is not a stream command.");
        }
    }

    /// <summary>Whether an entry with ID after <paramref name="start"/> may have been deleted (Redis's streamRangeHasTombstones, open end).</summary>
    private bool HasTombstonesFrom(StreamId start)
    {
        if (_length == 0 || _maxDeletedId.IsZero || _firstId > _maxDeletedId)
            return false;
        return start <= _maxDeletedId;
    }

    /// <summary>
    /// How many entries were added up to <paramref name="id"/> when that can be known from the counters alone, else -1
    /// (Redis's streamEstimateDistanceFromFirstEverEntry): what a group's entries-read and lag come from.
    /// </summary>
    private long EstimateEntriesUpTo(StreamId id)
    {
        if (_entriesAdded == 0)
            return 0;
        if (_length == 0 && id <= _lastId)
            return _entriesAdded;
        int toLast = id.CompareTo(_lastId);
        if (toLast == 0)
            return _entriesAdded;
        if (toLast > 0)
            return -1;
        if (_maxDeletedId.IsZero || _maxDeletedId < _firstId)
        {
            int toFirst = id.CompareTo(_firstId);
            if (toFirst < 0)
                return _entriesAdded - _length;
            if (toFirst == 0)
                return _entriesAdded - _length + 1;
        }
        return -1;
    }

    /// <summary>Milliseconds since the Unix epoch, the clock of delivery and consumer times.</summary>
    private static long NowMsSigned() => Expiration.NowUnixMs;

    /// <summary>The consumer <paramref name="name"/> of <paramref name="group"/>, made if new (Redis refreshes its seen time either way).</summary>
    private StreamConsumer GetOrCreateConsumer(StreamConsumerGroup group, ReadOnlySpan<byte> name, long now, out bool created)
    {
        int index = group.IndexOf(name);
        created = index < 0;
        if (!created)
        {
            var existing = group.Consumers[index];
            existing.SeenTime = now;
            return existing;
        }
        var consumer = new StreamConsumer(name.ToArray(), now, -1);
        group.Consumers.Insert(~index, consumer);
        HeapSize += StreamConsumer.Overhead + name.Length;
        return consumer;
    }

    /// <summary>Drops a consumer and its pending entries (XGROUP DELCONSUMER); returns how many it had.</summary>
    private long DeleteConsumer(StreamConsumerGroup group, int index)
    {
        var consumer = group.Consumers[index];
        int pending = consumer.Pending.Count;
        for (int i = 0; i < pending; i++)
            group.Pending.Remove(consumer.Pending[i].Id);
        group.Consumers.RemoveAt(index);
        HeapSize -= StreamConsumer.Overhead + consumer.Name.Length + (long)pending * StreamConsumerGroup.PendingEntrySize;
        return pending;
    }

    /// <summary>Adds a pending entry to the group's list and its consumer's.</summary>
    private void AddPending(StreamConsumerGroup group, StreamPendingEntry entry)
    {
        group.Pending.Add(entry);
        entry.Consumer.Pending.Add(entry);
        HeapSize += StreamConsumerGroup.PendingEntrySize;
    }

    /// <summary>Removes a pending entry from the group's list and its consumer's.</summary>
    private void RemovePending(StreamConsumerGroup group, StreamPendingEntry entry)
    {
        group.Pending.Remove(entry.Id);
        entry.Consumer.Pending.Remove(entry.Id);
        HeapSize -= StreamConsumerGroup.PendingEntrySize;
    }

    /// <summary>Moves a pending entry to <paramref name="consumer"/>.</summary>
    private static void MovePending(StreamPendingEntry entry, StreamConsumer consumer)
    {
        if (entry.Consumer == consumer)
            return;
        entry.Consumer.Pending.Remove(entry.Id);
        entry.Consumer = consumer;
        consumer.Pending.Add(entry);
    }

    /// <summary>Whether the live entry <paramref name="id"/> exists.</summary>
    private bool EntryExists(StreamId id) => TryFind(id, out _, out _);
}
