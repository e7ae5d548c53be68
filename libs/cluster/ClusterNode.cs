using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Threading;
using Garnet.common;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>
/// This server as a Redis Cluster node: its identity, the nodes it knows, which node serves each of the 16384 hash slots,
/// and whether the cluster is up. The CLUSTER command is in ClusterNode.Commands.cs, what the nodes tell each other in
/// ClusterNode.Gossip.cs, and the links that carry it in <see cref="ClusterBus"/>. The configuration is saved to
/// nodes.conf whenever it changes (NodesConfigFile.cs) and read back at start-up.
/// </summary>
public sealed partial class ClusterNode : IClusterProvider
{
    private const int IdLength = 40;

    private readonly object _lock = new();
    private readonly NodesConfigFile _file;
    private readonly ServerOptions _options;

    // Every node known, this one among them, by id; under _lock.
    private readonly Dictionary<string, KnownNode> _nodes = new(StringComparer.Ordinal);
    private readonly KnownNode _myself;

    // The node serving each slot (null: none). Written under _lock; a session's Route reads it without (a reference).
    private readonly KnownNode?[] _owners = new KnownNode?[HashSlot.Count];
    private volatile bool _up;

    // Slots this node migrates to another node and imports from another (SETSLOT MIGRATING/IMPORTING); written under
    // _lock, read by Route without it.
    private readonly KnownNode?[] _migratingTo = new KnownNode?[HashSlot.Count];
    private readonly KnownNode?[] _importingFrom = new KnownNode?[HashSlot.Count];

    // What Route answers for each slot while the cluster is up, kept with the three arrays above: every command with a
    // key reads one byte of this (16 KB) rather than two references from arrays eight times its size.
    private readonly SlotRoute[] _routes = new SlotRoute[HashSlot.Count];

    private long _currentEpoch;
    private long _lastVoteEpoch;

    // Nodes removed by FORGET, which gossip must not bring back for a minute (Redis's blacklist): id to when it ends.
    private readonly Dictionary<string, long> _forgotten = new(StringComparer.Ordinal);

    private ClusterBus? _bus;
    private bool _dirty;

    private ClusterNode(ServerOptions options, NodesConfigFile file, NodesConfig? saved)
    {
        _options = options;
        _file = file;
        Array.Fill(_routes, SlotRoute.Unbound);
        long now = NowMs;
        if (saved == null)
        {
            _myself = new KnownNode(NewId(), AnnouncedIp ?? "", AnnouncedPort, now) { ShardId = NewId() };
            _nodes.Add(_myself.Id, _myself);
            return;
        }
        _currentEpoch = saved.CurrentEpoch;
        _lastVoteEpoch = saved.LastVoteEpoch;
        KnownNode? myself = null;
        foreach (var node in saved.Nodes)
        {
            var known = new KnownNode(node.Id, node.Ip, node.Port, now)
            {
                ShardId = node.ShardId,
                IsPrimary = node.IsPrimary,
                PrimaryId = node.PrimaryId,
                ConfigEpoch = node.ConfigEpoch,
                Flags = node.Failed && !node.Myself ? NodeFlags.Fail : NodeFlags.None,
                FailTimeMs = node.Failed ? now : 0,
            };
            if (node.Myself)
            {
                myself = known;
                // The address given now wins over the one saved.
                known.Address = new NodeAddress(AnnouncedIp ?? node.Ip, AnnouncedPort);
            }
            _nodes[node.Id] = known;
            foreach (int slot in node.Slots)
                SetOwner(slot, known);
        }
        _myself = myself!;
        // The routes computed while loading did not know which node is this one yet.
        for (int slot = 0; slot < HashSlot.Count; slot++)
            RefreshRoute(slot);
        foreach (var (slot, id, migrating) in saved.Myself.Migrations)
        {
            if (!_nodes.TryGetValue(id, out var other))
                throw new System.IO.InvalidDataException($"The cluster node configuration {file.Path} is not valid: slot {slot} migrates with unknown node {id}.");
            (migrating ? _migratingTo : _importingFrom)[slot] = other;
            RefreshRoute(slot);
        }
        UpdateState();
    }

    /// <summary>
    /// The node of a server with <paramref name="options"/>: the one saved in nodes.conf (in the checkpoint directory, else
    /// the current one) unless <see cref="ServerOptions.CleanClusterConfig"/>, else a new node, whose configuration is saved
    /// at once. A nodes.conf that cannot be read fails start-up, as Redis's does.
    /// </summary>
    public static ClusterNode Open(ServerOptions options)
    {
        var file = new NodesConfigFile(options.CheckpointDir ?? Environment.CurrentDirectory);
        var saved = options.CleanClusterConfig ? null : file.Load();
        var node = new ClusterNode(options, file, saved);
        if (saved == null)
            node.Save();
        return node;
    }

