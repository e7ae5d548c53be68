using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>
/// SETSLOT and SETSLOTSRANGE: a slot migrates from the node that serves it (MIGRATING there) to another (IMPORTING there)
/// while its keys move, and NODE ends the move on each node. A node that takes a slot it imported takes a new
/// configuration epoch, so that its claim wins everywhere. A slot migration run by MIGRATE ... SLOTS (on the server's
/// side, SlotMigration) drives the same states through <see cref="CheckSlotMigration"/> and <see cref="SetSlots"/>.
/// </summary>
public sealed partial class ClusterNode
{
    private static ReadOnlySpan<byte> ErrSetSlotSyntax => "ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP"u8;

    /// <summary>SETSLOT slot IMPORTING id | MIGRATING id | STABLE | NODE id, as Redis's.</summary>
    private void SetSlot(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection)
    {
        if (!TryParseSlot(args[1], out int slot))
        {
            writer.WriteError(ErrInvalidSlot);
            return;
        }
        if (!TryParseAction(args.Slice(2), out var action, out string? nodeId))
        {
            writer.WriteError(ErrSetSlotSyntax);
            return;
        }
        WriteOutcome(ref writer, SetSlotsChecked(action, [slot], nodeId, connection));
    }

    /// <summary>
    /// SETSLOTSRANGE IMPORTING id | MIGRATING id | STABLE | NODE id start end [start end ...] (Garnet's): SETSLOT for every
    /// slot of the ranges, all or none, with one save of the configuration and one scan of the keys.
    /// </summary>
    private void SetSlotsRange(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection)
    {
        int first = args.Length > 1 && args[1].EqualsUpper("STABLE"u8) ? 2 : 3;
        if (args.Length <= first || !TryParseAction(args.Slice(1, first - 1), out var action, out string? nodeId))
        {
            writer.WriteError(ErrSetSlotSyntax);
            return;
        }
        if ((args.Length - first) % 2 != 0)
        {
            writer.WriteError("ERR wrong number of arguments for 'cluster|setslotsrange' command"u8);
            return;
        }
        if (SlotArguments.Parse(args.Slice(first), ranges: true, out var slots, out _) is { } error)
        {
            writer.WriteError(error);
            return;
        }
        WriteOutcome(ref writer, SetSlotsChecked(action, slots.ToArray(), nodeId, connection));
    }

    private static void WriteOutcome(ref RespWriter writer, string? error)
    {
        if (error == null)
            writer.WriteOk();
        else
            writer.WriteError(error);
    }

    private static bool TryParseAction(ReadOnlySpan<ArgSlice> words, out SlotAction action, out string? nodeId)
    {
        action = SlotAction.Stable;
        nodeId = null;
        if (words.Length == 1 && words[0].EqualsUpper("STABLE"u8))
            return true;
        if (words.Length != 2)
            return false;
        if (words[0].EqualsUpper("NODE"u8))
            action = SlotAction.Node;
        else if (words[0].EqualsUpper("IMPORTING"u8))
            action = SlotAction.Importing;
        else if (words[0].EqualsUpper("MIGRATING"u8))
            action = SlotAction.Migrating;
        else
            return false;
        nodeId = Encoding.UTF8.GetString(words[1].Span);
        return true;
    }

    /// <summary>
    /// SETSLOT(SRANGE) by command: NODE to another node is refused for a slot this node serves while keys of it are still
    /// here. They are found by one scan of the store, before the lock: a scan waits for the other threads in its epoch,
    /// and one of them may be waiting for the lock (a message from another node).
    /// </summary>
    private string? SetSlotsChecked(SlotAction action, int[] slots, string? nodeId, IClusterConnection connection)
    {
        bool[]? withKeys = null;
        if (action == SlotAction.Node)
        {
            var served = new bool[HashSlot.Count];
            bool any = false;
            foreach (int slot in slots)
            {
                if (_owners[slot] == _myself)
                    any = served[slot] = true;
            }
            if (any)
                withKeys = connection.FindSlotsWithKeys(served);
        }
        return SetSlots(action, slots, nodeId, withKeys);
    }

