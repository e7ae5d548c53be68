using System;

namespace Garnet.server;

/// <summary>The geo commands' error texts, exactly as Redis words them.</summary>
internal static class GeoStrings
{
    public static ReadOnlySpan<byte> ErrUnsupportedUnit => "ERR unsupported unit provided. please use M, KM, FT, MI"u8;
    public static ReadOnlySpan<byte> ErrNeedNumericRadius => "ERR need numeric radius"u8;
    public static ReadOnlySpan<byte> ErrNeedNumericWidth => "ERR need numeric width"u8;
    public static ReadOnlySpan<byte> ErrNeedNumericHeight => "ERR need numeric height"u8;
    public static ReadOnlySpan<byte> ErrNegativeRadius => "ERR radius cannot be negative"u8;
    public static ReadOnlySpan<byte> ErrNegativeBox => "ERR height or width cannot be negative"u8;
    public static ReadOnlySpan<byte> ErrCountNotPositive => "ERR COUNT must be > 0"u8;
    public static ReadOnlySpan<byte> ErrAnyRequiresCount => "ERR the ANY argument requires COUNT argument"u8;
    public static ReadOnlySpan<byte> ErrMemberNotFound => "ERR could not decode requested zset member"u8;
    public static ReadOnlySpan<byte> ErrStoreWithOptions => "ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options"u8;
    public static ReadOnlySpan<byte> ErrSearchStoreWithOptions => "ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options"u8;
}
