using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// XINFO STREAM [FULL [COUNT n]], XINFO GROUPS and XINFO CONSUMERS, with Redis 7.2's fields: a group's entries-read
/// and lag come from the stream's counters as Redis computes them (null when they cannot be known), a consumer's
/// idle time from when it was last seen and its inactive time from when it last read or claimed.
/// </summary>
public sealed partial class StreamObject
{
    /// <summary><see cref="ObjectInput.Flags"/> of XINFO: which subcommand.</summary>
    internal enum InfoSubcommand
    {
        Stream = 1,
        Groups,
        Consumers,
    }

    private void XInfo(ref ObjectInput input, ref ObjectOutput output)
    {
        ref var writer = ref output.Writer;
        if (!_created)
        {
            writer.WriteError(StreamStrings.ErrNoSuchKey);
            return;
        }
        var args = AllArgs(in input);
        switch ((InfoSubcommand)input.Flags)
        {
            case InfoSubcommand.Consumers:
                {
                    var group = FindGroup(args[3].Span);
                    if (group == null)
                    {
                        writer.WriteError($"NOGROUP No such consumer group '{Text(args[3].Span)}' for key name '{Text(args[2].Span)}'");
                        return;
                    }
                    long now = NowMsSigned();
                    writer.WriteArrayHeader(group.Consumers.Count);
                    foreach (var consumer in group.Consumers)
                    {
                        writer.WriteMapHeader(4);
                        writer.WriteBulk("name"u8);
                        writer.WriteBulk(consumer.Name);
                        writer.WriteBulk("pending"u8);
                        writer.WriteInteger(consumer.Pending.Count);
                        writer.WriteBulk("idle"u8);
                        writer.WriteInteger(Math.Max(0, now - consumer.SeenTime));
                        writer.WriteBulk("inactive"u8);
                        writer.WriteInteger(consumer.ActiveTime == -1 ? -1 : Math.Max(0, now - consumer.ActiveTime));
                    }
                    return;
                }
            case InfoSubcommand.Groups:
                {
                    var groups = _groups;
                    writer.WriteArrayHeader(groups?.Count ?? 0);
                    if (groups == null)
                        return;
                    foreach (var group in groups)
                    {
                        writer.WriteMapHeader(6);
                        writer.WriteBulk("name"u8);
                        writer.WriteBulk(group.Name);
                        writer.WriteBulk("consumers"u8);
                        writer.WriteInteger(group.Consumers.Count);
                        writer.WriteBulk("pending"u8);
                        writer.WriteInteger(group.Pending.Count);
                        writer.WriteBulk("last-delivered-id"u8);
                        WriteId(ref writer, group.LastId);
                        WriteGroupCounters(ref writer, group);
                    }
                    return;
                }
            default:
                XInfoStream(ref writer, args);
                return;
        }
    }

    /// <summary>A group's "entries-read" and "lag" fields (null when unknown).</summary>
    private void WriteGroupCounters(ref RespWriter writer, StreamConsumerGroup group)
    {
        writer.WriteBulk("entries-read"u8);
        if (group.EntriesRead != -1)
            writer.WriteInteger(group.EntriesRead);
        else
            writer.WriteNull();
        writer.WriteBulk("lag"u8);
        long lag = -1;
        if (_entriesAdded == 0)
            lag = 0;
        else if (group.EntriesRead != -1 && !HasTombstonesFrom(group.LastId))
            lag = _entriesAdded - group.EntriesRead;
        else
        {
            long read = EstimateEntriesUpTo(group.LastId);
            if (read != -1)
                lag = _entriesAdded - read;
        }
        if (lag >= 0)
            writer.WriteInteger(lag);
        else
            writer.WriteNull();
    }

