using System;
using System.Text;

namespace Garnet.server;

/// <summary>
/// The keyspace event of an object write (list, hash, set, sorted set, geo, stream), after Redis's list of events,
/// declared on the command's row of the command table: its class, its name, and whether it is published whenever the
/// command succeeds on an existing or created key (HSET, LSET, LTRIM...) or only when the command changed the
/// elements (SADD of a new member, LREM that removed...). A few commands' event depends on the call (LMPOP's end,
/// ZADD ... INCR, XGROUP's subcommand); the *STORE commands' event is published for the stored result
/// (<see cref="RespCommandInfo.StoreEvent"/>).
/// </summary>
internal sealed class ObjectWriteEvent
{
    /// <summary>How the event's name is chosen for a call.</summary>
    private enum Choice : byte
    {
        /// <summary>Always <see cref="_name"/>.</summary>
        Fixed,

        /// <summary><see cref="_name"/> from the left or minimum end (<see cref="ObjectInput.Flags"/> 0), else <see cref="_other"/> (LMPOP, ZMPOP).</summary>
        ByEnd,

        /// <summary>SMOVE's two steps: <see cref="_name"/> ("srem") for the removal from the source, <see cref="_other"/> ("sadd") for the destination.</summary>
        BySetMoveStep,

        /// <summary><see cref="_other"/> ("zincr") with ZADD's INCR option, else <see cref="_name"/>.</summary>
        ByIncrOption,

        /// <summary>By XGROUP's subcommand (<see cref="ObjectInput.Flags"/>).</summary>
        ByGroupSubcommand,

        /// <summary>None published here: the command's handler publishes its events (moves between keys, blocking pops) or Redis publishes none.</summary>
        NotHere,
    }

    private readonly byte[] _name;
    private readonly byte[] _other;
    private readonly Choice _choice;

    private ObjectWriteEvent(KeyspaceEventClasses type, string name, string? other, Choice choice, bool onSuccess)
    {
        Type = type;
        _name = Encoding.ASCII.GetBytes(name);
        _other = other == null ? [] : Encoding.ASCII.GetBytes(other);
        _choice = choice;
        OnSuccess = onSuccess;
    }

    /// <summary>The event's class.</summary>
    public KeyspaceEventClasses Type { get; }

    /// <summary>Published when the command succeeded, whether or not the elements changed.</summary>
    public bool OnSuccess { get; }

    /// <summary>A list event.</summary>
    public static ObjectWriteEvent List(string name, bool onSuccess = false) => new(KeyspaceEventClasses.List, name, null, Choice.Fixed, onSuccess);

    /// <summary>A hash event.</summary>
    public static ObjectWriteEvent Hash(string name, bool onSuccess = false) => new(KeyspaceEventClasses.Hash, name, null, Choice.Fixed, onSuccess);

    /// <summary>A set event.</summary>
    public static ObjectWriteEvent Set(string name, bool onSuccess = false) => new(KeyspaceEventClasses.Set, name, null, Choice.Fixed, onSuccess);

    /// <summary>A sorted set event (geo commands' too).</summary>
    public static ObjectWriteEvent SortedSet(string name, bool onSuccess = false) => new(KeyspaceEventClasses.SortedSet, name, null, Choice.Fixed, onSuccess);

    /// <summary>A stream event.</summary>
    public static ObjectWriteEvent Stream(string name, bool onSuccess = false) => new(KeyspaceEventClasses.Stream, name, null, Choice.Fixed, onSuccess);

    /// <summary>LMPOP: "lpop" or "rpop" by the end popped.</summary>
    public static ObjectWriteEvent ListPop() => new(KeyspaceEventClasses.List, "lpop", "rpop", Choice.ByEnd, false);

    /// <summary>ZMPOP: "zpopmin" or "zpopmax" by the end popped.</summary>
    public static ObjectWriteEvent SortedSetPop() => new(KeyspaceEventClasses.SortedSet, "zpopmin", "zpopmax", Choice.ByEnd, false);

    /// <summary>SMOVE: "srem" on the source, "sadd" on the destination.</summary>
    public static ObjectWriteEvent SetMove() => new(KeyspaceEventClasses.Set, "srem", "sadd", Choice.BySetMoveStep, false);

    /// <summary>ZADD: "zadd", or "zincr" with INCR, as ZINCRBY publishes.</summary>
    public static ObjectWriteEvent SortedSetAdd() => new(KeyspaceEventClasses.SortedSet, "zadd", "zincr", Choice.ByIncrOption, false);

    /// <summary>XGROUP: "xgroup-create", "xgroup-setid"... by subcommand; the stream marks the ones that changed anything.</summary>
    public static ObjectWriteEvent StreamGroup() => new(KeyspaceEventClasses.Stream, "", null, Choice.ByGroupSubcommand, false);

    /// <summary>
    /// A write of an object type that publishes nothing through this path: its handler publishes the events itself
    /// (LMOVE, the blocking pops), or Redis publishes none (XACK).
    /// </summary>
    public static ObjectWriteEvent NotHere { get; } = new(KeyspaceEventClasses.None, "", null, Choice.NotHere, false);

    /// <summary>The event's name for the object operation <paramref name="input"/>; empty when none is published.</summary>
    public ReadOnlySpan<byte> NameFor(in ObjectInput input) => _choice switch
    {
        Choice.Fixed => _name,
        Choice.ByEnd => input.Flags == 0 ? _name : _other,
        Choice.BySetMoveStep => input.Flags == SetObject.MoveRemove ? _name : _other,
        Choice.ByIncrOption => HasIncr(in input) ? _other : _name,
        Choice.ByGroupSubcommand => GroupEventName(input.Flags),
        _ => default,
    };

    /// <summary>The event's name of a command with one name (a stored result's).</summary>
    public ReadOnlySpan<byte> Name => _name;

    /// <summary>XGROUP's event by subcommand (<see cref="ObjectInput.Flags"/>).</summary>
    private static ReadOnlySpan<byte> GroupEventName(int subcommand) => (StreamObject.GroupSubcommand)subcommand switch
    {
        StreamObject.GroupSubcommand.Create => "xgroup-create"u8,
        StreamObject.GroupSubcommand.SetId => "xgroup-setid"u8,
        StreamObject.GroupSubcommand.Destroy => "xgroup-destroy"u8,
        StreamObject.GroupSubcommand.CreateConsumer => "xgroup-createconsumer"u8,
        StreamObject.GroupSubcommand.DelConsumer => "xgroup-delconsumer"u8,
        _ => default,
    };

    /// <summary>ZADD ... INCR publishes "zincr", as ZINCRBY does; the options come before the first score.</summary>
    private static bool HasIncr(in ObjectInput input)
    {
        for (int i = 0; i < input.ArgCount; i++)
        {
            var arg = input.Arg(i);
            if (Ascii.EqualsIgnoreCase(arg, "INCR"u8))
                return true;
            if (!Ascii.EqualsIgnoreCase(arg, "NX"u8) && !Ascii.EqualsIgnoreCase(arg, "XX"u8) && !Ascii.EqualsIgnoreCase(arg, "GT"u8)
                && !Ascii.EqualsIgnoreCase(arg, "LT"u8) && !Ascii.EqualsIgnoreCase(arg, "CH"u8))
                return false;
        }
        return false;
    }
}
