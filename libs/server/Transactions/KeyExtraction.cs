using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>How a command reaches the keyspace, for locking.</summary>
internal enum KeyScope : byte
{
    /// <summary>The command touches no keys.</summary>
    None,

    /// <summary>The command touches exactly the keys extracted from its arguments.</summary>
    Declared,

    /// <summary>
    /// The command may touch keys it does not name (KEYS, SCAN, SORT ... BY/GET, scripts, DEBUG...):
    /// it must run with no other multi-key lock holder (see <see cref="KeyLockGate"/>).
    /// </summary>
    Keyspace,

    /// <summary>The command replaces or switches databases (SELECT, FLUSHDB, FLUSHALL, SWAPDB): it runs with no key locks held.</summary>
    DatabaseSwitch,

    /// <summary>
    /// The command names keys, which ACL checks, but takes no lock on them: WATCH, which reads each key's version before
    /// its value, and arming the versions (RespServerSession.HoldWatch) may wait for writes that wait for key locks.
    /// </summary>
    Unlocked,
}

/// <summary>
/// The keys of one command (argument positions, and whether each is locked for writing) and its scope. The access ACL
/// asks of each is <see cref="KeyExtraction.AccessOf"/>'s, worked out only when ACL checks keys.
/// </summary>
internal sealed class KeyList
{
    private int[] _positions = new int[8];
    private bool[] _writes = new bool[8];

    /// <summary>Number of keys.</summary>
    public int Count { get; private set; }

    /// <summary>How the command reaches the keyspace.</summary>
    public KeyScope Scope { get; set; }

    /// <summary>The argument index of key <paramref name="i"/>.</summary>
    public int Position(int i) => _positions[i];

    /// <summary>Whether key <paramref name="i"/> may be written: its lock is exclusive, and a write moves its watched version.</summary>
    public bool IsWrite(int i) => _writes[i];

    public void Clear()
    {
        Count = 0;
        Scope = KeyScope.None;
    }

    public void Add(int position, bool write)
    {
        if (Count == _positions.Length)
        {
            Array.Resize(ref _positions, Count * 2);
            Array.Resize(ref _writes, Count * 2);
        }
        _positions[Count] = position;
        _writes[Count] = write;
        Count++;
        if (Scope == KeyScope.None)
            Scope = KeyScope.Declared;
    }
}

/// <summary>
/// Finds the keys of any command: the command table's key positions (first, last, step), and the
/// argument-dependent positions of the movable-key commands (numkeys forms, SORT, GEORADIUS STORE,
/// scripts). Transactions lock these keys; scripting uses the same helper. Keys of a command flagged
/// write are treated as written (exclusive), others as read (shared): conservative for commands
/// that read some keys and write one (SUNIONSTORE's sources), never wrong. The access ACL asks of each
/// key is the command table's (<see cref="RespCommandInfo.KeyAccess"/>), refined by the arguments for
/// the few commands whose access varies (<see cref="AccessByArguments"/>).
/// </summary>
internal static class KeyExtraction
{
    /// <summary>
    /// The commands whose keys <see cref="Extract"/> finds by their arguments or special rules (its switch); every other
    /// command with a first key takes the command table's positions. Kept beside the switch; Acl/AclInlineCheckTests
    /// fails if a command is special-cased there but missing here (the inline ACL check would then read the wrong keys).
    /// </summary>
    private static readonly RespCommand[] SpecialCommands =
    [
        RespCommand.SELECT, RespCommand.SWAPDB, RespCommand.FLUSHDB, RespCommand.FLUSHALL, RespCommand.WATCH,
        RespCommand.ZUNION, RespCommand.ZINTER, RespCommand.ZDIFF, RespCommand.ZINTERCARD, RespCommand.SINTERCARD,
        RespCommand.LMPOP, RespCommand.ZMPOP, RespCommand.ZUNIONSTORE, RespCommand.ZINTERSTORE, RespCommand.ZDIFFSTORE,
        RespCommand.BLMPOP, RespCommand.BZMPOP, RespCommand.COPY, RespCommand.MOVE, RespCommand.EVAL, RespCommand.EVALSHA,
        RespCommand.EVAL_RO, RespCommand.EVALSHA_RO, RespCommand.FCALL, RespCommand.FCALL_RO, RespCommand.GEORADIUS,
        RespCommand.GEORADIUSBYMEMBER, RespCommand.SORT, RespCommand.SORT_RO, RespCommand.MEMORY, RespCommand.OBJECT,
        RespCommand.XREAD, RespCommand.XREADGROUP, RespCommand.XGROUP, RespCommand.XINFO, RespCommand.MIGRATE,
    ];

