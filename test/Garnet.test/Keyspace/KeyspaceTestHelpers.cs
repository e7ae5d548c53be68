using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>Parsing of raw replies (as <see cref="RawClient"/> returns them) for the keyspace tests.</summary>
internal static class Resp
{
    /// <summary>A bulk string's text, or null for a nil reply.</summary>
    public static string? Bulk(string reply)
    {
        int position = 0;
        return (string?)Parse(reply, ref position);
    }

    /// <summary>An integer reply's value.</summary>
    public static long Integer(string reply)
    {
        Assert.That(reply, Does.StartWith(":"), reply);
        return long.Parse(reply.AsSpan(1, reply.Length - 3), CultureInfo.InvariantCulture);
    }

    /// <summary>An array of bulk strings.</summary>
    public static List<string> Strings(string reply)
    {
        int position = 0;
        var items = (List<object?>)Parse(reply, ref position)!;
        return items.ConvertAll(item => (string)item!);
    }

    /// <summary>A SCAN reply: the next cursor and the keys.</summary>
    public static (string Cursor, List<string> Keys) ScanReply(string reply)
    {
        int position = 0;
        var items = (List<object?>)Parse(reply, ref position)!;
        Assert.That(items, Has.Count.EqualTo(2), reply);
        var keys = ((List<object?>)items[1]!).ConvertAll(item => (string)item!);
        return ((string)items[0]!, keys);
    }

    private static object? Parse(string reply, ref int position)
    {
        char type = reply[position];
        int lineEnd = reply.IndexOf("\r\n", position, StringComparison.Ordinal);
        string line = reply.Substring(position + 1, lineEnd - position - 1);
        position = lineEnd + 2;
        switch (type)
        {
            case '$':
                int length = int.Parse(line, CultureInfo.InvariantCulture);
                if (length < 0)
                    return null;
                string text = reply.Substring(position, length);
                position += length + 2;
                return text;
            case '*':
                int count = int.Parse(line, CultureInfo.InvariantCulture);
                if (count < 0)
                    return null;
                var items = new List<object?>(count);
                for (int i = 0; i < count; i++)
                    items.Add(Parse(reply, ref position));
                return items;
            case ':':
                return long.Parse(line, CultureInfo.InvariantCulture);
            case '+':
            case '-':
                return line;
            default:
                throw new FormatException($"Unexpected reply type '{type}' in {reply}");
        }
    }

    /// <summary>The raw error reply for <paramref name="message"/>.</summary>
    public static string Error(string message) => "-" + message + "\r\n";

    /// <summary>Redis's arity error reply for <paramref name="command"/> (lower case).</summary>
    public static string WrongArity(string command) => Error($"ERR wrong number of arguments for '{command}' command");

    /// <summary>Text as the raw client sends bytes (Latin-1: one char per byte).</summary>
    public static byte[] Bytes(string text) => Encoding.Latin1.GetBytes(text);
}
