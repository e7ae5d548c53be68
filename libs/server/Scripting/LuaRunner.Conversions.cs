using System;
using System.Globalization;
using System.Text;
using Garnet.common;
using static Garnet.server.Scripting.LuaNative;

namespace Garnet.server.Scripting;

/// <summary>
/// Redis's conversions between replies and Lua values. Replies to Lua (redis.call): integer → number,
/// bulk → string, null bulk or array → false, array → table, status → {ok=...}, error → {err=...};
/// after redis.setresp(3) also map → {map=...}, set → {set=...}, null → nil, boolean, double →
/// {double=...}, big number → {big_number=...}, verbatim → {verbatim_string=...}. Lua to the
/// client: number → integer (truncated), string → bulk, true → 1, false and nil → null (booleans
/// stay booleans after setresp(3)), {err=}, {ok=}, {double=}, {big_number=}, {map=}, {set=}, and
/// any other table → array up to its first nil.
/// </summary>
internal sealed unsafe partial class LuaRunner
{
    /// <summary>Pushes the reply at <paramref name="position"/> as a Lua value and moves past it.</summary>
    private static void PushReply(nint L, ReadOnlySpan<byte> data, ref int position, int depth)
    {
        if (position >= data.Length)
        {
            PushNil(L);
            return;
        }
        byte kind = data[position];
        var line = ReadLine(data, ref position);
        switch (kind)
        {
            case (byte)'+':
                PushFieldTable(L, "ok\0"u8, line);
                return;
            case (byte)'-':
                // Marked as Redis marks it: the command's error is counted already, so a script that returns or
                // raises it does not count it again.
                PushFieldTable(L, "err\0"u8, line);
                PushBoolean(L, 1);
                fixed (byte* name = CountedErrorField)
                    SetField(L, -2, name);
                return;
            case (byte)':':
                PushInteger(L, ParseLong(line));
                return;
            case (byte)'$':
                {
                    long length = ParseLong(line);
                    if (length < 0)
                    {
                        PushBoolean(L, 0);
                        return;
                    }
                    PushBytes(L, data.Slice(position, (int)length));
                    position += (int)length + 2;
                    return;
                }
            case (byte)'*':
            case (byte)'>':
                {
                    long count = ParseLong(line);
                    if (count < 0)
                    {
                        PushBoolean(L, 0);
                        return;
                    }
                    CheckDepth(L, depth);
                    CreateTable(L, (int)count, 0);
                    for (int i = 1; i <= count; i++)
                    {
                        PushReply(L, data, ref position, depth + 1);
                        RawSetI(L, -2, i);
                    }
                    return;
                }
            case (byte)'%':
            case (byte)'~':
                {
                    bool map = kind == '%';
                    long count = ParseLong(line);
                    CheckDepth(L, depth);
                    CreateTable(L, 0, 1);
                    PushBytes(L, map ? "map"u8 : "set"u8);
                    CreateTable(L, 0, (int)count);
                    for (long i = 0; i < count; i++)
                    {
                        PushReply(L, data, ref position, depth + 1);
                        if (map)
                            PushReply(L, data, ref position, depth + 1);
                        else
                            PushBoolean(L, 1);
                        if (Type(L, -2) == TypeNil)
                            Pop(L, 2);
                        else
                            RawSet(L, -3);
                    }
                    RawSet(L, -3);
                    return;
                }
            case (byte)'_':
                PushNil(L);
                return;
            case (byte)'#':
                PushBoolean(L, line.Length > 0 && line[0] == 't' ? 1 : 0);
                return;
            case (byte)',':
                {
                    CreateTable(L, 0, 1);
                    PushBytes(L, "double"u8);
                    PushNumber(L, ParseDouble(line));
                    RawSet(L, -3);
                    return;
                }
            case (byte)'(':
                PushFieldTable(L, "big_number\0"u8, line);
                return;
            case (byte)'=':
                {
                    long length = ParseLong(line);
                    var text = data.Slice(position, (int)length);
                    position += (int)length + 2;
                    CreateTable(L, 0, 1);
                    PushBytes(L, "verbatim_string"u8);
                    CreateTable(L, 0, 2);
                    PushBytes(L, "format"u8);
                    PushBytes(L, text.Slice(0, Math.Min(3, text.Length)));
                    RawSet(L, -3);
                    PushBytes(L, "string"u8);
                    PushBytes(L, text.Length > 4 ? text.Slice(4) : ReadOnlySpan<byte>.Empty);
                    RawSet(L, -3);
                    RawSet(L, -3);
                    return;
                }
            default:
                throw new InvalidOperationException($"Unexpected reply type '{(char)kind}' in a script.");
        }
    }

