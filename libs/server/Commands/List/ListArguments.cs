using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>The options of LPOS: which match to start from, how many to return, how far to look.</summary>
internal struct LposOptions
{
    /// <summary>1 = first match from the head; negative counts matches from the tail.</summary>
    public long Rank;

    /// <summary>Matches to return; -1 when COUNT is absent (reply a single index), 0 for all.</summary>
    public long Count;

    /// <summary>Elements to compare at most; 0 for all.</summary>
    public long MaxLength;
}

/// <summary>
/// Parsing of list command arguments, shared by the session (which validates before the key lookup,
/// as Redis does) and <see cref="ListObject.Operate"/> (which reads the already validated values).
/// </summary>
internal static class ListArguments
{
    /// <summary>LEFT or RIGHT (any case).</summary>
    public static bool TryParseSide(ReadOnlySpan<byte> text, out bool left)
    {
        left = Ascii.EqualsIgnoreCase(text, "LEFT"u8);
        return left || Ascii.EqualsIgnoreCase(text, "RIGHT"u8);
    }

    /// <summary>BEFORE or AFTER (any case).</summary>
    public static bool TryParseWhere(ReadOnlySpan<byte> text, out bool before)
    {
        before = Ascii.EqualsIgnoreCase(text, "BEFORE"u8);
        return before || Ascii.EqualsIgnoreCase(text, "AFTER"u8);
    }

    /// <summary>The count of LPOP/RPOP: a non-negative integer (anything else is "must be positive", as in Redis).</summary>
    public static bool TryParsePopCount(ReadOnlySpan<byte> text, out long count)
        => NumberFormat.TryParseLong(text, out count) && count >= 0;

    /// <summary>LPOS options from argument <paramref name="first"/> of <paramref name="input"/> on; false with the error to send.</summary>
    public static bool TryParseLposOptions(in ObjectInput input, int first, out LposOptions options, out ReadOnlySpan<byte> error)
    {
        options = new LposOptions { Rank = 1, Count = -1, MaxLength = 0 };
        error = default;
        for (int i = first; i < input.ArgCount; i++)
        {
            var option = input.Args[input.FirstArg + i];
            bool hasValue = i + 1 < input.ArgCount;
            if (hasValue && option.EqualsUpper("RANK"u8))
            {
                if (!NumberFormat.TryParseLong(input.Arg(++i), out long rank))
                {
                    error = RespStrings.ErrNotInteger;
                    return false;
                }
                if (rank == long.MinValue)
                {
                    error = ListStrings.ErrRankOutOfRange;
                    return false;
                }
                if (rank == 0)
                {
                    error = ListStrings.ErrRankZero;
                    return false;
                }
                options.Rank = rank;
            }
            else if (hasValue && option.EqualsUpper("COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(input.Arg(++i), out long count) || count < 0)
                {
                    error = ListStrings.ErrCountNegative;
                    return false;
                }
                options.Count = count;
            }
            else if (hasValue && option.EqualsUpper("MAXLEN"u8))
            {
                if (!NumberFormat.TryParseLong(input.Arg(++i), out long maxLength) || maxLength < 0)
                {
                    error = ListStrings.ErrMaxLenNegative;
                    return false;
                }
                options.MaxLength = maxLength;
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
