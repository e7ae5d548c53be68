using System;
using System.Text;

namespace Garnet.server.Scripting;

/// <summary>
/// How the debugger shows a command's reply in its "&lt;reply&gt;" lines, as Redis's debugger does: status and error
/// replies quoted with their first byte, bulk strings quoted, integers bare, a null as NULL, arrays as [a,b], and the
/// RESP3 types as {k => v}, (null), #true, (double) 1.5.
/// </summary>
internal static class ReplyText
{
    /// <summary>The text of the reply at the start of <paramref name="reply"/>.</summary>
    public static string Of(ReadOnlySpan<byte> reply)
    {
        var text = new StringBuilder();
        int position = 0;
        Append(text, reply, ref position);
        return text.ToString();
    }

    private static void Append(StringBuilder text, ReadOnlySpan<byte> reply, ref int position)
    {
        if (position >= reply.Length)
            return;
        byte type = reply[position];
        var line = ReadLine(reply, ref position);
        var header = line.Slice(1);
        switch (type)
        {
            case (byte)'+':
            case (byte)'-':
                LuaValueText.AppendQuoted(text, line);
                break;
            case (byte)':':
            case (byte)'(':
                text.Append(Encoding.ASCII.GetString(header));
                break;
            case (byte)'$':
            case (byte)'=':
                {
                    long length = ParseLength(header);
                    if (length < 0)
                    {
                        text.Append("NULL");
                        break;
                    }
                    int take = (int)Math.Min(length, reply.Length - position);
                    LuaValueText.AppendQuoted(text, reply.Slice(position, take));
                    position = Math.Min(reply.Length, position + take + 2);
                    break;
                }
            case (byte)'*':
            case (byte)'>':
            case (byte)'~':
                {
                    long count = ParseLength(header);
                    if (count < 0)
                    {
                        text.Append("NULL");
                        break;
                    }
                    text.Append(type == '~' ? '{' : '[');
                    for (long i = 0; i < count; i++)
                    {
                        Append(text, reply, ref position);
                        if (i != count - 1)
                            text.Append(',');
                    }
                    text.Append(type == '~' ? '}' : ']');
                    break;
                }
            case (byte)'%':
                {
                    long count = ParseLength(header);
                    text.Append('{');
                    for (long i = 0; i < count; i++)
                    {
                        Append(text, reply, ref position);
                        text.Append(" => ");
                        Append(text, reply, ref position);
                        if (i != count - 1)
                            text.Append(',');
                    }
                    text.Append('}');
                    break;
                }
            case (byte)'_':
                text.Append("(null)");
                break;
            case (byte)'#':
                text.Append(header.Length > 0 && header[0] == 't' ? "#true" : "#false");
                break;
            case (byte)',':
                text.Append("(double) ").Append(Encoding.ASCII.GetString(header));
                break;
            default:
                text.Append(Encoding.UTF8.GetString(line));
                break;
        }
    }

    /// <summary>The line at <paramref name="position"/> without its CRLF; moves past it.</summary>
    private static ReadOnlySpan<byte> ReadLine(ReadOnlySpan<byte> reply, ref int position)
    {
        var rest = reply.Slice(position);
        int end = rest.IndexOf("\r\n"u8);
        if (end < 0)
        {
            position = reply.Length;
            return rest;
        }
        position += end + 2;
        return rest.Slice(0, end);
    }

    private static long ParseLength(ReadOnlySpan<byte> text)
        => Garnet.common.NumberFormat.TryParseLong(text, out long value) ? value : -1;
}