    private static void CheckDepth(nint L, int depth)
    {
        if (depth > MaxNesting || CheckStack(L, 8) == 0)
            throw new InvalidOperationException("reached lua stack limit");
    }

    /// <summary>Pushes {field = value}; <paramref name="field"/> is a NUL-terminated literal.</summary>
    private static void PushFieldTable(nint L, ReadOnlySpan<byte> field, ReadOnlySpan<byte> value)
    {
        CreateTable(L, 0, 1);
        PushBytes(L, value);
        fixed (byte* name = field)
            SetField(L, -2, name);
    }

    /// <summary>The rest of the line after the type byte at <paramref name="position"/>; moves past its CRLF.</summary>
    private static ReadOnlySpan<byte> ReadLine(ReadOnlySpan<byte> data, ref int position)
    {
        // Reply lines hardly ever hold a CR of their own (simple strings and errors cannot): look for CR first.
        int start = position + 1;
        int end = data.Slice(start).IndexOf((byte)'\r');
        if (end >= 0 && (start + end + 1 >= data.Length || data[start + end + 1] != '\n'))
            end = data.Slice(start).IndexOf("\r\n"u8);
        if (end < 0)
            throw new InvalidOperationException("Truncated reply in a script.");
        position = start + end + 2;
        return data.Slice(start, end);
    }

    private static long ParseLong(ReadOnlySpan<byte> text)
    {
        // The replies come from this server: short, well-formed decimal numbers.
        if (text.Length is > 0 and < 19)
        {
            bool negative = text[0] == '-';
            long value = 0;
            int i = negative ? 1 : 0;
            for (; i < text.Length; i++)
            {
                uint digit = (uint)(text[i] - '0');
                if (digit > 9)
                    break;
                value = value * 10 + digit;
            }
            if (i == text.Length && i > (negative ? 1 : 0))
                return negative ? -value : value;
        }
        if (!System.Buffers.Text.Utf8Parser.TryParse(text, out long parsed, out int consumed) || consumed != text.Length)
            throw new InvalidOperationException("Bad number in a reply.");
        return parsed;
    }

    private static double ParseDouble(ReadOnlySpan<byte> text)
    {
        if (text.SequenceEqual("inf"u8))
            return double.PositiveInfinity;
        if (text.SequenceEqual("-inf"u8))
            return double.NegativeInfinity;
        if (text.SequenceEqual("nan"u8))
            return double.NaN;
        return double.Parse(Encoding.ASCII.GetString(text), CultureInfo.InvariantCulture);
    }

    /// <summary>Writes the Lua value at absolute <paramref name="index"/> of <paramref name="L"/> as a reply.</summary>
    private void WriteValue(nint L, int index, ref RespWriter writer, int depth)
    {
        switch (Type(L, index))
        {
            case TypeString:
                writer.WriteBulk(ToSpan(L, index));
                return;
            case TypeNumber:
                writer.WriteInteger(IsInteger(L, index) != 0 ? ToIntegerX(L, index, null) : Truncate(ToNumberX(L, index, null)));
                return;
            case TypeBoolean:
                bool value = ToBoolean(L, index) != 0;
                if (_resp3)
                    writer.WriteBoolean(value);
                else if (value)
                    writer.WriteInteger(1);
                else
                    writer.WriteNull();
                return;
            case TypeTable:
                WriteTable(L, index, ref writer, depth);
                return;
            default:
                writer.WriteNull();
                return;
        }
    }

    private static long Truncate(double value)
    {
        if (double.IsNaN(value))
            return long.MinValue;
        if (value >= 9.2233720368547758e18)
            return long.MaxValue;
        if (value <= -9.2233720368547758e18)
            return long.MinValue;
        return (long)value;
    }

