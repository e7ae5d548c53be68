using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;

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
    private static unsafe bool TrySplit(ReadOnlySpan<byte> line, out List<string> parts)
    {
        parts = new List<string>();
        // The splitter unescapes in place, so it works on a copy of the caller's bytes.
        byte[] copy = line.ToArray();
        fixed (byte* start = copy)
        {
            byte* p = start;
            byte* end = start + copy.Length;
            while (ArgumentSplitter.SkipSpaces(ref p, end))
            {
                byte* word = p;
                if (!ArgumentSplitter.TryReadArgument(ref p, end, out int length))
                    return false;
                parts.Add(Encoding.UTF8.GetString(word, length));
            }
        }
        return true;
    }
}
