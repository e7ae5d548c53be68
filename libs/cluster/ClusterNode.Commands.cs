using System;
using System.Buffers.Text;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.common;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>The CLUSTER subcommands, with Redis 7.2's replies and errors for a node that knows only itself.</summary>
public sealed partial class ClusterNode
{
    private static ReadOnlySpan<byte> ErrInvalidSlot => "ERR Invalid or out of range slot"u8;
    private static ReadOnlySpan<byte> ErrNotInteger => "ERR value is not an integer or out of range"u8;
    private static ReadOnlySpan<byte> ErrSyntax => "ERR syntax error"u8;

    public void RunCommand(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection)
    {
        var name = args[0];
        if (name.EqualsUpper("KEYSLOT"u8))
            writer.WriteInteger(HashSlot.Of(args[1].Span));
        else if (name.EqualsUpper("GOSSIP"u8))
            Gossip(args[1], ref writer, connection);
        else if (name.EqualsUpper("MYID"u8))
            writer.WriteBulk(_myself.Id);
        else if (name.EqualsUpper("MYSHARDID"u8))
            writer.WriteBulk(_myself.ShardId);
        else if (name.EqualsUpper("INFO"u8))
            writer.WriteVerbatim(Encoding.ASCII.GetBytes(Info()));
        else if (name.EqualsUpper("NODES"u8))
            writer.WriteVerbatim(Encoding.ASCII.GetBytes(NodesText(connection)));
        else if (name.EqualsUpper("SLOTS"u8))
            WriteSlots(ref writer, connection);
        else if (name.EqualsUpper("SHARDS"u8))
            WriteShards(ref writer, connection);
        else if (name.EqualsUpper("ADDSLOTS"u8) || name.EqualsUpper("DELSLOTS"u8))
            ChangeSlots(args, ranges: false, assign: name.EqualsUpper("ADDSLOTS"u8), ref writer);
        else if (name.EqualsUpper("ADDSLOTSRANGE"u8) || name.EqualsUpper("DELSLOTSRANGE"u8))
            ChangeSlots(args, ranges: true, assign: name.EqualsUpper("ADDSLOTSRANGE"u8), ref writer);
        else if (name.EqualsUpper("FLUSHSLOTS"u8))
            FlushSlots(ref writer, connection);
        else if (name.EqualsUpper("COUNTKEYSINSLOT"u8))
            CountKeysInSlot(args, ref writer, connection);
        else if (name.EqualsUpper("GETKEYSINSLOT"u8))
            GetKeysInSlot(args, ref writer, connection);
        else if (name.EqualsUpper("BUMPEPOCH"u8))
            BumpEpoch(ref writer);
        else if (name.EqualsUpper("SET-CONFIG-EPOCH"u8))
            SetConfigEpoch(args, ref writer);
        else if (name.EqualsUpper("SAVECONFIG"u8))
            SaveConfig(ref writer);
        else if (name.EqualsUpper("LINKS"u8))
            WriteLinks(ref writer);
        else if (name.EqualsUpper("COUNT-FAILURE-REPORTS"u8))
            CountFailureReports(args[1], ref writer);
        else if (name.EqualsUpper("REPLICAS"u8) || name.EqualsUpper("SLAVES"u8))
            WriteReplicas(args[1], ref writer, connection);
        else if (name.EqualsUpper("FORGET"u8))
            Forget(args[1], ref writer);
        else if (name.EqualsUpper("REPLICATE"u8))
            Replicate(args[1], ref writer, connection);
        else if (name.EqualsUpper("FAILOVER"u8))
            Failover(args, ref writer);
        else if (name.EqualsUpper("RESET"u8))
            Reset(args, ref writer, connection);
        else if (name.EqualsUpper("SETSLOT"u8))
            SetSlot(args, ref writer, connection);
        else if (name.EqualsUpper("SETSLOTSRANGE"u8))
            SetSlotsRange(args, ref writer, connection);
        else if (name.EqualsUpper("MTASKS"u8))
            writer.WriteInteger(connection.SlotMigrationTasks);
        else if (name.EqualsUpper("MEET"u8))
            Meet(args, ref writer);
        else if (name.EqualsUpper("HELP"u8))
            WriteHelp(ref writer);
        else
            writer.WriteError($"ERR unknown subcommand '{Encoding.UTF8.GetString(name.Span)}'. Try CLUSTER HELP.");
    }

