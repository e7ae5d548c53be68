using System;

namespace Garnet.server;

/// <summary>
/// One command's entry in the command table: what COMMAND INFO reports, what arity checks use, and
/// where the keys are and what each needs (for transactions, cluster routing and ACL key patterns).
/// </summary>
public sealed class RespCommandInfo
{
    internal RespCommandInfo(RespCommand command, string name, int arity, CommandFlags flags, int firstKey, int lastKey, int step, KeyAccessSpec keyAccess, AclCategories categories, string summary)
    {
        Command = command;
        StatsSlot = (int)command;
        Name = name;
        NameBytes = System.Text.Encoding.ASCII.GetBytes(name);
        LowerName = name.ToLowerInvariant();
        Arity = arity;
        Flags = flags;
        FirstKey = firstKey;
        LastKey = lastKey;
        Step = step;
        // Every command with keys says what each needs (ACL key patterns are checked against it); a table entry that
        // does not fails the server's start-up here.
        if (keyAccess.HasKeys != (firstKey > 0 || (flags & CommandFlags.MovableKeys) != 0))
            throw new ArgumentException($"'{name}': key access declared for a command without keys, or missing for one with keys.", nameof(keyAccess));
        KeyAccess = keyAccess;
        KeySpecs = KeySpecsOf(command, name, firstKey, lastKey, step, flags, keyAccess);
        AclCategories = categories;
        Summary = summary;
        // SET is not @fast in Redis (its options vary) but is as cheap as the @fast writes.
        SharesBatchTime = (flags & CommandFlags.Fast) != 0 || command == RespCommand.SET;
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

    /// <summary>Position of the first key (0 if none).</summary>
    public int FirstKey { get; }

    /// <summary>Position of the last key; negative counts from the end (-1 = last argument).</summary>
    public int LastKey { get; }

    /// <summary>Distance between keys.</summary>
    public int Step { get; }

    /// <summary>
    /// The access each key needs, which ACL key patterns (%R~, %W~) are checked against: for the keys at the positions
    /// above, or for those found by the arguments (numkeys, STORE) when the command has movable keys.
    /// </summary>
    public KeyAccessSpec KeyAccess { get; }

    /// <summary>
    /// Redis's key specifications of the command (COMMAND INFO's element 9, COMMAND GETKEYS): declared in
    /// <see cref="KeySpecTable"/> for the built-in commands, derived from the key positions for custom ones.
    /// </summary>
    public KeySpec[] KeySpecs { get; }

    /// <summary>
    /// A built-in command's declared specs, checked against its key positions and access: a command with keys but no
    /// specs, or specs that disagree, fail the server's start-up here.
    /// </summary>
    private static KeySpec[] KeySpecsOf(RespCommand command, string name, int firstKey, int lastKey, int step, CommandFlags flags, KeyAccessSpec access)
    {
        bool movable = (flags & CommandFlags.MovableKeys) != 0;
        if ((int)command >= ExtensionRegistry.FirstId)
            return KeySpecTable.Derive(firstKey, lastKey, step, movable, access);
        var specs = KeySpecTable.Find(name);
        if (specs == null)
        {
            if (access.HasKeys)
                throw new ArgumentException($"'{name}': a command with keys needs key specs in KeySpecTable.", nameof(name));
            return [];
        }
        string? disagreement = KeySpecTable.Disagreement(specs, firstKey, lastKey, step, movable, access);
        if (disagreement != null)
            throw new ArgumentException($"'{name}': key specs disagree with the command table: {disagreement}.", nameof(name));
        return specs;
    }

    /// <summary>ACL categories.</summary>
    public AclCategories AclCategories { get; }

    /// <summary>One-line description (COMMAND DOCS).</summary>
    public string Summary { get; }

    /// <summary>Whether <paramref name="argumentCount"/> (name included) satisfies the arity.</summary>
    public bool ArityAccepts(int argumentCount) => Arity >= 0 ? argumentCount == Arity : argumentCount >= -Arity;
}
