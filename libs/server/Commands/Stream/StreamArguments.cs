using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>How XADD or XTRIM trims.</summary>
internal enum StreamTrimStrategy : byte
{
    None,
    MaxLen,
    MinId,
}

/// <summary>The trimming options of XADD and XTRIM.</summary>
internal struct StreamTrimOptions
{
    public StreamTrimStrategy Strategy;

    /// <summary>'~': only whole nodes are removed.</summary>
    public bool Approximate;

    public long MaxLen;
    public StreamId MinId;

    /// <summary>Most entries one trim removes; 0 for no limit.</summary>
    public long Limit;
}

/// <summary>The options of XADD.</summary>
internal struct StreamAddOptions
{
    public StreamTrimOptions Trim;
    public bool NoMkStream;

    /// <summary>The argument index of the ID ("*", "ms-*" or explicit); the field/value pairs follow it.</summary>
    public int IdIndex;

    /// <summary>"*": the ID comes from the clock.</summary>
    public bool AutoId;

    /// <summary>"ms-*": the sequence is chosen.</summary>
    public bool AutoSeq;

    /// <summary>The explicit ID (its milliseconds with <see cref="AutoSeq"/>).</summary>
    public StreamId Id;
}

/// <summary>
/// Parsing of the stream commands' arguments, shared by the session (which checks them before the key is looked
/// up, so their errors win over WRONGTYPE as in Redis) and the object (which reads them again under the latch).
/// </summary>
internal static class StreamArguments
{
    /// <summary>Entries an approximate trim removes at most without LIMIT: 100 nodes' worth, as Redis.</summary>
    private const long DefaultApproximateLimit = 100L * StreamNode.MaxEntries;

    /// <summary>XADD's options from argument <paramref name="first"/> (after the key) up to the ID, or XTRIM's options.</summary>
    public static bool TryParseAddOrTrim(ReadOnlySpan<ArgSlice> args, int first, bool xadd, out StreamAddOptions options, out ReadOnlySpan<byte> error)
    {
        options = default;
        error = default;
        bool limitGiven = false;
        int i = first;
        for (; i < args.Length; i++)
        {
            bool more = i < args.Length - 1;
            var arg = args[i];
            if (xadd && arg.Length == 1 && arg.Span[0] == '*')
            {
                options.AutoId = true;
                break;
            }
            if (more && (arg.EqualsUpper("MAXLEN"u8) || arg.EqualsUpper("MINID"u8)))
            {
                if (options.Trim.Strategy != StreamTrimStrategy.None)
                {
                    error = StreamStrings.ErrMaxLenAndMinId;
                    return false;
                }
                bool maxLen = arg.EqualsUpper("MAXLEN"u8);
                options.Trim.Approximate = false;
                if (args.Length - 1 - i >= 2 && args[i + 1].Length == 1)
                {
                    byte symbol = args[i + 1].Span[0];
                    if (symbol == '~')
                    {
                        options.Trim.Approximate = true;
                        i++;
                    }
                    else if (symbol == '=')
                    {
                        i++;
                    }
                }
                var value = args[i + 1].Span;
                if (maxLen)
                {
                    if (!NumberFormat.TryParseLong(value, out options.Trim.MaxLen))
                    {
                        error = RespStrings.ErrNotInteger;
                        return false;
                    }
                    if (options.Trim.MaxLen < 0)
                    {
                        error = StreamStrings.ErrMaxLenNegative;
                        return false;
                    }
                    options.Trim.Strategy = StreamTrimStrategy.MaxLen;
                }
                else
                {
                    if (!StreamId.TryParseStrict(value, 0, out options.Trim.MinId, out bool autoSeq) || autoSeq)
                    {
                        error = StreamStrings.ErrInvalidId;
                        return false;
                    }
                    options.Trim.Strategy = StreamTrimStrategy.MinId;
                }
                i++;
            }
            else if (more && arg.EqualsUpper("LIMIT"u8))
            {
                if (!NumberFormat.TryParseLong(args[i + 1].Span, out options.Trim.Limit))
                {
                    error = RespStrings.ErrNotInteger;
                    return false;
                }
                if (options.Trim.Limit < 0)
                {
                    error = StreamStrings.ErrLimitNegative;
                    return false;
                }
                limitGiven = true;
                i++;
            }
            else if (xadd && arg.EqualsUpper("NOMKSTREAM"u8))
            {
                options.NoMkStream = true;
            }
            else if (xadd)
            {
                if (!StreamId.TryParseStrict(arg.Span, 0, out options.Id, out options.AutoSeq))
                {
                    error = StreamStrings.ErrInvalidId;
                    return false;
                }
                break;
            }
            else
            {
                error = RespStrings.ErrSyntax;
                return false;
            }
        }
        options.IdIndex = i;

        if (options.Trim.Limit != 0 && options.Trim.Strategy == StreamTrimStrategy.None)
        {
            error = StreamStrings.ErrLimitWithoutStrategy;
            return false;
        }
        if (!xadd && options.Trim.Strategy == StreamTrimStrategy.None)
        {
            error = StreamStrings.ErrTrimWithoutStrategy;
            return false;
        }
        if (limitGiven)
        {
            if (!options.Trim.Approximate)
            {
                error = StreamStrings.ErrLimitWithoutApprox;
                return false;
            }
        }
        else
        {
            options.Trim.Limit = options.Trim.Approximate ? DefaultApproximateLimit : 0;
        }

        if (xadd)
        {
            int rest = args.Length - i;
            if (rest < 3 || rest % 2 == 0)
            {
                error = "ERR wrong number of arguments for 'xadd' command"u8;
                return false;
            }
            if (!options.AutoId && !options.AutoSeq && options.Id.IsZero)
            {
                error = StreamStrings.ErrIdZero;
                return false;
            }
        }
        return true;
    }

