using System;

namespace Garnet.server;

/// <summary>Error replies specific to the sorted-set commands (as Redis words them).</summary>
internal static class SortedSetStrings
{
    public static ReadOnlySpan<byte> ErrXxAndNx => "ERR XX and NX options at the same time are not compatible"u8;
    public static ReadOnlySpan<byte> ErrGtLtNx => "ERR GT, LT, and/or NX options at the same time are not compatible"u8;
    public static ReadOnlySpan<byte> ErrIncrSinglePair => "ERR INCR option supports a single increment-element pair"u8;
    public static ReadOnlySpan<byte> ErrScoreNaN => "ERR resulting score is not a number (NaN)"u8;
    public static ReadOnlySpan<byte> ErrMinMaxNotFloat => "ERR min or max is not a float"u8;
    public static ReadOnlySpan<byte> ErrMinMaxNotString => "ERR min or max not valid string range item"u8;
    public static ReadOnlySpan<byte> ErrLimitNeedsByScoreOrLex => "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"u8;
    public static ReadOnlySpan<byte> ErrWithScoresByLex => "ERR syntax error, WITHSCORES not supported in combination with BYLEX"u8;
    public static ReadOnlySpan<byte> ErrMustBePositive => "ERR value is out of range, must be positive"u8;
    public static ReadOnlySpan<byte> ErrOutOfRange => "ERR value is out of range"u8;
    public static ReadOnlySpan<byte> ErrRandMemberCountRange => "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"u8;
    public static ReadOnlySpan<byte> ErrNumKeysPositive => "ERR numkeys should be greater than 0"u8;
    public static ReadOnlySpan<byte> ErrCountPositive => "ERR count should be greater than 0"u8;
    public static ReadOnlySpan<byte> ErrWeightNotFloat => "ERR weight value is not a float"u8;
    public static ReadOnlySpan<byte> ErrLimitNegative => "ERR LIMIT can't be negative"u8;
    public static ReadOnlySpan<byte> EmptyScan => "*2\r\n$1\r\n0\r\n*0\r\n"u8;
}
