using System;
using System.Collections.Generic;
using System.Text;

namespace Garnet.test.Server;

/// <summary>Helpers for reading raw replies: the text of a bulk or verbatim string, INFO fields, RESP encodings.</summary>
internal static class ReplyText
{
    /// <summary>The payload of a bulk (<c>$</c>) or verbatim (<c>=</c>, without its "txt:" prefix) string reply.</summary>
    public static string Payload(string reply)
    {
        int headerEnd = reply.IndexOf("\r\n", StringComparison.Ordinal);
        if (headerEnd < 0 || (reply[0] != '$' && reply[0] != '='))
            throw new FormatException("Not a bulk or verbatim string: " + reply);
        int length = int.Parse(reply.AsSpan(1, headerEnd - 1));
        string body = reply.Substring(headerEnd + 2, length);
        return reply[0] == '=' ? body.Substring(4) : body;
    }

    /// <summary>Fields of an INFO reply, by name.</summary>
    public static Dictionary<string, string> InfoFields(string reply)
    {
        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (string line in Payload(reply).Split("\r\n"))
        {
            if (line.Length == 0 || line[0] == '#')
                continue;
            int colon = line.IndexOf(':');
            fields[line.Substring(0, colon)] = line.Substring(colon + 1);
        }
        return fields;
    }

    /// <summary>The section titles of an INFO reply, in order.</summary>
    public static List<string> InfoSections(string reply)
    {
        var sections = new List<string>();
        foreach (string line in Payload(reply).Split("\r\n"))
        {
            if (line.StartsWith("# ", StringComparison.Ordinal))
                sections.Add(line.Substring(2));
        }
        return sections;
    }

    /// <summary>A RESP bulk string.</summary>
    public static string Bulk(string value) => "$" + Encoding.Latin1.GetByteCount(value) + "\r\n" + value + "\r\n";

    /// <summary>A RESP array of bulk strings.</summary>
    public static string BulkArray(params string[] values)
    {
        var text = new StringBuilder("*").Append(values.Length).Append("\r\n");
        foreach (string value in values)
            text.Append(Bulk(value));
        return text.ToString();
    }

    /// <summary>The value of field <paramref name="name"/> in a CLIENT LIST / CLIENT INFO line.</summary>
    public static string ClientField(string line, string name)
    {
        foreach (string field in line.Trim('\n').Split(' '))
        {
            if (field.StartsWith(name + "=", StringComparison.Ordinal))
                return field.Substring(name.Length + 1);
        }
        throw new KeyNotFoundException($"No field '{name}' in '{line}'.");
    }
}
