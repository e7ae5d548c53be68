using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>A key pattern and the access it grants.</summary>
internal readonly record struct KeyPattern(byte[] Pattern, KeyAccess Access)
{
    /// <summary>
    /// How the pattern is matched, decided once: most patterns are a literal key or a literal prefix and "*", which a
    /// comparison decides without the general glob matcher (checked on every command of a restricted user).
    /// </summary>
    private readonly PatternShape _shape = ShapeOf(Pattern);

    /// <summary>Whether <paramref name="key"/> matches, exactly as <see cref="GlobPattern.IsMatch"/> decides.</summary>
    public bool Matches(ReadOnlySpan<byte> key)
    {
        // The glob matcher's rule for the empty key (only the empty pattern matches it) is left to the glob matcher.
        if (key.IsEmpty)
            return GlobPattern.IsMatch(Pattern, key);
        return _shape switch
        {
            PatternShape.Literal => key.SequenceEqual(Pattern),
            PatternShape.Prefix => key.StartsWith(Pattern.AsSpan(0, Pattern.Length - 1)),
            _ => GlobPattern.IsMatch(Pattern, key),
        };
    }

    /// <summary>For a literal prefix and "*" ("app:*"), the prefix; null for any other pattern.</summary>
    public byte[]? LiteralPrefix() => _shape == PatternShape.Prefix ? Pattern[..^1] : null;

    private static PatternShape ShapeOf(byte[] pattern)
    {
        int special = pattern.AsSpan().IndexOfAny("*?[\\"u8);
        if (special < 0)
            return PatternShape.Literal;
        return special == pattern.Length - 1 && pattern[special] == '*' ? PatternShape.Prefix : PatternShape.Glob;
    }

    private enum PatternShape : byte
    {
        Glob,
        Literal,
        Prefix,
    }
}

/// <summary>Why a rule was refused; <see cref="AclStrings.RuleErrorText"/> words each as Redis does.</summary>
internal enum AclRuleError : byte
{
    None,
    Syntax,
    UnknownCommand,
    KeysAfterAllKeys,
    ChannelsAfterAllChannels,
    PasswordNotFound,
    BadHash,
}

/// <summary>
/// One set of permissions: commands, key patterns and channel patterns. A user has a root selector and
/// any number of further ones; a command runs if one selector allows all of it. Commands are a bitmap
/// over ACL ids (built-in command ids, then subcommands from <see cref="SubcommandBase"/>), so a check is
/// one bit test; custom commands, whose ids come later, are judged by replaying the rules. The rules are
/// also kept in order, compacted as Redis does, because ACL LIST prints them back.
/// </summary>
internal sealed class AclSelector
{
    /// <summary>The ACL id of the first subcommand: built-in command ids stay below the custom ones.</summary>
    public const int SubcommandBase = ExtensionRegistry.FirstId;

    private const int BitCount = SubcommandBase + 256;
    private const int Words = BitCount / 64;

    private readonly ulong[] _allowed = new ulong[Words];
    private readonly List<string> _commandRules = [];
    private readonly List<KeyPattern> _keys = [];
    private readonly List<byte[]> _channels = [];

    /// <summary>Set by +@all (and only by it): commands added later, such as custom ones, are allowed too.</summary>
    public bool AllCommands { get; private set; }

    /// <summary>~* or allkeys.</summary>
    public bool AllKeys { get; private set; }

    /// <summary>&amp;* or allchannels.</summary>
    public bool AllChannels { get; private set; }

    /// <summary>Key patterns, in the order given.</summary>
    public IReadOnlyList<KeyPattern> Keys => _keys;

    /// <summary>Channel patterns, in the order given.</summary>
    public IReadOnlyList<byte[]> Channels => _channels;

    /// <summary>Whether this selector allows everything: every command, key and channel.</summary>
    public bool IsUnrestricted
    {
        get
        {
            if (!AllCommands || !AllKeys || !AllChannels)
                return false;
            foreach (string rule in _commandRules)
            {
                if (rule[0] == '-')
                    return false;
            }
            return true;
        }
    }

