using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.Json;

namespace Garnet.server;

/// <summary>
/// Writes changed CONFIG parameters into a configuration file, keeping the rest of it (comments, order, other
/// options) as it was. Two formats: a JSON object of options (the host's --config-import-path: a .json file or one
/// starting with '{'), and Redis's redis.conf of "name value..." lines. A parameter already in the file, under any of
/// its names (compared without case, dashes or underscores, so "MaxMemoryPolicy" is maxmemory-policy), has its value
/// replaced there (every occurrence, so two names of one option never disagree); the others are appended. The new
/// file is written beside the old and renamed over it, so a crash leaves one or the other.
/// </summary>
public static class ConfigFileRewriter
{
    /// <summary>A parameter to write: its names, the first being the one it is written under when new, and its value as CONFIG GET reports it.</summary>
    public sealed record Setting(IReadOnlyList<string> Names, string Value);

    /// <summary>Parameters whose value is several words, written unquoted in redis.conf (save 3600 1 300 100).</summary>
    private static readonly HashSet<string> s_multiWord = new(StringComparer.OrdinalIgnoreCase)
    {
        "save", "oom-score-adj-values", "shutdown-on-sigint", "shutdown-on-sigterm", "client-output-buffer-limit",
    };

    /// <summary>Rewrites <paramref name="path"/> with <paramref name="settings"/>; throws IOException (or FormatException for a file that is not what it seems).</summary>
    public static void Rewrite(string path, IReadOnlyList<Setting> settings)
    {
        byte[] bytes = File.ReadAllBytes(path);
        int start = bytes.AsSpan().StartsWith("\xEF\xBB\xBF"u8) ? 3 : 0;
        string text = Encoding.UTF8.GetString(bytes, start, bytes.Length - start);
        bool json = path.EndsWith(".json", StringComparison.OrdinalIgnoreCase) || text.TrimStart().StartsWith('{');
        string rewritten = json ? RewriteJson(text, settings) : RewriteRedisConf(text, settings);
        WriteAtomically(path, rewritten);
    }

    /// <summary>A key compared as the host compares option names: without case, dashes or underscores.</summary>
    private static string Key(string name) => name.Replace("-", "", StringComparison.Ordinal).Replace("_", "", StringComparison.Ordinal).ToLowerInvariant();

    private static Setting? Find(IReadOnlyList<Setting> settings, string name)
    {
        string key = Key(name);
        foreach (var setting in settings)
        {
            foreach (string candidate in setting.Names)
            {
                if (Key(candidate) == key)
                    return setting;
            }
        }
        return null;
    }

