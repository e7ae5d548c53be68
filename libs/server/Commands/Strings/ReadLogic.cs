using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The Reader callback of the read-only string and keyspace commands: GET and MGET copy the value,
/// GETRANGE copies a slice, STRLEN reports the length, TTL and friends report the expiration, and
/// EXISTS, TYPE and TOUCH only learn that a live record exists.
/// </summary>
internal static class ReadLogic
{
    public static bool Reader(in LogRecord record, ref StringInput input, ref StringOutput output)
    {
        switch (input.Command)
        {
            case RespCommand.GET:
            case RespCommand.MGET:
            case RespCommand.GETEX:
            case RespCommand.DUMP:
            case RespCommand.LCS:
            case RespCommand.RENAME:
            case RespCommand.RENAMENX:
            case RespCommand.COPY:
            case RespCommand.MOVE:
                output.Buffer!.Set(record.Value);
                output.HasValue = true;
                output.Number = record.Expiration;
                return true;
            case RespCommand.GETRANGE:
            case RespCommand.SUBSTR:
                CopyRange(record.Value, ref input, ref output);
                return true;
            case RespCommand.STRLEN:
                output.Number = record.ValueLength;
                return true;
            case RespCommand.TTL:
            case RespCommand.PTTL:
            case RespCommand.EXPIRETIME:
            case RespCommand.PEXPIRETIME:
                output.Number = record.Expiration;
                return true;
            case RespCommand.EXISTS:
            case RespCommand.TYPE:
            case RespCommand.TOUCH:
                return true;
            case RespCommand.MEMORY:
                output.Number = record.AllocatedSize;
                return true;
            default:
                throw new InvalidOperationException($"{input.Command} is not a read command of the string store.");
        }
    }

    /// <summary>GETRANGE's slice: negative indexes count from the end; out-of-range ends are clamped.</summary>
    private static void CopyRange(ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output)
    {
        long length = value.Length;
        long start = input.Number;
        long end = input.Number2;
        if (start < 0 && end < 0 && start > end)
        {
            output.Buffer!.Set(default);
            output.HasValue = true;
            return;
        }
        if (start < 0)
            start = Math.Max(0, length + start);
        if (end < 0)
            end = Math.Max(0, length + end);
        if (end >= length)
            end = length - 1;
        if (length == 0 || start > end)
        {
            output.Buffer!.Set(default);
        }
        else
        {
            output.Buffer!.Set(value.Slice((int)start, (int)(end - start + 1)));
        }
        output.HasValue = true;
    }
}
