using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Garnet.common;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>The cluster as CLUSTER INFO, NODES, SLOTS, SHARDS, LINKS and REPLICAS show it, in Redis 7.2's formats.</summary>
public sealed partial class ClusterNode
{
    private string Info()
    {
        var text = new StringBuilder();
        lock (_lock)
        {
            int assigned = 0, pfail = 0, fail = 0;
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                var owner = _owners[slot];
                if (owner == null)
                    continue;
                assigned++;
                if ((owner.Flags & NodeFlags.Fail) != 0)
                    fail++;
                else if ((owner.Flags & NodeFlags.PFail) != 0)
                    pfail++;
            }
            text.Append("cluster_state:").Append(_up ? "ok" : "fail").Append("\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_slots_assigned:{assigned}\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_slots_ok:{assigned - pfail - fail}\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_slots_pfail:{pfail}\r\ncluster_slots_fail:{fail}\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_known_nodes:{_nodes.Count}\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_size:{ClusterSize()}\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_current_epoch:{_currentEpoch}\r\n");
            text.Append(CultureInfo.InvariantCulture, $"cluster_my_epoch:{MyEpoch()}\r\n");
            // Not Redis's (it logs this): why this replica's last failover did not happen.
            if (LastFailoverError is { } failoverError)
                text.Append("cluster_last_failover_error:").Append(failoverError.Replace('\r', ' ').Replace('\n', ' ')).Append("\r\n");
            long sent = 0, received = 0;
            foreach (var (type, name) in new[] { (GossipType.Ping, "ping"), (GossipType.Pong, "pong"), (GossipType.Meet, "meet"), (GossipType.Fail, "fail"), (GossipType.AuthRequest, "auth-req") })
            {
                if (_sentByType[(int)type] > 0)
                    text.Append(CultureInfo.InvariantCulture, $"cluster_stats_messages_{name}_sent:{_sentByType[(int)type]}\r\n");
                sent += _sentByType[(int)type];
            }
            text.Append(CultureInfo.InvariantCulture, $"cluster_stats_messages_sent:{sent}\r\n");
            foreach (var (type, name) in new[] { (GossipType.Ping, "ping"), (GossipType.Pong, "pong"), (GossipType.Meet, "meet"), (GossipType.Fail, "fail"), (GossipType.AuthRequest, "auth-req") })
            {
                if (_receivedByType[(int)type] > 0)
                    text.Append(CultureInfo.InvariantCulture, $"cluster_stats_messages_{name}_received:{_receivedByType[(int)type]}\r\n");
                received += _receivedByType[(int)type];
            }
            text.Append(CultureInfo.InvariantCulture, $"cluster_stats_messages_received:{received}\r\n");
        }
        text.Append("total_cluster_links_buffer_limit_exceeded:0\r\n");
        return text.ToString();
    }

    /// <summary>The configuration epoch of this node, or of its primary when it is a replica (Redis's cluster_my_epoch).</summary>
    private long MyEpoch()
        => !_myself.IsPrimary && _myself.PrimaryId != null && _nodes.TryGetValue(_myself.PrimaryId, out var primary) ? primary.ConfigEpoch : _myself.ConfigEpoch;

    private string NodesText(IClusterConnection connection)
    {
        var text = new StringBuilder();
        lock (_lock)
        {
            var ranges = RangesByOwner();
            foreach (var node in _nodes.Values)
                AppendNodeLine(text, node, ranges, connection);
        }
        return text.ToString();
    }

    /// <summary>One line of CLUSTER NODES: id, address, flags, primary, ping and pong times, epoch, link state, slots.</summary>
    private void AppendNodeLine(StringBuilder text, KnownNode node, Dictionary<KnownNode, List<(int Start, int End)>> ranges, IClusterConnection connection)
    {
        var (ip, port) = AddressOf(node, connection);
        var flags = new List<string>(4);
        if (node == _myself)
            flags.Add("myself");
        if (node.InHandshake)
            flags.Add("handshake");
        else
            flags.Add(node.IsPrimary ? "master" : "slave");
        if ((node.Flags & NodeFlags.PFail) != 0)
            flags.Add("fail?");
        if ((node.Flags & NodeFlags.Fail) != 0)
            flags.Add("fail");
        bool connected = node == _myself || node.LinkConnected;
        text.Append(CultureInfo.InvariantCulture,
            $"{node.Id} {ip}:{port}@{port + 10000} {string.Join(',', flags)} {node.PrimaryId ?? "-"} {node.PingSentMs} {node.PongReceivedMs} {node.ConfigEpoch} {(connected ? "connected" : "disconnected")}");
        if (ranges.TryGetValue(node, out var owned))
        {
            foreach (var (start, end) in owned)
            {
                text.Append(' ').Append(start.ToString(CultureInfo.InvariantCulture));
                if (end != start)
                    text.Append('-').Append(end.ToString(CultureInfo.InvariantCulture));
            }
        }
        if (node == _myself)
            NodesConfigFile.AppendMigrations(text, Migrations());
        text.Append('\n');
    }

    /// <summary>The runs of consecutive slots each node serves, in slot order; under <c>_lock</c>.</summary>
    private Dictionary<KnownNode, List<(int Start, int End)>> RangesByOwner()
    {
        var ranges = new Dictionary<KnownNode, List<(int, int)>>(ReferenceEqualityComparer.Instance);
        foreach (var (start, end, owner) in SlotRuns())
        {
            if (!ranges.TryGetValue(owner, out var list))
                ranges[owner] = list = [];
            list.Add((start, end));
        }
        return ranges;
    }

    /// <summary>Runs of consecutive slots with one owner, in slot order; under <c>_lock</c>.</summary>
    private List<(int Start, int End, KnownNode Owner)> SlotRuns()
    {
        var runs = new List<(int, int, KnownNode)>();
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            var owner = _owners[slot];
            if (owner == null)
                continue;
            int end = slot;
            while (end + 1 < HashSlot.Count && _owners[end + 1] == owner)
                end++;
            runs.Add((slot, end, owner));
            slot = end;
        }
        return runs;
    }

    /// <summary>
    /// The address clients are given for <paramref name="node"/>: for this node the announced one, else the one it learned
    /// from another node, else the one the client reached.
    /// </summary>
    private (string Ip, int Port) AddressOf(KnownNode node, IClusterConnection connection)
    {
        var address = node.Address;
        if (node != _myself)
            return (address.Ip, address.Port);
        string ip = address.Ip.Length > 0 ? address.Ip : connection.LocalIp;
        return (ip, _options.ClusterAnnouncePort != 0 ? _options.ClusterAnnouncePort : address.Port != 0 ? address.Port : connection.LocalPort);
    }

    private void WriteSlots(ref RespWriter writer, IClusterConnection connection)
    {
        lock (_lock)
        {
            var runs = SlotRuns();
            writer.WriteArrayHeader(runs.Count);
            foreach (var (start, end, owner) in runs)
            {
                var replicas = ReplicasOf(owner);
                writer.WriteArrayHeader(3 + replicas.Count);
                writer.WriteInteger(start);
                writer.WriteInteger(end);
                WriteSlotNode(ref writer, owner, connection);
                foreach (var replica in replicas)
                    WriteSlotNode(ref writer, replica, connection);
            }
        }
    }

    private void WriteSlotNode(ref RespWriter writer, KnownNode node, IClusterConnection connection)
    {
        var (ip, port) = AddressOf(node, connection);
        writer.WriteArrayHeader(4);
        writer.WriteBulk(ip);
        writer.WriteInteger(port);
        writer.WriteBulk(node.Id);
        writer.WriteMapHeader(0); // no hostname or other endpoint to add
    }

    /// <summary>The replicas known of <paramref name="primary"/> that are not failed; under <c>_lock</c>.</summary>
    private List<KnownNode> ReplicasOf(KnownNode primary)
    {
        var replicas = new List<KnownNode>();
        foreach (var node in _nodes.Values)
        {
            if (!node.IsPrimary && node.PrimaryId == primary.Id && (node.Flags & NodeFlags.Fail) == 0)
                replicas.Add(node);
        }
        return replicas;
    }

    /// <summary>SHARDS: a shard per primary (with its replicas), with the slot ranges it serves.</summary>
    private void WriteShards(ref RespWriter writer, IClusterConnection connection)
    {
        lock (_lock)
        {
            var ranges = RangesByOwner();
            var primaries = new List<KnownNode>();
            foreach (var node in _nodes.Values)
            {
                if (node.IsPrimary && !node.InHandshake)
                    primaries.Add(node);
            }
            writer.WriteArrayHeader(primaries.Count);
            foreach (var primary in primaries)
            {
                writer.WriteMapHeader(2);
                writer.WriteBulk("slots"u8);
                var owned = ranges.TryGetValue(primary, out var list) ? list : [];
                writer.WriteArrayHeader(owned.Count * 2);
                foreach (var (start, end) in owned)
                {
                    writer.WriteInteger(start);
                    writer.WriteInteger(end);
                }
                writer.WriteBulk("nodes"u8);
                var replicas = ReplicasOf(primary);
                writer.WriteArrayHeader(1 + replicas.Count);
                WriteShardNode(ref writer, primary, connection);
                foreach (var replica in replicas)
                    WriteShardNode(ref writer, replica, connection);
            }
        }
    }

    private void WriteShardNode(ref RespWriter writer, KnownNode node, IClusterConnection connection)
    {
        var (ip, port) = AddressOf(node, connection);
        writer.WriteMapHeader(7);
        writer.WriteBulk("id"u8);
        writer.WriteBulk(node.Id);
        writer.WriteBulk("port"u8);
        writer.WriteInteger(port);
        writer.WriteBulk("ip"u8);
        writer.WriteBulk(ip);
        writer.WriteBulk("endpoint"u8);
        writer.WriteBulk(ip);
        writer.WriteBulk("role"u8);
        writer.WriteBulk(node.IsPrimary ? "master"u8 : "replica"u8);
        writer.WriteBulk("replication-offset"u8);
        writer.WriteInteger(0);
        writer.WriteBulk("health"u8);
        writer.WriteBulk((node.Flags & (NodeFlags.Fail | NodeFlags.PFail)) != 0 ? "failed"u8 : "online"u8); // Redis's values: online, failed, loading
    }

    /// <summary>LINKS: this node's link to each other node (links from them arrive as client connections).</summary>
    private void WriteLinks(ref RespWriter writer)
    {
        var links = _bus?.Links() ?? [];
        writer.WriteArrayHeader(links.Count);
        foreach (var link in links)
        {
            string id;
            lock (_lock)
                id = link.Target.Id;
            writer.WriteMapHeader(6);
            writer.WriteBulk("direction"u8);
            writer.WriteBulk("to"u8);
            writer.WriteBulk("node"u8);
            writer.WriteBulk(id);
            writer.WriteBulk("create-time"u8);
            writer.WriteInteger(link.CreatedMs);
            writer.WriteBulk("events"u8);
            writer.WriteBulk("rw"u8);
            writer.WriteBulk("send-buffer-allocated"u8);
            writer.WriteInteger(0);
            writer.WriteBulk("send-buffer-used"u8);
            writer.WriteInteger(0);
        }
    }

    /// <summary>REPLICAS id: the replicas of a primary, each as a CLUSTER NODES line.</summary>
    private void WriteReplicas(ArgSlice id, ref RespWriter writer, IClusterConnection connection)
    {
        lock (_lock)
        {
            var node = FindNode(id, ref writer);
            if (node == null)
                return;
            if (!node.IsPrimary)
            {
                writer.WriteError("ERR The specified node is not a master"u8);
                return;
            }
            var ranges = RangesByOwner();
            var replicas = ReplicasOf(node);
            writer.WriteArrayHeader(replicas.Count);
            foreach (var replica in replicas)
            {
                var text = new StringBuilder();
                AppendNodeLine(text, replica, ranges, connection);
                writer.WriteBulk(text.ToString().TrimEnd('\n'));
            }
        }
    }
}
