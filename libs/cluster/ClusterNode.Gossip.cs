using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.cluster;

/// <summary>
/// What nodes tell each other, as the Redis Cluster specification has it: each message carries the sender's state and
/// the slots it claims with its configuration epoch (a claim with a greater epoch wins a slot), what it knows of the
/// other nodes (unknown ones are met; failing ones are reported), and the slot claims of the receiver's that the sender
/// knows are stale. A node not answering for the node timeout is suspected (PFAIL); once a majority of the primaries
/// report it, it is failed (FAIL) and every node is told.
/// </summary>
public sealed partial class ClusterNode
{
    // Messages by type (index: GossipType), for CLUSTER INFO.
    private readonly long[] _sentByType = new long[6];
    private readonly long[] _receivedByType = new long[6];

    /// <summary>
    /// A message from another node (CLUSTER GOSSIP, on one of its links), which reached this node from
    /// <paramref name="remoteIp"/>: applied, and answered with this node's own state (a pong).
    /// </summary>
    internal byte[] Receive(ReadOnlySpan<byte> payload, string remoteIp)
    {
        try
        {
            return ReceiveLocked(payload, remoteIp);
        }
        finally
        {
            TakeOverIfElected();
            FollowIfRoleChanged();
        }
    }

    /// <summary>After a message was applied (outside <c>_lock</c>): the server follows this node's primary again if it changed.</summary>
    private void FollowIfRoleChanged()
    {
        bool changed;
        lock (_lock)
        {
            changed = _roleChanged;
            _roleChanged = false;
        }
        if (changed)
            FollowPrimary();
    }

    private byte[] ReceiveLocked(ReadOnlySpan<byte> payload, string remoteIp)
    {
        var message = GossipMessage.Decode(payload);
        lock (_lock)
        {
            long now = NowMs;
            _receivedByType[(int)message.Type]++;
            _sentByType[(int)GossipType.Pong]++;
            LearnOwnIp(message.ReceiverIp, message.Type == GossipType.Meet);
            if (message.SenderId == _myself.Id)
                return BuildMessage(GossipType.Pong, null, remoteIp).Encode();
            _nodes.TryGetValue(message.SenderId, out var sender);
            if (sender == null && message.Type == GossipType.Meet && !IsForgotten(message.SenderId, now))
            {
                // Only a MEET adds a node that introduces itself (a node forgotten or reset elsewhere does not come back by pinging).
                sender = new KnownNode(message.SenderId, message.Ip.Length > 0 ? message.Ip : remoteIp, message.Port, now);
                _nodes.Add(sender.Id, sender);
                _dirty = true;
                _bus?.Wake();
            }
            if (sender == null)
                return BuildMessage(GossipType.Pong, null, remoteIp).Encode();
            var stale = ApplySender(sender, message, message.Ip.Length > 0 ? message.Ip : remoteIp);
            ApplyEntries(sender, message.Entries, now);
            ApplyUpdates(message.Updates);
            if (message.Type == GossipType.Fail)
                MarkFailed(message.FailedId, now);
            long vote = message.Type == GossipType.AuthRequest ? GrantVote(sender, message, now) : 0;
            UpdateState();
            SaveIfChanged();
            var reply = BuildMessage(GossipType.Pong, sender, remoteIp);
            reply.VoteEpoch = vote;
            foreach (var owner in stale)
                reply.Updates.Add(new SlotClaim(owner.Id, owner.ConfigEpoch, SlotsOf(owner)));
            return reply.Encode();
        }
    }

    /// <summary>
    /// The answer <paramref name="target"/> gave to this node's ping, on the link to it. False when the link should end:
    /// the node is no longer known, or the handshake found a node known already (which has its own link).
    /// </summary>
    internal bool ReceivePong(KnownNode target, ReadOnlySpan<byte> payload)
    {
        try
        {
            return ReceivePongLocked(target, payload);
        }
        finally
        {
            TakeOverIfElected();
            FollowIfRoleChanged();
        }
    }

