using System;
using System.Collections.Generic;
using System.Text;

namespace Garnet.test;

/// <summary>Finds where one RESP2/RESP3 frame ends in bytes received so far (for the raw test clients).</summary>
public static class RespFrame
{
    /// <summary>
    /// Advances <paramref name="offset"/> past the frame that starts there (nested ones included) and returns
    /// true, or returns false if <paramref name="bytes"/> does not hold all of it yet.
    /// </summary>
    public static bool TryMeasure(List<byte> bytes, ref int offset)
    {
        if (offset >= bytes.Count)
            return false;
        char type = (char)bytes[offset];
        offset++;
        if (!TryReadLine(bytes, ref offset, out string line))
            return false;
        switch (type)
        {
            case '+':
            case '-':
            case ':':
            case '_':
            case ',':
            case '#':
            case '(':
                return true;
            case '$':
            case '=':
            case '!':
                int length = int.Parse(line);
                if (length < 0)
                    return true;
                if (bytes.Count < offset + length + 2)
                    return false;
                offset += length + 2;
                return true;
            case '*':
            case '~':
            case '>':
            case '%':
            case '|':
                int count = int.Parse(line);
                if (type == '%' || type == '|')
                    count *= 2;
                for (int i = 0; i < count; i++)
                {
                    if (!TryMeasure(bytes, ref offset))
                        return false;
                }
                return true;
            default:
                throw new InvalidOperationException($"Unexpected reply type '{type}'.");
        }
    }

    /// <summary>Splits <paramref name="bytes"/> into whole frames as raw text; an incomplete tail is left out.</summary>
    public static List<string> Split(List<byte> bytes)
    {
        var frames = new List<string>();
        int start = 0;
        int offset = 0;
        while (TryMeasure(bytes, ref offset))
        {
            frames.Add(Encoding.Latin1.GetString(bytes.GetRange(start, offset - start).ToArray()));
            start = offset;
        }
        return frames;
    }

    /// <summary>The bulk strings of a command frame (an array of bulk strings), joined by spaces.</summary>
    public static string CommandText(string frame)
    {
        var parts = new List<string>();
        int offset = frame.IndexOf("\r\n", StringComparison.Ordinal) + 2;
        while (offset < frame.Length && frame[offset] == '$')
        {
            int end = frame.IndexOf("\r\n", offset, StringComparison.Ordinal);
            int length = int.Parse(frame.AsSpan(offset + 1, end - offset - 1));
            parts.Add(frame.Substring(end + 2, length));
            offset = end + 2 + length + 2;
        }
        return string.Join(' ', parts);
    }

    private static bool TryReadLine(List<byte> bytes, ref int offset, out string line)
    {
        line = "";
        for (int i = offset; i + 1 < bytes.Count; i++)
        {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n')
            {
                line = Encoding.Latin1.GetString(bytes.GetRange(offset, i - offset).ToArray());
                offset = i + 2;
                return true;
            }
        }
        return false;
    }
}
