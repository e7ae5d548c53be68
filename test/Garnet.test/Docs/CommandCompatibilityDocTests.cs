using System;
using System.Collections.Generic;
using System.IO;
using Garnet.server;
using Garnet.test.Host;
using NUnit.Framework;

namespace Garnet.test.Docs;

/// <summary>
/// Keeps website/docs/commands.md equal to what the command table gives: the page is generated from Redis 7.2's
/// command list, the commands this server reports and the notes file, and compared with the committed one.
/// With UPDATE_DOCS=1 the test writes the page instead.
/// </summary>
public class CommandCompatibilityDocTests : ServerTestBase
{
    [Test]
    public void CommandsPageIsUpToDate()
    {
        string root = HostTestHelpers.RepositoryRoot();
        var redis = CommandCompatibilityDoc.ReadRedisCommands(Path.Combine(root, CommandCompatibilityDoc.RedisCommandsPath));
        var notes = CommandCompatibilityDoc.ReadNotes(Path.Combine(root, CommandCompatibilityDoc.NotesPath));
        string generated = CommandCompatibilityDoc.Generate(redis, ServerCommands(redis), notes);

        string path = Path.Combine(root, CommandCompatibilityDoc.OutputPath);
        if (Environment.GetEnvironmentVariable("UPDATE_DOCS") == "1")
        {
            File.WriteAllText(path, generated);
            Assert.Pass($"wrote {path}");
        }
        string committed = File.Exists(path) ? File.ReadAllText(path).ReplaceLineEndings("\n") : "";
        Assert.That(committed, Is.EqualTo(generated),
            $"{CommandCompatibilityDoc.OutputPath} is out of date with the command table or {CommandCompatibilityDoc.NotesPath}. Regenerate it with: " +
            "UPDATE_DOCS=1 dotnet test test/Garnet.test -c Release --filter \"FullyQualifiedName~CommandCompatibilityDocTests\"");
    }

    [Test]
    public void EveryTableCommandRedisHasIsSupported()
    {
        string root = HostTestHelpers.RepositoryRoot();
        var redis = CommandCompatibilityDoc.ReadRedisCommands(Path.Combine(root, CommandCompatibilityDoc.RedisCommandsPath));
        var redisNames = new HashSet<string>(StringComparer.Ordinal);
        foreach (var command in redis)
            redisNames.Add(command.Name);
        var reported = ServerCommands(redis);

        int checkedCommands = 0;
        foreach (var info in CommandTable.All)
        {
            if (!redisNames.Contains(info.LowerName))
                continue;
            checkedCommands++;
            Assert.That(reported, Does.Contain(info.LowerName), $"{info.Name} is in the command table but the page would not show it as supported.");
        }
        Assert.That(checkedCommands, Is.GreaterThan(100), "the Redis command list was read");
    }

    [Test]
    public void EveryNoteNamesAKnownCommand()
    {
        string root = HostTestHelpers.RepositoryRoot();
        var redis = CommandCompatibilityDoc.ReadRedisCommands(Path.Combine(root, CommandCompatibilityDoc.RedisCommandsPath));
        var notes = CommandCompatibilityDoc.ReadNotes(Path.Combine(root, CommandCompatibilityDoc.NotesPath));
        var known = new HashSet<string>(ServerCommands(redis), StringComparer.Ordinal);
        foreach (var command in redis)
        {
            known.Add(command.Name);
            if (command.Container != null)
                known.Add(command.Container + "|*");
        }
        foreach (string name in notes.Keys)
            Assert.That(known, Does.Contain(name), $"{CommandCompatibilityDoc.NotesPath} has a note for '{name}', which neither Redis 7.2 nor this server has.");
    }

    /// <summary>
    /// The lower-case names the server has: COMMAND LIST (the command table and the subcommand table), plus the
    /// subcommands of containers that parse their own (SCRIPT, PUBSUB, MODULE) and so list none: each Redis
    /// subcommand of such a container is sent without arguments, and counts unless the reply is "unknown subcommand".
    /// </summary>
    private HashSet<string> ServerCommands(IReadOnlyList<RedisCommand> redis)
    {
        using var client = ConnectRaw();
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (string line in client.Execute("COMMAND", "LIST").Split("\r\n"))
        {
            if (line.Length > 0 && line[0] != '*' && line[0] != '$')
                names.Add(line);
        }

        var listsSubcommands = new HashSet<string>(StringComparer.Ordinal);
        foreach (string name in names)
        {
            int bar = name.IndexOf('|');
            if (bar > 0)
                listsSubcommands.Add(name.Substring(0, bar));
        }
        var probed = new List<string>();
        foreach (var command in redis)
        {
            if (command.Container is { } container && names.Contains(container) && !listsSubcommands.Contains(container))
            {
                string reply = client.Execute(container.ToUpperInvariant(), command.Name.Substring(container.Length + 1).ToUpperInvariant());
                if (!reply.StartsWith("-ERR unknown subcommand", StringComparison.Ordinal))
                    probed.Add(command.Name);
            }
        }
        names.UnionWith(probed);
        return names;
    }
}