    /// <summary>ADDSLOTS/DELSLOTS slot..., ADDSLOTSRANGE/DELSLOTSRANGE start end ...: all or nothing, as in Redis.</summary>
    private void ChangeSlots(ReadOnlySpan<ArgSlice> args, bool ranges, bool assign, ref RespWriter writer)
    {
        if (ranges && args.Length % 2 == 0)
        {
            writer.WriteError(assign ? "ERR wrong number of arguments for 'cluster|addslotsrange' command"u8 : "ERR wrong number of arguments for 'cluster|delslotsrange' command"u8);
            return;
        }
        if (SlotArguments.Parse(args.Slice(1), ranges, out var slots, out _) is { } error)
        {
            writer.WriteError(error);
            return;
        }
        lock (_lock)
        {
            foreach (int slot in slots)
            {
                if ((_owners[slot] != null) == assign)
                {
                    writer.WriteError(assign ? $"ERR Slot {slot} is already busy" : $"ERR Slot {slot} is already unassigned");
                    return;
                }
            }
            foreach (int slot in slots)
                SetOwner(slot, assign ? _myself : null);
            ConfigurationChanged();
        }
        writer.WriteOk();
    }

    /// <summary>After a change by command: the state follows, the configuration is saved and the other nodes are told at once.</summary>
    private void ConfigurationChanged()
    {
        UpdateState();
        Save();
        _bus?.PokeAll();
    }

