using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>Parsing of one command from the receive buffer: RESP arrays of bulk strings, or inline text.</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Most arguments a command may have (Redis 7 allows up to INT_MAX; the argument table grows as they arrive).</summary>
    private const long MaxMultibulkLength = int.MaxValue;

    /// <summary>Most arguments an unauthenticated client may send in one command (as Redis).</summary>
    private const int MaxUnauthenticatedMultibulkLength = 10;

    /// <summary>Longest argument an unauthenticated client may send (as Redis).</summary>
    private const int MaxUnauthenticatedBulkLength = 16384;

    /// <summary>Longest inline command line.</summary>
    private const int MaxInlineLength = 64 * 1024;

    private enum ParseResult
    {
        Command,
        Empty,
        Incomplete,
        ProtocolError,
    }

    private ArgSlice[] _args = []; // sized at the first command: a connection that sends nothing costs little
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

    private enum LineStatus
    {
        Complete,
        Incomplete,
        TooBig,
    }

    /// <summary>
    /// Finds the end of a header line ("*&lt;n&gt;" or "$&lt;n&gt;") starting at <paramref name="line"/> as Redis does:
    /// the first '\r', with the byte after it (the '\n', which Redis skips unchecked) already received.
    /// A line with no '\r' in more than 64 KB will never be valid.
    /// </summary>
    private static LineStatus FindLineEnd(byte* line, byte* end, out byte* carriageReturn)
    {
        var span = new ReadOnlySpan<byte>(line, (int)(end - line));
        int index = span.IndexOf((byte)'\r');
        carriageReturn = line + index;
        if (index < 0)
            return span.Length > MaxInlineLength ? LineStatus.TooBig : LineStatus.Incomplete;
        return index + 1 < span.Length ? LineStatus.Complete : LineStatus.Incomplete;
    }

    /// <summary>
    /// A RESP array of bulk strings, checked in Redis's order and with its error texts; lengths are
    /// parsed as strictly as Redis's string2ll (no '+', no leading zeros, no "-0").
    /// </summary>
    private ParseResult TryParseArray(byte* start, int length, out int consumed)
    {
        consumed = 0;
        byte* end = start + length;
        byte* lineEnd;
        long count;
        if (length >= 4 && IsDigit(start[1]) && start[2] == '\r')
        {
            // Fast path: a one-digit argument count.
            count = start[1] - '0';
            lineEnd = start + 2;
        }
        else
        {
            switch (FindLineEnd(start, end, out lineEnd))
            {
                case LineStatus.Incomplete:
                    return ParseResult.Incomplete;
                case LineStatus.TooBig:
                    return ProtocolError("ERR Protocol error: too big mbulk count string"u8);
            }
            if (!NumberFormat.TryParseLong(new ReadOnlySpan<byte>(start + 1, (int)(lineEnd - start - 1)), out count) || count > MaxMultibulkLength)
                return ProtocolError(RespStrings.ErrProtocolMultibulkLength);
        }
        byte* p = lineEnd + 2;
        if (count <= 0)
        {
            consumed = (int)(p - start);
            return ParseResult.Empty;
        }
        if (count > MaxUnauthenticatedMultibulkLength && !Authenticated)
            return ProtocolError("ERR Protocol error: unauthenticated multibulk length"u8);

        for (int i = 0; i < count; i++)
        {
            long bulkLength;
            if (end - p >= 4 && p[0] == '$' && IsDigit(p[1]) && p[2] == '\r')
            {
                // Fast path: a one-digit length, the usual case for command names and small keys.
                bulkLength = p[1] - '0';
                lineEnd = p + 2;
            }
            else
            {
                if (p >= end)
                    return ParseResult.Incomplete;
                switch (FindLineEnd(p, end, out lineEnd))
                {
                    case LineStatus.Incomplete:
                        return ParseResult.Incomplete;
                    case LineStatus.TooBig:
                        return ProtocolError("ERR Protocol error: too big bulk count string"u8);
                }
                if (*p != '$')
                    return ExpectedDollar(*p);
                if (!NumberFormat.TryParseLong(new ReadOnlySpan<byte>(p + 1, (int)(lineEnd - p - 1)), out bulkLength) || bulkLength < 0 || bulkLength > _server.ClientLimits.ProtoMaxBulkLength)
                    return ProtocolError(RespStrings.ErrProtocolBulkLength);
            }
            if (bulkLength > MaxUnauthenticatedBulkLength && !Authenticated)
                return ProtocolError("ERR Protocol error: unauthenticated bulk length"u8);
            byte* data = lineEnd + 2;
            if (end - data < bulkLength + 2)
                return ParseResult.Incomplete;
            if (i == _args.Length)
                Array.Resize(ref _args, (int)Math.Min(count, Math.Max(16, 2L * _args.Length)));
            _args[i] = new ArgSlice(data, (int)bulkLength);
            p = data + bulkLength + 2;
        }
        _argCount = (int)count;
        consumed = (int)(p - start);
        return ParseResult.Command;
    }

    /// <summary>Redis's error for an array element that is not a bulk string; the byte is shown as is (a newline as a space).</summary>
    private ParseResult ExpectedDollar(byte got)
    {
        ReadOnlySpan<byte> prefix = "ERR Protocol error: expected '$', got '"u8;
        Span<byte> message = stackalloc byte[prefix.Length + 2];
        prefix.CopyTo(message);
        message[prefix.Length] = got is (byte)'\r' or (byte)'\n' ? (byte)' ' : got;
        message[prefix.Length + 1] = (byte)'\'';
        return ProtocolError(message);
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
        while (ArgumentSplitter.SkipSpaces(ref p, end))
        {
            if (_argCount == _args.Length)
                Array.Resize(ref _args, Math.Max(16, _args.Length * 2));
            byte* argument = p;
            if (!ArgumentSplitter.TryReadArgument(ref p, end, out int argumentLength))
                return ProtocolError(RespStrings.ErrProtocolUnbalancedQuotes);
            _args[_argCount++] = new ArgSlice(argument, argumentLength);
        }
        return _argCount == 0 ? ParseResult.Empty : ParseResult.Command;
    }

    private static bool IsDigit(byte c) => (uint)(c - '0') <= 9;
}
