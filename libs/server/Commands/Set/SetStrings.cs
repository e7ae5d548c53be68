using System;

namespace Garnet.server;

/// <summary>Error texts of the set commands, as Redis words them (without '-' and CRLF).</summary>
internal static class SetStrings
{
    public static ReadOnlySpan<byte> ErrMustBePositive => "ERR value is out of range, must be positive"u8;
    public static ReadOnlySpan<byte> ErrCountOutOfRange => "ERR value is out of range, must be between -9223372036854775807 and 9223372036854775807"u8;
    public static ReadOnlySpan<byte> ErrValueOutOfRange => "ERR value is out of range"u8;
    public static ReadOnlySpan<byte> ErrNumkeysNotPositive => "ERR numkeys should be greater than 0"u8;
    public static ReadOnlySpan<byte> ErrTooManyKeys => "ERR Number of keys can't be greater than number of args"u8;
    public static ReadOnlySpan<byte> ErrLimitNegative => "ERR LIMIT can't be negative"u8;
}
