using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password | AUTH2 username password]
/// [KEYS key [key ...] | SLOTS slot [slot ...] | SLOTSRANGE start end [start end ...]], parsed as Redis 7.2 parses it:
/// the options first (KEYS ends them, everything after it is a key), then the timeout and the database as integers.
/// SLOTS and SLOTSRANGE are Garnet's: in cluster mode they move whole slots (Cluster/SlotMigration.cs) and end the
/// options as KEYS does. Positions are argument indexes (the name at 0).
/// </summary>
internal readonly struct MigrateArguments
{
    /// <summary>The argument of the single-key form; the empty string with KEYS.</summary>
    public const int KeyArgument = 3;

    /// <summary>Redis's timeout when the one given is not positive, in milliseconds.</summary>
    private const long DefaultTimeoutMs = 1000;

    /// <summary>Keep the source keys.</summary>
    public bool Copy { get; init; }

    /// <summary>Send RESTORE ... REPLACE.</summary>
    public bool Replace { get; init; }

    /// <summary>Argument of the AUTH2 user name, 0 when none (AUTH password alone, or no authentication).</summary>
    public int UsernameAt { get; init; }

    /// <summary>Argument of the password, 0 when the target is not authenticated to.</summary>
    public int PasswordAt { get; init; }

    /// <summary>Argument of the first key to migrate.</summary>
    public int FirstKey { get; init; }

    /// <summary>Number of keys from <see cref="FirstKey"/> on (0 after a KEYS with nothing following).</summary>
    public int KeyCount { get; init; }

    /// <summary>Argument of the first slot (or range start) after SLOTS or SLOTSRANGE, 0 for a migration of keys.</summary>
    public int SlotsAt { get; init; }

    /// <summary>Whether the slots are given as ranges (SLOTSRANGE).</summary>
    public bool SlotRanges { get; init; }

    /// <summary>The database selected on the target.</summary>
    public long Database { get; init; }

    /// <summary>Milliseconds allowed for the connect and for each write and reply.</summary>
    public int TimeoutMs { get; init; }

    /// <summary>Parses the <paramref name="count"/> arguments; an empty span when they are valid, else Redis's error.</summary>
    public static ReadOnlySpan<byte> Parse(ReadOnlySpan<ArgSlice> args, int count, out MigrateArguments parsed)
    {
        parsed = default;
        bool copy = false, replace = false;
        int usernameAt = 0, passwordAt = 0;
        int firstKey = KeyArgument, keyCount = 1, slotsAt = 0;
        bool slotRanges = false;
        for (int i = 6; i < count; i++)
        {
            int more = count - 1 - i;
            ref readonly var option = ref args[i];
            if (option.EqualsUpper("COPY"u8))
            {
                copy = true;
            }
            else if (option.EqualsUpper("REPLACE"u8))
            {
                replace = true;
            }
            else if (option.EqualsUpper("AUTH"u8))
            {
                if (more < 1)
                    return RespStrings.ErrSyntax;
                passwordAt = ++i;
            }
            else if (option.EqualsUpper("AUTH2"u8))
            {
                if (more < 2)
                    return RespStrings.ErrSyntax;
                usernameAt = ++i;
                passwordAt = ++i;
            }
            else if (option.EqualsUpper("KEYS"u8))
            {
                if (args[KeyArgument].Length != 0)
                    return MigrateStrings.ErrKeysNeedEmptyKey;
                firstKey = i + 1;
                keyCount = count - firstKey;
                break;
            }
            else if (option.EqualsUpper("SLOTS"u8) || option.EqualsUpper("SLOTSRANGE"u8))
            {
                if (args[KeyArgument].Length != 0)
                    return MigrateStrings.ErrSlotsNeedEmptyKey;
                slotRanges = option.EqualsUpper("SLOTSRANGE"u8);
                if (more < 1 || (slotRanges && more % 2 != 0))
                    return RespStrings.ErrSyntax;
                slotsAt = i + 1;
                keyCount = 0;
                break;
            }
            else
            {
                return RespStrings.ErrSyntax;
            }
        }

        // Redis reads the timeout before the database.
        if (!NumberFormat.TryParseLong(args[5].Span, out long timeout) || !NumberFormat.TryParseLong(args[4].Span, out long database))
            return RespStrings.ErrNotInteger;
        if (timeout <= 0)
            timeout = DefaultTimeoutMs;

        parsed = new MigrateArguments
        {
            Copy = copy,
            Replace = replace,
            UsernameAt = usernameAt,
            PasswordAt = passwordAt,
            FirstKey = firstKey,
            KeyCount = keyCount,
            SlotsAt = slotsAt,
            SlotRanges = slotRanges,
            Database = database,
            TimeoutMs = (int)Math.Min(timeout, int.MaxValue),
        };
        return default;
    }

    /// <summary>
    /// The keys of a MIGRATE call, for locks, ACL and COMMAND GETKEYS (Redis's migrateGetKeys): those after KEYS, or the
    /// key argument. False when KEYS follows a non-empty key argument (the command will refuse it).
    /// </summary>
    public static bool FindKeys(ReadOnlySpan<ArgSlice> args, int count, out int first, out int number)
    {
        first = KeyArgument;
        number = count > KeyArgument ? 1 : 0;
        for (int i = 6; i < count; i++)
        {
            if (args[i].EqualsUpper("KEYS"u8))
            {
                if (args[KeyArgument].Length != 0)
                {
                    number = 0;
                    return false;
                }
                first = i + 1;
                number = count - first;
                return true;
            }
            // Whole slots: their keys are found by the migration, none is named.
            if (args[i].EqualsUpper("SLOTS"u8) || args[i].EqualsUpper("SLOTSRANGE"u8))
            {
                number = 0;
                return true;
            }
            // Skip the values of the options that take some, so that a password "keys" is not read as the keyword.
            if (args[i].EqualsUpper("AUTH"u8))
                i++;
            else if (args[i].EqualsUpper("AUTH2"u8))
                i += 2;
        }
        return true;
    }

    /// <summary>
    /// Whether argument <paramref name="index"/> of a MIGRATE call is a secret Redis keeps out of MONITOR and the slow log
    /// (the AUTH password, the AUTH2 user name and password).
    /// </summary>
    public static bool IsSecret(ReadOnlySpan<ArgSlice> args, int index)
    {
        for (int i = 6; i < args.Length && i < index; i++)
        {
            if (args[i].EqualsUpper("KEYS"u8) || args[i].EqualsUpper("SLOTS"u8) || args[i].EqualsUpper("SLOTSRANGE"u8))
                return false;
            int values = args[i].EqualsUpper("AUTH"u8) ? 1 : args[i].EqualsUpper("AUTH2"u8) ? 2 : 0;
            if (index <= i + values)
                return true;
            i += values;
        }
        return false;
    }
}
