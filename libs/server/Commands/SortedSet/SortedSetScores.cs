using System;
using System.Globalization;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Scores as text, on the hot paths: parsing with a fast path for plain integers (the usual ZADD
/// score) and formatting without allocating. Both give exactly what <see cref="NumberFormat"/> gives.
/// </summary>
internal static class SortedSetScores
{
    /// <summary>Enough for any score this formats: sign, 17 digits, point, exponent; plus RESP framing.</summary>
    public const int MaxLength = 40;

    /// <summary>Parses a score as <see cref="NumberFormat.TryParseDouble"/> does.</summary>
    public static bool TryParse(ReadOnlySpan<byte> text, out double value)
    {
        // Up to 15 digits is below 2^53: the integer converts to the double exactly.
        if (text.Length is > 0 and <= 16)
        {
            bool negative = text[0] == '-';
            int i = negative || text[0] == '+' ? 1 : 0;
            if (i < text.Length && text.Length - i <= 15)
            {
                long number = 0;
                for (; i < text.Length; i++)
                {
                    uint digit = (uint)(text[i] - '0');
                    if (digit > 9)
                        return NumberFormat.TryParseDouble(text, out value);
                    number = (number * 10) + digit;
                }
                // -0 stays negative zero, as strtod gives it.
                value = negative ? -(double)number : number;
                return true;
            }
        }
        return NumberFormat.TryParseDouble(text, out value);
    }

    /// <summary>Formats a score as <see cref="NumberFormat.FormatDouble"/> does (shortest round-trip form).</summary>
    public static int Format(double value, Span<byte> destination)
    {
        if (!double.IsFinite(value) || (value == Math.Floor(value) && Math.Abs(value) < 1e17))
            return NumberFormat.FormatDouble(value, destination);
        Span<byte> text = stackalloc byte[MaxLength];
        value.TryFormat(text, out int textLength, "R", CultureInfo.InvariantCulture);
        int length = 0;
        for (int i = 0; i < textLength; i++)
        {
            byte c = text[i];
            if (c != 'E')
            {
                destination[length++] = c;
                continue;
            }
            // Redis writes the exponent as e, a sign, and at least two digits.
            destination[length++] = (byte)'e';
            bool signed = i + 1 < textLength && (text[i + 1] == '-' || text[i + 1] == '+');
            destination[length++] = signed ? text[++i] : (byte)'+';
            if (textLength - i - 1 == 1)
                destination[length++] = (byte)'0';
        }
        return length;
    }

    /// <summary>Writes a score: RESP3 a double, RESP2 a bulk string.</summary>
    public static void Write(ref RespWriter writer, double value)
    {
        Span<byte> reply = stackalloc byte[MaxLength + 8];
        if (writer.Resp3)
        {
            reply[0] = (byte)',';
            int length = 1 + Format(value, reply.Slice(1));
            reply[length++] = (byte)'\r';
            reply[length++] = (byte)'\n';
            writer.WriteRaw(reply.Slice(0, length));
        }
        else
        {
            int length = Format(value, reply);
            writer.WriteBulk(reply.Slice(0, length));
        }
    }
}