    /// <summary>A deep copy (SETUSER works on a copy so a failing rule leaves the user unchanged).</summary>
    public AclSelector Clone()
    {
        var copy = new AclSelector { AllCommands = AllCommands, AllKeys = AllKeys, AllChannels = AllChannels };
        _allowed.CopyTo(copy._allowed, 0);
        copy._commandRules.AddRange(_commandRules);
        copy._keys.AddRange(_keys);
        copy._channels.AddRange(_channels);
        return copy;
    }

    /// <summary>The ACL id of a built-in command or subcommand.</summary>
    public static int AclId(RespCommandInfo info, SubcommandInfo? subcommand)
        => subcommand != null ? SubcommandBase + (int)subcommand.Id : (int)info.Command;

    /// <summary>Whether the built-in command <paramref name="command"/> (not a container's subcommand) may run.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public bool AllowsBuiltIn(RespCommand command)
    {
        int id = (int)command;
        return (_allowed[id >> 6] & (1UL << id)) != 0;
    }

    /// <summary>Whether the command (its subcommand when it is a container) may run.</summary>
    public bool AllowsCommand(RespCommandInfo info, SubcommandInfo? subcommand)
    {
        int id = (int)info.Command;
        if (id >= ExtensionRegistry.FirstId)
            return ReplayAllows(info);
        if (subcommand != null)
            id = SubcommandBase + (int)subcommand.Id;
        return (_allowed[id >> 6] & (1UL << id)) != 0;
    }

    /// <summary>Custom commands are not in the bitmap (their ids are open-ended): the rules decide, in order.</summary>
    private bool ReplayAllows(RespCommandInfo info)
    {
        bool allowed = AllCommands;
        foreach (string rule in _commandRules)
        {
            bool allow = rule[0] == '+';
            if (rule[1] == '@')
            {
                if ((AclCategoryNames.Find(rule.Substring(2)) & info.AclCategories) != 0)
                    allowed = allow;
            }
            else if (rule.AsSpan(1).SequenceEqual(info.LowerName))
            {
                allowed = allow;
            }
        }
        return allowed;
    }