    private void FlushSlots(ref RespWriter writer, IClusterConnection connection)
    {
        if (connection.KeyCount != 0)
        {
            writer.WriteError("ERR DB must be empty to perform CLUSTER FLUSHSLOTS."u8);
            return;
        }
        lock (_lock)
        {
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                if (_owners[slot] == _myself)
                    SetOwner(slot, null);
            }
            ConfigurationChanged();
        }
        writer.WriteOk();
    }

    private static void CountKeysInSlot(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection)
    {
        if (!TryParseLong(args[1], out long slot))
        {
            writer.WriteError(ErrNotInteger);
            return;
        }
        if (slot < 0 || slot >= HashSlot.Count)
        {
            writer.WriteError("ERR Invalid slot"u8);
            return;
        }
        writer.WriteInteger(connection.CountKeysInSlot((int)slot));
    }

    private static void GetKeysInSlot(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection)
    {
        if (!TryParseLong(args[1], out long slot) || !TryParseLong(args[2], out long count))
        {
            writer.WriteError(ErrNotInteger);
            return;
        }
        if (slot < 0 || slot >= HashSlot.Count || count < 0)
        {
            writer.WriteError("ERR Invalid slot or number of keys"u8);
            return;
        }
        connection.WriteKeysInSlot((int)slot, count, ref writer);
    }

    /// <summary>BUMPEPOCH: a new configuration epoch without agreement, unless this node's is already the greatest known.</summary>
    private void BumpEpoch(ref RespWriter writer)
    {
        string reply;
        lock (_lock)
        {
            long greatest = 0;
            foreach (var node in _nodes.Values)
                greatest = Math.Max(greatest, node.ConfigEpoch);
            if (_myself.ConfigEpoch == 0 || _myself.ConfigEpoch != greatest)
            {
                BumpEpochWithoutConsensus();
                ConfigurationChanged();
                reply = $"BUMPED {_myself.ConfigEpoch}";
            }
            else
            {
                reply = $"STILL {_myself.ConfigEpoch}";
            }
        }
        writer.WriteSimpleString(Encoding.ASCII.GetBytes(reply));
    }

    /// <summary>Takes the next current epoch as this node's configuration epoch; under <c>_lock</c>.</summary>
    private void BumpEpochWithoutConsensus()
    {
        _currentEpoch++;
        _myself.ConfigEpoch = _currentEpoch;
        _dirty = true;
    }

    private void SetConfigEpoch(ReadOnlySpan<ArgSlice> args, ref RespWriter writer)
    {
        if (!TryParseLong(args[1], out long epoch))
        {
            writer.WriteError(ErrNotInteger);
            return;
        }
        if (epoch < 0)
        {
            writer.WriteError($"ERR Invalid config epoch specified: {epoch}");
            return;
        }
        lock (_lock)
        {
            if (_nodes.Count > 1)
            {
                writer.WriteError("ERR The user can assign a config epoch only when the node does not know any other node."u8);
                return;
            }
            if (_myself.ConfigEpoch != 0)
            {
                writer.WriteError("ERR Node config epoch is already non-zero"u8);
                return;
            }
            _myself.ConfigEpoch = epoch;
            _currentEpoch = Math.Max(_currentEpoch, epoch);
            ConfigurationChanged();
        }
        writer.WriteOk();
    }

    private void SaveConfig(ref RespWriter writer)
    {
        try
        {
            lock (_lock)
                Save();
        }
        catch (Exception e) when (e is System.IO.IOException or UnauthorizedAccessException)
        {
            writer.WriteError($"ERR error saving the cluster node config: {e.Message}");
            return;
        }
        writer.WriteOk();
    }

    /// <summary>The known node named by <paramref name="id"/>, or null after writing Redis's error for an unknown one; under <c>_lock</c>.</summary>
    private KnownNode? FindNode(ArgSlice id, ref RespWriter writer)
    {
        string name = Encoding.UTF8.GetString(id.Span);
        if (_nodes.TryGetValue(name, out var node) && !node.InHandshake)
            return node;
        writer.WriteError($"ERR Unknown node {name}");
        return null;
    }

    private void CountFailureReports(ArgSlice id, ref RespWriter writer)
    {
        lock (_lock)
        {
            var node = FindNode(id, ref writer);
            if (node != null)
                writer.WriteInteger(ValidFailureReports(node, NowMs));
        }
    }

    /// <summary>FORGET id: the node is dropped and gossip may not bring it back for a minute (Redis's blacklist).</summary>
    private void Forget(ArgSlice id, ref RespWriter writer)
    {
        lock (_lock)
        {
            var node = FindNode(id, ref writer);
            if (node == null)
                return;
            if (node == _myself)
            {
                writer.WriteError("ERR I tried hard but I can't forget myself..."u8);
                return;
            }
            if (!_myself.IsPrimary && _myself.PrimaryId == node.Id)
            {
                writer.WriteError("ERR Can't forget my master!"u8);
                return;
            }
            _forgotten[node.Id] = NowMs + 60_000;
            RemoveNode(node);
            ConfigurationChanged();
        }
        writer.WriteOk();
    }

    /// <summary>
    /// REPLICATE id: this node becomes a replica of that primary, as Redis checks it (an empty node without slots), and the
    /// server starts following it (libs/server/Replication): a checkpoint, then the primary's operation log.
    /// </summary>
    private void Replicate(ArgSlice id, ref RespWriter writer, IClusterConnection connection)
    {
        lock (_lock)
        {
            var node = FindNode(id, ref writer);
            if (node == null)
                return;
            if (node == _myself)
            {
                writer.WriteError("ERR Can't replicate myself"u8);
                return;
            }
            if (!node.IsPrimary)
            {
                writer.WriteError("ERR I can only replicate a master, not a replica."u8);
                return;
            }
            if (_myself.IsPrimary && (_myself.SlotCount > 0 || connection.KeyCount != 0))
            {
                writer.WriteError("ERR To set a master the node must be empty and without assigned slots."u8);
                return;
            }
            if (_replication == null)
            {
                writer.WriteError("ERR replication is not available on this node"u8);
                return;
            }
            _myself.IsPrimary = false;
            _myself.PrimaryId = node.Id;
            _myself.ShardId = node.ShardId;
            RefreshAllRoutes();
            ConfigurationChanged();
        }
        FollowPrimary();
        writer.WriteOk();
    }

    /// <summary>
    /// FAILOVER [FORCE|TAKEOVER] on a replica: it takes its primary's slots. By default the primary is asked first to pause
    /// its writers and say where its log ends, and the replica takes over only once it applied that much, so no write the
    /// primary acknowledged is lost. TAKEOVER does not ask (the primary may be unreachable) and may lose what the replica
    /// had not applied yet. Either way the replica takes a new configuration epoch, so its claim wins everywhere, and the
    /// old primary becomes its replica when it hears of it. Answers OK at once; the failover runs in the background.
    /// </summary>
    private void Failover(ReadOnlySpan<ArgSlice> args, ref RespWriter writer)
    {
        bool takeover = false;
        if (args.Length > 2 || (args.Length == 2 && !args[1].EqualsUpper("FORCE"u8) && !(takeover = args[1].EqualsUpper("TAKEOVER"u8))))
        {
            writer.WriteError(ErrSyntax);
            return;
        }
        bool force = args.Length == 2 && !takeover;
        string primaryId;
        lock (_lock)
        {
            if (_myself.IsPrimary)
            {
                writer.WriteError("ERR You should send CLUSTER FAILOVER to a replica"u8);
                return;
            }
            if (_myself.PrimaryId == null || !_nodes.TryGetValue(_myself.PrimaryId, out var primary))
            {
                writer.WriteError("ERR I'm a replica but my master is unknown to me"u8);
                return;
            }
            if (!takeover && !force && (primary.Flags & NodeFlags.Fail) != 0)
            {
                writer.WriteError("ERR Master is down or failed, please use CLUSTER FAILOVER FORCE"u8);
                return;
            }
            primaryId = primary.Id;
            if (force && _replication != null)
            {
                // FORCE does not ask the primary (it may be down): the replica runs an election at once, and takes over
                // with a majority of the primaries' votes (ClusterNode.Failover.cs).
                StartForcedElection(NowMs);
                _bus?.Wake();
                writer.WriteOk();
                return;
            }
        }
        var replication = _replication;
        if (replication == null)
        {
            writer.WriteError("ERR replication is not available on this node"u8);
            return;
        }
        var thread = new Thread(() =>
        {
            string? error = takeover ? null : replication.CatchUpWithPrimary(ManualFailoverTimeoutMs);
            if (error == null)
                TakeOver(primaryId, epoch: 0);
            LastFailoverError = error;
        })
        { IsBackground = true, Name = "Garnet cluster failover" };
        thread.Start();
        writer.WriteOk();
    }

    // Redis's limit for a manual failover's pause and catch-up.
    private const int ManualFailoverTimeoutMs = 5000;

    /// <summary>Why the last failover of this replica (CLUSTER FAILOVER or an election) did not happen, or null; in CLUSTER INFO.</summary>
    internal string? LastFailoverError { get; private set; }

    /// <summary>
    /// This replica takes its primary's slots with a new configuration epoch (the election's when <paramref name="epoch"/>
    /// is not 0, else one bumped here) and stops following it.
    /// </summary>
    private void TakeOver(string primaryId, long epoch)
    {
        lock (_lock)
        {
            if (_myself.IsPrimary || _myself.PrimaryId != primaryId || !_nodes.TryGetValue(primaryId, out var primary))
                return;
            if (epoch == 0)
                epoch = ++_currentEpoch;
            _myself.ConfigEpoch = epoch;
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                if (_owners[slot] == primary)
                    SetOwner(slot, _myself);
            }
            _myself.IsPrimary = true;
            _myself.PrimaryId = null;
            // As seen from here until it says otherwise: the old primary follows this node.
            primary.IsPrimary = false;
            primary.PrimaryId = _myself.Id;
            RefreshAllRoutes();
            RenewLease();
            ConfigurationChanged();
        }
        _replication?.StopFollowing();
    }

    /// <summary>RESET [HARD|SOFT]: the node forgets every other node and its slots; HARD also takes a new id and zero epochs.</summary>
    private void Reset(ReadOnlySpan<ArgSlice> args, ref RespWriter writer, IClusterConnection connection)
    {
        bool hard = false;
        if (args.Length > 2 || (args.Length == 2 && !(hard = args[1].EqualsUpper("HARD"u8)) && !args[1].EqualsUpper("SOFT"u8)))
        {
            writer.WriteError(ErrSyntax);
            return;
        }
        if (connection.KeyCount != 0)
        {
            writer.WriteError("ERR CLUSTER RESET can't be called with master nodes containing keys"u8);
            return;
        }
        lock (_lock)
        {
            foreach (var node in new List<KnownNode>(_nodes.Values))
            {
                if (node != _myself)
                    RemoveNode(node);
            }
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                SetOwner(slot, null);
                ClearMigration(slot);
            }
            bool wasReplica = !_myself.IsPrimary;
            _myself.IsPrimary = true;
            _myself.PrimaryId = null;
            if (wasReplica)
                _replication?.StopFollowing();
            if (hard)
            {
                _nodes.Remove(_myself.Id);
                _myself.Id = NewId();
                _myself.ShardId = NewId();
                _nodes.Add(_myself.Id, _myself);
                _myself.ConfigEpoch = 0;
                _currentEpoch = 0;
                _lastVoteEpoch = 0;
            }
            ConfigurationChanged();
        }
        writer.WriteOk();
    }

    /// <summary>MEET ip port [bus-port]: starts a handshake with the node there (its port is its bus too, so the bus port is not used).</summary>
    private void Meet(ReadOnlySpan<ArgSlice> args, ref RespWriter writer)
    {
        if (args.Length > 4)
        {
            writer.WriteError("ERR wrong number of arguments for 'cluster|meet' command"u8);
            return;
        }
        string ip = Encoding.UTF8.GetString(args[1].Span);
        string portText = Encoding.UTF8.GetString(args[2].Span);
        if (!TryParseLong(args[2], out long port))
        {
            writer.WriteError($"ERR Invalid base port specified: {portText}");
            return;
        }
        if (args.Length == 4 && !TryParseLong(args[3], out _))
        {
            writer.WriteError($"ERR Invalid bus port specified: {Encoding.UTF8.GetString(args[3].Span)}");
            return;
        }
        if (!System.Net.IPAddress.TryParse(ip, out var parsed) || port <= 0 || port > 65535)
        {
            writer.WriteError($"ERR Invalid node address specified: {ip}:{portText}");
            return;
        }
        lock (_lock)
            StartHandshake(parsed.ToString(), (int)port, NowMs);
        writer.WriteOk();
    }

    /// <summary>GOSSIP message: the cluster bus (see <see cref="PeerLink"/>).</summary>
    private void Gossip(ArgSlice payload, ref RespWriter writer, IClusterConnection connection)
    {
        byte[] reply;
        try
        {
            reply = Receive(payload.Span, connection.RemoteIp);
        }
        catch (System.IO.InvalidDataException e)
        {
            writer.WriteError($"ERR invalid cluster message: {e.Message}");
            return;
        }
        writer.WriteBulk(reply);
    }

    private static void WriteHelp(ref RespWriter writer)
    {
        string[] lines =
        [
            "CLUSTER <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "ADDSLOTS <slot> [<slot> ...]", "    Assign slots to this node.",
            "ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]", "    Assign slot ranges to this node.",
            "BUMPEPOCH", "    Advance the cluster config epoch.",
            "COUNT-FAILURE-REPORTS <node-id>", "    Return the number of failure reports for <node-id>.",
            "COUNTKEYSINSLOT <slot>", "    Return the number of keys in <slot>.",
            "DELSLOTS <slot> [<slot> ...]", "    Delete slots information from this node.",
            "DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]", "    Delete slot ranges information from this node.",
            "FAILOVER [FORCE|TAKEOVER]", "    Promote a replica to primary (on a replica).",
            "FORGET <node-id>", "    Remove a node from the cluster.",
            "GETKEYSINSLOT <slot> <count>", "    Return key names stored by this node in a slot.",
            "FLUSHSLOTS", "    Delete this node's slots information (the database must be empty).",
            "INFO", "    Return information about the cluster.",
            "KEYSLOT <key>", "    Return the hash slot for <key>.",
            "LINKS", "    Return information about all network links between this node and its peers.",
            "MEET <ip> <port> [<bus-port>]", "    Connect nodes into a working cluster.",
            "MYID", "    Return the node id.",
            "MYSHARDID", "    Return the node's shard id.",
            "NODES", "    Return cluster configuration seen by this node.",
            "REPLICAS <node-id>", "    Return the replicas of <node-id>.",
            "REPLICATE <node-id>", "    Configure this node as a replica of <node-id>.",
            "RESET [HARD|SOFT]", "    Reset the current node (default: soft).",
            "SAVECONFIG", "    Force saving the cluster configuration on disk.",
            "SET-CONFIG-EPOCH <epoch>", "    Set the config epoch of this node.",
            "SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)", "    Set the state of a slot.",
            "SETSLOTSRANGE (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>) <start slot> <end slot> [<start slot> <end slot> ...]",
            "    Set the state of slot ranges.",
            "MTASKS", "    Return the number of slot migrations (MIGRATE ... SLOTS) under way on this node.",
            "SHARDS", "    Return information about slot range mappings and the nodes of each shard.",
            "SLOTS", "    Return information about slot range mappings.",
            "HELP", "    Print this help.",
        ];
        writer.WriteArrayHeader(lines.Length);
        foreach (var line in lines)
            writer.WriteSimpleString(Encoding.ASCII.GetBytes(line));
    }

    private static bool TryParseSlot(ArgSlice text, out int slot)
    {
        slot = 0;
        if (!TryParseLong(text, out long value) || value < 0 || value >= HashSlot.Count)
            return false;
        slot = (int)value;
        return true;
    }

    private static bool TryParseLong(ArgSlice text, out long value)
        => Utf8Parser.TryParse(text.Span, out value, out int consumed) && consumed == text.Span.Length && text.Span.Length > 0;
}
