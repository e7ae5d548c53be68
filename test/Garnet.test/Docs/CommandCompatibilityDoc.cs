using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Garnet.test.Docs;

/// <summary>One line of website/docs/data/redis-7.2-commands.tsv: a Redis 7.2 command or subcommand ("client|list").</summary>
internal sealed record RedisCommand(string Name, string Group, string Since, bool Deprecated)
{
    /// <summary>The container of a subcommand ("client" for "client|list"), or null for a command.</summary>
    public string? Container => Name.IndexOf('|') is int bar and > 0 ? Name.Substring(0, bar) : null;
}

/// <summary>
/// Writes website/docs/commands.md: every Redis 7.2 command and subcommand, grouped by Redis's documentation
/// group, with whether this server has it (the names it reports, see <see cref="CommandCompatibilityDocTests"/>)
/// and the notes of website/docs/data/command-notes.tsv; then the commands only this server has.
/// </summary>
internal static class CommandCompatibilityDoc
{
    public const string RedisCommandsPath = "website/docs/data/redis-7.2-commands.tsv";
    public const string NotesPath = "website/docs/data/command-notes.tsv";
    public const string OutputPath = "website/docs/commands.md";

    /// <summary>Redis's groups in the order the page shows them, with their headings.</summary>
    private static readonly (string Group, string Heading)[] s_groups =
    [
        ("string", "Strings"),
        ("generic", "Keys (generic)"),
        ("list", "Lists"),
        ("hash", "Hashes"),
        ("set", "Sets"),
        ("sorted-set", "Sorted sets"),
        ("stream", "Streams"),
        ("bitmap", "Bitmaps"),
        ("hyperloglog", "HyperLogLog"),
        ("geo", "Geospatial"),
        ("pubsub", "Pub/sub"),
        ("transactions", "Transactions"),
        ("scripting", "Scripting and functions"),
        ("connection", "Connection"),
        ("server", "Server"),
        ("cluster", "Cluster"),
    ];

    /// <summary>Reads the Redis command list: tab-separated name, group, since, "deprecated" or empty; '#' lines and the header skipped.</summary>
    public static List<RedisCommand> ReadRedisCommands(string path)
    {
        var commands = new List<RedisCommand>();
        foreach (var fields in ReadTsv(path, expectedFields: 4))
            commands.Add(new RedisCommand(fields[0], fields[1], fields[2], fields[3] == "deprecated"));
        return commands;
    }

