using System;
using System.Buffers;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// XCLAIM and XAUTOCLAIM: pending entries change owner. A reply's length comes first, so the claimed IDs are gathered
/// (in a pooled array) before anything is written.
/// </summary>
public sealed partial class StreamObject
{
    /// <summary>
    /// XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-ms] [RETRYCOUNT count] [FORCE] [JUSTID]
    /// [LASTID id]. As Redis: the key and group first, then the arguments; pending entries whose stream entry is gone are
    /// dropped from the lists and not replied.
    /// </summary>
    private void XClaim(ref ObjectInput input, ref ObjectOutput output)
    {
        var args = AllArgs(in input);
        ref var writer = ref output.Writer;
        var group = _created ? FindGroup(args[2].Span) : null;
        if (group == null)
        {
            writer.WriteError($"NOGROUP No such key '{Text(args[1].Span)}' or consumer group '{Text(args[2].Span)}'");
            return;
        }
        if (!NumberFormat.TryParseLong(args[4].Span, out long minIdle))
        {
            writer.WriteError("ERR Invalid min-idle-time argument for XCLAIM"u8);
            return;
        }
        if (minIdle < 0)
            minIdle = 0;
        int j = 5;
        while (j < args.Length && StreamId.TryParseStrict(args[j].Span, 0, out _, out bool auto) && !auto)
            j++;
        int idsEnd = j;
        long now = NowMsSigned();
        long retryCount = -1, deliveryTime = -1;
        bool force = false, justId = false;
        StreamId lastId = default;
        for (; j < args.Length; j++)
        {
            bool more = j < args.Length - 1;
            var option = args[j];
            if (option.EqualsUpper("FORCE"u8))
                force = true;
            else if (option.EqualsUpper("JUSTID"u8))
                justId = true;
            else if (more && option.EqualsUpper("IDLE"u8))
            {
                if (!NumberFormat.TryParseLong(args[++j].Span, out deliveryTime))
                {
                    writer.WriteError("ERR Invalid IDLE option argument for XCLAIM"u8);
                    return;
                }
                deliveryTime = now - deliveryTime;
            }
            else if (more && option.EqualsUpper("TIME"u8))
            {
                if (!NumberFormat.TryParseLong(args[++j].Span, out deliveryTime))
                {
                    writer.WriteError("ERR Invalid TIME option argument for XCLAIM"u8);
                    return;
                }
            }
            else if (more && option.EqualsUpper("RETRYCOUNT"u8))
            {
                if (!NumberFormat.TryParseLong(args[++j].Span, out retryCount))
                {
                    writer.WriteError("ERR Invalid RETRYCOUNT option argument for XCLAIM"u8);
                    return;
                }
            }
            else if (more && option.EqualsUpper("LASTID"u8))
            {
                if (!StreamId.TryParseStrict(args[++j].Span, 0, out lastId, out bool auto) || auto)
                {
                    writer.WriteError(StreamStrings.ErrInvalidId);
                    return;
                }
            }
            else
            {
                writer.WriteError($"ERR Unrecognized XCLAIM option '{Text(option.Span)}'");
                return;
            }
        }
        if (lastId > group.LastId)
            group.LastId = lastId;
        if (deliveryTime == -1 || deliveryTime < 0 || deliveryTime > now)
            deliveryTime = now;

        var claimed = ArrayPool<StreamId>.Shared.Rent(Math.Max(1, idsEnd - 5));
        int claimedCount = 0;
        StreamConsumer? consumer = null;
        try
        {
            for (int i = 5; i < idsEnd; i++)
            {
                StreamId.TryParseStrict(args[i].Span, 0, out var id, out _);
                var pending = group.Pending.Find(id);
                if (!EntryExists(id))
                {
                    if (pending != null)
                        RemovePending(group, pending);
                    continue;
                }
                bool forced = false;
                if (pending == null)
                {
                    if (!force)
                        continue;
                    consumer ??= ClaimingConsumer(group, args[3].Span, now, ref output);
                    pending = new StreamPendingEntry(id, consumer, now, 1);
                    AddPending(group, pending);
                    forced = true;
                }
                if (!forced && minIdle != 0 && now - pending.DeliveryTime < minIdle)
                    continue;
                consumer ??= ClaimingConsumer(group, args[3].Span, now, ref output);
                MovePending(pending, consumer);
                pending.DeliveryTime = deliveryTime;
                if (retryCount >= 0)
                    pending.DeliveryCount = retryCount;
                else if (!justId)
                    pending.DeliveryCount++;
                consumer.ActiveTime = now;
                claimed[claimedCount++] = id;
            }
            writer.WriteArrayHeader(claimedCount);
            for (int i = 0; i < claimedCount; i++)
            {
                if (justId)
                    WriteId(ref writer, claimed[i]);
                else
                    TryWriteEntry(ref writer, claimed[i]);
            }
        }
        finally
        {
            ArrayPool<StreamId>.Shared.Return(claimed);
        }
    }

