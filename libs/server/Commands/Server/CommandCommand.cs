using System;
using System.Collections.Generic;
using System.Numerics;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>COMMAND and its subcommands: the command table as Redis reports it (COMMAND INFO's ten-field entries, DOCS, GETKEYS, LIST, COUNT).</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>COMMAND INFO's flag names, by bit of <see cref="CommandFlags"/>.</summary>
    private static readonly byte[][] s_commandFlagNames = Utf8(
        "write", "readonly", "denyoom", "admin", "pubsub", "noscript", "blocking", "loading", "stale",
        "skip_monitor", "skip_slowlog", "fast", "no_auth", "may_replicate", "no_mandatory_keys", "no_multi",
        "movablekeys", "allow_busy", "asking");

    /// <summary>ACL category names, by bit of <see cref="AclCategories"/>.</summary>
    private static readonly byte[][] s_aclCategoryNames = Utf8(
        "keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap", "hyperloglog",
        "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous", "connection", "transaction",
        "scripting");

    private static readonly string[] s_commandHelp =
    [
        "(no subcommand)",
        "    Return details about all commands.",
        "COUNT",
        "    Return the number of commands.",
        "LIST [FILTERBY (MODULE <module-name>|ACLCAT <category>|PATTERN <pattern>)]",
        "    Return the names of all commands (and subcommands), optionally filtered.",
        "INFO [<command-name> ...]",
        "    Return details about the named commands, or about all commands.",
        "DOCS [<command-name> ...]",
        "    Return documentation about the named commands, or about all commands.",
        "GETKEYS <full-command>",
        "    Return the keys a full command would access.",
        "GETKEYSANDFLAGS <full-command>",
        "    Return the keys a full command would access, each with its key-spec flags.",
    ];

    private static byte[][] Utf8(params string[] names)
    {
        var bytes = new byte[names.Length][];
        for (int i = 0; i < names.Length; i++)
            bytes[i] = Encoding.ASCII.GetBytes(names[i]);
        return bytes;
    }

    private void CommandCommand()
    {
        if (_argCount == 1)
        {
            _lastSubcommand = null;
            WriteAllCommandInfo();
            return;
        }
        var subcommand = ResolveSubcommand(RespCommand.COMMAND);
        if (subcommand == null)
            return;
        switch (subcommand.Id)
        {
            case Subcommand.CommandCount: _writer.WriteInteger(CommandTable.All.Count + _server.Extensions.Count); break;
            case Subcommand.CommandInfo: CommandInfo(); break;
            case Subcommand.CommandDocs: CommandDocsReply(); break;
            case Subcommand.CommandGetKeys: CommandGetKeys(withFlags: false); break;
            case Subcommand.CommandGetKeysAndFlags: CommandGetKeys(withFlags: true); break;
            case Subcommand.CommandList: CommandList(); break;
            case Subcommand.CommandHelp: WriteHelp(s_commandHelp); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not a COMMAND subcommand.");
        }
    }

    private void WriteAllCommandInfo()
    {
        var all = CommandTable.All;
        var custom = _server.Extensions.All;
        _writer.WriteArrayHeader(all.Count + custom.Count);
        foreach (var info in all)
            WriteCommandInfo(info, SubcommandTable.Of(info.Command));
        foreach (var info in custom)
            WriteCommandInfo(info, ReadOnlySpan<SubcommandInfo>.Empty);
    }

    private void CommandInfo()
    {
        if (_argCount == 2)
        {
            WriteAllCommandInfo();
            return;
        }
        _writer.WriteArrayHeader(_argCount - 2);
        for (int i = 2; i < _argCount; i++)
        {
            var top = FindCommand(_args[i].Span);
            if (top != null)
            {
                WriteCommandInfo(top, SubcommandTable.Of(top.Command));
                continue;
            }
            var subcommand = SubcommandTable.Find(_args[i].ToString());
            if (subcommand != null)
                WriteCommandInfo(subcommand.Info, ReadOnlySpan<SubcommandInfo>.Empty);
            else
                _writer.WriteNull();
        }
    }

    /// <summary>
    /// One COMMAND INFO entry: name, arity, flags, first key, last key, step, ACL categories, tips,
    /// key specifications (<see cref="WriteKeySpecs"/>) and subcommands. Tips are not declared and are empty.
    /// </summary>
    private void WriteCommandInfo(RespCommandInfo info, ReadOnlySpan<SubcommandInfo> subcommands)
    {
        _writer.WriteArrayHeader(10);
        _writer.WriteBulk(info.LowerName);
        _writer.WriteInteger(info.Arity);
        WriteNameSet((uint)info.Flags, s_commandFlagNames, prefix: false);
        _writer.WriteInteger(info.FirstKey);
        _writer.WriteInteger(info.LastKey);
        _writer.WriteInteger(info.Step);
        WriteNameSet((uint)info.AclCategories, s_aclCategoryNames, prefix: true);
        _writer.WriteSetHeader(0);
        WriteKeySpecs(info);
        if (subcommands.Length == 0)
        {
            _writer.WriteSetHeader(0);
            return;
        }
        _writer.WriteArrayHeader(subcommands.Length);
        foreach (var subcommand in subcommands)
            WriteCommandInfo(subcommand.Info, ReadOnlySpan<SubcommandInfo>.Empty);
    }

    /// <summary>A set (an array in RESP2) of status strings naming the bits of <paramref name="bits"/>, "@"-prefixed for ACL categories.</summary>
    private void WriteNameSet(uint bits, byte[][] names, bool prefix)
    {
        _writer.WriteSetHeader(BitOperations.PopCount(bits));
        Span<byte> buffer = stackalloc byte[32];
        for (int bit = 0; bit < names.Length; bit++)
        {
            if ((bits & (1u << bit)) == 0)
                continue;
            if (prefix)
            {
                buffer[0] = (byte)'@';
                names[bit].CopyTo(buffer.Slice(1));
                _writer.WriteSimpleString(buffer.Slice(0, names[bit].Length + 1));
            }
            else
            {
                _writer.WriteSimpleString(names[bit]);
            }
        }
    }

    /// <summary>COMMAND DOCS [name ...]: a map from command name to its summary, since and group (and subcommands' docs).</summary>
    private void CommandDocsReply()
    {
        if (_argCount == 2)
        {
            var all = CommandTable.All;
            _writer.WriteMapHeader(all.Count);
            foreach (var info in all)
            {
                _writer.WriteBulk(info.LowerName);
                WriteCommandDocs(info, info, SubcommandTable.Of(info.Command));
            }
            return;
        }
        var found = new List<(RespCommandInfo Info, RespCommandInfo Parent, bool IsSubcommand)>();
        for (int i = 2; i < _argCount; i++)
        {
            var top = FindCommand(_args[i].Span);
            if (top != null)
            {
                found.Add((top, top, false));
                continue;
            }
            var subcommand = SubcommandTable.Find(_args[i].ToString());
            if (subcommand != null)
                found.Add((subcommand.Info, CommandTable.Get(subcommand.Info.Command), true));
        }
        _writer.WriteMapHeader(found.Count);
        foreach (var (info, parent, isSubcommand) in found)
        {
            _writer.WriteBulk(info.LowerName);
            WriteCommandDocs(info, parent, isSubcommand ? ReadOnlySpan<SubcommandInfo>.Empty : SubcommandTable.Of(info.Command));
        }
    }

    private void WriteCommandDocs(RespCommandInfo info, RespCommandInfo parent, ReadOnlySpan<SubcommandInfo> subcommands)
    {
        _writer.WriteMapHeader(subcommands.Length == 0 ? 3 : 4);
        _writer.WriteBulk("summary"u8);
        _writer.WriteBulk(info.Summary);
        _writer.WriteBulk("since"u8);
        _writer.WriteBulk(CommandDocs.Since(info));
        _writer.WriteBulk("group"u8);
        _writer.WriteBulk(CommandDocs.Group(parent));
        if (subcommands.Length == 0)
            return;
        _writer.WriteBulk("subcommands"u8);
        _writer.WriteMapHeader(subcommands.Length);
        foreach (var subcommand in subcommands)
        {
            _writer.WriteBulk(subcommand.Info.LowerName);
            WriteCommandDocs(subcommand.Info, parent, ReadOnlySpan<SubcommandInfo>.Empty);
        }
    }

    /// <summary>COMMAND GETKEYS command arg... (the keys) and GETKEYSANDFLAGS (each key with its key-spec flags).</summary>
    private void CommandGetKeys(bool withFlags)
    {
        const int offset = 2;
        var info = FindCommand(_args[offset].Span);
        if (info == null)
        {
            _writer.WriteError(ServerStrings.ErrInvalidCommand);
            return;
        }
        int count = _argCount - offset;
        if (SubcommandTable.IsContainer(info.Command) && count >= 2)
        {
            var subcommand = SubcommandTable.Find(info.Command, _args[offset + 1]);
            if (subcommand == null)
            {
                _writer.WriteError(ServerStrings.ErrInvalidCommand);
                return;
            }
            info = subcommand.Info;
        }
        bool movable = (info.Flags & CommandFlags.MovableKeys) != 0;
        if (info.FirstKey == 0 && !movable)
        {
            _writer.WriteError(ServerStrings.ErrNoKeyArguments);
            return;
        }
        if (!info.ArityAccepts(count))
        {
            _writer.WriteError(ServerStrings.ErrInvalidArgumentCount);
            return;
        }
        var found = new List<(int Position, KeySpecFlags Flags)>();
        var command = _args.AsSpan(offset, count);
        KeySpecSearch.Find(info, command, count, found);
        if (found.Count == 0)
        {
            if ((info.Flags & CommandFlags.NoMandatoryKeys) != 0)
                _writer.WriteArrayHeader(0);
            else
                _writer.WriteError(ServerStrings.ErrInvalidArguments);
            return;
        }
        _writer.WriteArrayHeader(found.Count);
        foreach (var (position, flags) in found)
        {
            if (!withFlags)
            {
                _writer.WriteBulk(command[position].Span);
                continue;
            }
            _writer.WriteArrayHeader(2);
            _writer.WriteBulk(command[position].Span);
            WriteKeySpecFlags(flags);
        }
    }

    /// <summary>Key-spec flag names, by bit of <see cref="KeySpecFlags"/>.</summary>
    private static readonly byte[][] s_keySpecFlagNames = Utf8(
        "RO", "RW", "OW", "RM", "access", "update", "insert", "delete", "not_key", "incomplete", "variable_flags");

    /// <summary>A key spec's flags: a set of status strings in Redis's order.</summary>
    private void WriteKeySpecFlags(KeySpecFlags flags) => WriteNameSet((uint)flags, s_keySpecFlagNames, prefix: false);

    /// <summary>COMMAND INFO's key specifications (<see cref="RespCommandInfo.KeySpecs"/>): each with its notes, if any, flags, begin_search and find_keys.</summary>
    private void WriteKeySpecs(RespCommandInfo info)
    {
        _writer.WriteArrayHeader(info.KeySpecs.Length);
        foreach (var spec in info.KeySpecs)
        {
            _writer.WriteMapHeader(spec.Notes == null ? 3 : 4);
            if (spec.Notes != null)
            {
                _writer.WriteBulk("notes"u8);
                _writer.WriteBulk(spec.Notes);
            }
            _writer.WriteBulk("flags"u8);
            WriteKeySpecFlags(spec.Flags);

            _writer.WriteBulk("begin_search"u8);
            switch (spec.Begin)
            {
                case BeginSearch.Index: WriteBeginIndex(spec); break;
                case BeginSearch.Keyword: WriteBeginKeyword(spec); break;
                default: WriteUnknownSearch(); break;
            }
            _writer.WriteBulk("find_keys"u8);
            switch (spec.Find)
            {
                case FindKeys.Range: WriteFindRange(spec); break;
                case FindKeys.KeyNum: WriteFindKeyNum(spec); break;
                default: WriteUnknownSearch(); break;
            }
        }
    }

    /// <summary>begin_search or find_keys: a map of its <paramref name="type"/> and a spec map of <paramref name="fields"/> fields, which follow.</summary>
    private void WriteSearchHeader(ReadOnlySpan<byte> type, int fields)
    {
        _writer.WriteMapHeader(2);
        _writer.WriteBulk("type"u8);
        _writer.WriteBulk(type);
        _writer.WriteBulk("spec"u8);
        _writer.WriteMapHeader(fields);
    }

    /// <summary>One integer field of a spec map.</summary>
    private void WriteSpecField(ReadOnlySpan<byte> name, int value)
    {
        _writer.WriteBulk(name);
        _writer.WriteInteger(value);
    }

    /// <summary>begin_search by index: {type: index, spec: {index}}.</summary>
    private void WriteBeginIndex(KeySpec spec)
    {
        WriteSearchHeader("index"u8, 1);
        WriteSpecField("index"u8, spec.Index);
    }

    /// <summary>begin_search by keyword: {type: keyword, spec: {keyword, startfrom}}.</summary>
    private void WriteBeginKeyword(KeySpec spec)
    {
        WriteSearchHeader("keyword"u8, 2);
        _writer.WriteBulk("keyword"u8);
        _writer.WriteBulk(spec.KeywordBytes!);
        WriteSpecField("startfrom"u8, spec.Index);
    }

    /// <summary>find_keys as a range: {type: range, spec: {lastkey, keystep, limit}}.</summary>
    private void WriteFindRange(KeySpec spec)
    {
        WriteSearchHeader("range"u8, 3);
        WriteSpecField("lastkey"u8, spec.A);
        WriteSpecField("keystep"u8, spec.B);
        WriteSpecField("limit"u8, spec.C);
    }

    /// <summary>find_keys by a key count: {type: keynum, spec: {keynumidx, firstkey, keystep}}.</summary>
    private void WriteFindKeyNum(KeySpec spec)
    {
        WriteSearchHeader("keynum"u8, 3);
        WriteSpecField("keynumidx"u8, spec.A);
        WriteSpecField("firstkey"u8, spec.B);
        WriteSpecField("keystep"u8, spec.C);
    }

    /// <summary>begin_search or find_keys that Redis cannot describe: {type: unknown, spec: {}}.</summary>
    private void WriteUnknownSearch() => WriteSearchHeader("unknown"u8, 0);

    /// <summary>COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]: names of commands and subcommands.</summary>
    private void CommandList()
    {
        int filter = 0;
        byte[] argument = [];
        AclCategories category = AclCategories.None;
        if (_argCount != 2)
        {
            if (_argCount != 5 || !_args[2].EqualsUpper("FILTERBY"u8))
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
            argument = _args[4].Span.ToArray();
            if (_args[3].EqualsUpper("MODULE"u8))
            {
                filter = 1;
            }
            else if (_args[3].EqualsUpper("ACLCAT"u8))
            {
                filter = 2;
                for (int bit = 0; bit < s_aclCategoryNames.Length; bit++)
                {
                    if (Ascii.EqualsIgnoreCase(argument, s_aclCategoryNames[bit]))
                        category = (AclCategories)(1u << bit);
                }
            }
            else if (_args[3].EqualsUpper("PATTERN"u8))
            {
                filter = 3;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var names = new List<string>();
        foreach (var info in CommandTable.All)
        {
            AddIfListed(info);
            foreach (var subcommand in SubcommandTable.Of(info.Command))
                AddIfListed(subcommand.Info);
        }
        foreach (var info in _server.Extensions.All) // registered custom commands
            AddIfListed(info);
        _writer.WriteArrayHeader(names.Count);
        foreach (string name in names)
            _writer.WriteBulk(name);

        void AddIfListed(RespCommandInfo info)
        {
            bool listed = filter switch
            {
                0 => true,
                1 => false, // there are no modules
                2 => (info.AclCategories & category) != 0,
                _ => GlobPattern.IsMatch(argument, Encoding.ASCII.GetBytes(info.LowerName), ignoreCase: true),
            };
            if (listed)
                names.Add(info.LowerName);
        }
    }
}