    private static readonly bool[] s_special = SpecialFlags();

    private static bool[] SpecialFlags()
    {
        var flags = new bool[ExtensionRegistry.FirstId];
        foreach (var command in SpecialCommands)
            flags[(int)command] = true;
        return flags;
    }

    /// <summary>
    /// Whether the keys of <paramref name="info"/> are the command table's positions (first, last, step), whatever the
    /// arguments: a built-in command that is neither special-cased nor a container.
    /// </summary>
    public static bool HasTableKeys(RespCommandInfo info)
    {
        int id = (int)info.Command;
        return id < s_special.Length && info.FirstKey > 0 && !s_special[id] && !SubcommandTable.IsContainer(info.Command);
    }

    /// <summary>
    /// Fills <paramref name="keys"/> with the keys of <paramref name="info"/> given its
    /// <paramref name="argCount"/> arguments (the name at 0). Malformed arguments (a numkeys that is
    /// not a number) give fewer keys; the command reports the error itself when it runs.
    /// </summary>
    public static void Extract(RespCommandInfo info, ReadOnlySpan<ArgSlice> args, int argCount, KeyList keys)
    {
        keys.Clear();
        bool write = (info.Flags & CommandFlags.ReadOnly) == 0;
        switch (info.Command)
        {
            case RespCommand.SELECT:
            case RespCommand.SWAPDB:
            case RespCommand.FLUSHDB:
            case RespCommand.FLUSHALL:
                keys.Scope = KeyScope.DatabaseSwitch;
                return;

            case RespCommand.WATCH:
                // Keys for ACL, none to lock (see KeyScope.Unlocked).
                for (int i = 1; i < argCount; i++)
                    keys.Add(i, write: false);
                keys.Scope = KeyScope.Unlocked;
                return;

            case RespCommand.ZUNION:
            case RespCommand.ZINTER:
            case RespCommand.ZDIFF:
            case RespCommand.ZINTERCARD:
            case RespCommand.SINTERCARD:
            case RespCommand.LMPOP:
            case RespCommand.ZMPOP:
                AddNumKeys(args, argCount, 1, write, keys);
                return;

            case RespCommand.ZUNIONSTORE:
            case RespCommand.ZINTERSTORE:
            case RespCommand.ZDIFFSTORE:
                if (!TryReadNumKeys(args, argCount, 2, out long sources))
                    return;
                keys.Add(1, write: true);
                AddKeys(3, sources, write, keys);
                return;

            case RespCommand.BLMPOP:
            case RespCommand.BZMPOP:
                AddNumKeys(args, argCount, 2, write, keys);
                return;

            case RespCommand.SORT:
            case RespCommand.SORT_RO:
                AddSortKeys(args, argCount, write, keys);
                return;

            case RespCommand.GEORADIUS:
            case RespCommand.GEORADIUSBYMEMBER:
                keys.Add(1, write);
                for (int i = info.Command == RespCommand.GEORADIUS ? 6 : 5; i + 1 < argCount; i++)
                {
                    if (args[i].EqualsUpper("STORE"u8) || args[i].EqualsUpper("STOREDIST"u8))
                        keys.Add(++i, write: true);
                }
                return;

            case RespCommand.EVAL:
            case RespCommand.EVALSHA:
            case RespCommand.EVAL_RO:
            case RespCommand.EVALSHA_RO:
            case RespCommand.FCALL:
            case RespCommand.FCALL_RO:
                AddNumKeys(args, argCount, 2, write, keys);
                // A script may reach keys it did not declare.
                keys.Scope = KeyScope.Keyspace;
                return;

            case RespCommand.COPY:
                keys.Add(1, write);
                keys.Add(2, write);
                // COPY ... DB n writes another database's store: its latches are not in this lock set.
                for (int i = 3; i < argCount; i++)
                {
                    if (args[i].EqualsUpper("DB"u8))
                        keys.Scope = KeyScope.Keyspace;
                }
                return;

            case RespCommand.MOVE:
                keys.Add(1, write: true);
                // MOVE writes another database's store: its latches are not in this lock set.
                keys.Scope = KeyScope.Keyspace;
                return;

            case RespCommand.MEMORY:
                if (argCount >= 3 && args[1].EqualsUpper("USAGE"u8))
                    keys.Add(2, write: false);
                else
                    keys.Scope = KeyScope.Keyspace;
                return;

            case RespCommand.OBJECT:
                // Every subcommand but HELP reads the key in argument 2.
                if (argCount >= 3)
                    keys.Add(2, write: false);
                return;

            case RespCommand.XREAD:
            case RespCommand.XREADGROUP:
                AddStreamsKeys(args, argCount, write, keys);
                return;

            case RespCommand.MIGRATE:
                // The key argument, or the keys after KEYS (the key argument then is "" and no key).
                MigrateArguments.FindKeys(args, argCount, out int firstMigrated, out int migrated);
                for (int i = 0; i < migrated; i++)
                    keys.Add(firstMigrated + i, write: true);
                return;

            case RespCommand.XGROUP:
            case RespCommand.XINFO:
                // Every subcommand but HELP names the key in argument 2; XGROUP's write it.
                if (argCount >= 3)
                    keys.Add(2, write: info.Command == RespCommand.XGROUP);
                return;
        }

        if (info.FirstKey > 0)
        {
            int last = info.LastKey < 0 ? argCount + info.LastKey : Math.Min(info.LastKey, argCount - 1);
            int step = Math.Max(1, info.Step);
            for (int i = info.FirstKey; i <= last; i += step)
                keys.Add(i, write);
            return;
        }
        keys.Scope = TouchesNoKeys(info) ? KeyScope.None : KeyScope.Keyspace;
    }

