using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>The sorted-set commands that change the set: ZADD, ZINCRBY, ZREM, the pops, ZREMRANGEBY*.</summary>
public sealed partial class SortedSetObject
{
    /// <summary>What adding one score/member pair did.</summary>
    private enum AddOutcome : byte
    {
        /// <summary>Nothing: NX on an existing member, XX on a new one, or GT/LT refused.</summary>
        Skipped,
        Added,
        Updated,

        /// <summary>Processed, but the score was already that.</summary>
        Unchanged,

        /// <summary>INCR would give NaN (inf + -inf): refused.</summary>
        NaN,
    }

    /// <summary>Adds or updates one pair as ZADD does with <paramref name="flags"/>; <paramref name="newScore"/> is the resulting score.</summary>
    private AddOutcome AddWithFlags(ReadOnlySpan<byte> member, double score, ZAddFlags flags, EncodingThresholds limits, out double newScore)
    {
        newScore = score;
        int hash = MemberHash.Compute(member);
        if (FindNode(member, hash) is { } node)
        {
            if ((flags & ZAddFlags.Nx) != 0)
                return AddOutcome.Skipped;
            double current = node.Score;
            if ((flags & ZAddFlags.Incr) != 0)
            {
                score += current;
                if (double.IsNaN(score))
                    return AddOutcome.NaN;
            }
            if (((flags & ZAddFlags.Lt) != 0 && score >= current) || ((flags & ZAddFlags.Gt) != 0 && score <= current))
                return AddOutcome.Skipped;
            newScore = score;
            if (score == current)
                return AddOutcome.Unchanged;
            SetScore(node, score);
            return AddOutcome.Updated;
        }
        if ((flags & ZAddFlags.Xx) != 0)
            return AddOutcome.Skipped;
        NoteNewMember(member.Length, limits);
        AddNew(member.ToArray(), hash, score);
        return AddOutcome.Added;
    }

    private void ZAdd(ref ObjectInput input, ref ObjectOutput output)
    {
        var error = SortedSetOptions.ParseZAdd(input.Args, input.FirstArg, input.ArgCount, out var flags, out int pairsAt, checkScores: false);
        if (!error.IsEmpty)
        {
            output.Writer.WriteError(error);
            return;
        }
        var limits = input.Limits;
        PrepareForAdding((input.ArgCount - pairsAt) / 2, LongestMember(ref input, pairsAt + 1, 2), limits);
        long added = 0, updated = 0, processed = 0;
        double lastScore = 0;
        for (int i = pairsAt; i < input.ArgCount; i += 2)
        {
            SortedSetScores.TryParse(input.Arg(i), out double score);
            switch (AddWithFlags(input.Arg(i + 1), score, flags, limits, out double newScore))
            {
                case AddOutcome.NaN:
                    output.Writer.WriteError(SortedSetStrings.ErrScoreNaN);
                    return;
                case AddOutcome.Added:
                    added++;
                    processed++;
                    break;
                case AddOutcome.Updated:
                    updated++;
                    processed++;
                    break;
                case AddOutcome.Unchanged:
                    processed++;
                    break;
            }
            lastScore = newScore;
        }
        output.Modified |= updated != 0; // a changed score changes no count, yet it is a change (keyspace notifications)
        if ((flags & ZAddFlags.Incr) != 0)
        {
            if (processed > 0)
                SortedSetScores.Write(ref output.Writer, lastScore);
            else
                output.Writer.WriteNull();
        }
        else
        {
            output.Writer.WriteInteger((flags & ZAddFlags.Ch) != 0 ? added + updated : added);
        }
    }

