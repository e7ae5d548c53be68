using System;

namespace Garnet.server;

/// <summary>Error texts of the list commands, exactly as Redis words them (without '-' and CRLF).</summary>
internal static class ListStrings
{
    public static ReadOnlySpan<byte> ErrMustBePositive => "ERR value is out of range, must be positive"u8;
    public static ReadOnlySpan<byte> ErrIndexOutOfRange => "ERR index out of range"u8;
    public static ReadOnlySpan<byte> ErrRankZero => "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the last match"u8;
    public static ReadOnlySpan<byte> ErrRankOutOfRange => "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"u8;
    public static ReadOnlySpan<byte> ErrCountNegative => "ERR COUNT can't be negative"u8;
    public static ReadOnlySpan<byte> ErrMaxLenNegative => "ERR MAXLEN can't be negative"u8;
    public static ReadOnlySpan<byte> ErrNumKeys => "ERR numkeys should be greater than 0"u8;
    public static ReadOnlySpan<byte> ErrCountNotPositive => "ERR count should be greater than 0"u8;
}
