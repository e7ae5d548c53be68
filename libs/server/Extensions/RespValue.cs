using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>A parsed RESP2 reply, as procedures see the replies of the commands they call.</summary>
public sealed class RespValue
{
    private RespValue(char type, byte[]? bytes, long integer, RespValue[]? items)
    {
        Type = type;
        Bytes = bytes;
        Integer = integer;
        Items = items;
    }

    /// <summary>The RESP type byte: '+', '-', ':', '$' or '*'.</summary>
    public char Type { get; }

    /// <summary>The bytes of a simple string, error or bulk string (null for nil).</summary>
    public byte[]? Bytes { get; }

    /// <summary>The value of an integer reply.</summary>
    public long Integer { get; }

    /// <summary>The elements of an array reply (null for a nil array).</summary>
    public RespValue[]? Items { get; }

    public bool IsError => Type == '-';

    public bool IsNull => (Type == '$' && Bytes == null) || (Type == '*' && Items == null);

    /// <summary>The text of a string, error or integer reply.</summary>
    public override string ToString() => Type == ':' ? Integer.ToString() : Bytes == null ? "(nil)" : Encoding.UTF8.GetString(Bytes);

    /// <summary>Parses one reply at the start of <paramref name="data"/>.</summary>
    internal static RespValue Parse(ReadOnlySpan<byte> data)
    {
        int at = 0;
        return ParseAt(data, ref at);
    }

    private static RespValue ParseAt(ReadOnlySpan<byte> data, ref int at)
    {
        char type = (char)data[at];
        int lineEnd = data.Slice(at).IndexOf("\r\n"u8) + at;
        var line = data.Slice(at + 1, lineEnd - at - 1);
        at = lineEnd + 2;
        switch (type)
        {
            case '+':
            case '-':
                return new RespValue(type, line.ToArray(), 0, null);
            case ':':
                NumberFormat.TryParseLong(line, out long integer);
                return new RespValue(type, null, integer, null);
            case '$':
                NumberFormat.TryParseLong(line, out long length);
                if (length < 0)
                    return new RespValue('$', null, 0, null);
                var bytes = data.Slice(at, (int)length).ToArray();
                at += (int)length + 2;
                return new RespValue('$', bytes, 0, null);
            case '*':
                NumberFormat.TryParseLong(line, out long count);
                if (count < 0)
                    return new RespValue('*', null, 0, null);
                var items = new List<RespValue>((int)count);
                for (long i = 0; i < count; i++)
                    items.Add(ParseAt(data, ref at));
                return new RespValue('*', null, 0, items.ToArray());
            default:
                throw new InvalidOperationException($"Unexpected reply type '{type}'.");
        }
    }
}
