using System;

namespace Garnet.server;

/// <summary>
/// One command's entry in the command table: what COMMAND INFO reports, what arity checks use, and
/// where the keys are and what each needs (for transactions, cluster routing and ACL key patterns).
/// </summary>
public sealed class RespCommandInfo
{
    /// <summary>
    /// A built-in command's row: its keys are declared as Redis's key specs, and the legacy key positions, movable
    /// keys and the access each key needs are derived from them as Redis derives them. A row whose movable-keys flag
    /// disagrees with its specs fails the server's start-up here.
    /// </summary>
    internal RespCommandInfo(RespCommand command, string name, int arity, CommandFlags flags, KeySpec[] keys, AclCategories categories, string summary)
        : this(command, name, arity, flags, KeyPositions.Of(keys), keys, categories, summary)
    {
    }

    private RespCommandInfo(RespCommand command, string name, int arity, CommandFlags flags, KeyPositions keys, KeySpec[] specs, AclCategories categories, string summary)
    {
        if (((flags & CommandFlags.MovableKeys) != 0) != keys.Movable)
            throw new ArgumentException($"'{name}': the movable-keys flag disagrees with the key specs.", nameof(flags));
        Command = command;
        StatsSlot = (int)command;
        Name = name;
        NameBytes = System.Text.Encoding.ASCII.GetBytes(name);
        LowerName = name.ToLowerInvariant();
        Arity = arity;
        Flags = flags;
        FirstKey = keys.FirstKey;
        LastKey = keys.LastKey;
        Step = keys.Step;
        KeyAccess = keys.Access;
        KeySpecs = specs;
        AclCategories = categories;
        Summary = summary;
        // SET is not @fast in Redis (its options vary) but is as cheap as the @fast writes.
        SharesBatchTime = (flags & CommandFlags.Fast) != 0 || command == RespCommand.SET;
        MayReplaceType = command == RespCommand.SET;
        foreach (var spec in specs)
            MayReplaceType |= (spec.Flags & KeySpecFlags.OW) != 0;
    }

    /// <summary>
    /// Whether the command may replace a key's value whatever its type: a key spec with OW (MSET, SETEX, BITOP, the *STORE
    /// destinations, COPY, RENAME, RESTORE), and SET, whose spec says RW for its GET option. Replacing a stream ends a
    /// blocked XREADGROUP (RespServerSession.Blocking.cs).
    /// </summary>
    public bool MayReplaceType { get; }

    /// <summary>
    /// A custom command's entry, registered at run time with key positions (the key being written, or none): its key
    /// specs are derived from them.
    /// </summary>
    internal static RespCommandInfo ForCustomCommand(RespCommand command, string name, int arity, CommandFlags flags, int firstKey, int lastKey, int step, KeyAccessSpec keyAccess, AclCategories categories, string summary)
    {
        // A custom command with keys says what each needs (ACL key patterns are checked against it).
        if (keyAccess.HasKeys != (firstKey > 0 || (flags & CommandFlags.MovableKeys) != 0))
            throw new ArgumentException($"'{name}': key access declared for a command without keys, or missing for one with keys.", nameof(keyAccess));
        var specs = KeyPositions.SpecsOf(firstKey, lastKey, step, (flags & CommandFlags.MovableKeys) != 0, keyAccess);
        return new RespCommandInfo(command, name, arity, flags, KeyPositions.Declared(firstKey, lastKey, step, (flags & CommandFlags.MovableKeys) != 0, keyAccess), specs, categories, summary);
    }

    /// <summary>
    /// Cheap enough that reading the clock around it would cost as much as running it: timed as part of a stretch of
    /// such commands (see RespServerSession.CommandTiming.cs).
    /// </summary>
    public bool SharesBatchTime { get; }

    /// <summary>The command id.</summary>
    public RespCommand Command { get; }

    /// <summary>Which arguments hold secrets: the slow log and MONITOR show them as "(redacted)".</summary>
    public SecretArguments Secrets { get; init; }

    /// <summary>
    /// Where INFO commandstats and the latency histograms count this command: its id, or for a subcommand a slot of its
    /// own (Redis reports "client|id", not "client").
    /// </summary>
    public int StatsSlot { get; internal set; }

    /// <summary>Upper-case name.</summary>
    public string Name { get; }

    /// <summary>Upper-case name as bytes.</summary>
    public byte[] NameBytes { get; }

    /// <summary>Lower-case name, as error messages and COMMAND INFO show it.</summary>
    public string LowerName { get; }

    /// <summary>Argument count including the name; negative means "at least |arity|".</summary>
    public int Arity { get; }

    /// <summary>Command flags.</summary>
    public CommandFlags Flags { get; }

    /// <summary>Position of the first key (0 if none), derived from <see cref="KeySpecs"/> for a built-in command.</summary>
    public int FirstKey { get; }

    /// <summary>Position of the last key; negative counts from the end (-1 = last argument).</summary>
    public int LastKey { get; }

    /// <summary>Distance between keys.</summary>
    public int Step { get; }

    /// <summary>
    /// The access each key needs, which ACL key patterns (%R~, %W~) are checked against: for the keys at the positions
    /// above, or for those found by the arguments (numkeys, STORE) when the command has movable keys. Derived from
    /// <see cref="KeySpecs"/> (the first and the last spec's access) for a built-in command.
    /// </summary>
    public KeyAccessSpec KeyAccess { get; }

    /// <summary>
    /// Redis's key specifications of the command (COMMAND INFO's element 9, COMMAND GETKEYS): declared on the built-in
    /// commands' rows, derived from the key positions for custom ones.
    /// </summary>
    public KeySpec[] KeySpecs { get; }

    /// <summary>
    /// The keyspace event of the command's object writes (LPUSH's "lpush"), published by the session after each
    /// (RespServerSession.Notifications.cs); null for a command that writes no object.
    /// </summary>
    internal ObjectWriteEvent? WriteEvent { get; init; }

    /// <summary>The keyspace event of the result a *STORE command (SORT ... STORE, SUNIONSTORE...) stores; null for others.</summary>
    internal ObjectWriteEvent? StoreEvent { get; init; }

    /// <summary>ACL categories.</summary>
    public AclCategories AclCategories { get; }

    /// <summary>One-line description (COMMAND DOCS).</summary>
    public string Summary { get; }

    /// <summary>Whether <paramref name="argumentCount"/> (name included) satisfies the arity.</summary>
    public bool ArityAccepts(int argumentCount) => Arity >= 0 ? argumentCount == Arity : argumentCount >= -Arity;
}
