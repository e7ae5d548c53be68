using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Garnet;

/// <summary>
/// Reads the lines of a Redis-style redis.conf: "directive arg arg ...", '#' comments and blank lines skipped,
/// arguments split at spaces, with "double quotes" (escapes \n \r \t \b \a \\ \" \xHH) and 'single quotes' (\')
/// as Redis splits them. What a directive means is the caller's business (<see cref="ConfigFileImporter"/>).
/// </summary>
internal static class RedisConfFile
{
    /// <summary>One directive: its line number (from 1), its name in lower case and its arguments.</summary>
    public sealed record Directive(int Line, string Name, List<string> Arguments);

    /// <summary>The directives of <paramref name="text"/>; throws <see cref="OptionsException"/> on unbalanced quotes.</summary>
    public static List<Directive> Parse(string text, string path)
    {
        var directives = new List<Directive>();
        string[] lines = text.Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            string line = lines[i].Trim();
            if (line.Length == 0 || line[0] == '#')
                continue;
            List<string>? words = Split(line);
            if (words == null)
                throw new OptionsException($"{path}:{i + 1}: unbalanced quotes in '{line}'");
            if (words.Count == 0)
                continue;
            directives.Add(new Directive(i + 1, words[0].ToLowerInvariant(), words.GetRange(1, words.Count - 1)));
        }
        return directives;
    }

    /// <summary>Splits a line into arguments, or null when a quote is not closed (or is followed by other than a space).</summary>
    private static List<string>? Split(string line)
    {
        var words = new List<string>();
        int i = 0;
        while (true)
        {
            while (i < line.Length && char.IsWhiteSpace(line[i]))
                i++;
            if (i == line.Length)
                return words;
            var word = new StringBuilder();
            char quote = line[i] is '"' or '\'' ? line[i++] : '\0';
            while (true)
            {
                if (i == line.Length)
                {
                    if (quote != '\0')
                        return null;
                    break;
                }
                char c = line[i];
                if (quote == '\0')
                {
                    if (char.IsWhiteSpace(c))
                        break;
                    word.Append(c);
                    i++;
                    continue;
                }
                if (c == quote)
                {
                    i++;
                    // A closing quote must end the argument.
                    if (i < line.Length && !char.IsWhiteSpace(line[i]))
                        return null;
                    break;
                }
                if (c == '\\' && i + 1 < line.Length)
                {
                    i += Unescape(line, i, quote, word);
                    continue;
                }
                word.Append(c);
                i++;
            }
            words.Add(word.ToString());
        }
    }

    /// <summary>Appends the escape at <paramref name="at"/> (a backslash) and returns how many characters it took.</summary>
    private static int Unescape(string line, int at, char quote, StringBuilder word)
    {
        char next = line[at + 1];
        if (quote == '\'')
        {
            word.Append(next == '\'' ? "'" : "\\" + next);
            return 2;
        }
        if (next == 'x' && at + 3 < line.Length && byte.TryParse(line.AsSpan(at + 2, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out byte value))
        {
            word.Append((char)value);
            return 4;
        }
        word.Append(next switch
        {
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'b' => '\b',
            'a' => '\a',
            _ => next,
        });
        return 2;
    }
}