    /// <summary>XINFO STREAM key [FULL [COUNT count]] (COUNT 0: everything; default 10).</summary>
    private void XInfoStream(ref RespWriter writer, ReadOnlySpan<ArgSlice> args)
    {
        bool full = args.Length > 3;
        long count = 10;
        if (full)
        {
            if ((args.Length != 4 && args.Length != 6) || !args[3].EqualsUpper("FULL"u8) || (args.Length == 6 && !args[4].EqualsUpper("COUNT"u8)))
            {
                writer.WriteError($"ERR unknown subcommand or wrong number of arguments for '{Text(args[1].Span)}'. Try XINFO HELP.");
                return;
            }
            if (args.Length == 6)
            {
                if (!NumberFormat.TryParseLong(args[5].Span, out count))
                {
                    writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count < 0)
                    count = 10;
            }
        }
        long limit = count == 0 ? long.MaxValue : count;

        writer.WriteMapHeader(full ? 9 : 10);
        writer.WriteBulk("length"u8);
        writer.WriteInteger(_length);
        writer.WriteBulk("radix-tree-keys"u8);
        writer.WriteInteger(_nodes.Count);
        writer.WriteBulk("radix-tree-nodes"u8);
        writer.WriteInteger(_nodes.Count + 1);
        writer.WriteBulk("last-generated-id"u8);
        WriteId(ref writer, _lastId);
        writer.WriteBulk("max-deleted-entry-id"u8);
        WriteId(ref writer, _maxDeletedId);
        writer.WriteBulk("entries-added"u8);
        writer.WriteInteger(_entriesAdded);
        writer.WriteBulk("recorded-first-entry-id"u8);
        WriteId(ref writer, _firstId);
        if (!full)
        {
            writer.WriteBulk("groups"u8);
            writer.WriteInteger(_groups?.Count ?? 0);
            writer.WriteBulk("first-entry"u8);
            if (VisitRange(ref writer, StreamId.Min, StreamId.Max, 1, reverse: false, write: true) == 0)
                writer.WriteNull();
            writer.WriteBulk("last-entry"u8);
            if (VisitRange(ref writer, StreamId.Min, StreamId.Max, 1, reverse: true, write: true) == 0)
                writer.WriteNull();
            return;
        }

        writer.WriteBulk("entries"u8);
        WriteRange(ref writer, StreamId.Min, StreamId.Max, limit, reverse: false);
        writer.WriteBulk("groups"u8);
        var groups = _groups;
        writer.WriteArrayHeader(groups?.Count ?? 0);
        if (groups == null)
            return;
        foreach (var group in groups)
        {
            writer.WriteMapHeader(7);
            writer.WriteBulk("name"u8);
            writer.WriteBulk(group.Name);
            writer.WriteBulk("last-delivered-id"u8);
            WriteId(ref writer, group.LastId);
            WriteGroupCounters(ref writer, group);
            writer.WriteBulk("pel-count"u8);
            writer.WriteInteger(group.Pending.Count);
            writer.WriteBulk("pending"u8);
            int pendingShown = (int)Math.Min(group.Pending.Count, limit);
            writer.WriteArrayHeader(pendingShown);
            for (int i = 0; i < pendingShown; i++)
            {
                var pending = group.Pending[i];
                writer.WriteArrayHeader(4);
                WriteId(ref writer, pending.Id);
                writer.WriteBulk(pending.Consumer.Name);
                writer.WriteInteger(pending.DeliveryTime);
                writer.WriteInteger(pending.DeliveryCount);
            }
            writer.WriteBulk("consumers"u8);
            writer.WriteArrayHeader(group.Consumers.Count);
            foreach (var consumer in group.Consumers)
            {
                writer.WriteMapHeader(5);
                writer.WriteBulk("name"u8);
                writer.WriteBulk(consumer.Name);
                writer.WriteBulk("seen-time"u8);
                writer.WriteInteger(consumer.SeenTime);
                writer.WriteBulk("active-time"u8);
                writer.WriteInteger(consumer.ActiveTime);
                writer.WriteBulk("pel-count"u8);
                writer.WriteInteger(consumer.Pending.Count);
                writer.WriteBulk("pending"u8);
                int shown = (int)Math.Min(consumer.Pending.Count, limit);
                writer.WriteArrayHeader(shown);
                for (int i = 0; i < shown; i++)
                {
                    var pending = consumer.Pending[i];
                    writer.WriteArrayHeader(3);
                    WriteId(ref writer, pending.Id);
                    writer.WriteInteger(pending.DeliveryTime);
                    writer.WriteInteger(pending.DeliveryCount);
                }
            }
        }
    }
}
