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
        var nodes = new List<SortedSetNode>();
        CollectRange(in spec, nodes);
        if (input.Command == RespCommand.ZRANGESTORE)
        {
            output.Object = FromOrderedNodes(nodes, spec.Reverse);
            output.Number = nodes.Count;
            return;
        }
        WriteNodes(ref output.Writer, nodes, spec.WithScores);
    }

    /// <summary>Adds the nodes <paramref name="spec"/> selects to <paramref name="nodes"/>, in reply order.</summary>
    private void CollectRange(in ZRangeSpec spec, List<SortedSetNode> nodes)
    {
        switch (spec.Kind)
        {
            case ZRangeKind.Rank:
                if (!SortedSetOptions.ClampRanks(spec.Start, spec.Stop, Count, out long first, out long last))
                    return;
                var node = spec.Reverse ? _list.GetByRank(Count - first) : _list.GetByRank(first + 1);
                for (long i = first; i <= last && node != null; i++)
                {
                    nodes.Add(node);
                    node = spec.Reverse ? node.Backward : node.Next;
                }
                break;
            case ZRangeKind.Score:
                CollectInRange(in spec.Scores, spec.Reverse, spec.Offset, spec.Limit, nodes);
                break;
            default:
                CollectInRange(in spec.Lex, spec.Reverse, spec.Offset, spec.Limit, nodes);
                break;
        }
    }

    /// <summary>
    /// Adds the nodes in <paramref name="range"/> to <paramref name="nodes"/> from the low (or high) end,
    /// skipping <paramref name="offset"/> and taking at most <paramref name="limit"/> (negative: all).
    /// As in Redis, a negative offset selects nothing.
    /// </summary>
    private void CollectInRange<TRange>(in TRange range, bool reverse, long offset, long limit, List<SortedSetNode> nodes)
        where TRange : struct, ISortedSetRange
    {
        if (offset < 0 || limit == 0)
            return;
        long rank;
        var node = reverse ? _list.LastInRange(in range, out rank) : _list.FirstInRange(in range, out rank);
        if (node == null)
            return;
        if (offset > 0)
        {
            // Jump over the offset by rank instead of stepping through it.
            long target = reverse ? rank - offset : rank + offset;
            node = _list.GetByRank(target);
        }
        while (node != null && limit-- != 0)
        {
            if (reverse ? !range.AboveMin(node) : !range.BelowMax(node))
                break;
            nodes.Add(node);
            node = reverse ? node.Backward : node.Next;
        }
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
        for (var node = _list.First; node != null; node = node.Next)
            WriteNode(ref writer, node, withScores);
    }

    /// <summary>One element of <see cref="WriteNodes"/>.</summary>
    private static void WriteNode(ref RespWriter writer, SortedSetNode node, bool withScores)
    {
        if (withScores && writer.Resp3)
            writer.WriteArrayHeader(2);
        writer.WriteBulk(node.Member);
        if (withScores)
            writer.WriteDouble(node.Score);
    }
}
