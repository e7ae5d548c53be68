using System;

namespace Garnet.server;

/// <summary>Error replies of the hash commands, as Redis words them.</summary>
internal static class HashStrings
{
    public static ReadOnlySpan<byte> ErrHashValueNotInteger => "ERR hash value is not an integer"u8;
    public static ReadOnlySpan<byte> ErrHashValueNotFloat => "ERR hash value is not a float"u8;
    public static ReadOnlySpan<byte> ErrIncrementNaNOrInfinity => "ERR value is NaN or Infinity"u8;
    public static ReadOnlySpan<byte> ErrValueOutOfRange => "ERR value is out of range"u8;
    public static ReadOnlySpan<byte> ErrCountOutOfRange => "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"u8;
}
