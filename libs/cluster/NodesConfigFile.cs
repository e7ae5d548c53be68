using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using Garnet.common;

namespace Garnet.cluster;

/// <summary>A node as nodes.conf keeps it.</summary>
internal sealed record SavedNode(string Id, string ShardId, string Ip, int Port, bool Myself, bool IsPrimary, string? PrimaryId, long ConfigEpoch,
    bool Failed, List<int> Slots, List<(int Slot, string Id, bool Migrating)> Migrations);

/// <summary>A node's saved configuration: every node it knows (itself among them) and its current and last vote epochs.</summary>
internal sealed record NodesConfig(List<SavedNode> Nodes, long CurrentEpoch, long LastVoteEpoch)
{
    public SavedNode Myself => Nodes.Find(node => node.Myself)!;
}

/// <summary>
/// nodes.conf, in Redis's format: a line per node (id, address with the bus port and the shard id, flags, primary, ping
/// and pong times, configuration epoch, link state, slot ranges), then a "vars" line with the current and last vote
/// epochs. Written to a temporary file that is synced and then renamed over the old one, so a crash leaves either.
/// </summary>
internal sealed class NodesConfigFile(string directory)
{
    private const string FileName = "nodes.conf";

    public string Path { get; } = System.IO.Path.Combine(directory, FileName);