    private bool ReceivePongLocked(KnownNode target, ReadOnlySpan<byte> payload)
    {
        var message = GossipMessage.Decode(payload);
        lock (_lock)
        {
            long now = NowMs;
            if (!_nodes.TryGetValue(target.Id, out var current) || current != target)
                return false;
            _receivedByType[(int)GossipType.Pong]++;
            LearnOwnIp(message.ReceiverIp, target.InHandshake);
            bool keepLink = true;
            if (target.InHandshake)
            {
                _nodes.Remove(target.Id);
                if (message.SenderId == _myself.Id || IsForgotten(message.SenderId, now))
                    return false;
                if (_nodes.TryGetValue(message.SenderId, out var existing))
                {
                    // Met again at an address: the node is known already, perhaps at another one.
                    existing.Address = target.Address;
                    target = existing;
                    keepLink = false;
                }
                else
                {
                    target.Id = message.SenderId;
                    target.Flags &= ~NodeFlags.Handshake;
                    _nodes.Add(target.Id, target);
                }
                _dirty = true;
            }
            target.Flags &= ~NodeFlags.Meet;
            target.PongReceivedMs = now;
            target.PongReceivedTicks = Environment.TickCount64;
            target.PingSentMs = 0;
            target.Flags &= ~NodeFlags.PFail;
            if ((target.Flags & NodeFlags.Fail) != 0)
                ClearFailureIfNeeded(target, now);
            ApplySender(target, message, message.Ip.Length > 0 ? message.Ip : target.Address.Ip);
            ApplyEntries(target, message.Entries, now);
            ApplyUpdates(message.Updates);
            CountVote(target, message);
            UpdateState();
            SaveIfChanged();
            return keepLink;
        }
    }

    /// <summary>
    /// The next message for the link to <paramref name="target"/> (a MEET until it answered once), or null when the node
    /// is no longer known. Marks a ping outstanding, which the node timeout measures.
    /// </summary>
    internal byte[]? NextPing(KnownNode target, string? failedId, bool askVote = false)
    {
        lock (_lock)
        {
            if (!_nodes.TryGetValue(target.Id, out var current) || current != target)
                return null;
            long now = NowMs;
            if (target.PingSentMs == 0)
                target.PingSentMs = now;
            var vote = askVote ? PendingVoteRequest : null;
            var type = failedId != null ? GossipType.Fail : vote != null ? GossipType.AuthRequest
                : (target.Flags & NodeFlags.Meet) != 0 ? GossipType.Meet : GossipType.Ping;
            _sentByType[(int)type]++;
            var message = BuildMessage(type, target, target.Address.Ip);
            message.FailedId = failedId ?? "";
            if (vote is { } request)
            {
                message.VoteEpoch = request.Epoch;
                message.Forced = request.Forced;
            }
            return message.Encode();
        }
    }

    /// <summary>A ping could not even be sent (the link is down): it counts as outstanding from now on.</summary>
    internal void NoteUnreachable(KnownNode target)
    {
        lock (_lock)
        {
            target.LinkConnected = false;
            if (target.PingSentMs == 0)
                target.PingSentMs = NowMs;
        }
    }

    internal void NoteLink(KnownNode target, bool connected)
    {
        lock (_lock)
            target.LinkConnected = connected;
    }

    /// <summary>
    /// Every 100 ms, on the bus's thread: handshakes that got no answer are dropped, nodes that did not answer for the node
    /// timeout are suspected and, with enough reports, failed; returns the nodes to keep links to.
    /// </summary>
    internal List<KnownNode> Tick()
    {
        lock (_lock)
        {
            long now = NowMs;
            var linked = new List<KnownNode>(_nodes.Count);
            foreach (var node in new List<KnownNode>(_nodes.Values))
            {
                if (node == _myself)
                    continue;
                if (node.InHandshake && now - node.CreatedMs > Math.Max(TimeoutMs, 1000))
                {
                    RemoveNode(node);
                    continue;
                }
                if (node.PingSentMs != 0 && now - node.PingSentMs > TimeoutMs && (node.Flags & (NodeFlags.PFail | NodeFlags.Fail)) == 0)
                    node.Flags |= NodeFlags.PFail;
                if ((node.Flags & NodeFlags.PFail) != 0)
                    MarkFailedIfNeeded(node, now);
                linked.Add(node);
            }
            List<string>? expired = null;
            foreach (var (id, until) in _forgotten)
            {
                if (until <= now)
                    (expired ??= []).Add(id);
            }
            if (expired != null)
            {
                foreach (var id in expired)
                    _forgotten.Remove(id);
            }
            ConsiderElection(now);
            UpdateState();
            SaveIfChanged();
            return linked;
        }
    }

