using System;
using System.Globalization;
using System.Text;
using static Garnet.server.Scripting.LuaNative;

namespace Garnet.server.Scripting;

/// <summary>
/// How the debugger shows a Lua value (print, eval, redis.debug), as Redis's debugger does: strings quoted with C
/// escapes, numbers as C's %g, tables as {v1; v2} when they are arrays and {[k]=v; ...} otherwise, functions and other
/// references as "type@address".
/// </summary>
internal static unsafe class LuaValueText
{
    /// <summary>Deepest table nesting shown (Redis's LUA_MINSTACK - 2).</summary>
    private const int MaxDepth = 18;

    /// <summary>Appends the text of the value at <paramref name="index"/> (a negative, top-relative index) to <paramref name="text"/>.</summary>
    public static void Append(StringBuilder text, nint L, int index) => Append(text, L, index, 0);

    private static void Append(StringBuilder text, nint L, int index, int depth)
    {
        if (depth == MaxDepth)
        {
            text.Append("<max recursion level reached! Nested table?>");
            return;
        }
        switch (Type(L, index))
        {
            case TypeString:
                AppendQuoted(text, ToSpan(L, index));
                break;
            case TypeBoolean:
                text.Append(ToBoolean(L, index) != 0 ? "true" : "false");
                break;
            case TypeNumber:
                text.Append(FormatG(ToNumberX(L, index, null)));
                break;
            case TypeNil:
                text.Append("nil");
                break;
            case TypeTable:
                AppendTable(text, L, index, depth + 1);
                break;
            case TypeFunction:
                AppendReference(text, "function", L, index);
                break;
            case TypeUserData:
                AppendReference(text, "userdata", L, index);
                break;
            case TypeThread:
                AppendReference(text, "thread", L, index);
                break;
            case TypeLightUserData:
                AppendReference(text, "light-userdata", L, index);
                break;
            default:
                text.Append("\"<unknown-lua-type>\"");
                break;
        }
    }

    /// <summary>A table: both forms are built as it is walked; the array form is kept if the keys were 1, 2, 3...</summary>
    private static void AppendTable(StringBuilder text, nint L, int index, int depth)
    {
        if (CheckStack(L, 3) == 0)
        {
            text.Append("<max recursion level reached! Nested table?>");
            return;
        }
        var asArray = new StringBuilder();
        var asMap = new StringBuilder();
        bool isArray = true;
        long expected = 1;
        PushNil(L);
        while (Next(L, index - 1) != 0)
        {
            if (isArray && (Type(L, -2) != TypeNumber || ToNumberX(L, -2, null) != expected))
                isArray = false;
            if (asArray.Length > 0)
            {
                asArray.Append("; ");
                asMap.Append("; ");
            }
            Append(asArray, L, -1, depth);
            asMap.Append('[');
            Append(asMap, L, -2, depth);
            asMap.Append("]=");
            Append(asMap, L, -1, depth);
            Pop(L, 1);
            expected++;
        }
        text.Append('{').Append(isArray ? asArray : asMap).Append('}');
    }

    private static void AppendReference(StringBuilder text, string type, nint L, int index)
        => text.Append('"').Append(type).Append("@0x").Append(ToPointer(L, index).ToString("x", CultureInfo.InvariantCulture)).Append('"');

    /// <summary>Redis's sdscatrepr: in double quotes, with \\ \" \n \r \t \a \b escaped and other unprintable bytes as \xHH.</summary>
    public static void AppendQuoted(StringBuilder text, ReadOnlySpan<byte> bytes)
    {
        text.Append('"');
        foreach (byte b in bytes)
        {
            switch (b)
            {
                case (byte)'\\': text.Append("\\\\"); break;
                case (byte)'"': text.Append("\\\""); break;
                case (byte)'\n': text.Append("\\n"); break;
                case (byte)'\r': text.Append("\\r"); break;
                case (byte)'\t': text.Append("\\t"); break;
                case 7: text.Append("\\a"); break;
                case 8: text.Append("\\b"); break;
                default:
                    if (b >= 32 && b < 127)
                        text.Append((char)b);
                    else
                        text.Append("\\x").Append(b.ToString("x2", CultureInfo.InvariantCulture));
                    break;
            }
        }
        text.Append('"');
    }

    /// <summary>C's printf("%g"): 6 significant digits, exponent form (e+NN) outside 1e-5..1e6, no trailing zeros.</summary>
    public static string FormatG(double value)
    {
        if (double.IsNaN(value))
            return double.IsNegative(value) ? "-nan" : "nan";
        if (double.IsInfinity(value))
            return value < 0 ? "-inf" : "inf";
        return value.ToString("G6", CultureInfo.InvariantCulture).Replace("E", "e");
    }
}
