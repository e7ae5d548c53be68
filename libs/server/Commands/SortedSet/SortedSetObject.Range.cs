using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>The ZRANGE family: by rank, score or member, either direction, with LIMIT, into a reply or a new set.</summary>
public sealed partial class SortedSetObject
{
    /// <summary>
    /// ZRANGE, ZREVRANGE, Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX, and ZRANGESTORE (which hands back the
    /// selected members as a new set in <see cref="ObjectOutput.Object"/> and writes nothing).
    /// </summary>
    private void ZRange(ref ObjectInput input, ref ObjectOutput output)
    {
        var error = ZRangeSpec.Parse(input.Command, input.Args, input.FirstArg, input.ArgCount, out var spec);
        if (!error.IsEmpty)
        {
            output.Writer.WriteError(error);
            return;
        }
        var first = Locate(in spec, out long count);
        if (input.Command == RespCommand.ZRANGESTORE)
        {
            var nodes = new List<SortedSetNode>((int)count);
            for (var node = first; node != null && nodes.Count < count; node = spec.Reverse ? node.Backward : node.Next)
                nodes.Add(node);
            output.Object = FromOrderedNodes(nodes, spec.Reverse);
            output.Number = nodes.Count;
            return;
        }
        ref var writer = ref output.Writer;
        writer.WriteArrayHeader((int)(spec.WithScores && !writer.Resp3 ? count * 2 : count));
        for (var node = first; node != null && count-- > 0; node = spec.Reverse ? node.Backward : node.Next)
            WriteNode(ref writer, node, spec.WithScores);
    }

    /// <summary>
    /// The first node <paramref name="spec"/> selects (in reply order) and how many it selects, which
    /// follow it in that order: found from ranks, so nothing is collected before the reply is written.
    /// </summary>
    private SortedSetNode? Locate(in ZRangeSpec spec, out long count)
    {
        count = 0;
        switch (spec.Kind)
        {
            case ZRangeKind.Rank:
                if (!SortedSetOptions.ClampRanks(spec.Start, spec.Stop, Count, out long first, out long last))
                    return null;
                count = last - first + 1;
                return spec.Reverse ? _tree.GetByRank(Count - first) : _tree.GetByRank(first + 1);
            case ZRangeKind.Score:
                return LocateInRange(in spec.Scores, spec.Reverse, spec.Offset, spec.Limit, out count);
            default:
                return LocateInRange(in spec.Lex, spec.Reverse, spec.Offset, spec.Limit, out count);
        }
    }

    /// <summary>
    /// The nodes in <paramref name="range"/> from the low (or high) end, skipping <paramref name="offset"/>
    /// and taking at most <paramref name="limit"/> (negative: all): the first of them and their count.
    /// As in Redis, a negative offset selects nothing.
    /// </summary>
    private SortedSetNode? LocateInRange<TRange>(in TRange range, bool reverse, long offset, long limit, out long count)
        where TRange : struct, ISortedSetRange
    {
        count = 0;
        if (offset < 0 || limit == 0)
            return null;
        var low = _tree.FirstInRange(in range, out long lowRank);
        if (low == null)
            return null;
        var high = _tree.LastInRange(in range, out long highRank);
        long available = highRank - lowRank + 1 - offset;
        if (high == null || available <= 0)
            return null;
        count = limit < 0 ? available : Math.Min(limit, available);
        if (offset == 0)
            return reverse ? high : low;
        // Jump over the offset by rank instead of stepping through it.
        return _tree.GetByRank(reverse ? highRank - offset : lowRank + offset);
    }

    /// <summary>
    /// Writes members, or with scores: RESP2 a flat member, score, ... array; RESP3 an array of
    /// [member, score] pairs (scores as doubles).
    /// </summary>
    private static void WriteNodes(ref RespWriter writer, List<SortedSetNode> nodes, bool withScores)
    {
        writer.WriteArrayHeader(withScores && !writer.Resp3 ? nodes.Count * 2 : nodes.Count);
        foreach (var node in nodes)
            WriteNode(ref writer, node, withScores);
    }

    /// <summary>Writes every member in order (ZUNION/ZINTER/ZDIFF replies), as <see cref="WriteNodes"/> does.</summary>
    internal void WriteAll(ref RespWriter writer, bool withScores)
    {
        writer.WriteArrayHeader(withScores && !writer.Resp3 ? (int)Count * 2 : (int)Count);
        for (var node = _tree.First; node != null; node = node.Next)
            WriteNode(ref writer, node, withScores);
    }

    /// <summary>One element of <see cref="WriteNodes"/>.</summary>
    private static void WriteNode(ref RespWriter writer, SortedSetNode node, bool withScores)
    {
        if (withScores && writer.Resp3)
            writer.WriteArrayHeader(2);
        writer.WriteBulk(node.Member);
        if (withScores)
            SortedSetScores.Write(ref writer, node.Score);
    }
}