    /// <summary>
    /// An interval bound of XRANGE / XREVRANGE / XPENDING: "-", "+", an ID, an incomplete ID (sequence
    /// <paramref name="missingSeq"/>), or "(" and an ID for an exclusive bound.
    /// </summary>
    public static bool TryParseIntervalId(ReadOnlySpan<byte> text, ulong missingSeq, out StreamId id, out bool exclusive)
    {
        exclusive = false;
        if (text.Length > 1 && text[0] == '(')
        {
            exclusive = true;
            return StreamId.TryParseStrict(text.Slice(1), missingSeq, out id, out bool autoSeq) && !autoSeq;
        }
        return StreamId.TryParse(text, missingSeq, out id);
    }

    /// <summary>
    /// XRANGE key start end [COUNT count] (XREVRANGE key end start ...): the inclusive bounds and the count
    /// (-1 without COUNT, negative counts are 0).
    /// </summary>
    public static bool TryParseRange(ReadOnlySpan<ArgSlice> args, bool reverse, out StreamId start, out StreamId end, out long count, out ReadOnlySpan<byte> error)
    {
        error = default;
        end = default;
        count = -1;
        var startText = args[reverse ? 3 : 2].Span;
        var endText = args[reverse ? 2 : 3].Span;
        if (!TryParseIntervalId(startText, 0, out start, out bool startExclusive))
        {
            error = StreamStrings.ErrInvalidId;
            return false;
        }
        if (startExclusive && !start.TryIncrement(out start))
        {
            error = StreamStrings.ErrInvalidStart;
            return false;
        }
        if (!TryParseIntervalId(endText, ulong.MaxValue, out end, out bool endExclusive))
        {
            error = StreamStrings.ErrInvalidId;
            return false;
        }
        if (endExclusive && !end.TryDecrement(out end))
        {
            error = StreamStrings.ErrInvalidEnd;
            return false;
        }
        for (int i = 4; i < args.Length; i++)
        {
            if (args[i].EqualsUpper("COUNT"u8) && i + 1 < args.Length)
            {
                if (!NumberFormat.TryParseLong(args[++i].Span, out count))
                {
                    error = RespStrings.ErrNotInteger;
                    return false;
                }
                if (count < 0)
                    count = 0;
            }
            else
            {
                error = RespStrings.ErrSyntax;
                return false;
            }
        }
        return true;
    }

