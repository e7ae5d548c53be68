using System;
using System.Security.Cryptography;
using Garnet.common;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>
/// This server as a Redis Cluster node: its identity (node and shard ids, configuration epoch), the hash slots it serves,
/// and the CLUSTER command (ClusterNode.Commands.cs). The node configuration is saved to nodes.conf whenever it changes
/// (NodesConfigFile.cs) and read back at start-up.
/// </summary>
/// <remarks>
/// So far the node knows only itself: there is no cluster bus yet (MEET, gossip, failure detection), so every slot is
/// either this node's or unassigned, and the cluster is up once this node serves all 16384 slots
/// (cluster-require-full-coverage, Redis's default).
/// </remarks>
public sealed partial class ClusterNode : IClusterProvider
{
    private const int IdLength = 40;

    private readonly object _lock = new();
    private readonly NodesConfigFile _file;
    private readonly ServerOptions _options;

    // Written under _lock; a session's Route reads them without it (a slot's owner is one byte).
    private readonly bool[] _served = new bool[HashSlot.Count];
    private volatile bool _up;
    private int _servedCount;

    private string _id;
    private string _shardId;
    private long _configEpoch;
    private long _currentEpoch;
    private long _lastVoteEpoch;

    private ClusterNode(ServerOptions options, NodesConfigFile file, NodesConfig? saved)
    {
        _options = options;
        _file = file;
        if (saved == null)
        {
            _id = NewId();
            _shardId = NewId();
            return;
        }
        _id = saved.Id;
        _shardId = saved.ShardId;
        _configEpoch = saved.ConfigEpoch;
        _currentEpoch = saved.CurrentEpoch;
        _lastVoteEpoch = saved.LastVoteEpoch;
        foreach (int slot in saved.Slots)
            _served[slot] = true;
        _servedCount = saved.Slots.Count;
        _up = _servedCount == HashSlot.Count;
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

    /// <summary>This node's id: 40 hex digits, kept across restarts.</summary>
    public string Id => _id;

    /// <summary>Where nodes.conf is.</summary>
    public string ConfigPath => _file.Path;

    public SlotRoute Route(int slot, bool write)
    {
        if (!_served[slot])
            return SlotRoute.Unbound;
        return _up ? SlotRoute.Served : SlotRoute.Down;
    }

    public void WriteRedirection(ref RespWriter writer, int slot, SlotRoute route)
    {
        writer.WriteError(route == SlotRoute.Unbound ? "CLUSTERDOWN Hash slot not served"u8 : "CLUSTERDOWN The cluster is down"u8);
    }

    /// <summary>Assigns or releases <paramref name="slot"/> and updates the cluster's state; under <c>_lock</c>.</summary>
    private void SetServed(int slot, bool served)
    {
        if (_served[slot] == served)
            return;
        _served[slot] = served;
        _servedCount += served ? 1 : -1;
        _up = _servedCount == HashSlot.Count;
    }

    /// <summary>Writes the configuration to nodes.conf; under <c>_lock</c> (or before the node is shared).</summary>
    private void Save()
    {
        var slots = new System.Collections.Generic.List<int>(_servedCount);
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            if (_served[slot])
                slots.Add(slot);
        }
        _file.Save(new NodesConfig(_id, _shardId, _configEpoch, _currentEpoch, _lastVoteEpoch, slots), AnnouncedIp ?? "", AnnouncedPort);
    }

    private string? AnnouncedIp => string.IsNullOrEmpty(_options.ClusterAnnounceIp) ? null : _options.ClusterAnnounceIp;

    private int AnnouncedPort => _options.ClusterAnnouncePort != 0 ? _options.ClusterAnnouncePort : _options.Port;

    private static string NewId() => Convert.ToHexString(RandomNumberGenerator.GetBytes(IdLength / 2)).ToLowerInvariant();

    public void Dispose()
    {
    }
}
