using System;

namespace Garnet.server;

/// <summary>Protocol literals of the keyspace commands (errors without the leading '-' and CRLF).</summary>
internal static class KeyspaceStrings
{
    public static ReadOnlySpan<byte> String => "string"u8;
    public static ReadOnlySpan<byte> None => "none"u8;

    public static ReadOnlySpan<byte> ErrExpireNxWithOthers => "ERR NX and XX, GT or LT options at the same time are not compatible"u8;
    public static ReadOnlySpan<byte> ErrExpireGtAndLt => "ERR GT and LT options at the same time are not compatible"u8;
    public static ReadOnlySpan<byte> ErrSameObject => "ERR source and destination objects are the same"u8;
    public static ReadOnlySpan<byte> ErrDumpPayload => "ERR DUMP payload version or checksum are wrong"u8;
    public static ReadOnlySpan<byte> ErrBadDataFormat => "ERR Bad data format"u8;
    public static ReadOnlySpan<byte> ErrBusyKey => "BUSYKEY Target key name already exists."u8;
    public static ReadOnlySpan<byte> ErrInvalidTtl => "ERR Invalid TTL value, must be >= 0"u8;
    public static ReadOnlySpan<byte> ErrInvalidIdleTime => "ERR Invalid IDLETIME value, must be >= 0"u8;
    public static ReadOnlySpan<byte> ErrInvalidFreq => "ERR Invalid FREQ value, must be >= 0 and <= 255"u8;
}
