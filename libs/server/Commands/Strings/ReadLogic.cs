using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The Reader callback of the read-only string and keyspace commands: GET and MGET copy the value,
/// GETRANGE copies a slice, STRLEN reports the length, TTL and friends report the expiration, and
/// EXISTS, TYPE and TOUCH only learn that a live record exists. As in Redis, the expiration queries,
/// EXISTS, TYPE, MEMORY USAGE, OBJECT and DEBUG OBJECT look at a key without counting as an access to it
/// (<see cref="ReadInfo.SkipAccessUpdate"/>); every other read, and TOUCH, does count.
/// </summary>
internal static unsafe class ReadLogic
{
    public static bool Reader(in LogRecord record, ref StringInput input, ref StringOutput output, ref ReadInfo readInfo)
    {
        switch (input.Command)
        {
            case RespCommand.GET when output.Reply != null:
                output.ReplyWritten = RespWriter.TryEncodeBulk(output.Reply, output.ReplyRoom, record.Value);
                if (output.ReplyWritten != 0)
                    return true;
                goto case RespCommand.MGET;
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
                output.Form = StringValueEncoding.FormOf(in record);
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
                readInfo.SkipAccessUpdate = true;
                output.Number = record.Expiration;
                return true;
            case RespCommand.EXISTS:
            case RespCommand.TYPE:
                readInfo.SkipAccessUpdate = true;
                return true;
            case RespCommand.TOUCH:
                return true;
            case RespCommand.MEMORY:
                readInfo.SkipAccessUpdate = true;
                // A large value's block counts as well as its record (see Tsavorite.ExternalValue).
                output.Number = record.AllocatedSize + record.ExternalBytes;
                return true;
            case RespCommand.DEBUG:
                // DEBUG OBJECT's look at the value.
                readInfo.SkipAccessUpdate = true;
                output.Buffer!.Set(record.Value);
                output.HasValue = true;
                return true;
            case RespCommand.OBJECT:
                return ObjectInspection.Reader(in record, null, ref input, ref output, ref readInfo);
            case RespCommand.GETWITHETAG:
            case RespCommand.GETIFNOTMATCH:
                return ETagLogic.Reader(in record, ref input, ref output);
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
