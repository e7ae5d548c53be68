using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Cluster mode as the server sees it: which hash slots this node serves, and the CLUSTER command. libs/cluster
/// implements it and the host plugs it in (<see cref="StoreWrapper.Cluster"/>, with --cluster); the server never
/// references the cluster library. A session asks <see cref="Route"/> about every command with keys, once the keys are
/// known to share a slot.
/// </summary>
public interface IClusterProvider : IDisposable
{
    /// <summary>Whether this node runs a command on <paramref name="slot"/> (a write when <paramref name="write"/>), or why not.</summary>
    SlotRoute Route(int slot, bool write);

    /// <summary>
    /// Writes the error a command on <paramref name="slot"/> gets when <see cref="Route"/> answered <paramref name="route"/>:
    /// for <see cref="SlotRoute.Migrating"/> the ASK to the target, for <see cref="SlotRoute.Importing"/> the MOVED to the owner.
    /// </summary>
    void WriteRedirection(ref RespWriter writer, int slot, SlotRoute route);

    /// <summary>
    /// Runs CLUSTER: <paramref name="args"/> holds the subcommand and its arguments (the subcommand and its arity were
    /// checked against the command table); <paramref name="connection"/> is the client's connection.
    /// </summary>
    void RunCommand(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection);

    /// <summary>This node's id (CLUSTER MYID).</summary>
    string Id { get; }

    /// <summary>
    /// False while this node is a primary serving slots that has not heard from a majority of the primaries for its lease
    /// time: it takes no writes, and commits held for its replicas do not complete without them (a replica may be
    /// promoted in its place).
    /// </summary>
    bool WriteLeaseHeld { get; }

    /// <summary>
    /// Whether MIGRATE ... SLOTS may move <paramref name="slots"/> to the node at <paramref name="host"/>:<paramref name="port"/>:
    /// null when this node serves them all, none is importing or migrating to another node (one migrating to this target
    /// already is taken up again), and the address is another known primary (its id in <paramref name="targetId"/>); else
    /// the error.
    /// </summary>
    string? CheckSlotMigration(ReadOnlySpan<int> slots, string host, int port, out string targetId);

    /// <summary>
    /// CLUSTER SETSLOTSRANGE on this node for <paramref name="slots"/>, without looking for keys left (the caller moved
    /// them): null when done, else the error and nothing changed.
    /// </summary>
    string? SetSlots(SlotAction action, ReadOnlySpan<int> slots, string? nodeId);
}

/// <summary>What CLUSTER SETSLOT does to a slot.</summary>
public enum SlotAction : byte
{
    /// <summary>Ends its migration or import.</summary>
    Stable,

    /// <summary>This node imports it from the node named.</summary>
    Importing,

    /// <summary>This node migrates it to the node named.</summary>
    Migrating,

    /// <summary>The node named serves it.</summary>
    Node,
}

/// <summary>How a node stands toward a command on a slot (<see cref="IClusterProvider.Route"/>).</summary>
public enum SlotRoute : byte
{
    /// <summary>This node serves the slot: the command runs.</summary>
    Served,

    /// <summary>No node serves the slot (-CLUSTERDOWN Hash slot not served).</summary>
    Unbound,

    /// <summary>A node serves the slot but the cluster is down (-CLUSTERDOWN The cluster is down).</summary>
    Down,

    /// <summary>Another node serves the slot (-MOVED slot ip:port).</summary>
    Moved,

    /// <summary>
    /// This node serves the slot and is migrating it: a command whose keys are all here runs; one whose keys are all gone
    /// is sent to the target (-ASK slot ip:port); one with some of each gets -TRYAGAIN.
    /// </summary>
    Migrating,

    /// <summary>Another node serves the slot and this one is importing it: a command after ASKING runs here, others get -MOVED.</summary>
    Importing,

    /// <summary>
    /// This node's primary serves the slot (this node is its replica): a read on a connection that sent READONLY runs here,
    /// everything else gets -MOVED to the primary.
    /// </summary>
    Replicated,
}

/// <summary>What the cluster may ask of the connection a CLUSTER command came on.</summary>
public interface IClusterConnection
{
    /// <summary>The IP address the client reached this node at (what a node with no announced address tells it).</summary>
    string LocalIp { get; }

    /// <summary>The IP address the client connected from (a node that sends CLUSTER GOSSIP without an address of its own is there).</summary>
    string RemoteIp { get; }

    /// <summary>The port the client reached this node at.</summary>
    int LocalPort { get; }

    /// <summary>How many keys the cluster's database (database 0) holds.</summary>
    long KeyCount { get; }

    /// <summary>How many keys of the database hash to <paramref name="slot"/> (a scan of the keys).</summary>
    long CountKeysInSlot(int slot);

    /// <summary>Writes an array of at most <paramref name="count"/> keys that hash to <paramref name="slot"/>.</summary>
    void WriteKeysInSlot(int slot, long count, ref RespWriter writer);

    /// <summary>Which of the slots marked in <paramref name="slots"/> (16384 entries) hold keys here: one scan of the keys.</summary>
    bool[] FindSlotsWithKeys(bool[] slots);

    /// <summary>Slot migrations started by MIGRATE ... SLOTS that are still running on this node (CLUSTER MTASKS).</summary>
    int SlotMigrationTasks { get; }
}