    /// <summary>
    /// Starts the links to the other nodes once the server listens on <paramref name="port"/> (the one it announces unless
    /// --cluster-announce-port says otherwise).
    /// </summary>
    public void Start(int port, IReplicationControl? replication = null)
    {
        lock (_lock)
        {
            if (_options.ClusterAnnouncePort == 0)
                _myself.Address = _myself.Address with { Port = port };
            _replication = replication;
            _bus ??= new ClusterBus(this, _options);
        }
        // A replica (nodes.conf says so) follows its primary again.
        FollowPrimary();
    }

    // This server's replication, which CLUSTER REPLICATE starts and a node that becomes a primary stops.
    private IReplicationControl? _replication;

    // Set under _lock when gossip changed whom this node replicates (a failover, its primary's address): the server
    // follows again once the lock is released (FollowIfRoleChanged).
    private bool _roleChanged;

    /// <summary>Makes the server follow this node's primary when it is a replica (outside <c>_lock</c>: the link starts).</summary>
    private void FollowPrimary()
    {
        NodeAddress? address = null;
        lock (_lock)
        {
            if (!_myself.IsPrimary && _myself.PrimaryId != null && _nodes.TryGetValue(_myself.PrimaryId, out var primary))
                address = primary.Address;
        }
        if (address is { } to && to.Ip.Length > 0)
            _replication?.Follow(to.Ip, to.Port);
    }

    /// <summary>Recomputes every slot's route (this node's role changed); under <c>_lock</c>.</summary>
    private void RefreshAllRoutes()
    {
        for (int slot = 0; slot < HashSlot.Count; slot++)
            RefreshRoute(slot);
    }

    /// <summary>This node's id: 40 hex digits, kept across restarts.</summary>
    public string Id => _myself.Id;

    /// <summary>Where nodes.conf is.</summary>
    public string ConfigPath => _file.Path;

    /// <summary>The node timeout: how long a node may not answer before it is suspected to fail (--cluster-timeout).</summary>
    internal long TimeoutMs => Math.Max(1, _options.ClusterTimeout) * 1000L;

    internal static long NowMs => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    public SlotRoute Route(int slot, bool write)
    {
        var route = _routes[slot];
        if (route != SlotRoute.Unbound && !_up)
            return SlotRoute.Down;
        // A primary whose lease ended takes no writes: a replica may be promoted in its place (ClusterNode.Failover.cs).
        return write && route is SlotRoute.Served or SlotRoute.Migrating && Environment.TickCount64 > Volatile.Read(ref _leaseUntil) ? SlotRoute.Down : route;
    }

    /// <summary>Recomputes what <see cref="Route"/> answers for <paramref name="slot"/>; under <c>_lock</c> after any change of its owner or migration.</summary>
    private void RefreshRoute(int slot)
    {
        var owner = _owners[slot];
        _routes[slot] = owner == null ? SlotRoute.Unbound
            : owner == _myself ? (_migratingTo[slot] != null ? SlotRoute.Migrating : SlotRoute.Served)
            : _importingFrom[slot] != null ? SlotRoute.Importing
            : _myself is { IsPrimary: false } myself && owner.Id == myself.PrimaryId ? SlotRoute.Replicated : SlotRoute.Moved; // (null while loading)
    }

    public void WriteRedirection(ref RespWriter writer, int slot, SlotRoute route)
    {
        var owner = _owners[slot];
        if (route == SlotRoute.Migrating && _migratingTo[slot] is { } target)
        {
            var to = target.Address;
            writer.WriteError($"ASK {slot} {to.Ip}:{to.Port}");
            return;
        }
        if (route is SlotRoute.Moved or SlotRoute.Importing or SlotRoute.Replicated && owner != null && owner != _myself)
        {
            var address = owner.Address;
            writer.WriteError($"MOVED {slot} {address.Ip}:{address.Port}");
            return;
        }
        writer.WriteError(route == SlotRoute.Unbound || owner == null ? "CLUSTERDOWN Hash slot not served"u8 : "CLUSTERDOWN The cluster is down"u8);
    }

    /// <summary>Gives <paramref name="slot"/> to <paramref name="owner"/> (null: none); under <c>_lock</c>.</summary>
    private void SetOwner(int slot, KnownNode? owner)
    {
        var previous = _owners[slot];
        if (previous == owner)
            return;
        if (previous != null)
            previous.SlotCount--;
        if (owner != null)
            owner.SlotCount++;
        _owners[slot] = owner;
        RefreshRoute(slot);
        _dirty = true;
    }

