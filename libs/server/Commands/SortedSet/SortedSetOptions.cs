using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Argument parsing shared by the session (which validates before the key lookup, as Redis does, so
/// syntax errors win over WRONGTYPE and missing keys) and <see cref="SortedSetObject.Operate"/> (which
/// parses the validated arguments again). Each parser returns an error reply, or an empty span.
/// </summary>
internal static class SortedSetOptions
{
    /// <summary>
    /// Parses ZADD's options and score/member pairs (from <paramref name="first"/>, <paramref name="count"/>
    /// arguments); the scores are checked only when <paramref name="checkScores"/> (the session's pass).
    /// </summary>
    public static ReadOnlySpan<byte> ParseZAdd(ArgSlice[] args, int first, int count, out ZAddFlags flags, out int pairsAt, bool checkScores = true)
    {
        flags = ZAddFlags.None;
        int i = 0;
        for (; i < count; i++)
        {
            var arg = args[first + i];
            if (arg.EqualsUpper("NX"u8))
                flags |= ZAddFlags.Nx;
            else if (arg.EqualsUpper("XX"u8))
                flags |= ZAddFlags.Xx;
            else if (arg.EqualsUpper("GT"u8))
                flags |= ZAddFlags.Gt;
            else if (arg.EqualsUpper("LT"u8))
                flags |= ZAddFlags.Lt;
            else if (arg.EqualsUpper("CH"u8))
                flags |= ZAddFlags.Ch;
            else if (arg.EqualsUpper("INCR"u8))
                flags |= ZAddFlags.Incr;
            else
                break;
        }
        pairsAt = i;
        int elements = count - i;
        if (elements == 0 || elements % 2 != 0)
            return RespStrings.ErrSyntax;
        bool nx = (flags & ZAddFlags.Nx) != 0, gt = (flags & ZAddFlags.Gt) != 0, lt = (flags & ZAddFlags.Lt) != 0;
        if (nx && (flags & ZAddFlags.Xx) != 0)
            return SortedSetStrings.ErrXxAndNx;
        if ((gt && nx) || (lt && nx) || (gt && lt))
            return SortedSetStrings.ErrGtLtNx;
        if ((flags & ZAddFlags.Incr) != 0 && elements > 2)
            return SortedSetStrings.ErrIncrSinglePair;
        for (int j = i; checkScores && j < count; j += 2)
        {
            if (!SortedSetScores.TryParse(args[first + j].Span, out _))
                return RespStrings.ErrNotFloat;
        }
        return default;
    }

    /// <summary>Parses a count that must be a non-negative integer (ZPOPMIN/ZPOPMAX).</summary>
    public static ReadOnlySpan<byte> ParsePositiveCount(ReadOnlySpan<byte> text, out long count)
    {
        if (!NumberFormat.TryParseLong(text, out count))
            return RespStrings.ErrNotInteger;
        if (count < 0)
            return SortedSetStrings.ErrMustBePositive;
        return default;
    }

    /// <summary>Parses ZRANDMEMBER's count and WITHSCORES (arguments after the key).</summary>
    public static ReadOnlySpan<byte> ParseRandMember(ArgSlice[] args, int first, int count, out long number, out bool withScores)
    {
        number = 0;
        withScores = false;
        if (!NumberFormat.TryParseLong(args[first].Span, out number))
            return RespStrings.ErrNotInteger;
        if (number == long.MinValue)
            return SortedSetStrings.ErrRandMemberCountRange;
        if (count > 1)
        {
            if (count == 2 && args[first + 1].EqualsUpper("WITHSCORES"u8))
                withScores = true;
            else
                return RespStrings.ErrSyntax;
        }
        if (withScores && number < -long.MaxValue / 2)
            return SortedSetStrings.ErrOutOfRange;
        return default;
    }

    /// <summary>Parses ZRANK/ZREVRANK's optional WITHSCORE (arguments after the key).</summary>
    public static ReadOnlySpan<byte> ParseRank(ArgSlice[] args, int first, int count, out bool withScore)
    {
        withScore = false;
        if (count > 2)
            return RespStrings.ErrSyntax;
        if (count == 2)
        {
            if (!args[first + 1].EqualsUpper("WITHSCORE"u8))
                return RespStrings.ErrSyntax;
            withScore = true;
        }
        return default;
    }

    /// <summary>Parses a rank interval (ZREMRANGEBYRANK).</summary>
    public static ReadOnlySpan<byte> ParseRanks(ReadOnlySpan<byte> start, ReadOnlySpan<byte> stop, out long startRank, out long stopRank)
    {
        stopRank = 0;
        if (!NumberFormat.TryParseLong(start, out startRank) || !NumberFormat.TryParseLong(stop, out stopRank))
            return RespStrings.ErrNotInteger;
        return default;
    }

    /// <summary>Parses a score interval, or answers <c>ERR min or max is not a float</c>.</summary>
    public static ReadOnlySpan<byte> ParseScoreRange(ReadOnlySpan<byte> min, ReadOnlySpan<byte> max, out ScoreRange range)
        => ScoreRange.TryParse(min, max, out range) ? default : SortedSetStrings.ErrMinMaxNotFloat;

    /// <summary>Parses a member interval, or answers <c>ERR min or max not valid string range item</c>.</summary>
    public static ReadOnlySpan<byte> ParseLexRange(ReadOnlySpan<byte> min, ReadOnlySpan<byte> max, out LexRange range)
        => LexRange.TryParse(min, max, out range) ? default : SortedSetStrings.ErrMinMaxNotString;

    /// <summary>
    /// Clamps a rank interval given with Redis's negative-from-the-end indexes to 0-based ranks in a set
    /// of <paramref name="length"/>; false when it selects nothing.
    /// </summary>
    public static bool ClampRanks(long start, long stop, long length, out long first, out long last)
    {
        if (start < 0)
            start += length;
        if (stop < 0)
            stop += length;
        if (start < 0)
            start = 0;
        first = start;
        last = Math.Min(stop, length - 1);
        return start <= stop && start < length;
    }
}

/// <summary>ZADD's options.</summary>
[Flags]
internal enum ZAddFlags
{
    None = 0,
    Nx = 1,
    Xx = 2,
    Gt = 4,
    Lt = 8,
    Ch = 16,
    Incr = 32,
}

/// <summary>What a ZRANGE-family command selects by.</summary>
internal enum ZRangeKind : byte
{
    Rank,
    Score,
    Lex,
}

/// <summary>A parsed ZRANGE-family request (ZRANGE, ZREVRANGE, Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX, ZRANGESTORE).</summary>
internal struct ZRangeSpec
{
    public ZRangeKind Kind;
    public bool Reverse;
    public bool WithScores;
    public long Offset;

    /// <summary>Most elements to return; -1 (the default, and any negative LIMIT count) for all.</summary>
    public long Limit;

    public long Start;
    public long Stop;
    public ScoreRange Scores;
    public LexRange Lex;

    /// <summary>
    /// Parses the arguments from min on (<paramref name="first"/>, <paramref name="count"/> of them) as
    /// <paramref name="command"/> takes them, in Redis's order: options, conflicts, then the interval.
    /// </summary>
    public static ReadOnlySpan<byte> Parse(RespCommand command, ArgSlice[] args, int first, int count, out ZRangeSpec spec)
    {
        spec = default;
        spec.Limit = -1;
        bool kindOpen = false, directionOpen = false;
        switch (command)
        {
            case RespCommand.ZRANGE:
            case RespCommand.ZRANGESTORE:
                kindOpen = directionOpen = true;
                break;
            case RespCommand.ZREVRANGE:
                spec.Reverse = true;
                break;
            case RespCommand.ZRANGEBYSCORE:
                spec.Kind = ZRangeKind.Score;
                break;
            case RespCommand.ZREVRANGEBYSCORE:
                spec.Kind = ZRangeKind.Score;
                spec.Reverse = true;
                break;
            case RespCommand.ZRANGEBYLEX:
                spec.Kind = ZRangeKind.Lex;
                break;
            case RespCommand.ZREVRANGEBYLEX:
                spec.Kind = ZRangeKind.Lex;
                spec.Reverse = true;
                break;
        }
        bool store = command == RespCommand.ZRANGESTORE;
        for (int j = 2; j < count; j++)
        {
            var arg = args[first + j];
            int left = count - j - 1;
            if (!store && arg.EqualsUpper("WITHSCORES"u8))
            {
                spec.WithScores = true;
            }
            else if (left >= 2 && arg.EqualsUpper("LIMIT"u8))
            {
                if (!NumberFormat.TryParseLong(args[first + j + 1].Span, out spec.Offset)
                    || !NumberFormat.TryParseLong(args[first + j + 2].Span, out spec.Limit))
                    return RespStrings.ErrNotInteger;
                j += 2;
            }
            else if (directionOpen && arg.EqualsUpper("REV"u8))
            {
                spec.Reverse = true;
                directionOpen = false;
            }
            else if (kindOpen && arg.EqualsUpper("BYSCORE"u8))
            {
                spec.Kind = ZRangeKind.Score;
                kindOpen = false;
            }
            else if (kindOpen && arg.EqualsUpper("BYLEX"u8))
            {
                spec.Kind = ZRangeKind.Lex;
                kindOpen = false;
            }
            else
            {
                return RespStrings.ErrSyntax;
            }
        }
        if (spec.Limit != -1 && spec.Kind == ZRangeKind.Rank)
            return SortedSetStrings.ErrLimitNeedsByScoreOrLex;
        if (spec.WithScores && spec.Kind == ZRangeKind.Lex)
            return SortedSetStrings.ErrWithScoresByLex;

        // Reverse score and lex ranges are given as max, min.
        var min = args[first].Span;
        var max = args[first + 1].Span;
        if (spec.Reverse && spec.Kind != ZRangeKind.Rank)
        {
            var swap = min;
            min = max;
            max = swap;
        }
        return spec.Kind switch
        {
            ZRangeKind.Rank => SortedSetOptions.ParseRanks(min, max, out spec.Start, out spec.Stop),
            ZRangeKind.Score => SortedSetOptions.ParseScoreRange(min, max, out spec.Scores),
            _ => SortedSetOptions.ParseLexRange(min, max, out spec.Lex),
        };
    }
}
