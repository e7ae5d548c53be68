using System;
using System.Globalization;

namespace Garnet.server;

/// <summary>Byte counts written as Redis's configuration writes them ("64mb", "1gb", "100").</summary>
public static class MemoryValue
{
    /// <summary>
    /// A byte count as Redis's memtoull reads it: digits with an optional unit, any case; k, m and g are powers of
    /// 1000, kb, mb and gb powers of 1024. False for anything else, or a count that does not fit in 64 bits.
    /// </summary>
    public static bool TryParse(string value, out long bytes)
    {
        bytes = 0;
        int digits = 0;
        while (digits < value.Length && char.IsAsciiDigit(value[digits]))
            digits++;
        if (digits == 0 || !long.TryParse(value.AsSpan(0, digits), NumberStyles.None, CultureInfo.InvariantCulture, out long number))
            return false;
        long unit;
        switch (value.Substring(digits).ToLowerInvariant())
        {
            case "" or "b": unit = 1; break;
            case "k": unit = 1000L; break;
            case "kb": unit = 1024L; break;
            case "m": unit = 1000L * 1000; break;
            case "mb": unit = 1024L * 1024; break;
            case "g": unit = 1000L * 1000 * 1000; break;
            case "gb": unit = 1024L * 1024 * 1024; break;
            default: return false;
        }
        if (number > long.MaxValue / unit)
            return false;
        bytes = number * unit;
        return true;
    }
}
