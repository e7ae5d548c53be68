using System;
using System.Buffers.Text;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
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
        else if (name.EqualsUpper("MYID"u8))
            writer.WriteBulk(_id);
        else if (name.EqualsUpper("MYSHARDID"u8))
            writer.WriteBulk(_shardId);
        else if (name.EqualsUpper("INFO"u8))
            writer.WriteVerbatim(Encoding.ASCII.GetBytes(Info()));
        else if (name.EqualsUpper("NODES"u8))
            writer.WriteVerbatim(Encoding.ASCII.GetBytes(NodesLine(connection)));
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
            writer.WriteArrayHeader(0); // a link per other node, and there are none
        else if (name.EqualsUpper("COUNT-FAILURE-REPORTS"u8))
            WithKnownNode(args[1], ref writer, static (ref RespWriter w) => w.WriteInteger(0));
        else if (name.EqualsUpper("REPLICAS"u8) || name.EqualsUpper("SLAVES"u8))
            WithKnownNode(args[1], ref writer, static (ref RespWriter w) => w.WriteArrayHeader(0));
        else if (name.EqualsUpper("FORGET"u8))
            WithKnownNode(args[1], ref writer, static (ref RespWriter w) => w.WriteError("ERR I tried hard but I can't forget myself..."u8));
        else if (name.EqualsUpper("REPLICATE"u8))
            WithKnownNode(args[1], ref writer, static (ref RespWriter w) => w.WriteError("ERR Can't replicate myself"u8));
        else if (name.EqualsUpper("FAILOVER"u8))
            Failover(args, ref writer);
        else if (name.EqualsUpper("RESET"u8))
            Reset(args, ref writer, connection);
        else if (name.EqualsUpper("SETSLOT"u8))
            SetSlot(args, ref writer);
        else if (name.EqualsUpper("MEET"u8))
            writer.WriteError("ERR CLUSTER MEET is not supported by this node yet: it has no cluster bus to reach other nodes"u8);
        else if (name.EqualsUpper("HELP"u8))
            WriteHelp(ref writer);
        else
            writer.WriteError($"ERR unknown subcommand '{Encoding.UTF8.GetString(name.Span)}'. Try CLUSTER HELP.");
    }

    private string Info()
    {
        int served;
        long currentEpoch, configEpoch;
        lock (_lock)
        {
            served = _servedCount;
            currentEpoch = _currentEpoch;
            configEpoch = _configEpoch;
        }
        var text = new StringBuilder();
        text.Append("cluster_state:").Append(served == HashSlot.Count ? "ok" : "fail").Append("\r\n");
        text.Append(CultureInfo.InvariantCulture, $"cluster_slots_assigned:{served}\r\n");
        text.Append(CultureInfo.InvariantCulture, $"cluster_slots_ok:{served}\r\n");
        text.Append("cluster_slots_pfail:0\r\ncluster_slots_fail:0\r\ncluster_known_nodes:1\r\n");
        text.Append(CultureInfo.InvariantCulture, $"cluster_size:{(served > 0 ? 1 : 0)}\r\n");
        text.Append(CultureInfo.InvariantCulture, $"cluster_current_epoch:{currentEpoch}\r\n");
        text.Append(CultureInfo.InvariantCulture, $"cluster_my_epoch:{configEpoch}\r\n");
        text.Append("cluster_stats_messages_sent:0\r\ncluster_stats_messages_received:0\r\n");
        text.Append("total_cluster_links_buffer_limit_exceeded:0\r\n");
        return text.ToString();
    }

    private string NodesLine(IClusterConnection connection)
    {
        var (ip, port) = Address(connection);
        var text = new StringBuilder();
        lock (_lock)
        {
            text.Append(CultureInfo.InvariantCulture, $"{_id} {ip}:{port}@{port + 10000} myself,master - 0 0 {_configEpoch} connected");
            NodesConfigFile.AppendRanges(text, ServedSlots());
        }
        text.Append('\n');
        return text.ToString();
    }

    /// <summary>The slot ranges this node serves, as start and end pairs.</summary>
    private List<(int Start, int End)> ServedRanges()
    {
        var ranges = new List<(int, int)>();
        lock (_lock)
        {
            for (int slot = 0; slot < HashSlot.Count; slot++)
            {
                if (!_served[slot])
                    continue;
                int end = slot;
                while (end + 1 < HashSlot.Count && _served[end + 1])
                    end++;
                ranges.Add((slot, end));
                slot = end;
            }
        }
        return ranges;
    }

    private List<int> ServedSlots()
    {
        var slots = new List<int>(_servedCount);
        for (int slot = 0; slot < HashSlot.Count; slot++)
        {
            if (_served[slot])
                slots.Add(slot);
        }
        return slots;
    }

    /// <summary>The address clients are given for this node: the announced one, else the one the client reached.</summary>
    private (string Ip, int Port) Address(IClusterConnection connection)
        => (AnnouncedIp ?? connection.LocalIp, _options.ClusterAnnouncePort != 0 ? _options.ClusterAnnouncePort : connection.LocalPort);

    private void WriteSlots(ref RespWriter writer, IClusterConnection connection)
    {
        var (ip, port) = Address(connection);
        var ranges = ServedRanges();
        writer.WriteArrayHeader(ranges.Count);
        foreach (var (start, end) in ranges)
        {
            writer.WriteArrayHeader(3);
            writer.WriteInteger(start);
            writer.WriteInteger(end);
            writer.WriteArrayHeader(4);
            writer.WriteBulk(ip);
            writer.WriteInteger(port);
            writer.WriteBulk(_id);
            writer.WriteMapHeader(0); // no hostname or other endpoint to add
        }
    }

    private void WriteShards(ref RespWriter writer, IClusterConnection connection)
    {
        var (ip, port) = Address(connection);
        var ranges = ServedRanges();
        writer.WriteArrayHeader(1);
        writer.WriteMapHeader(2);
        writer.WriteBulk("slots"u8);
        writer.WriteArrayHeader(ranges.Count * 2);
        foreach (var (start, end) in ranges)
        {
            writer.WriteInteger(start);
            writer.WriteInteger(end);
        }
        writer.WriteBulk("nodes"u8);
        writer.WriteArrayHeader(1);
        writer.WriteMapHeader(7);
        writer.WriteBulk("id"u8);
        writer.WriteBulk(_id);
        writer.WriteBulk("port"u8);
        writer.WriteInteger(port);
        writer.WriteBulk("ip"u8);
        writer.WriteBulk(ip);
        writer.WriteBulk("endpoint"u8);
        writer.WriteBulk(ip);
        writer.WriteBulk("role"u8);
        writer.WriteBulk("master"u8);
        writer.WriteBulk("replication-offset"u8);
        writer.WriteInteger(0);
        writer.WriteBulk("health"u8);
        writer.WriteBulk("online"u8);
    }

    /// <summary>ADDSLOTS/DELSLOTS slot..., ADDSLOTSRANGE/DELSLOTSRANGE start end ...: all or nothing, as in Redis.</summary>
    private void ChangeSlots(ReadOnlySpan<ArgSlice> args, bool ranges, bool assign, ref RespWriter writer)
    {
        if (ranges && args.Length % 2 == 0)
        {
            writer.WriteError(assign ? "ERR wrong number of arguments for 'cluster|addslotsrange' command"u8 : "ERR wrong number of arguments for 'cluster|delslotsrange' command"u8);
            return;
        }
        var named = new bool[HashSlot.Count];
        var slots = new List<int>();
        for (int i = 1; i < args.Length; i += ranges ? 2 : 1)
        {
            if (!TryParseSlot(args[i], out int start) || (ranges && !TryParseSlot(args[i + 1], out _)))
            {
                writer.WriteError(ErrInvalidSlot);
                return;
            }
            int end = start;
            if (ranges)
            {
                TryParseSlot(args[i + 1], out end);
                if (start > end)
                {
                    writer.WriteError($"ERR start slot number {start} is greater than end slot number {end}");
                    return;
                }
            }
            for (int slot = start; slot <= end; slot++)
            {
                if (named[slot])
                {
                    writer.WriteError($"ERR Slot {slot} specified multiple times");
                    return;
                }
                named[slot] = true;
                slots.Add(slot);
            }
        }
        lock (_lock)
        {
            foreach (int slot in slots)
            {
                if (_served[slot] == assign)
                {
                    writer.WriteError(assign ? $"ERR Slot {slot} is already busy" : $"ERR Slot {slot} is already unassigned");
                    return;
                }
            }
            foreach (int slot in slots)
                SetServed(slot, assign);
            Save();
        }
        writer.WriteOk();
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
                SetServed(slot, false);
            Save();
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
            // The only node known: its epoch is the greatest once it is not 0.
            if (_configEpoch == 0)
            {
                _currentEpoch++;
                _configEpoch = _currentEpoch;
                Save();
                reply = $"BUMPED {_configEpoch}";
            }
            else
            {
                reply = $"STILL {_configEpoch}";
            }
        }
        writer.WriteSimpleString(Encoding.ASCII.GetBytes(reply));
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
            if (_configEpoch != 0)
            {
                writer.WriteError("ERR Node config epoch is already non-zero"u8);
                return;
            }
            _configEpoch = epoch;
            _currentEpoch = Math.Max(_currentEpoch, epoch);
            Save();
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

    private delegate void KnownNodeReply(ref RespWriter writer);

    /// <summary>Replies for a subcommand about a node: this node is the only one known.</summary>
    private void WithKnownNode(ArgSlice node, ref RespWriter writer, KnownNodeReply reply)
    {
        if (!node.Span.SequenceEqual(Encoding.ASCII.GetBytes(_id)))
        {
            writer.WriteError($"ERR Unknown node {Encoding.UTF8.GetString(node.Span)}");
            return;
        }
        reply(ref writer);
    }

    private static void Failover(ReadOnlySpan<ArgSlice> args, ref RespWriter writer)
    {
        if (args.Length > 2 || (args.Length == 2 && !args[1].EqualsUpper("FORCE"u8) && !args[1].EqualsUpper("TAKEOVER"u8)))
        {
            writer.WriteError(ErrSyntax);
            return;
        }
        writer.WriteError("ERR You should send CLUSTER FAILOVER to a replica"u8);
    }

    /// <summary>RESET [HARD|SOFT]: the node forgets its slots; HARD also takes a new id and zero epochs.</summary>
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
            for (int slot = 0; slot < HashSlot.Count; slot++)
                SetServed(slot, false);
            if (hard)
            {
                _id = NewId();
                _shardId = NewId();
                _configEpoch = 0;
                _currentEpoch = 0;
                _lastVoteEpoch = 0;
            }
            Save();
        }
        writer.WriteOk();
    }

    /// <summary>SETSLOT slot STABLE | NODE id (this node's, the only one known); IMPORTING and MIGRATING need another node.</summary>
    private void SetSlot(ReadOnlySpan<ArgSlice> args, ref RespWriter writer)
    {
        if (!TryParseSlot(args[1], out int slot))
        {
            writer.WriteError(ErrInvalidSlot);
            return;
        }
        var action = args[2];
        if (args.Length == 3 && action.EqualsUpper("STABLE"u8))
        {
            writer.WriteOk(); // no slot of this node is importing or migrating
            return;
        }
        if (args.Length != 4 || !(action.EqualsUpper("NODE"u8) || action.EqualsUpper("IMPORTING"u8) || action.EqualsUpper("MIGRATING"u8)))
        {
            writer.WriteError("ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP"u8);
            return;
        }
        if (!args[3].Span.SequenceEqual(Encoding.ASCII.GetBytes(_id)))
        {
            writer.WriteError(action.EqualsUpper("NODE"u8) ? $"ERR Unknown node {Encoding.UTF8.GetString(args[3].Span)}" : $"ERR I don't know about node {Encoding.UTF8.GetString(args[3].Span)}");
            return;
        }
        if (action.EqualsUpper("IMPORTING"u8))
        {
            writer.WriteError($"ERR I'm already the owner of hash slot {slot}");
            return;
        }
        if (action.EqualsUpper("MIGRATING"u8))
        {
            writer.WriteError(_served[slot] ? "ERR Target node is the current node: a slot migrates to another node"u8 : Encoding.ASCII.GetBytes($"ERR I'm not the owner of hash slot {slot}"));
            return;
        }
        lock (_lock)
        {
            SetServed(slot, true);
            Save();
        }
        writer.WriteOk();
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