    /// <summary>
    /// Whether a write changes key <paramref name="index"/> (in <see cref="Extract"/>'s order) by its declared
    /// <paramref name="access"/>: a key only read, as SUNIONSTORE's sources, is not; a key whose access is not declared is.
    /// </summary>
    public static bool Modifies(KeyAccessSpec access, int index)
    {
        var asked = index == 0 ? access.First : access.Rest;
        return !access.HasKeys || asked == KeyAccess.None || (asked & KeyAccess.Write) != 0;
    }

    /// <summary>
    /// The access the keys of this call need: the command table's, the subcommand's for a container (OBJECT ENCODING,
    /// MEMORY USAGE), or as the arguments decide for a command whose access varies.
    /// </summary>
    public static KeyAccessSpec AccessOf(RespCommandInfo info, ReadOnlySpan<ArgSlice> args, int argCount)
    {
        var access = info.KeyAccess;
        if (access.VariesWithArguments)
            return AccessByArguments(info.Command, args, argCount);
        if (argCount >= 2 && SubcommandTable.IsContainer(info.Command))
            return SubcommandTable.Find(info.Command, args[1])?.Info.KeyAccess ?? access;
        return access;
    }

    /// <summary>
    /// The access the keys of a command need when the table marks it as varying with the arguments (Redis's
    /// VARIABLE_FLAGS); the table's access is the most any call needs. No allocation: the inline ACL check calls it.
    /// </summary>
    public static KeyAccessSpec AccessByArguments(RespCommand command, ReadOnlySpan<ArgSlice> args, int argCount)
    {
        switch (command)
        {
            case RespCommand.SET:
                // SET ... GET returns the old value; otherwise the value is only overwritten (Redis: OW UPDATE). Any
                // argument after the value counts, as Redis reads it.
                for (int i = 3; i < argCount; i++)
                {
                    if (args[i].EqualsUpper("GET"u8))
                        return KeyAccessSpec.ReadWrite;
                }
                return KeyAccessSpec.Write;

            case RespCommand.BITFIELD:
                // Complete GET and OVERFLOW operations only read; SET, INCRBY or anything malformed may write.
                for (int i = 2; i < argCount;)
                {
                    int following = argCount - i - 1;
                    if (following >= 2 && args[i].EqualsUpper("GET"u8))
                        i += 3;
                    else if (following >= 1 && args[i].EqualsUpper("OVERFLOW"u8))
                        i += 2;
                    else
                        return KeyAccessSpec.ReadWrite;
                }
                return KeyAccessSpec.Read;

            default:
                throw new ArgumentOutOfRangeException(nameof(command), command, "The command's key access does not vary with its arguments.");
        }
    }

