using System;
using Garnet.common;

namespace Garnet;

/// <summary>Finds where a RESP2 reply ends, for a client that only counts replies (<see cref="WarmUpTraffic"/>).</summary>
internal static class RespReplies
{
    /// <summary>
    /// Moves <paramref name="position"/> past the whole reply that starts there and returns true, or leaves it and
    /// returns false when <paramref name="buffer"/> does not hold all of it yet.
    /// </summary>
    public static bool TrySkip(ReadOnlySpan<byte> buffer, ref int position)
    {
        int at = position;
        if (!TrySkipOne(buffer, ref at))
            return false;
        position = at;
        return true;
    }

    private static bool TrySkipOne(ReadOnlySpan<byte> buffer, ref int at)
    {
        if (at >= buffer.Length)
            return false;
        byte type = buffer[at];
        int lineEnd = buffer.Slice(at).IndexOf("\r\n"u8);
        if (lineEnd < 0)
            return false;
        var line = buffer.Slice(at + 1, lineEnd - 1);
        at += lineEnd + 2;
        switch (type)
        {
            case (byte)'+':
            case (byte)'-':
            case (byte)':':
                return true;
            case (byte)'$':
                {
                    long length = ParseLength(line);
                    if (length < 0)
                        return true;
                    if (buffer.Length - at < length + 2)
                        return false;
                    at += (int)length + 2;
                    return true;
                }
            case (byte)'*':
                {
                    long count = ParseLength(line);
                    for (long i = 0; i < count; i++)
                    {
                        if (!TrySkipOne(buffer, ref at))
                            return false;
                    }
                    return true;
                }
            default:
                throw new FormatException($"not a RESP2 reply: '{(char)type}'");
        }
    }

    private static long ParseLength(ReadOnlySpan<byte> digits)
        => NumberFormat.TryParseLong(digits, out long value) ? value : throw new FormatException("a RESP length that is not a number");
}