    /// <summary>
    /// XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]: claims up to COUNT idle pending entries
    /// from start on (looking at no more than ten times COUNT), and replies [next start or 0-0, claimed, deleted IDs].
    /// </summary>
    private void XAutoClaim(ref ObjectInput input, ref ObjectOutput output)
    {
        var args = AllArgs(in input);
        ref var writer = ref output.Writer;
        StreamArguments.TryParseAutoClaim(args, out long minIdle, out var start, out long count, out bool justId, out _);
        var group = _created ? FindGroup(args[2].Span) : null;
        if (group == null)
        {
            writer.WriteError($"NOGROUP No such key '{Text(args[1].Span)}' or consumer group '{Text(args[2].Span)}'");
            return;
        }
        long attempts = count * 10;
        long now = NowMsSigned();
        int room = (int)Math.Min(count, group.Pending.Count);
        var claimed = ArrayPool<StreamId>.Shared.Rent(Math.Max(1, room));
        var deleted = ArrayPool<StreamId>.Shared.Rent(Math.Max(1, room));
        int claimedCount = 0, deletedCount = 0;
        StreamConsumer? consumer = null;
        try
        {
            var list = group.Pending;
            int index = list.FirstAtOrAfter(start);
            while (attempts-- > 0 && count > 0 && index < list.Count)
            {
                var pending = list[index];
                if (!EntryExists(pending.Id))
                {
                    deleted[deletedCount++] = pending.Id;
                    RemovePending(group, pending);
                    count--;
                    continue;
                }
                index++;
                if (minIdle != 0 && now - pending.DeliveryTime < minIdle)
                    continue;
                consumer ??= ClaimingConsumer(group, args[3].Span, now, ref output);
                MovePending(pending, consumer);
                pending.DeliveryTime = now;
                if (!justId)
                    pending.DeliveryCount++;
                consumer.ActiveTime = now;
                claimed[claimedCount++] = pending.Id;
                count--;
            }
            writer.WriteArrayHeader(3);
            WriteId(ref writer, index < list.Count ? list[index].Id : default);
            writer.WriteArrayHeader(claimedCount);
            for (int i = 0; i < claimedCount; i++)
            {
                if (justId)
                    WriteId(ref writer, claimed[i]);
                else
                    TryWriteEntry(ref writer, claimed[i]);
            }
            writer.WriteArrayHeader(deletedCount);
            for (int i = 0; i < deletedCount; i++)
                WriteId(ref writer, deleted[i]);
        }
        finally
        {
            ArrayPool<StreamId>.Shared.Return(claimed);
            ArrayPool<StreamId>.Shared.Return(deleted);
        }
    }

    /// <summary>The consumer XCLAIM/XAUTOCLAIM claim for, created if new (an "xgroup-createconsumer" keyspace event).</summary>
    private StreamConsumer ClaimingConsumer(StreamConsumerGroup group, ReadOnlySpan<byte> name, long now, ref ObjectOutput output)
    {
        var consumer = GetOrCreateConsumer(group, name, now, out bool created);
        output.Modified |= created;
        return consumer;
    }
}
