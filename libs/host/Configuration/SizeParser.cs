using System;
using System.Globalization;

namespace Garnet;

/// <summary>
/// Reads sizes such as "16g", "32m", "512kb" or "4096": a whole number with an optional
/// case-insensitive suffix b, k/kb, m/mb, g/gb or t/tb (binary multiples, so 1k is 1024 bytes).
/// </summary>
public static class SizeParser
{
    /// <summary>Parses <paramref name="text"/> into bytes; false if it is not a size or overflows a long.</summary>
    public static bool TryParse(string? text, out long bytes)
    {
        bytes = 0;
        if (text == null)
            return false;
        ReadOnlySpan<char> span = text.AsSpan().Trim();
        int digits = 0;
        while (digits < span.Length && span[digits] >= '0' && span[digits] <= '9')
            digits++;
        if (digits == 0)
            return false;
        if (!long.TryParse(span.Slice(0, digits), NumberStyles.None, CultureInfo.InvariantCulture, out long number))
            return false;
        if (!TryGetShift(span.Slice(digits).Trim(), out int shift))
            return false;
        if (shift > 0 && number > (long.MaxValue >> shift))
            return false;
        bytes = number << shift;
        return true;
    }

    /// <summary>The power-of-two multiplier of a unit suffix ("" and "b" are bytes).</summary>
    private static bool TryGetShift(ReadOnlySpan<char> suffix, out int shift)
    {
        shift = 0;
        if (suffix.Length == 0)
            return true;
        if (suffix.Length > 2)
            return false;
        if (suffix.Length == 2 && char.ToLowerInvariant(suffix[1]) != 'b')
            return false;
        switch (char.ToLowerInvariant(suffix[0]))
        {
            case 'b':
                return suffix.Length == 1;
            case 'k':
                shift = 10;
                return true;
            case 'm':
                shift = 20;
                return true;
            case 'g':
                shift = 30;
                return true;
            case 't':
                shift = 40;
                return true;
            default:
                return false;
        }
    }

    /// <summary>Formats <paramref name="bytes"/> with the largest unit that divides it exactly ("32m", "1000").</summary>
    public static string Format(long bytes)
    {
        ReadOnlySpan<char> units = "kmgt";
        string suffix = "";
        for (int i = 0; i < units.Length && bytes != 0 && (bytes & 1023) == 0; i++)
        {
            bytes >>= 10;
            suffix = units[i].ToString();
        }
        return bytes.ToString(CultureInfo.InvariantCulture) + suffix;
    }
}