    /// <inheritdoc/>
    public string? SetSlots(SlotAction action, ReadOnlySpan<int> slots, string? nodeId) => SetSlots(action, slots, nodeId, withKeys: null);

    /// <summary>
    /// Applies <paramref name="action"/> to every slot of <paramref name="slots"/> once all of them were checked (the
    /// first refusal is returned, nothing changed); <paramref name="withKeys"/> marks the slots that still hold keys here.
    /// </summary>
    private string? SetSlots(SlotAction action, ReadOnlySpan<int> slots, string? nodeId, bool[]? withKeys)
    {
        lock (_lock)
        {
            KnownNode? node = null;
            if (action != SlotAction.Stable)
            {
                if (nodeId == null || !_nodes.TryGetValue(nodeId, out node) || node.InHandshake)
                    return action == SlotAction.Node ? $"ERR Unknown node {nodeId}" : $"ERR I don't know about node {nodeId}";
                if (!node.IsPrimary)
                    return "ERR Target node is not a master";
            }
            foreach (int slot in slots)
            {
                var owner = _owners[slot];
                switch (action)
                {
                    case SlotAction.Importing when owner == _myself:
                        return $"ERR I'm already the owner of hash slot {slot}";
                    case SlotAction.Migrating when owner != _myself:
                        return $"ERR I'm not the owner of hash slot {slot}";
                    case SlotAction.Migrating when node == _myself:
                        return "ERR Target node is the current node: a slot migrates to another node";
                    case SlotAction.Node when node != _myself && owner == _myself && withKeys != null && withKeys[slot]:
                        return $"ERR Can't assign hashslot {slot} to a different node while I still hold keys for this hash slot.";
                }
            }

            bool tookImported = false;
            foreach (int slot in slots)
            {
                switch (action)
                {
                    case SlotAction.Stable:
                        ClearMigration(slot);
                        break;
                    case SlotAction.Importing:
                        _importingFrom[slot] = node;
                        RefreshRoute(slot);
                        _dirty = true;
                        break;
                    case SlotAction.Migrating:
                        _migratingTo[slot] = node;
                        RefreshRoute(slot);
                        _dirty = true;
                        break;
                    default:
                        // The keys are gone: the migration ends here. The importing node takes the slot with a new epoch.
                        if (_migratingTo[slot] != null && !(withKeys != null && withKeys[slot]))
                            ClearMigration(slot);
                        if (node == _myself && _importingFrom[slot] != null)
                        {
                            ClearMigration(slot);
                            tookImported = true;
                        }
                        SetOwner(slot, node);
                        break;
                }
            }
            if (tookImported)
                BumpEpochWithoutConsensus();
            if (action == SlotAction.Stable)
                SaveIfChanged();
            else
                ConfigurationChanged();
        }
        return null;
    }

    /// <inheritdoc/>
    public string? CheckSlotMigration(ReadOnlySpan<int> slots, string host, int port, out string targetId)
    {
        targetId = "";
        lock (_lock)
        {
            KnownNode? target = null;
            foreach (var node in _nodes.Values)
            {
                var address = node.Address;
                if (address.Port == port && string.Equals(address.Ip, host, StringComparison.OrdinalIgnoreCase) && !node.InHandshake)
                {
                    target = node;
                    break;
                }
            }
            if (target == null)
                return $"ERR I don't know about a node at {host}:{port}";
            if (target == _myself)
                return "ERR Target node is the current node: a slot migrates to another node";
            if (!target.IsPrimary)
                return "ERR Target node is not a master";
            foreach (int slot in slots)
            {
                if (_owners[slot] != _myself)
                    return $"ERR I'm not the owner of hash slot {slot}";
                // Already migrating to this target (a migration that stopped, or a restart during one): it goes on.
                if ((_migratingTo[slot] != null && _migratingTo[slot] != target) || _importingFrom[slot] != null)
                    return $"ERR Slot {slot} is already migrating or importing";
            }
            targetId = target.Id;
        }
        return null;
    }
}
