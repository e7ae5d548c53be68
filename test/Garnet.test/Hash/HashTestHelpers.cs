using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Garnet.test.Hash;

/// <summary>Reply builders and a small RESP reader for the hash tests.</summary>
internal static class HashTestHelpers
{
    public const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    public const string EmptyArray = "*0\r\n";

    /// <summary>An array reply of already-encoded elements.</summary>
    public static string Array(params string[] elements) => $"*{elements.Length}\r\n" + string.Concat(elements);

    /// <summary>An array reply of bulk strings.</summary>
    public static string Bulks(params string[] values)
    {
        var builder = new StringBuilder();
        builder.Append('*').Append(values.Length).Append("\r\n");
        foreach (var value in values)
            builder.Append(StringTestHelpers.Bulk(value));
        return builder.ToString();
    }

    /// <summary>
    /// Parses one raw RESP reply: bulk/simple strings as string, integers as long, nulls as null,
    /// aggregates (arrays, sets, maps flattened) as List&lt;object?&gt;, errors as <see cref="RespError"/>.
    /// </summary>
    public static object? Parse(string reply)
    {
        int offset = 0;
        var value = Parse(reply, ref offset);
        if (offset != reply.Length)
            throw new FormatException("Trailing bytes after the reply.");
        return value;
    }

    private static object? Parse(string text, ref int offset)
    {
        char type = text[offset++];
        int end = text.IndexOf("\r\n", offset, StringComparison.Ordinal);
        string line = text.Substring(offset, end - offset);
        offset = end + 2;
        switch (type)
        {
            case '+':
                return line;
            case '-':
                return new RespError(line);
            case ':':
                return long.Parse(line, CultureInfo.InvariantCulture);
            case '_':
                return null;
            case ',':
                return line;
            case '$':
                int length = int.Parse(line, CultureInfo.InvariantCulture);
                if (length < 0)
                    return null;
                string bulk = text.Substring(offset, length);
                offset += length + 2;
                return bulk;
            case '*':
            case '~':
            case '%':
                int count = int.Parse(line, CultureInfo.InvariantCulture);
                if (count < 0)
                    return null;
                if (type == '%')
                    count *= 2;
                var items = new List<object?>(count);
                for (int i = 0; i < count; i++)
                    items.Add(Parse(text, ref offset));
                return items;
            default:
                throw new FormatException($"Unexpected reply type '{type}'.");
        }
    }

    /// <summary>A parsed error reply.</summary>
    public sealed record RespError(string Message);

    /// <summary>HSET arguments for fields "f{first}".."f{first+count-1}" with values "v{i}".</summary>
    public static string[] HSetCommand(string key, int first, int count)
    {
        var arguments = new string[2 + 2 * count];
        arguments[0] = "HSET";
        arguments[1] = key;
        for (int i = 0; i < count; i++)
        {
            arguments[2 + 2 * i] = "f" + (first + i);
            arguments[3 + 2 * i] = "v" + (first + i);
        }
        return arguments;
    }

    /// <summary>Fills <paramref name="key"/> with <paramref name="count"/> fields f0.. (values v0..), in batches.</summary>
    public static void Fill(RawClient client, string key, int count, int first = 0)
    {
        const int Batch = 2000;
        var commands = new List<string[]>();
        for (int start = first; start < first + count; start += Batch)
            commands.Add(HSetCommand(key, start, Math.Min(Batch, first + count - start)));
        foreach (var reply in client.Pipeline(commands.ToArray()))
        {
            if (reply[0] != ':')
                throw new InvalidOperationException("HSET failed: " + reply);
        }
    }
}
