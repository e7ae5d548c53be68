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
        => throw new InvalidOperationException($"{input.Command} is not a stream command.");
}