    /// <summary>
    /// Whether the cluster is up, as Redis decides it: every slot served by a node not failed, and this node able to reach
    /// a majority of the primaries that serve slots (a node cut off in a minority stops serving). Under <c>_lock</c>.
    /// </summary>
    private void UpdateState()
    {
        bool ok = true;
        for (int slot = 0; slot < HashSlot.Count && ok; slot++)
        {
            var owner = _owners[slot];
            ok = owner != null && (owner.Flags & NodeFlags.Fail) == 0;
        }
        if (ok)
        {
            int size = 0, reachable = 0;
            foreach (var node in _nodes.Values)
            {
                if (!node.IsPrimary || node.SlotCount == 0)
                    continue;
                size++;
                if (node == _myself || (node.Flags & (NodeFlags.PFail | NodeFlags.Fail)) == 0)
                    reachable++;
            }
            ok = reachable >= size / 2 + 1;
        }
        // Slots or roles may have changed: so may what the lease needs. A primary serving slots without its lease (cut
        // off, or started and not yet answered by a majority) is down, as Redis's node in a minority is.
        RenewLease();
        if (ok && _myself.IsPrimary && _myself.SlotCount > 0)
            ok = WriteLeaseHeld;
        _up = ok;
    }

    /// <summary>Primaries serving at least one slot (Redis's cluster size, of which a majority decides a failure).</summary>
    private int ClusterSize()
    {
        int size = 0;
        foreach (var node in _nodes.Values)
        {
            if (node.IsPrimary && node.SlotCount > 0)
                size++;
        }
        return size;
    }

    /// <summary>Writes the configuration to nodes.conf; under <c>_lock</c> (or before the node is shared).</summary>
    private void Save()
    {
        var nodes = new List<SavedNode>(_nodes.Count);
        var slots = new Dictionary<KnownNode, List<int>>();
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            var owner = _owners[slot];
            if (owner == null)
                continue;
            if (!slots.TryGetValue(owner, out var list))
                slots[owner] = list = [];
            list.Add(slot);
        }
        foreach (var node in _nodes.Values)
        {
            if (node.InHandshake)
                continue;
            var address = node.Address;
            nodes.Add(new SavedNode(node.Id, node.ShardId, address.Ip, address.Port, node == _myself, node.IsPrimary, node.PrimaryId, node.ConfigEpoch,
                (node.Flags & NodeFlags.Fail) != 0, slots.TryGetValue(node, out var owned) ? owned : [], node == _myself ? Migrations() : []));
        }
        _file.Save(new NodesConfig(nodes, _currentEpoch, _lastVoteEpoch));
        _dirty = false;
    }

    /// <summary>This node's slots migrating (true) or importing (false), with the other node; under <c>_lock</c>.</summary>
    private List<(int Slot, string Id, bool Migrating)> Migrations()
    {
        var migrations = new List<(int, string, bool)>();
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            if (_migratingTo[slot] is { } to)
                migrations.Add((slot, to.Id, true));
            if (_importingFrom[slot] is { } from)
                migrations.Add((slot, from.Id, false));
        }
        return migrations;
    }

    /// <summary>Ends the migration states of <paramref name="slot"/> (or those with <paramref name="node"/> when given); under <c>_lock</c>.</summary>
    private void ClearMigration(int slot, KnownNode? node = null)
    {
        if (_migratingTo[slot] != null && (node == null || _migratingTo[slot] == node))
        {
            _migratingTo[slot] = null;
            RefreshRoute(slot);
            _dirty = true;
        }
        if (_importingFrom[slot] != null && (node == null || _importingFrom[slot] == node))
        {
            _importingFrom[slot] = null;
            RefreshRoute(slot);
            _dirty = true;
        }
    }

    /// <summary>Saves if anything saved changed; under <c>_lock</c>.</summary>
    private void SaveIfChanged()
    {
        if (_dirty)
            Save();
    }

    private string? AnnouncedIp => string.IsNullOrEmpty(_options.ClusterAnnounceIp) ? null : _options.ClusterAnnounceIp;

    private int AnnouncedPort => _options.ClusterAnnouncePort != 0 ? _options.ClusterAnnouncePort : _options.Port;

    private static string NewId() => Convert.ToHexString(RandomNumberGenerator.GetBytes(IdLength / 2)).ToLowerInvariant();

    public void Dispose()
    {
        ClusterBus? bus;
        lock (_lock)
        {
            bus = _bus;
            _bus = null;
        }
        bus?.Dispose();
    }
}
