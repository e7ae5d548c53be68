using System;

namespace Garnet.common;

/// <summary>Protocol literals: replies and the exact error texts Redis uses (without '-' and CRLF for errors).</summary>
public static class RespStrings
{
    public static ReadOnlySpan<byte> Ok => "+OK\r\n"u8;
    public static ReadOnlySpan<byte> Pong => "+PONG\r\n"u8;
    public static ReadOnlySpan<byte> Queued => "+QUEUED\r\n"u8;
    public static ReadOnlySpan<byte> EmptyArray => "*0\r\n"u8;

    public static ReadOnlySpan<byte> ErrSyntax => "ERR syntax error"u8;
    public static ReadOnlySpan<byte> ErrNotInteger => "ERR value is not an integer or out of range"u8;
    public static ReadOnlySpan<byte> ErrNotFloat => "ERR value is not a valid float"u8;
    public static ReadOnlySpan<byte> ErrOverflow => "ERR increment or decrement would overflow"u8;
    public static ReadOnlySpan<byte> ErrIncrFloatNaNOrInfinity => "ERR increment would produce NaN or Infinity"u8;
    public static ReadOnlySpan<byte> WrongType => "WRONGTYPE Operation against a key holding the wrong kind of value"u8;
    public static ReadOnlySpan<byte> ErrNoSuchKey => "ERR no such key"u8;
    public static ReadOnlySpan<byte> ErrInvalidExpire => "ERR invalid expire time in 'set' command"u8;
    public static ReadOnlySpan<byte> ErrDbIndexOutOfRange => "ERR DB index is out of range"u8;
    public static ReadOnlySpan<byte> ErrIntOutOfRange => "ERR value is out of range, value must between -2147483648 and 2147483647"u8;
    public static ReadOnlySpan<byte> ErrInvalidDbIndex => "ERR value is not an integer or out of range"u8;
    public static ReadOnlySpan<byte> ErrOffsetOutOfRange => "ERR offset is out of range"u8;
    public static ReadOnlySpan<byte> ErrStringTooLong => "ERR string exceeds maximum allowed size (proto-max-bulk-len)"u8;
    public static ReadOnlySpan<byte> ErrOutOfMemory => "OOM command not allowed when used memory > 'maxmemory'."u8;
    public static ReadOnlySpan<byte> ErrInvalidCursor => "ERR invalid cursor"u8;
    public static ReadOnlySpan<byte> ErrTimeoutNotFloat => "ERR timeout is not a float or out of range"u8;

    public static ReadOnlySpan<byte> ErrProtocolMultibulkLength => "ERR Protocol error: invalid multibulk length"u8;
    public static ReadOnlySpan<byte> ErrProtocolBulkLength => "ERR Protocol error: invalid bulk length"u8;
    public static ReadOnlySpan<byte> ErrProtocolUnbalancedQuotes => "ERR Protocol error: unbalanced quotes in request"u8;
}
