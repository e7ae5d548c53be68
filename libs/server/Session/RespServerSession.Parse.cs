using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>Parsing of one command from the receive buffer: RESP arrays of bulk strings, or inline text.</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Most arguments a command may have (Redis's limit for a multibulk request).</summary>
    private const int MaxMultibulkLength = 1024 * 1024;

    /// <summary>Longest bulk argument (proto-max-bulk-len).</summary>
    private const long MaxBulkLength = 512L * 1024 * 1024;

    /// <summary>Longest inline command line.</summary>
    private const int MaxInlineLength = 64 * 1024;

    private enum ParseResult
    {
        Command,
        Empty,
        Incomplete,
        ProtocolError,
    }

    private ArgSlice[] _args = new ArgSlice[16];
    private int _argCount;

    /// <summary>Argument <paramref name="i"/> of the current command (0 is the command name).</summary>
    internal ref readonly ArgSlice Arg(int i) => ref _args[i];

    /// <summary>Number of arguments of the current command, its name included.</summary>
    internal int ArgCount => _argCount;

    private ParseResult TryParseCommand(byte* start, int length, out int consumed)
    {
        consumed = 0;
        return *start == '*' ? TryParseArray(start, length, out consumed) : TryParseInline(start, length, out consumed);
    }

    /// <summary>Reads a decimal line "&lt;digits&gt;\r\n" after a type byte. Returns false if incomplete; sets <paramref name="valid"/>.</summary>
    private static bool TryReadLengthLine(byte* start, byte* end, out long value, out byte* next, out bool valid)
    {
        value = 0;
        next = start;
        valid = true;
        byte* p = start;
        bool negative = false;
        if (p < end && *p == '-')
        {
            negative = true;
            p++;
        }
        int digits = 0;
        while (p < end && *p >= '0' && *p <= '9')
        {
            if (digits < 19)
                value = value * 10 + (*p - '0');
            else
                valid = false;
            digits++;
            p++;
        }
        if (p >= end)
        {
            // A length line longer than any valid one will never complete.
            if (p - start > 32)
            {
                valid = false;
                return true;
            }
            return false;
        }
        if (*p != '\r')
        {
            valid = false;
            return true;
        }
        if (p + 1 >= end)
            return false;
        if (p[1] != '\n' || digits == 0)
            valid = false;
        if (negative)
            value = -value;
        next = p + 2;
        return true;
    }

    private ParseResult TryParseArray(byte* start, int length, out int consumed)
    {
        consumed = 0;
        byte* end = start + length;
        if (!TryReadLengthLine(start + 1, end, out long count, out byte* p, out bool valid))
            return ParseResult.Incomplete;
        if (!valid || count > MaxMultibulkLength)
            return ProtocolError(RespStrings.ErrProtocolMultibulkLength);
        if (count <= 0)
        {
            consumed = (int)(p - start);
            return ParseResult.Empty;
        }
        if (_args.Length < count)
            Array.Resize(ref _args, (int)Math.Max(count, _args.Length * 2));

        for (int i = 0; i < count; i++)
        {
            if (p >= end)
                return ParseResult.Incomplete;
            if (*p != '$')
            {
                _writer.WriteError($"ERR Protocol error: expected '$', got '{(char)*p}'");
                return ParseResult.ProtocolError;
            }
            if (!TryReadLengthLine(p + 1, end, out long bulkLength, out byte* data, out valid))
                return ParseResult.Incomplete;
            if (!valid || bulkLength < 0 || bulkLength > MaxBulkLength)
                return ProtocolError(RespStrings.ErrProtocolBulkLength);
            if (end - data < bulkLength + 2)
                return ParseResult.Incomplete;
            _args[i] = new ArgSlice(data, (int)bulkLength);
            p = data + bulkLength + 2;
        }
        _argCount = (int)count;
        consumed = (int)(p - start);
        return ParseResult.Command;
    }

    private ParseResult ProtocolError(ReadOnlySpan<byte> message)
    {
        _writer.WriteError(message);
        return ParseResult.ProtocolError;
    }

    /// <summary>
    /// An inline command: one line of space-separated arguments, with "double" (escapes allowed) and
    /// 'single' quoted arguments as Redis splits them. Unescaping happens in place in the buffer.
    /// </summary>
    private ParseResult TryParseInline(byte* start, int length, out int consumed)
    {
        consumed = 0;
        var span = new ReadOnlySpan<byte>(start, length);
        int newline = span.IndexOf((byte)'\n');
        if (newline < 0)
        {
            if (length > MaxInlineLength)
                return ProtocolError("ERR Protocol error: too big inline request"u8);
            return ParseResult.Incomplete;
        }
        consumed = newline + 1;
        int lineLength = newline > 0 && start[newline - 1] == '\r' ? newline - 1 : newline;
        _argCount = 0;
        byte* p = start;
        byte* end = start + lineLength;
        while (true)
        {
            while (p < end && IsSpace(*p))
                p++;
            if (p >= end)
                break;
            if (_argCount == _args.Length)
                Array.Resize(ref _args, _args.Length * 2);
            if (!TrySplitArgument(ref p, end, out ArgSlice argument))
                return ProtocolError(RespStrings.ErrProtocolUnbalancedQuotes);
            _args[_argCount++] = argument;
        }
        return _argCount == 0 ? ParseResult.Empty : ParseResult.Command;
    }

    private static bool IsSpace(byte c) => c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';

    private static bool TrySplitArgument(ref byte* p, byte* end, out ArgSlice argument)
    {
        argument = default;
        byte* output = p;
        byte* begin = p;
        bool inDouble = false;
        bool inSingle = false;
        while (true)
        {
            if (inDouble)
            {
                if (p >= end)
                    return false;
                if (*p == '\\' && p + 3 < end && p[1] == 'x' && IsHex(p[2]) && IsHex(p[3]))
                {
                    *output++ = (byte)((HexValue(p[2]) << 4) | HexValue(p[3]));
                    p += 4;
                }
                else if (*p == '\\' && p + 1 < end)
                {
                    p++;
                    *output++ = *p switch
                    {
                        (byte)'n' => (byte)'\n',
                        (byte)'r' => (byte)'\r',
                        (byte)'t' => (byte)'\t',
                        (byte)'b' => (byte)'\b',
                        (byte)'a' => (byte)'\a',
                        _ => *p,
                    };
                    p++;
                }
                else if (*p == '"')
                {
                    // A closing quote must be followed by a space or the end.
                    if (p + 1 < end && !IsSpace(p[1]))
                        return false;
                    p++;
                    break;
                }
                else
                {
                    *output++ = *p++;
                }
            }
            else if (inSingle)
            {
                if (p >= end)
                    return false;
                if (*p == '\\' && p + 1 < end && p[1] == '\'')
                {
                    *output++ = (byte)'\'';
                    p += 2;
                }
                else if (*p == '\'')
                {
                    if (p + 1 < end && !IsSpace(p[1]))
                        return false;
                    p++;
                    break;
                }
                else
                {
                    *output++ = *p++;
                }
            }
            else
            {
                if (p >= end || IsSpace(*p))
                    break;
                if (*p == '"')
                {
                    inDouble = true;
                    p++;
                }
                else if (*p == '\'')
                {
                    inSingle = true;
                    p++;
                }
                else
                {
                    *output++ = *p++;
                }
            }
        }
        argument = new ArgSlice(begin, (int)(output - begin));
        return true;
    }

    private static bool IsHex(byte c) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');

    private static int HexValue(byte c) => c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}