    /// <summary>Reads the notes: tab-separated name and one line of Markdown.</summary>
    public static Dictionary<string, string> ReadNotes(string path)
    {
        var notes = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var fields in ReadTsv(path, expectedFields: 2))
        {
            if (!notes.TryAdd(fields[0], fields[1]))
                throw new InvalidDataException($"{path}: '{fields[0]}' has two notes.");
        }
        return notes;
    }

    private static IEnumerable<string[]> ReadTsv(string path, int expectedFields)
    {
        bool header = true;
        foreach (string line in File.ReadLines(path))
        {
            if (line.Length == 0 || line[0] == '#')
                continue;
            if (header)
            {
                header = false;
                continue;
            }
            string[] fields = line.Split('\t');
            if (fields.Length != expectedFields)
                throw new InvalidDataException($"{path}: '{line}' has {fields.Length} fields, not {expectedFields}.");
            yield return fields;
        }
    }

    /// <summary>The note for <paramref name="name"/>: its own line, else its container's "container|*" line, else empty.</summary>
    public static string NoteFor(string name, IReadOnlyDictionary<string, string> notes)
    {
        if (notes.TryGetValue(name, out string? note))
            return note;
        int bar = name.IndexOf('|');
        if (bar > 0 && notes.TryGetValue(name.Substring(0, bar) + "|*", out note))
            return note;
        return "";
    }

    /// <summary>
    /// The page. <paramref name="serverCommands"/> holds the lower-case names the server has, subcommands as
    /// "container|subcommand"; the output depends only on the arguments, so it is stable across runs.
    /// </summary>
    public static string Generate(IReadOnlyList<RedisCommand> redis, IReadOnlySet<string> serverCommands, IReadOnlyDictionary<string, string> notes)
    {
        var byGroup = new Dictionary<string, List<RedisCommand>>(StringComparer.Ordinal);
        var redisNames = new HashSet<string>(StringComparer.Ordinal);
        foreach (var command in redis)
        {
            redisNames.Add(command.Name);
            if (!byGroup.TryGetValue(command.Group, out var list))
                byGroup[command.Group] = list = [];
            list.Add(command);
        }
        foreach (string group in byGroup.Keys)
        {
            if (Array.FindIndex(s_groups, g => g.Group == group) < 0)
                throw new InvalidDataException($"Redis group '{group}' has no heading in {nameof(CommandCompatibilityDoc)}.");
        }

        int supported = 0;
        foreach (var command in redis)
        {
            if (serverCommands.Contains(command.Name))
                supported++;
        }

        var onlyHere = new List<string>();
        foreach (string name in serverCommands)
        {
            if (!redisNames.Contains(name))
                onlyHere.Add(name);
        }
        onlyHere.Sort(StringComparer.Ordinal);

        var page = new StringBuilder();
        page.Append("# Redis 7.2 commands\n\n");
        page.Append("<!-- Generated by test/Garnet.test/Docs/CommandCompatibilityDocTests.cs from ").Append(RedisCommandsPath)
            .Append(", the server's command table and ").Append(NotesPath)
            .Append(". Do not edit: change those and regenerate (see the end of this page). -->\n\n");
        page.Append("Every command and subcommand of Redis 7.2, whether this server has it, and how it differs. ")
            .Append("A command marked supported behaves as Redis 7.2's unless its note says otherwise; the ")
            .Append("differential test and the general differences (value sizes, eviction, protocol edge cases) are in ")
            .Append("[compatibility.md](compatibility.md).\n\n");
        page.Append("This server has ").Append(supported).Append(" of the ").Append(redis.Count)
            .Append(" commands and subcommands Redis 7.2 lists (sentinel and module commands left out).\n\n");

        page.Append("| group | Redis 7.2 | supported |\n| --- | ---: | ---: |\n");
        foreach (var (group, heading) in s_groups)
        {
            if (!byGroup.TryGetValue(group, out var commands))
                continue;
            int here = 0;
            foreach (var command in commands)
            {
                if (serverCommands.Contains(command.Name))
                    here++;
            }
            page.Append("| [").Append(heading).Append("](#").Append(Anchor(heading)).Append(") | ")
                .Append(commands.Count).Append(" | ").Append(here).Append(" |\n");
        }
        page.Append('\n');

        foreach (var (group, heading) in s_groups)
        {
            if (!byGroup.TryGetValue(group, out var commands))
                continue;
            commands.Sort(CompareContainerFirst);
            page.Append("## ").Append(heading).Append("\n\n");
            page.Append("| command | since | this server | differences |\n| --- | --- | --- | --- |\n");
            foreach (var command in commands)
            {
                page.Append("| `").Append(DisplayName(command.Name)).Append("` | ").Append(command.Since);
                if (command.Deprecated)
                    page.Append(", deprecated");
                page.Append(" | ").Append(serverCommands.Contains(command.Name) ? "supported" : "not supported")
                    .Append(" | ").Append(EscapeCell(NoteFor(command.Name, notes))).Append(" |\n");
            }
            page.Append('\n');
        }

        page.Append("## Only in this server\n\n");
        page.Append("Commands registered at run time by C# extensions ([extensions.md](extensions.md)) come on top of these.\n\n");
        page.Append("| command | what it does |\n| --- | --- |\n");
        foreach (string name in onlyHere)
            page.Append("| `").Append(DisplayName(name)).Append("` | ").Append(EscapeCell(NoteFor(name, notes))).Append(" |\n");
        page.Append('\n');

        page.Append("## Regenerating this page\n\n");
        page.Append("The test `CommandCompatibilityDocTests` compares this page with what the command table gives and fails ")
            .Append("when they differ. After adding a command or changing a note, write the page again with\n\n");
        page.Append("```sh\nUPDATE_DOCS=1 dotnet test test/Garnet.test -c Release --filter \"FullyQualifiedName~CommandCompatibilityDocTests\"\n```\n");
        return page.ToString();
    }

    /// <summary>"client|no-touch" as "CLIENT NO-TOUCH".</summary>
    public static string DisplayName(string name) => name.Replace('|', ' ').ToUpperInvariant();

    /// <summary>A container's row first, then its subcommands, then the next command.</summary>
    private static int CompareContainerFirst(RedisCommand a, RedisCommand b)
    {
        int byContainer = string.CompareOrdinal(a.Container ?? a.Name, b.Container ?? b.Name);
        if (byContainer != 0)
            return byContainer;
        return string.CompareOrdinal(a.Name, b.Name);
    }

    /// <summary>GitHub's heading anchor: lower case, spaces to '-', punctuation other than '-' dropped.</summary>
    private static string Anchor(string heading)
    {
        var anchor = new StringBuilder();
        foreach (char c in heading.ToLowerInvariant())
        {
            if (char.IsLetterOrDigit(c) || c == '-')
                anchor.Append(c);
            else if (c == ' ')
                anchor.Append('-');
        }
        return anchor.ToString();
    }

    /// <summary>A table cell may not hold an unescaped '|'.</summary>
    private static string EscapeCell(string text) => text.Replace("|", "\\|");
}