    /// <summary>Whether a command without key arguments stays away from the keyspace (connection, transaction and pub/sub commands, TIME...).</summary>
    private static bool TouchesNoKeys(RespCommandInfo info)
    {
        if ((info.AclCategories & (AclCategories.Connection | AclCategories.Transaction | AclCategories.PubSub)) != 0)
            return true;
        return info.Command is RespCommand.TIME or RespCommand.LASTSAVE or RespCommand.COMMITAOF or RespCommand.SAVE or RespCommand.BGSAVE
            or RespCommand.BGREWRITEAOF or RespCommand.ACL or RespCommand.CONFIG or RespCommand.COMMAND or RespCommand.SHUTDOWN;
    }

    /// <summary>numkeys at <paramref name="numKeysAt"/>, then that many keys.</summary>
    private static void AddNumKeys(ReadOnlySpan<ArgSlice> args, int argCount, int numKeysAt, bool write, KeyList keys)
    {
        if (TryReadNumKeys(args, argCount, numKeysAt, out long count))
            AddKeys(numKeysAt + 1, count, write, keys);
    }

    /// <summary><paramref name="count"/> keys from argument <paramref name="first"/> on.</summary>
    private static void AddKeys(int first, long count, bool write, KeyList keys)
    {
        for (int i = first; i < first + count; i++)
            keys.Add(i, write);
    }

    /// <summary>
    /// The numkeys argument at <paramref name="numKeysAt"/>, when it is a positive count the arguments after it can hold.
    /// Otherwise the command names no keys at all: it fails without touching any (as Redis reads it).
    /// </summary>
    private static bool TryReadNumKeys(ReadOnlySpan<ArgSlice> args, int argCount, int numKeysAt, out long count)
        => NumberFormat.TryParseLong(numKeysAt < argCount ? args[numKeysAt].Span : default, out count)
            && count > 0 && count <= argCount - numKeysAt - 1;

    /// <summary>
    /// XREAD / XREADGROUP ... STREAMS key [key ...] id [id ...]: the first half of the arguments after the first STREAMS
    /// (Redis's keyword key spec); none when they do not pair up.
    /// </summary>
    private static void AddStreamsKeys(ReadOnlySpan<ArgSlice> args, int argCount, bool write, KeyList keys)
    {
        for (int i = 1; i < argCount; i++)
        {
            if (!args[i].EqualsUpper("STREAMS"u8))
                continue;
            int rest = argCount - i - 1;
            if (rest > 0 && rest % 2 == 0)
                AddKeys(i + 1, rest / 2, write, keys);
            return;
        }
    }

    /// <summary>SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE destination].</summary>
    private static void AddSortKeys(ReadOnlySpan<ArgSlice> args, int argCount, bool write, KeyList keys)
    {
        keys.Add(1, write: false);
        bool external = false;
        for (int i = 2; i < argCount; i++)
        {
            if (args[i].EqualsUpper("LIMIT"u8))
            {
                i += 2;
            }
            else if (i + 1 < argCount && args[i].EqualsUpper("BY"u8))
            {
                // BY without '*' only turns sorting off; a pattern reads other keys.
                external |= args[++i].Span.IndexOf((byte)'*') >= 0;
            }
            else if (i + 1 < argCount && args[i].EqualsUpper("GET"u8))
            {
                external |= !args[++i].Span.SequenceEqual("#"u8);
            }
            else if (write && i + 1 < argCount && args[i].EqualsUpper("STORE"u8))
            {
                keys.Add(++i, write: true);
            }
        }
        if (external)
            keys.Scope = KeyScope.Keyspace;
    }
}