    private void ZIncrBy(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!SortedSetScores.TryParse(input.Arg(0), out double increment))
        {
            output.Writer.WriteError(RespStrings.ErrNotFloat);
            return;
        }
        PrepareForAdding(1, input.Arg(1).Length, input.Limits);
        if (AddWithFlags(input.Arg(1), increment, ZAddFlags.Incr, input.Limits, out double newScore) == AddOutcome.NaN)
            output.Writer.WriteError(SortedSetStrings.ErrScoreNaN);
        else
            SortedSetScores.Write(ref output.Writer, newScore);
    }

    private void ZRem(ref ObjectInput input, ref ObjectOutput output)
    {
        long removed = 0;
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (Remove(input.Arg(i)))
                removed++;
        }
        output.Writer.WriteInteger(removed);
    }

    /// <summary>Removes and returns the lowest (or highest) member, or null when empty.</summary>
    private SortedSetNode? PopOne(bool max)
    {
        var node = max ? _tree.Last : _tree.First;
        if (node != null)
            RemoveNode(node);
        return node;
    }

    /// <summary>
    /// ZPOPMIN/ZPOPMAX. Without a count: a flat [member, score] (empty array when empty), and the popped
    /// member and score handed back in the output for BZPOPMIN/BZPOPMAX. With a count: RESP2 a flat
    /// array, RESP3 an array of [member, score] pairs.
    /// </summary>
    private void ZPop(ref ObjectInput input, ref ObjectOutput output, bool max)
    {
        ref var writer = ref output.Writer;
        if (input.ArgCount == 0)
        {
            var node = PopOne(max);
            output.Element = node?.Member;
            if (node == null)
            {
                writer.WriteArrayHeader(0);
                return;
            }
            output.Double = node.Score;
            writer.WriteArrayHeader(2);
            writer.WriteBulk(node.Member);
            SortedSetScores.Write(ref writer, node.Score);
            return;
        }
        var error = SortedSetOptions.ParsePositiveCount(input.Arg(0), out long count);
        if (!error.IsEmpty)
        {
            writer.WriteError(error);
            return;
        }
        long popped = Math.Min(count, Count);
        bool nested = writer.Resp3;
        writer.WriteArrayHeader((int)(nested ? popped : popped * 2));
        for (long i = 0; i < popped; i++)
        {
            var node = PopOne(max)!;
            if (nested)
                writer.WriteArrayHeader(2);
            writer.WriteBulk(node.Member);
            SortedSetScores.Write(ref writer, node.Score);
        }
    }

    /// <summary>
    /// ZMPOP on one key (also BZMPOP): pops up to <see cref="ObjectInput.Number"/> members from the min
    /// (<see cref="ObjectInput.Flags"/> 0) or max (1) end; writes only the array of [member, score]
    /// pairs, nothing when empty; <see cref="ObjectOutput.Number"/> is how many were popped.
    /// </summary>
    private void ZMPop(ref ObjectInput input, ref ObjectOutput output)
    {
        long popped = Math.Min(input.Number, Count);
        output.Number = Math.Max(popped, 0);
        if (popped <= 0)
            return;
        ref var writer = ref output.Writer;
        writer.WriteArrayHeader((int)popped);
        for (long i = 0; i < popped; i++)
        {
            var node = PopOne(input.Flags == 1)!;
            writer.WriteArrayHeader(2);
            writer.WriteBulk(node.Member);
            SortedSetScores.Write(ref writer, node.Score);
        }
    }

    /// <summary>ZREMRANGEBYRANK, ZREMRANGEBYSCORE, ZREMRANGEBYLEX: the number of members removed.</summary>
    private void ZRemRange(ref ObjectInput input, ref ObjectOutput output)
    {
        var removed = new List<SortedSetNode>();
        ReadOnlySpan<byte> error;
        switch (input.Command)
        {
            case RespCommand.ZREMRANGEBYRANK:
                error = SortedSetOptions.ParseRanks(input.Arg(0), input.Arg(1), out long start, out long stop);
                if (error.IsEmpty && SortedSetOptions.ClampRanks(start, stop, Count, out long first, out long last))
                    _tree.DeleteRangeByRank(first + 1, last + 1, removed);
                break;
            case RespCommand.ZREMRANGEBYSCORE:
                error = SortedSetOptions.ParseScoreRange(input.Arg(0), input.Arg(1), out var scores);
                if (error.IsEmpty)
                    _tree.DeleteRange(in scores, removed);
                break;
            default:
                error = SortedSetOptions.ParseLexRange(input.Arg(0), input.Arg(1), out var lex);
                if (error.IsEmpty)
                    _tree.DeleteRange(in lex, removed);
                break;
        }
        if (!error.IsEmpty)
        {
            output.Writer.WriteError(error);
            return;
        }
        foreach (var node in removed)
            ForgetNode(node);
        output.Writer.WriteInteger(removed.Count);
    }
}
