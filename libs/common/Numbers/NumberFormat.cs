using System;
using System.Buffers.Text;
using System.Globalization;

namespace Garnet.common;

/// <summary>Parsing and formatting of numbers exactly as Redis accepts and prints them.</summary>
public static class NumberFormat
{
    /// <summary>Longest text <see cref="FormatDouble"/> and <see cref="FormatHumanDouble"/> produce.</summary>
    public const int MaxDoubleLength = 400;

    /// <summary>
    /// Parses a 64-bit integer the way Redis does: optional '-', digits, no '+', no spaces, no
    /// leading zeros (except "0"), within range.
    /// </summary>
    public static bool TryParseLong(ReadOnlySpan<byte> text, out long value)
    {
        value = 0;
        if (text.Length == 0 || text.Length > 20)
            return false;
        int i = 0;
        bool negative = false;
        if (text[0] == '-')
        {
            negative = true;
            i = 1;
            if (text.Length == 1)
                return false;
        }
        if (text[i] == '0' && text.Length > i + 1)
            return false;
        if (negative && text[i] == '0')
            return false;
        ulong magnitude = 0;
        for (; i < text.Length; i++)
        {
            uint digit = (uint)(text[i] - '0');
            if (digit > 9)
                return false;
            if (magnitude > (ulong.MaxValue - digit) / 10)
                return false;
            magnitude = magnitude * 10 + digit;
        }
        if (negative)
        {
            if (magnitude > (ulong)long.MaxValue + 1)
                return false;
            value = (long)(0 - magnitude);
        }
        else
        {
            if (magnitude > long.MaxValue)
                return false;
            value = (long)magnitude;
        }
        return true;
    }

    /// <summary>Parses a non-negative or negative 32-bit integer with <see cref="TryParseLong"/>'s rules.</summary>
    public static bool TryParseInt(ReadOnlySpan<byte> text, out int value)
    {
        if (TryParseLong(text, out long wide) && wide >= int.MinValue && wide <= int.MaxValue)
        {
            value = (int)wide;
            return true;
        }
        value = 0;
        return false;
    }

    /// <summary>
    /// Parses a double the way Redis does: decimal or exponent notation, "inf"/"+inf"/"-inf" (any
    /// case); no spaces, no NaN.
    /// </summary>
    public static bool TryParseDouble(ReadOnlySpan<byte> text, out double value)
    {
        value = 0;
        if (text.Length == 0 || text.Length > 5000)
            return false;
        if (IsInfinity(text, out bool negative))
        {
            value = negative ? double.NegativeInfinity : double.PositiveInfinity;
            return true;
        }
        byte first = text[0];
        if (first == ' ' || first == '\t' || first == '\r' || first == '\n')
            return false;
        byte last = text[^1];
        if (last == ' ' || last == '\t' || last == '\r' || last == '\n')
            return false;
        for (int i = 0; i < text.Length; i++)
        {
            byte c = text[i];
            if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
                return false;
        }
        if (!Utf8Parser.TryParse(text, out value, out int consumed, 'e') && !Utf8Parser.TryParse(text, out value, out consumed))
            return false;
        if (consumed != text.Length || double.IsNaN(value))
            return false;
        return true;
    }

    private static bool IsInfinity(ReadOnlySpan<byte> text, out bool negative)
    {
        negative = false;
        if (text[0] == '-' || text[0] == '+')
        {
            negative = text[0] == '-';
            text = text.Slice(1);
        }
        return text.Length == 3 && (text[0] | 0x20) == 'i' && (text[1] | 0x20) == 'n' && (text[2] | 0x20) == 'f'
            || text.Length == 8 && System.Text.Ascii.EqualsIgnoreCase(text, "infinity"u8);
    }

    /// <summary>
    /// Formats a double as Redis replies with scores: the shortest text that reads back as the same
    /// value, "inf"/"-inf" for infinities, exponents as "e+20"/"e-05".
    /// </summary>
    public static int FormatDouble(double value, Span<byte> destination)
    {
        if (double.IsPositiveInfinity(value))
            return Copy("inf"u8, destination);
        if (double.IsNegativeInfinity(value))
            return Copy("-inf"u8, destination);
        if (double.IsNaN(value))
            return Copy("nan"u8, destination);
        if (value == Math.Floor(value) && Math.Abs(value) < 1e17)
        {
            Utf8Formatter.TryFormat((long)value, destination, out int integerLength);
            return integerLength;
        }
        string text = value.ToString("R", CultureInfo.InvariantCulture);
        int length = 0;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            if (c == 'E')
            {
                destination[length++] = (byte)'e';
                if (i + 1 < text.Length && text[i + 1] != '-' && text[i + 1] != '+')
                    destination[length++] = (byte)'+';
                int digits = text.Length - i - 1 - (text[i + 1] == '-' || text[i + 1] == '+' ? 1 : 0);
                if (text[i + 1] == '-' || text[i + 1] == '+')
                    destination[length++] = (byte)text[++i];
                if (digits == 1)
                    destination[length++] = (byte)'0';
                continue;
            }
            destination[length++] = (byte)c;
        }
        return length;
    }

    /// <summary>
    /// Formats a double as INCRBYFLOAT and HINCRBYFLOAT reply: plain decimal notation (no exponent),
    /// at most 17 significant digits, trailing zeros removed.
    /// </summary>
    public static int FormatHumanDouble(double value, Span<byte> destination)
    {
        if (double.IsInfinity(value) || double.IsNaN(value))
            return FormatDouble(value, destination);
        if (value == Math.Floor(value) && Math.Abs(value) < 1e17)
        {
            Utf8Formatter.TryFormat((long)value, destination, out int integerLength);
            return integerLength;
        }
        decimal asDecimal;
        string text;
        if (Math.Abs(value) < 7.9e27 && Math.Abs(value) > 1e-20)
        {
            asDecimal = (decimal)double.Parse(value.ToString("G17", CultureInfo.InvariantCulture), NumberStyles.Float, CultureInfo.InvariantCulture);
            text = asDecimal.ToString(CultureInfo.InvariantCulture);
        }
        else
        {
            text = value.ToString("F17", CultureInfo.InvariantCulture);
        }
        if (text.Contains('.'))
            text = text.TrimEnd('0').TrimEnd('.');
        if (text == "-0")
            text = "0";
        for (int i = 0; i < text.Length; i++)
            destination[i] = (byte)text[i];
        return text.Length;
    }

    private static int Copy(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        source.CopyTo(destination);
        return source.Length;
    }

    /// <summary>Number of decimal characters of <paramref name="value"/> (sign included).</summary>
    public static int DigitCount(long value)
    {
        Span<byte> buffer = stackalloc byte[20];
        Utf8Formatter.TryFormat(value, buffer, out int written);
        return written;
    }
}
