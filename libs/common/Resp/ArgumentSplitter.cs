namespace Garnet.common;

/// <summary>
/// Splits a line into arguments as Redis does (its inline commands, a library's "#!lua name=..." line): spaces
/// separate; "double quotes" take backslash escapes (\n \r \t \b \a, \xHH, any other character as itself); 'single
/// quotes' take only \'; a closing quote must be followed by a space or the end of the line.
/// </summary>
public static unsafe class ArgumentSplitter
{
    /// <summary>Moves <paramref name="p"/> past spaces; returns whether an argument follows before <paramref name="end"/>.</summary>
    public static bool SkipSpaces(ref byte* p, byte* end)
    {
        while (p < end && IsSpace(*p))
            p++;
        return p < end;
    }

    /// <summary>
    /// Reads the argument that starts at <paramref name="p"/> (not a space), unescaping it in place: its
    /// <paramref name="length"/> bytes start where <paramref name="p"/> was, and <paramref name="p"/> moves past it.
    /// Returns false for an unbalanced quote.
    /// </summary>
    public static bool TryReadArgument(ref byte* p, byte* end, out int length)
    {
        // Unescaped bytes are never more than their source, so they can be written over it.
        byte* begin = p;
        byte* output = p;
        bool inDouble = false;
        bool inSingle = false;
        length = 0;
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
        length = (int)(output - begin);
        return true;
    }

    private static bool IsSpace(byte c) => c is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n' or (byte)'\v' or (byte)'\f';

    private static bool IsHex(byte c) => char.IsAsciiHexDigit((char)c);

    private static int HexValue(byte c) => c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}
