using System;
using System.Buffers.Text;
using System.Globalization;

namespace Garnet.common;

/// <summary>Parsing and formatting of numbers exactly as Redis accepts and prints them.</summary>
public static class NumberFormat
{
    /// <summary>Longest text <see cref="FormatDouble"/> produces.</summary>
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
    /// Parses a double the way Redis's string2d does: decimal or exponent notation, "inf"/"+inf"/"-inf"
    /// (any case, also "infinity"); no spaces, no NaN; a finite text that overflows to infinity or a
    /// nonzero one that underflows to zero is refused (strtod's ERANGE). Hexadecimal floats, which
    /// strtod also reads, are not accepted.
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
        bool nonZeroDigit = false;
        int exponentAt = text.Length;
        for (int i = 0; i < text.Length; i++)
        {
            byte c = text[i];
            if (c == 'e' || c == 'E')
                exponentAt = Math.Min(exponentAt, i);
            else if (c >= '1' && c <= '9' && i < exponentAt)
                nonZeroDigit = true;
            else if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+'))
                return false;
        }
        Span<char> chars = text.Length <= 256 ? stackalloc char[text.Length] : new char[text.Length];
        for (int i = 0; i < text.Length; i++)
            chars[i] = (char)text[i];
        if (!double.TryParse(chars, NumberStyles.Float, CultureInfo.InvariantCulture, out value))
            return false;
        if (double.IsInfinity(value) || double.IsNaN(value) || (value == 0 && nonZeroDigit))
        {
            value = 0;
            return false;
        }
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
    /// value (Redis 7.2 and later; 7.0 printed "%.17g", e.g. "1.1000000000000001" for 1.1),
    /// "inf"/"-inf" for infinities, integers below 1e17 without exponent, exponents as "e+20"/"e-05".
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
    /// Formats a double as Redis's human-friendly long double ("%.17Lf", trailing zeros removed), the
    /// form INCRBYFLOAT and HINCRBYFLOAT store; <paramref name="destination"/> needs
    /// <see cref="LongDouble.MaxHumanLength"/> bytes for the largest values.
    /// </summary>
    public static int FormatHumanDouble(double value, Span<byte> destination)
        => LongDouble.FromDouble(value).FormatHuman(destination);

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