    /// <summary>
    /// Whether a key may be accessed as <paramref name="needed"/>: some pattern grants at least that and matches the key
    /// (so <see cref="KeyAccess.None"/> asks only for a matching pattern).
    /// </summary>
    public bool AllowsKey(ReadOnlySpan<byte> key, KeyAccess needed)
    {
        if (AllKeys)
            return true;
        var patterns = System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_keys);
        for (int i = 0; i < patterns.Length; i++)
        {
            if ((patterns[i].Access & needed) == needed && patterns[i].Matches(key))
                return true;
        }
        return false;
    }

    /// <summary>
    /// Whether a channel may be used. A PSUBSCRIBE pattern must be one of the user's patterns literally,
    /// as in Redis: matching a pattern against a pattern would let "*" through a narrower one.
    /// </summary>
    public bool AllowsChannel(ReadOnlySpan<byte> channel, bool isPattern)
    {
        if (AllChannels)
            return true;
        foreach (var pattern in _channels)
        {
            if (isPattern ? pattern.AsSpan().SequenceEqual(channel) : GlobPattern.IsMatch(pattern, channel))
                return true;
        }
        return false;
    }

    /// <summary>Applies one selector rule (commands, keys or channels); on error the selector may be half-changed, so callers work on a copy.</summary>
    public AclRuleError Apply(string op, ExtensionRegistry? extensions)
    {
        if (op.Length == 0)
            return AclRuleError.Syntax;
        if (Is(op, "allkeys") || op == "~*")
        {
            AllKeys = true;
            _keys.Clear();
            return AclRuleError.None;
        }
        if (Is(op, "resetkeys"))
        {
            AllKeys = false;
            _keys.Clear();
            return AclRuleError.None;
        }
        if (Is(op, "allchannels") || op == "&*")
        {
            AllChannels = true;
            _channels.Clear();
            return AclRuleError.None;
        }
        if (Is(op, "resetchannels"))
        {
            AllChannels = false;
            _channels.Clear();
            return AclRuleError.None;
        }
        if (Is(op, "allcommands") || Is(op, "+@all"))
        {
            Array.Fill(_allowed, ulong.MaxValue);
            AllCommands = true;
            _commandRules.Clear();
            return AclRuleError.None;
        }
        if (Is(op, "nocommands") || Is(op, "-@all"))
        {
            Array.Clear(_allowed);
            AllCommands = false;
            _commandRules.Clear();
            return AclRuleError.None;
        }
        switch (op[0])
        {
            case '~':
            case '%':
                return AddKeyPattern(op);
            case '&':
                if (AllChannels)
                    return AclRuleError.ChannelsAfterAllChannels;
                var channel = Encoding.Latin1.GetBytes(op.Substring(1));
                foreach (var existing in _channels)
                {
                    if (existing.AsSpan().SequenceEqual(channel))
                        return AclRuleError.None;
                }
                _channels.Add(channel);
                return AclRuleError.None;
            case '+':
            case '-':
                if (op.Length > 1 && op[1] == '@')
                    return ApplyCategory(op.Substring(2), op[0] == '+');
                return ApplyCommand(op.Substring(1), op[0] == '+', extensions);
            default:
                return AclRuleError.Syntax;
        }
    }

    private static bool Is(string op, string keyword) => string.Equals(op, keyword, StringComparison.OrdinalIgnoreCase);

    private AclRuleError AddKeyPattern(string op)
    {
        if (AllKeys)
            return AclRuleError.KeysAfterAllKeys;
        var access = KeyAccess.ReadWrite;
        int offset = 1;
        if (op[0] == '%')
        {
            access = KeyAccess.None;
            bool tilde = false;
            for (; offset < op.Length; offset++)
            {
                char c = char.ToUpperInvariant(op[offset]);
                if (c == 'R' && (access & KeyAccess.Read) == 0)
                    access |= KeyAccess.Read;
                else if (c == 'W' && (access & KeyAccess.Write) == 0)
                    access |= KeyAccess.Write;
                else if (c == '~')
                {
                    offset++;
                    tilde = true;
                    break;
                }
                else
                    return AclRuleError.Syntax;
            }
            if (!tilde || access == KeyAccess.None)
                return AclRuleError.Syntax;
        }
        string text = op.Substring(offset);
        if (text == "*" && access == KeyAccess.ReadWrite)
        {
            AllKeys = true;
            _keys.Clear();
            return AclRuleError.None;
        }
        var pattern = Encoding.Latin1.GetBytes(text);
        for (int i = 0; i < _keys.Count; i++)
        {
            if (_keys[i].Pattern.AsSpan().SequenceEqual(pattern))
            {
                _keys[i] = _keys[i] with { Access = _keys[i].Access | access };
                return AclRuleError.None;
            }
        }
        _keys.Add(new KeyPattern(pattern, access));
        return AclRuleError.None;
    }

    private AclRuleError ApplyCategory(string name, bool allow)
    {
        var category = AclCategoryNames.Find(name);
        if (category == AclCategories.None)
            return AclRuleError.UnknownCommand;
        var mask = CategoryMasks.Of(category);
        for (int i = 0; i < Words; i++)
            _allowed[i] = allow ? _allowed[i] | mask[i] : _allowed[i] & ~mask[i];
        UpdateRule("@" + name.ToLowerInvariant(), allow);
        return AclRuleError.None;
    }

    private AclRuleError ApplyCommand(string name, bool allow, ExtensionRegistry? extensions)
    {
        int bar = name.IndexOf('|');
        if (bar < 0)
        {
            var info = CommandTable.Lookup(name) ?? (extensions?.Find(Encoding.Latin1.GetBytes(name))?.Info);
            if (info == null)
                return AclRuleError.UnknownCommand;
            if ((int)info.Command < ExtensionRegistry.FirstId)
            {
                SetBit((int)info.Command, allow);
                foreach (var subcommand in SubcommandTable.Of(info.Command))
                    SetBit(SubcommandBase + (int)subcommand.Id, allow);
            }
            UpdateRule(info.LowerName, allow);
            return AclRuleError.None;
        }

        var parent = CommandTable.Lookup(name.Substring(0, bar)) ?? (extensions?.Find(Encoding.Latin1.GetBytes(name.Substring(0, bar)))?.Info);
        if (parent == null)
            return AclRuleError.UnknownCommand;
        if (bar == name.Length - 1)
            return allow ? AclRuleError.Syntax : AclRuleError.UnknownCommand;
        var sub = SubcommandTable.Find(name.ToUpperInvariant());
        if (sub == null)
        {
            // Redis keeps "first argument" rules (+select|0) for commands without subcommands; they are
            // deprecated there and not supported here.
            return AclRuleError.UnknownCommand;
        }
        SetBit(SubcommandBase + (int)sub.Id, allow);
        UpdateRule(sub.Info.LowerName, allow);
        return AclRuleError.None;
    }

    private void SetBit(int id, bool allow)
    {
        if (allow)
            _allowed[id >> 6] |= 1UL << id;
        else
            _allowed[id >> 6] &= ~(1UL << id);
    }

    /// <summary>Keeps the rules replayable in order: an earlier rule for the same command or category is dropped.</summary>
    private void UpdateRule(string rule, bool allow)
    {
        for (int i = _commandRules.Count - 1; i >= 0; i--)
        {
            if (_commandRules[i].AsSpan(1).SequenceEqual(rule))
                _commandRules.RemoveAt(i);
        }
        _commandRules.Add((allow ? "+" : "-") + rule);
    }

    /// <summary>The key patterns as rules ("~a %R~b"), empty when there are none.</summary>
    public string DescribeKeys()
    {
        if (AllKeys)
            return "~*";
        var text = new StringBuilder();
        foreach (var pattern in _keys)
        {
            if (text.Length > 0)
                text.Append(' ');
            text.Append(pattern.Access switch { KeyAccess.Read => "%R~", KeyAccess.Write => "%W~", _ => "~" });
            text.Append(Encoding.Latin1.GetString(pattern.Pattern));
        }
        return text.ToString();
    }

    /// <summary>The channel patterns as rules ("&amp;a &amp;b"), empty when there are none.</summary>
    public string DescribeChannels()
    {
        if (AllChannels)
            return "&*";
        var text = new StringBuilder();
        foreach (var channel in _channels)
        {
            if (text.Length > 0)
                text.Append(' ');
            text.Append('&').Append(Encoding.Latin1.GetString(channel));
        }
        return text.ToString();
    }

    /// <summary>The command rules as Redis prints them: +@all or -@all, then the rules since.</summary>
    public string DescribeCommands()
    {
        var text = new StringBuilder(AllCommands ? "+@all" : "-@all");
        foreach (string rule in _commandRules)
            text.Append(' ').Append(rule);
        return text.ToString();
    }

    /// <summary>The whole selector as ACL LIST prints it: keys, channels (resetchannels first unless all), commands.</summary>
    public string Describe()
    {
        var text = new StringBuilder();
        string keys = DescribeKeys();
        if (keys.Length > 0)
            text.Append(keys).Append(' ');
        if (AllChannels)
            text.Append("&* ");
        else
        {
            text.Append("resetchannels ");
            string channels = DescribeChannels();
            if (channels.Length > 0)
                text.Append(channels).Append(' ');
        }
        text.Append(DescribeCommands());
        return text.ToString();
    }

    /// <summary>Per category, the ACL ids of its commands and subcommands.</summary>
    private static class CategoryMasks
    {
        private static readonly Dictionary<AclCategories, ulong[]> s_masks = Build();

        public static ulong[] Of(AclCategories category) => s_masks[category];

        private static Dictionary<AclCategories, ulong[]> Build()
        {
            var masks = new Dictionary<AclCategories, ulong[]>();
            foreach (var (_, category) in AclCategoryNames.All)
            {
                var mask = new ulong[Words];
                foreach (var info in CommandTable.All)
                {
                    if ((info.AclCategories & category) != 0)
                        mask[(int)info.Command >> 6] |= 1UL << (int)info.Command;
                    foreach (var subcommand in SubcommandTable.Of(info.Command))
                    {
                        int id = SubcommandBase + (int)subcommand.Id;
                        if ((subcommand.Info.AclCategories & category) != 0)
                            mask[id >> 6] |= 1UL << id;
                    }
                }
                masks[category] = mask;
            }
            return masks;
        }
    }
}