    private void WriteTable(nint L, int index, ref RespWriter writer, int depth)
    {
        if (depth > MaxNesting || CheckStack(L, 8) == 0)
        {
            writer.WriteError("ERR reached lua stack limit"u8);
            return;
        }
        int fieldType = GetField(L, index, "err\0"u8);
        if (fieldType == TypeString)
        {
            WriteErrorReply(ref writer, ToSpan(L, -1), IsCountedError(L, index));
            Pop(L, 1);
            return;
        }
        Pop(L, 1);
        fieldType = GetField(L, index, "ok\0"u8);
        if (fieldType == TypeString)
        {
            WriteStatusReply(ref writer, ToSpan(L, -1));
            Pop(L, 1);
            return;
        }
        Pop(L, 1);
        fieldType = GetField(L, index, "double\0"u8);
        if (fieldType == TypeNumber)
        {
            writer.WriteDouble(ToNumberX(L, -1, null));
            Pop(L, 1);
            return;
        }
        Pop(L, 1);
        fieldType = GetField(L, index, "big_number\0"u8);
        if (fieldType == TypeString)
        {
            var text = ToSpan(L, -1);
            if (writer.Resp3)
            {
                writer.WriteRaw("("u8);
                WriteSanitized(ref writer, text);
                writer.WriteRaw("\r\n"u8);
            }
            else
            {
                writer.WriteBulk(text);
            }
            Pop(L, 1);
            return;
        }
        Pop(L, 1);
        fieldType = GetField(L, index, "map\0"u8);
        if (fieldType == TypeTable)
        {
            int map = GetTop(L);
            writer.WriteMapHeader(CountPairs(L, map));
            PushNil(L);
            while (Next(L, map) != 0)
            {
                int top = GetTop(L);
                WriteValue(L, top - 1, ref writer, depth + 1);
                WriteValue(L, top, ref writer, depth + 1);
                Pop(L, 1);
            }
            Pop(L, 1);
            return;
        }
        Pop(L, 1);
        fieldType = GetField(L, index, "set\0"u8);
        if (fieldType == TypeTable)
        {
            int set = GetTop(L);
            writer.WriteSetHeader(CountPairs(L, set));
            PushNil(L);
            while (Next(L, set) != 0)
            {
                WriteValue(L, GetTop(L) - 1, ref writer, depth + 1);
                Pop(L, 1);
            }
            Pop(L, 1);
            return;
        }
        Pop(L, 1);

        // An array: elements 1..n up to the first nil.
        int count = 0;
        while (RawGetI(L, index, count + 1) != TypeNil)
        {
            Pop(L, 1);
            count++;
        }
        Pop(L, 1);
        writer.WriteArrayHeader(count);
        for (int i = 1; i <= count; i++)
        {
            RawGetI(L, index, i);
            WriteValue(L, GetTop(L), ref writer, depth + 1);
            Pop(L, 1);
        }
    }

    /// <summary>Pushes the raw value of field <paramref name="name"/> (a NUL-terminated literal) of the table at <paramref name="index"/>; returns its type.</summary>
    private static int GetField(nint L, int index, ReadOnlySpan<byte> name)
    {
        fixed (byte* key = name)
            PushString(L, key);
        return RawGet(L, index);
    }

    private static int CountPairs(nint L, int table)
    {
        int count = 0;
        PushNil(L);
        while (Next(L, table) != 0)
        {
            Pop(L, 1);
            count++;
        }
        return count;
    }

    /// <summary>The field Redis sets in the error table of a command's error reply (a script may read it, as in Redis).</summary>
    private static ReadOnlySpan<byte> CountedErrorField => "ignore_error_stats_update\0"u8;

    /// <summary>Whether the error table at <paramref name="index"/> (absolute) holds a command's error, counted when the command replied.</summary>
    private static bool IsCountedError(nint L, int index)
    {
        bool counted = GetField(L, index, CountedErrorField) == TypeBoolean && ToBoolean(L, -1) != 0;
        Pop(L, 1);
        return counted;
    }

    /// <summary>An error reply from an err field: Redis sends "-" + the text, newlines as spaces.</summary>
    private static void WriteErrorReply(ref RespWriter writer, ReadOnlySpan<byte> text, bool counted)
    {
        if (text.IndexOfAny((byte)'\r', (byte)'\n') < 0)
        {
            if (counted)
                writer.WriteRepeatedError(text);
            else
                writer.WriteError(text);
            return;
        }
        if (counted)
            writer.ErrorListener?.OnRepeatedErrorReply();
        else
            writer.ErrorListener?.OnErrorReply(text);
        WriteSanitizedLine(ref writer, (byte)'-', text);
    }

    /// <summary>A status reply from an ok field, newlines as spaces.</summary>
    private static void WriteStatusReply(ref RespWriter writer, ReadOnlySpan<byte> text)
    {
        if (text.IndexOfAny((byte)'\r', (byte)'\n') < 0)
            writer.WriteSimpleString(text);
        else
            WriteSanitizedLine(ref writer, (byte)'+', text);
    }

    private static void WriteSanitizedLine(ref RespWriter writer, byte prefix, ReadOnlySpan<byte> text)
    {
        writer.WriteRaw(new ReadOnlySpan<byte>(in prefix));
        WriteSanitized(ref writer, text);
        writer.WriteRaw("\r\n"u8);
    }

    private static void WriteSanitized(ref RespWriter writer, ReadOnlySpan<byte> text)
    {
        while (text.Length > 0)
        {
            int stop = text.IndexOfAny((byte)'\r', (byte)'\n');
            if (stop < 0)
            {
                writer.WriteRaw(text);
                return;
            }
            writer.WriteRaw(text.Slice(0, stop));
            writer.WriteRaw(" "u8);
            text = text.Slice(stop + 1);
        }
    }
}
