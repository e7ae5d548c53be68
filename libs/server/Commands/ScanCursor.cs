using System;

namespace Garnet.server;

/// <summary>
/// The cursor of SCAN, HSCAN, SSCAN and ZSCAN as Redis 7.2 reads it (string2ull): an unsigned 64-bit decimal, a
/// leading '+' allowed; empty, negative, overflowing or anything else is invalid.
/// </summary>
internal static class ScanCursor
{
    public static bool TryParse(ReadOnlySpan<byte> text, out ulong cursor)
    {
        cursor = 0;
        if (text.Length > 0 && text[0] == '+')
            text = text.Slice(1);
        if (text.IsEmpty)
            return false;
        foreach (byte c in text)
        {
            uint digit = (uint)(c - '0');
            if (digit > 9 || cursor > (ulong.MaxValue - digit) / 10)
                return false;
            cursor = (cursor * 10) + digit;
        }
        return true;
    }
}