    /// <summary>The saved configuration, or null when there is none; throws on one that cannot be read.</summary>
    public NodesConfig? Load()
    {
        if (!File.Exists(Path))
            return null;
        var nodes = new List<SavedNode>();
        long currentEpoch = 0, lastVoteEpoch = 0;
        foreach (var raw in File.ReadAllLines(Path))
        {
            var line = raw.Trim();
            if (line.Length == 0)
                continue;
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields[0] == "vars")
            {
                for (int i = 1; i + 1 < fields.Length; i += 2)
                {
                    if (fields[i] == "currentEpoch")
                        currentEpoch = ParseLong(fields[i + 1]);
                    else if (fields[i] == "lastVoteEpoch")
                        lastVoteEpoch = ParseLong(fields[i + 1]);
                }
                continue;
            }
            if (fields.Length < 8)
                throw Invalid($"a node line has {fields.Length} fields: {line}");
            var flags = fields[2].Split(',');
            // A node still in handshake is not kept (Redis writes none either).
            if (Array.IndexOf(flags, "handshake") >= 0)
                continue;
            var (ip, port, shardId) = ParseAddress(fields[1], line);
            if (fields[0].Length != 40 || (shardId.Length != 0 && shardId.Length != 40))
                throw Invalid($"the node or shard id is not 40 characters: {line}");
            var slots = new List<int>();
            var migrations = new List<(int, string, bool)>();
            for (int i = 8; i < fields.Length; i++)
            {
                if (fields[i].StartsWith('['))
                    migrations.Add(ParseMigration(fields[i], line));
                else
                    AddRange(fields[i], slots);
            }
            nodes.Add(new SavedNode(fields[0], shardId, ip, port, Array.IndexOf(flags, "myself") >= 0, Array.IndexOf(flags, "slave") < 0,
                fields[3] == "-" ? null : fields[3], ParseLong(fields[6]), Array.IndexOf(flags, "fail") >= 0, slots, migrations));
        }
        int myself = nodes.FindAll(node => node.Myself).Count;
        if (myself != 1)
            throw Invalid(myself == 0 ? "it has no line for this node (myself)" : "it has more than one line marked myself");
        var config = new NodesConfig(nodes, currentEpoch, lastVoteEpoch);
        if (config.Myself.ShardId.Length != 40)
            throw Invalid("this node's line has no shard id");
        long greatest = 0;
        foreach (var node in nodes)
            greatest = Math.Max(greatest, node.ConfigEpoch);
        return config with { CurrentEpoch = Math.Max(currentEpoch, greatest) };
    }

    /// <summary>Writes <paramref name="config"/> durably.</summary>
    public void Save(NodesConfig config)
    {
        var text = new StringBuilder();
        foreach (var node in config.Nodes)
        {
            string flags = (node.Myself ? "myself," : "") + (node.IsPrimary ? "master" : "slave") + (node.Failed ? ",fail" : "");
            text.Append(CultureInfo.InvariantCulture,
                $"{node.Id} {node.Ip}:{node.Port}@{node.Port + 10000},,shard-id={node.ShardId} {flags} {node.PrimaryId ?? "-"} 0 0 {node.ConfigEpoch} connected");
            AppendRanges(text, node.Slots);
            AppendMigrations(text, node.Migrations);
            text.Append('\n');
        }
        text.Append(CultureInfo.InvariantCulture, $"vars currentEpoch {config.CurrentEpoch} lastVoteEpoch {config.LastVoteEpoch}\n");
        string temporary = Path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            stream.Write(Encoding.ASCII.GetBytes(text.ToString()));
            stream.Flush(flushToDisk: true);
        }
        File.Move(temporary, Path, overwrite: true);
    }

    /// <summary>Appends " [slot->-id]" for a slot migrating to a node and " [slot-<-id]" for one imported from it, as Redis writes them.</summary>
    internal static void AppendMigrations(StringBuilder text, List<(int Slot, string Id, bool Migrating)> migrations)
    {
        foreach (var (slot, id, migrating) in migrations)
            text.Append(CultureInfo.InvariantCulture, $" [{slot}-{(migrating ? ">" : "<")}-{id}]");
    }

    private (int Slot, string Id, bool Migrating) ParseMigration(string field, string line)
    {
        int arrow = field.IndexOf("->-", StringComparison.Ordinal);
        bool migrating = arrow > 0;
        if (!migrating)
            arrow = field.IndexOf("-<-", StringComparison.Ordinal);
        if (arrow <= 1 || !field.EndsWith(']'))
            throw Invalid($"slot migration {field}: {line}");
        string id = field.Substring(arrow + 3, field.Length - arrow - 4);
        if (id.Length != 40)
            throw Invalid($"slot migration {field}: {line}");
        return (ParseSlot(field.Substring(1, arrow - 1)), id, migrating);
    }

    /// <summary>"ip:port@cport[,hostname][,shard-id=id]" (the IP may be empty, and an IPv6 one has colons).</summary>
    private (string Ip, int Port, string ShardId) ParseAddress(string field, string line)
    {
        var parts = field.Split(',');
        string shardId = "";
        foreach (var part in parts)
        {
            if (part.StartsWith("shard-id=", StringComparison.Ordinal))
                shardId = part.Substring("shard-id=".Length);
        }
        string address = parts[0];
        int at = address.IndexOf('@');
        if (at >= 0)
            address = address.Substring(0, at);
        int colon = address.LastIndexOf(':');
        if (colon < 0 || !int.TryParse(address.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out int port) || port > 65535)
            throw Invalid($"address {field}: {line}");
        return (address.Substring(0, colon), port, shardId);
    }

    /// <summary>Appends " start-end" (or " slot") for each run of consecutive slots in <paramref name="slots"/> (ascending).</summary>
    internal static void AppendRanges(StringBuilder text, List<int> slots)
    {
        for (int i = 0; i < slots.Count;)
        {
            int start = slots[i];
            int end = start;
            while (i + 1 < slots.Count && slots[i + 1] == end + 1)
            {
                i++;
                end++;
            }
            i++;
            text.Append(' ').Append(start.ToString(CultureInfo.InvariantCulture));
            if (end != start)
                text.Append('-').Append(end.ToString(CultureInfo.InvariantCulture));
        }
    }

    private void AddRange(string field, List<int> slots)
    {
        int dash = field.IndexOf('-');
        int start = ParseSlot(dash < 0 ? field : field.Substring(0, dash));
        int end = dash < 0 ? start : ParseSlot(field.Substring(dash + 1));
        if (end < start)
            throw Invalid($"slot range {field}");
        for (int slot = start; slot <= end; slot++)
            slots.Add(slot);
    }

    private int ParseSlot(string text)
    {
        if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int slot) || slot >= HashSlot.Count)
            throw Invalid($"slot {text}");
        return slot;
    }

    private long ParseLong(string text)
    {
        if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long value))
            throw Invalid($"number {text}");
        return value;
    }

    private InvalidDataException Invalid(string what) => new($"The cluster node configuration {Path} is not valid: {what}.");
}