    /// <summary>
    /// The IP another node reached this one at: taken as this node's own unless one is announced, when none is known yet
    /// or on a first meeting (Redis learns its address so too).
    /// </summary>
    private void LearnOwnIp(string ip, bool meeting)
    {
        if (AnnouncedIp != null || ip.Length == 0 || _myself.Address.Ip == ip || (_myself.Address.Ip.Length > 0 && !meeting))
            return;
        _myself.Address = _myself.Address with { Ip = ip };
        _dirty = true;
    }

    /// <summary>Takes what <paramref name="message"/> says of its sender <paramref name="node"/>; returns the owners of slots it claims with a stale epoch.</summary>
    private List<KnownNode> ApplySender(KnownNode node, GossipMessage message, string ip)
    {
        if (message.CurrentEpoch > _currentEpoch)
        {
            _currentEpoch = message.CurrentEpoch;
            _dirty = true;
        }
        var address = new NodeAddress(ip, message.Port);
        if (address != node.Address)
        {
            // My primary moved: the link follows it to its new address.
            if (!_myself.IsPrimary && node.Id == _myself.PrimaryId)
                _roleChanged = true;
            node.Address = address;
            _dirty = true;
        }
        string? primaryId = message.IsPrimary || message.PrimaryId.Length == 0 ? null : message.PrimaryId;
        bool wasMyReplica = !node.IsPrimary && node.PrimaryId == _myself.Id;
        if (node.ShardId != message.ShardId || node.IsPrimary != message.IsPrimary || node.PrimaryId != primaryId)
        {
            node.ShardId = message.ShardId;
            node.IsPrimary = message.IsPrimary;
            node.PrimaryId = primaryId;
            _dirty = true;
        }
        if (message.ConfigEpoch > node.ConfigEpoch)
        {
            node.ConfigEpoch = message.ConfigEpoch;
            _dirty = true;
        }
        if (node.ReplicationId != message.ReplicationId)
        {
            node.ReplicationId = message.ReplicationId;
            node.AcknowledgedOffset = 0;
        }
        node.ReplicationOffset = message.ReplicationOffset;
        node.AcknowledgedOffset = Math.Max(node.AcknowledgedOffset, message.AcknowledgedOffset);
        var stale = new List<KnownNode>();
        var myPrimary = !_myself.IsPrimary && _myself.PrimaryId != null && _nodes.TryGetValue(_myself.PrimaryId, out var known) ? known : null;
        bool tookFromMyPrimary = false;
        if (message.IsPrimary)
        {
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                if (!GossipMessage.HasSlot(message.Slots, slot))
                    continue;
                var owner = _owners[slot];
                // A slot being imported is given by SETSLOT NODE, not by claims (Redis's rule).
                if (owner == node || _importingFrom[slot] != null)
                    continue;
                if (owner == null || owner.ConfigEpoch < message.ConfigEpoch)
                {
                    tookFromMyPrimary |= owner != null && owner == myPrimary;
                    SetOwner(slot, node);
                }
                else if (owner.ConfigEpoch > message.ConfigEpoch && !stale.Contains(owner))
                    stale.Add(owner);
            }
        }
        // My replica took over my slots (a failover): this node becomes its replica, as Redis's old primary does.
        if (wasMyReplica && message.IsPrimary && _myself.IsPrimary && _myself.SlotCount == 0)
        {
            _myself.IsPrimary = false;
            _myself.PrimaryId = node.Id;
            _myself.ShardId = node.ShardId;
            RefreshAllRoutes();
            _roleChanged = true;
            _dirty = true;
        }
        // Another replica of my primary took all its slots (it won an election): this replica follows the new primary, as
        // Redis's replicas do.
        if (tookFromMyPrimary && myPrimary is { SlotCount: 0 } && node != _myself && _myself.PrimaryId != node.Id)
        {
            _myself.PrimaryId = node.Id;
            _myself.ShardId = node.ShardId;
            RefreshAllRoutes();
            _roleChanged = true;
            _dirty = true;
        }
        // My primary became a replica of another node (failed over): this replica follows the new primary.
        if (!_myself.IsPrimary && node.Id == _myself.PrimaryId && !message.IsPrimary && primaryId != null && primaryId != _myself.Id
            && _nodes.ContainsKey(primaryId))
        {
            _myself.PrimaryId = primaryId;
            RefreshAllRoutes();
            _roleChanged = true;
            _dirty = true;
        }
        // Two primaries with one configuration epoch: the one with the smaller id takes a new epoch, so that every claim
        // is ordered (Redis's collision handling).
        if (message.IsPrimary && _myself.IsPrimary && message.ConfigEpoch == _myself.ConfigEpoch && string.CompareOrdinal(node.Id, _myself.Id) > 0)
        {
            _currentEpoch++;
            _myself.ConfigEpoch = _currentEpoch;
            _dirty = true;
        }
        return stale;
    }

    /// <summary>What a sender says of other nodes: failure reports (from primaries), and unknown nodes to meet.</summary>
    private void ApplyEntries(KnownNode sender, List<GossipEntry> entries, long now)
    {
        foreach (var entry in entries)
        {
            if (entry.Id == _myself.Id)
                continue;
            if (_nodes.TryGetValue(entry.Id, out var node))
            {
                if (!sender.IsPrimary || node == sender)
                    continue;
                if ((entry.Flags & (NodeFlags.PFail | NodeFlags.Fail)) != 0)
                {
                    node.FailureReports[sender.Id] = now;
                    MarkFailedIfNeeded(node, now);
                }
                else
                {
                    node.FailureReports.Remove(sender.Id);
                }
            }
            else if (!IsForgotten(entry.Id, now) && entry.Ip.Length > 0 && entry.Port > 0)
            {
                StartHandshake(entry.Ip, entry.Port, now);
            }
        }
    }

    /// <summary>Slot claims another node says this one holds stale: each slot goes to a claim with a greater epoch.</summary>
    private void ApplyUpdates(List<SlotClaim> updates)
    {
        foreach (var claim in updates)
        {
            if (!_nodes.TryGetValue(claim.Id, out var node) || node == _myself)
                continue;
            if (claim.ConfigEpoch > node.ConfigEpoch)
            {
                node.ConfigEpoch = claim.ConfigEpoch;
                _dirty = true;
            }
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                if (!GossipMessage.HasSlot(claim.Slots, slot))
                    continue;
                var owner = _owners[slot];
                if (owner != node && _importingFrom[slot] == null && (owner == null || owner.ConfigEpoch < claim.ConfigEpoch))
                    SetOwner(slot, node);
            }
        }
    }

    /// <summary>Starts meeting the node at an address, unless a handshake with it runs already; under <c>_lock</c>.</summary>
    private void StartHandshake(string ip, int port, long now)
    {
        var address = new NodeAddress(ip, port);
        foreach (var node in _nodes.Values)
        {
            if (node.InHandshake && node.Address == address)
                return;
        }
        var meeting = new KnownNode(NewId(), ip, port, now) { Flags = NodeFlags.Handshake | NodeFlags.Meet };
        _nodes.Add(meeting.Id, meeting);
        _bus?.Wake();
    }

    /// <summary>A suspected node is failed once a majority of the primaries serving slots report it (this one among them if a primary).</summary>
    private void MarkFailedIfNeeded(KnownNode node, long now)
    {
        if ((node.Flags & NodeFlags.PFail) == 0 || (node.Flags & NodeFlags.Fail) != 0)
            return;
        int needed = ClusterSize() / 2 + 1;
        int failures = ValidFailureReports(node, now) + (_myself.IsPrimary ? 1 : 0);
        if (failures < needed)
            return;
        node.Flags = (node.Flags & ~NodeFlags.PFail) | NodeFlags.Fail;
        node.FailTimeMs = now;
        _dirty = true;
        _bus?.BroadcastFail(node.Id);
    }

    /// <summary>Reports younger than twice the node timeout (Redis's validity), dropping the older ones.</summary>
    private int ValidFailureReports(KnownNode node, long now)
    {
        List<string>? old = null;
        foreach (var (reporter, at) in node.FailureReports)
        {
            if (now - at > TimeoutMs * 2 || !_nodes.ContainsKey(reporter))
                (old ??= []).Add(reporter);
        }
        if (old != null)
        {
            foreach (var reporter in old)
                node.FailureReports.Remove(reporter);
        }
        return node.FailureReports.Count;
    }

    /// <summary>A FAIL message: the cluster's verdict, taken as is.</summary>
    private void MarkFailed(string id, long now)
    {
        if (!_nodes.TryGetValue(id, out var node) || node == _myself || (node.Flags & NodeFlags.Fail) != 0)
            return;
        node.Flags = (node.Flags & ~NodeFlags.PFail) | NodeFlags.Fail;
        node.FailTimeMs = now;
        _dirty = true;
    }

    /// <summary>
    /// A failed node that answers again: a replica or a primary without slots is back at once; a primary with slots after
    /// twice the node timeout, when no replica took its place (Redis's rule).
    /// </summary>
    private void ClearFailureIfNeeded(KnownNode node, long now)
    {
        if (!node.IsPrimary || node.SlotCount == 0 || now - node.FailTimeMs > TimeoutMs * 2)
        {
            node.Flags &= ~NodeFlags.Fail;
            _dirty = true;
        }
    }

    /// <summary>This node's state for a message to <paramref name="receiver"/> (reached at <paramref name="receiverIp"/>).</summary>
    private GossipMessage BuildMessage(GossipType type, KnownNode? receiver, string receiverIp)
    {
        var address = _myself.Address;
        var message = new GossipMessage
        {
            Type = type,
            SenderId = _myself.Id,
            ShardId = _myself.ShardId,
            Ip = address.Ip,
            Port = address.Port,
            IsPrimary = _myself.IsPrimary,
            PrimaryId = _myself.PrimaryId ?? "",
            ConfigEpoch = _myself.ConfigEpoch,
            CurrentEpoch = _currentEpoch,
            ReceiverIp = receiverIp,
            ReplicationOffset = _replication?.Offset ?? 0,
            ReplicationId = _replication?.ReplicationId ?? "",
            AcknowledgedOffset = _myself.IsPrimary ? _replication?.AcknowledgedOffset ?? 0 : 0,
        };
        if (_myself.IsPrimary)
            message.Slots = SlotsOf(_myself);
        foreach (var node in _nodes.Values)
        {
            if (node == _myself || node == receiver || node.InHandshake)
                continue;
            var known = node.Address;
            message.Entries.Add(new GossipEntry(node.Id, known.Ip, known.Port, node.Flags & (NodeFlags.PFail | NodeFlags.Fail)));
        }
        return message;
    }

    private byte[] SlotsOf(KnownNode node)
    {
        var slots = new byte[GossipMessage.SlotBytes];
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            if (_owners[slot] == node)
                GossipMessage.AddSlot(slots, slot);
        }
        return slots;
    }

    private bool IsForgotten(string id, long now) => _forgotten.TryGetValue(id, out long until) && until > now;

    /// <summary>Drops a node: its slots become unassigned and its reports of others go; under <c>_lock</c>.</summary>
    private void RemoveNode(KnownNode node)
    {
        _nodes.Remove(node.Id);
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            if (_owners[slot] == node)
                SetOwner(slot, null);
            ClearMigration(slot, node);
        }
        foreach (var other in _nodes.Values)
            other.FailureReports.Remove(node.Id);
        if (!node.InHandshake)
            _dirty = true;
    }
}
