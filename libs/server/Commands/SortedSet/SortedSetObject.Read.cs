using System;
using System.Buffers.Text;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>The read-only sorted-set commands (they run concurrently with each other: nothing here changes the set).</summary>
public sealed partial class SortedSetObject
{
    /// <summary>Sets up to this size are scanned in one ZSCAN call, as Redis does for its compact encoding.</summary>
    private const int ScanAllAtOnce = 128;

    private void ZScore(ref ObjectInput input, ref ObjectOutput output)
    {
        if (TryGetScore(input.Arg(0), out double score))
            SortedSetScores.Write(ref output.Writer, score);
        else
            output.Writer.WriteNull();
    }

    private void ZMScore(ref ObjectInput input, ref ObjectOutput output)
    {
        ref var writer = ref output.Writer;
        writer.WriteArrayHeader(input.ArgCount);
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (TryGetScore(input.Arg(i), out double score))
                SortedSetScores.Write(ref writer, score);
            else
                writer.WriteNull();
        }
    }

    /// <summary>ZRANK/ZREVRANK: the 0-based rank (with WITHSCORE, [rank, score]); nil when the member is absent.</summary>
    private void ZRank(ref ObjectInput input, ref ObjectOutput output, bool reverse)
    {
        ref var writer = ref output.Writer;
        var error = SortedSetOptions.ParseRank(input.Args, input.FirstArg, input.ArgCount, out bool withScore);
        if (!error.IsEmpty)
        {
            writer.WriteError(error);
            return;
        }
        if (!TryGetNode(input.Arg(0), out var node))
        {
            if (withScore)
                writer.WriteNullArray();
            else
                writer.WriteNull();
            return;
        }
        long rank = _tree.GetRank(node.Score, node.Member) - 1;
        if (reverse)
            rank = Count - 1 - rank;
        if (withScore)
            writer.WriteArrayHeader(2);
        writer.WriteInteger(rank);
        if (withScore)
            SortedSetScores.Write(ref writer, node.Score);
    }

    private void ZCount(ref ObjectInput input, ref ObjectOutput output)
    {
        var error = SortedSetOptions.ParseScoreRange(input.Arg(0), input.Arg(1), out var range);
        if (!error.IsEmpty)
            output.Writer.WriteError(error);
        else
            output.Writer.WriteInteger(CountInRange(in range));
    }

    private void ZLexCount(ref ObjectInput input, ref ObjectOutput output)
    {
        var error = SortedSetOptions.ParseLexRange(input.Arg(0), input.Arg(1), out var range);
        if (!error.IsEmpty)
            output.Writer.WriteError(error);
        else
            output.Writer.WriteInteger(CountInRange(in range));
    }

    /// <summary>How many members are in <paramref name="range"/>, from the ranks of its ends.</summary>
    private long CountInRange<TRange>(in TRange range) where TRange : struct, ISortedSetRange
    {
        if (_tree.FirstInRange(in range, out long firstRank) == null)
            return 0;
        _tree.LastInRange(in range, out long lastRank);
        return lastRank >= firstRank ? lastRank - firstRank + 1 : 0;
    }

    /// <summary>A uniformly random member (the set is not empty).</summary>
    private SortedSetNode RandomNode() => _tree.GetByRank(Random.Shared.NextInt64(Count) + 1)!;

    /// <summary>
    /// ZRANDMEMBER: without a count, one member or nil; with a positive count, up to that many distinct
    /// members; with a negative count, exactly |count| members, possibly repeated.
    /// </summary>
    private void ZRandMember(ref ObjectInput input, ref ObjectOutput output)
    {
        ref var writer = ref output.Writer;
        if (input.ArgCount == 0)
        {
            if (Count == 0)
                writer.WriteNull();
            else
                writer.WriteBulk(RandomNode().Member);
            return;
        }
        var error = SortedSetOptions.ParseRandMember(input.Args, input.FirstArg, input.ArgCount, out long count, out bool withScores);
        if (!error.IsEmpty)
        {
            writer.WriteError(error);
            return;
        }
        if (Count == 0 || count == 0)
        {
            writer.WriteArrayHeader(0);
            return;
        }
        int perElement = withScores && !writer.Resp3 ? 2 : 1;
        if (count < 0)
        {
            if (-count > int.MaxValue / 2)
            {
                writer.WriteError(SortedSetStrings.ErrOutOfRange);
                return;
            }
            writer.WriteArrayHeader((int)-count * perElement);
            for (long i = 0; i < -count; i++)
                WriteNode(ref writer, RandomNode(), withScores);
            return;
        }
        var nodes = new List<SortedSetNode>();
        if (count >= Count)
        {
            for (var node = _tree.First; node != null; node = node.Next)
                nodes.Add(node);
        }
        else if (count * 3 > Count)
        {
            // Many of them: a partial shuffle of all nodes.
            var all = new List<SortedSetNode>((int)Count);
            for (var node = _tree.First; node != null; node = node.Next)
                all.Add(node);
            for (int i = 0; i < count; i++)
            {
                int j = Random.Shared.Next(i, all.Count);
                (all[i], all[j]) = (all[j], all[i]);
                nodes.Add(all[i]);
            }
        }
        else
        {
            // Few of them: distinct random ranks.
            var ranks = new HashSet<long>();
            while (ranks.Count < count)
            {
                long rank = Random.Shared.NextInt64(Count) + 1;
                if (ranks.Add(rank))
                    nodes.Add(_tree.GetByRank(rank)!);
            }
        }
        WriteNodes(ref writer, nodes, withScores);
    }

    /// <summary>
    /// ZSCAN: small sets are returned whole with cursor 0; larger ones are walked by the buckets of the
    /// member index (see SortedSetObject.Index.cs), so every member present from the first call to the
    /// last is returned whatever is added or removed in between. Members and scores are bulk strings in
    /// both protocols, as in Redis.
    /// </summary>
    private void ZScan(ref ObjectInput input, ref ObjectOutput output)
    {
        ref var writer = ref output.Writer;
        if (Count == 0)
        {
            writer.WriteRaw(SortedSetStrings.EmptyScan);
            return;
        }
        ScanCursor.TryParse(input.Arg(0), out ulong cursor);
        long count = 10;
        ReadOnlySpan<byte> pattern = default;
        bool matchAll = true, noScores = false;
        for (int i = 1; i < input.ArgCount; i++)
        {
            var arg = input.Args[input.FirstArg + i];
            bool hasValue = i + 1 < input.ArgCount;
            if (hasValue && arg.EqualsUpper("COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(input.Arg(++i), out count))
                {
                    writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count < 1)
                {
                    writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
            }
            else if (hasValue && arg.EqualsUpper("MATCH"u8))
            {
                pattern = input.Arg(++i);
                matchAll = GlobPattern.MatchesEverything(pattern);
            }
            else if (arg.EqualsUpper("NOSCORES"u8))
            {
                noScores = true;
            }
            else
            {
                writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var nodes = new List<SortedSetNode>();
        ulong next = 0;
        if (Count <= ScanAllAtOnce)
        {
            for (var node = _tree.First; node != null; node = node.Next)
                nodes.Add(node);
        }
        else
        {
            next = ScanBuckets(cursor, count, nodes);
        }
        if (!matchAll)
        {
            int kept = 0;
            for (int i = 0; i < nodes.Count; i++)
            {
                if (GlobPattern.IsMatch(pattern, nodes[i].Member))
                    nodes[kept++] = nodes[i];
            }
            nodes.RemoveRange(kept, nodes.Count - kept);
        }
        writer.WriteArrayHeader(2);
        Span<byte> digits = stackalloc byte[20];
        next.TryFormat(digits, out int digitCount);
        writer.WriteBulk(digits.Slice(0, digitCount));
        writer.WriteArrayHeader(noScores ? nodes.Count : nodes.Count * 2);
        Span<byte> text = stackalloc byte[SortedSetScores.MaxLength];
        foreach (var item in nodes)
        {
            writer.WriteBulk(item.Member);
            if (!noScores)
                writer.WriteBulk(text.Slice(0, SortedSetScores.Format(item.Score, text)));
        }
    }
}
