using System;
using System.Collections.Generic;
using System.Text;

namespace Garnet.server.Scripting;

/// <summary>
/// The first line of a library's code, "#!lua name=mylib": the engine and the library name, checked
/// in Redis's order with Redis's errors. The line's words split as Redis splits arguments (spaces
/// separate, double quotes with backslash escapes, single quotes), so name="mylib" works too.
/// </summary>
internal static class LibraryMetadata
{
    /// <summary>
    /// Reads the metadata of <paramref name="code"/>: the library <paramref name="name"/> and the
    /// offset of the code after the first line (the newline stays, so line numbers count from the
    /// shebang). Returns false with the error reply text when the line is missing or wrong.
    /// </summary>
    public static bool TryParse(ReadOnlySpan<byte> code, out string name, out int bodyStart, out string? error)
    {
        name = "";
        bodyStart = 0;
        if (!code.StartsWith("#!"u8))
        {
            error = "ERR Missing library metadata";
            return false;
        }
        int end = code.IndexOf((byte)'\n');
        if (end < 0 || !TrySplit(code.Slice(0, end), out var parts) || parts.Count == 0)
        {
            error = "ERR Invalid library metadata";
            return false;
        }
        string engine = parts[0].Substring(2);
        string? libraryName = null;
        for (int i = 1; i < parts.Count; i++)
        {
            string part = parts[i];
            if (!part.StartsWith("name=", StringComparison.OrdinalIgnoreCase))
            {
                error = "ERR Invalid metadata value given: " + part;
                return false;
            }
            if (libraryName != null)
            {
                error = "ERR Invalid metadata value, name argument was given multiple times";
                return false;
            }
            libraryName = part.Substring(5);
        }
        if (libraryName == null)
        {
            error = "ERR Library name was not given";
            return false;
        }
        if (!IsValidName(libraryName))
        {
            error = "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long";
            return false;
        }
        if (!engine.Equals(FunctionLibrary.Engine, StringComparison.OrdinalIgnoreCase))
        {
            error = $"ERR Engine '{engine}' not found";
            return false;
        }
        name = libraryName;
        bodyStart = end;
        error = null;
        return true;
    }

    /// <summary>Whether <paramref name="name"/> is a valid library or function name: one or more ASCII letters, digits or underscores.</summary>
    public static bool IsValidName(string name)
    {
        if (name.Length == 0)
            return false;
        foreach (char c in name)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c == '_'))
                return false;
        }
        return true;
    }

    /// <summary>Splits <paramref name="line"/> into words; false for an unclosed quote or a quote followed by a non-space.</summary>
    private static bool TrySplit(ReadOnlySpan<byte> line, out List<string> parts)
    {
        parts = new List<string>();
        var word = new List<byte>();
        int i = 0;
        while (true)
        {
            while (i < line.Length && IsSpace(line[i]))
                i++;
            if (i == line.Length)
                return true;
            word.Clear();
            bool inDouble = false;
            bool inSingle = false;
            while (true)
            {
                if (inDouble)
                {
                    if (i == line.Length)
                        return false;
                    byte c = line[i];
                    if (c == '\\' && i + 3 < line.Length && line[i + 1] == 'x' && IsHex(line[i + 2]) && IsHex(line[i + 3]))
                    {
                        word.Add((byte)(HexValue(line[i + 2]) * 16 + HexValue(line[i + 3])));
                        i += 4;
                        continue;
                    }
                    if (c == '\\' && i + 1 < line.Length)
                    {
                        word.Add(line[i + 1] switch
                        {
                            (byte)'n' => (byte)'\n',
                            (byte)'r' => (byte)'\r',
                            (byte)'t' => (byte)'\t',
                            (byte)'b' => (byte)'\b',
                            (byte)'a' => (byte)'\a',
                            var other => other,
                        });
                        i += 2;
                        continue;
                    }
                    i++;
                    if (c == '"')
                    {
                        if (i < line.Length && !IsSpace(line[i]))
                            return false;
                        break;
                    }
                    word.Add(c);
                }
                else if (inSingle)
                {
                    if (i == line.Length)
                        return false;
                    byte c = line[i];
                    if (c == '\\' && i + 1 < line.Length && line[i + 1] == '\'')
                    {
                        word.Add((byte)'\'');
                        i += 2;
                        continue;
                    }
                    i++;
                    if (c == '\'')
                    {
                        if (i < line.Length && !IsSpace(line[i]))
                            return false;
                        break;
                    }
                    word.Add(c);
                }
                else
                {
                    if (i == line.Length || IsSpace(line[i]))
                        break;
                    byte c = line[i++];
                    if (c == '"')
                        inDouble = true;
                    else if (c == '\'')
                        inSingle = true;
                    else
                        word.Add(c);
                }
            }
            parts.Add(Encoding.UTF8.GetString(word.ToArray()));
        }
    }

    private static bool IsSpace(byte c) => c is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n' or (byte)'\v' or (byte)'\f';

    private static bool IsHex(byte c) => char.IsAsciiHexDigit((char)c);

    private static int HexValue(byte c) => c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}