    /// <summary>XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id].</summary>
    public static bool TryParseSetId(ReadOnlySpan<ArgSlice> args, out StreamId id, out long entriesAdded, out StreamId maxDeleted, out ReadOnlySpan<byte> error)
    {
        error = default;
        entriesAdded = -1;
        maxDeleted = default;
        if (!StreamId.TryParseStrict(args[2].Span, 0, out id, out bool autoSeq) || autoSeq)
        {
            error = StreamStrings.ErrInvalidId;
            return false;
        }
        for (int i = 3; i < args.Length; i += 2)
        {
            bool more = i < args.Length - 1;
            if (more && args[i].EqualsUpper("ENTRIESADDED"u8))
            {
                if (!NumberFormat.TryParseLong(args[i + 1].Span, out entriesAdded))
                {
                    error = RespStrings.ErrNotInteger;
                    return false;
                }
                if (entriesAdded < 0)
                {
                    error = StreamStrings.ErrEntriesAddedNegative;
                    return false;
                }
            }
            else if (more && args[i].EqualsUpper("MAXDELETEDID"u8))
            {
                if (!StreamId.TryParseStrict(args[i + 1].Span, 0, out maxDeleted, out bool auto) || auto)
                {
                    error = StreamStrings.ErrInvalidId;
                    return false;
                }
                if (id < maxDeleted)
                {
                    error = StreamStrings.ErrSetIdSmallerThanGivenMaxDeleted;
                    return false;
                }
            }
            else
            {
                error = RespStrings.ErrSyntax;
                return false;
            }
        }
        return true;
    }
    /// <summary>
    /// XGROUP CREATE's options (MKSTREAM, ENTRIESREAD n) or SETID's (ENTRIESREAD n) from argument <paramref name="first"/>;
    /// entries-read is -1 when not given. An unknown option is the subcommand syntax error (the error is then empty).
    /// </summary>
    public static bool TryParseGroupOptions(ReadOnlySpan<ArgSlice> args, int first, bool create, out bool mkStream, out long entriesRead, out ReadOnlySpan<byte> error)
    {
        mkStream = false;
        entriesRead = -1;
        error = default;
        for (int i = first; i < args.Length;)
        {
            if (create && args[i].EqualsUpper("MKSTREAM"u8))
            {
                mkStream = true;
                i++;
            }
            else if (args[i].EqualsUpper("ENTRIESREAD"u8) && i + 1 < args.Length)
            {
                if (!NumberFormat.TryParseLong(args[i + 1].Span, out entriesRead))
                {
                    error = RespStrings.ErrNotInteger;
                    return false;
                }
                if (entriesRead < 0 && entriesRead != -1)
                {
                    error = StreamStrings.ErrEntriesReadInvalid;
                    return false;
                }
                i += 2;
            }
            else
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>
    /// XPENDING key group [[IDLE min-idle-time] start end count [consumer]]: the bounds, count (negative is 0), minimum idle
    /// time and the consumer's argument index (0 if none). The summary form has three arguments.
    /// </summary>
    public static bool TryParsePending(ReadOnlySpan<ArgSlice> args, out StreamId start, out StreamId end, out long count, out long minIdle, out int consumerAt, out ReadOnlySpan<byte> error)
    {
        start = default;
        end = StreamId.Max;
        count = 0;
        minIdle = 0;
        consumerAt = 0;
        error = default;
        if (args.Length == 3)
            return true;
        if (args.Length < 6 || args.Length > 9)
        {
            error = RespStrings.ErrSyntax;
            return false;
        }
        int at = 3;
        if (args[3].EqualsUpper("IDLE"u8))
        {
            if (!NumberFormat.TryParseLong(args[4].Span, out minIdle))
            {
                error = RespStrings.ErrNotInteger;
                return false;
            }
            if (args.Length < 8)
            {
                error = RespStrings.ErrSyntax;
                return false;
            }
            at += 2;
        }
        if (!NumberFormat.TryParseLong(args[at + 2].Span, out count))
        {
            error = RespStrings.ErrNotInteger;
            return false;
        }
        if (count < 0)
            count = 0;
        if (!TryParseIntervalId(args[at].Span, 0, out start, out bool startExclusive))
        {
            error = StreamStrings.ErrInvalidId;
            return false;
        }
        if (startExclusive && !start.TryIncrement(out start))
        {
            error = StreamStrings.ErrInvalidStart;
            return false;
        }
        if (!TryParseIntervalId(args[at + 1].Span, ulong.MaxValue, out end, out bool endExclusive))
        {
            error = StreamStrings.ErrInvalidId;
            return false;
        }
        if (endExclusive && !end.TryDecrement(out end))
        {
            error = StreamStrings.ErrInvalidEnd;
            return false;
        }
        if (at + 3 < args.Length)
            consumerAt = at + 3;
        return true;
    }

    /// <summary>XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID].</summary>
    public static bool TryParseAutoClaim(ReadOnlySpan<ArgSlice> args, out long minIdle, out StreamId start, out long count, out bool justId, out ReadOnlySpan<byte> error)
    {
        start = default;
        count = 100;
        justId = false;
        error = default;
        if (!NumberFormat.TryParseLong(args[4].Span, out minIdle))
        {
            error = "ERR Invalid min-idle-time argument for XAUTOCLAIM"u8;
            return false;
        }
        if (minIdle < 0)
            minIdle = 0;
        if (!TryParseIntervalId(args[5].Span, 0, out start, out bool exclusive))
        {
            error = StreamStrings.ErrInvalidId;
            return false;
        }
        if (exclusive && !start.TryIncrement(out start))
        {
            error = StreamStrings.ErrInvalidStart;
            return false;
        }
        for (int i = 6; i < args.Length; i++)
        {
            if (args[i].EqualsUpper("COUNT"u8) && i + 1 < args.Length)
            {
                if (!NumberFormat.TryParseLong(args[++i].Span, out count) || count < 1 || count > long.MaxValue / 16)
                {
                    error = "ERR COUNT must be > 0"u8;
                    return false;
                }
            }
            else if (args[i].EqualsUpper("JUSTID"u8))
            {
                justId = true;
            }
            else
            {
                error = RespStrings.ErrSyntax;
                return false;
            }
        }
        return true;
    }
}