    private static string RewriteJson(string text, IReadOnlyList<Setting> settings)
    {
        byte[] utf8 = Encoding.UTF8.GetBytes(text);
        var reader = new Utf8JsonReader(utf8, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
        var edits = new List<(int Start, int End, string Text)>();
        var written = new HashSet<Setting>();
        int lastValueEnd = -1, objectStart = -1, objectEnd = -1;
        try
        {
            while (reader.Read())
            {
                if (reader.CurrentDepth == 0 && reader.TokenType == JsonTokenType.StartObject)
                {
                    objectStart = (int)reader.TokenStartIndex;
                    continue;
                }
                if (reader.CurrentDepth == 0 && reader.TokenType == JsonTokenType.EndObject)
                {
                    objectEnd = (int)reader.TokenStartIndex;
                    break;
                }
                if (reader.CurrentDepth != 1 || reader.TokenType != JsonTokenType.PropertyName)
                    continue;
                string name = reader.GetString()!;
                reader.Read();
                int valueStart = (int)reader.TokenStartIndex;
                bool boolean = reader.TokenType is JsonTokenType.True or JsonTokenType.False;
                reader.Skip();
                int valueEnd = (int)reader.BytesConsumed;
                lastValueEnd = valueEnd;
                if (Find(settings, name) is { } setting)
                {
                    edits.Add((valueStart, valueEnd, JsonValue(setting.Value, boolean)));
                    written.Add(setting);
                }
            }
        }
        catch (JsonException e)
        {
            throw new FormatException("the config file is not valid JSON: " + e.Message, e);
        }
        if (objectStart < 0 || objectEnd < 0)
            throw new FormatException("the config file is not a JSON object");

        var appended = new StringBuilder();
        foreach (var setting in settings)
        {
            if (written.Contains(setting))
                continue;
            if (appended.Length > 0 || lastValueEnd >= 0)
                appended.Append(',');
            appended.Append("\n  ").Append(JsonSerializer.Serialize(setting.Names[0])).Append(": ").Append(JsonSerializer.Serialize(setting.Value));
        }
        if (appended.Length > 0)
        {
            if (lastValueEnd < 0)
                appended.Append('\n');
            edits.Add((lastValueEnd >= 0 ? lastValueEnd : objectStart + 1, lastValueEnd >= 0 ? lastValueEnd : objectStart + 1, appended.ToString()));
        }

        edits.Sort(static (a, b) => a.Start.CompareTo(b.Start));
        var result = new List<byte>(utf8.Length + 256);
        int position = 0;
        foreach (var (editStart, editEnd, replacement) in edits)
        {
            result.AddRange(utf8.AsSpan(position, editStart - position));
            result.AddRange(Encoding.UTF8.GetBytes(replacement));
            position = editEnd;
        }
        result.AddRange(utf8.AsSpan(position));
        return Encoding.UTF8.GetString(result.ToArray());
    }

    /// <summary>A value in JSON: a host option that is a boolean there (EnableAOF) stays one, from yes or no.</summary>
    private static string JsonValue(string value, bool boolean)
    {
        if (boolean && value.Equals("yes", StringComparison.OrdinalIgnoreCase))
            return "true";
        if (boolean && value.Equals("no", StringComparison.OrdinalIgnoreCase))
            return "false";
        return JsonSerializer.Serialize(value);
    }

    private static string RewriteRedisConf(string text, IReadOnlyList<Setting> settings)
    {
        string newline = text.Contains("\r\n", StringComparison.Ordinal) ? "\r\n" : "\n";
        var lines = new List<string>(text.Split('\n'));
        if (lines.Count > 0 && lines[^1].Length == 0)
            lines.RemoveAt(lines.Count - 1);
        var output = new List<string>(lines.Count + settings.Count);
        var written = new HashSet<Setting>();
        foreach (string rawLine in lines)
        {
            string line = rawLine.TrimEnd('\r');
            string trimmed = line.TrimStart();
            if (trimmed.Length == 0 || trimmed[0] == '#')
            {
                output.Add(line);
                continue;
            }
            int space = trimmed.IndexOfAny([' ', '\t']);
            string directive = space < 0 ? trimmed : trimmed[..space];
            if (Find(settings, directive) is not { } setting)
            {
                output.Add(line);
                continue;
            }
            // The first line of a parameter takes its new value; its other lines (several save lines) go.
            if (written.Add(setting))
                output.AddRange(RedisConfLines(directive, setting.Value));
        }
        bool first = true;
        foreach (var setting in settings)
        {
            if (written.Contains(setting))
                continue;
            if (first)
            {
                output.Add("# Generated by CONFIG REWRITE");
                first = false;
            }
            output.AddRange(RedisConfLines(setting.Names[0], setting.Value));
        }
        return string.Join(newline, output) + newline;
    }

    /// <summary>The redis.conf lines of a parameter: client-output-buffer-limit one per class, several words unquoted, else one quoted-if-needed argument.</summary>
    private static IEnumerable<string> RedisConfLines(string name, string value)
    {
        if (!s_multiWord.Contains(name))
            return [name + " " + Quote(value)];
        string[] words = value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (words.Length == 0)
            return [name + " \"\""];
        if (!name.Equals("client-output-buffer-limit", StringComparison.OrdinalIgnoreCase))
            return [name + " " + string.Join(' ', words)];
        var lines = new List<string>();
        for (int i = 0; i + 3 < words.Length; i += 4)
            lines.Add($"{name} {words[i]} {words[i + 1]} {words[i + 2]} {words[i + 3]}");
        return lines;
    }

    /// <summary>A redis.conf argument: as it is when it has no space, quote or control character, else in double quotes with escapes.</summary>
    public static string Quote(string value)
    {
        bool plain = value.Length > 0;
        foreach (char c in value)
        {
            if (c <= ' ' || c == '"' || c == '\'' || c == '\\' || c == 127)
            {
                plain = false;
                break;
            }
        }
        if (plain)
            return value;
        var quoted = new StringBuilder("\"");
        foreach (char c in value)
        {
            switch (c)
            {
                case '\\': quoted.Append("\\\\"); break;
                case '"': quoted.Append("\\\""); break;
                case '\n': quoted.Append("\\n"); break;
                case '\r': quoted.Append("\\r"); break;
                case '\t': quoted.Append("\\t"); break;
                default:
                    if (c < ' ' || c == 127)
                        quoted.Append("\\x").Append(((int)c).ToString("x2", System.Globalization.CultureInfo.InvariantCulture));
                    else
                        quoted.Append(c);
                    break;
            }
        }
        return quoted.Append('"').ToString();
    }

    private static void WriteAtomically(string path, string text)
    {
        string full = Path.GetFullPath(path);
        string temporary = Path.Combine(Path.GetDirectoryName(full)!, $".{Path.GetFileName(full)}.rewrite-{Environment.ProcessId}-{Guid.NewGuid():N}");
        try
        {
            using (var stream = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write))
            {
                byte[] bytes = Encoding.UTF8.GetBytes(text);
                stream.Write(bytes);
                stream.Flush(flushToDisk: true);
            }
            File.Move(temporary, full, overwrite: true);
        }
        finally
        {
            if (File.Exists(temporary))
                File.Delete(temporary);
        }
    }
}
