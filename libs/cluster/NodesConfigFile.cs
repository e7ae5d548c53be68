using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using Garnet.common;

namespace Garnet.cluster;

/// <summary>A node's saved configuration: its ids, epochs and the slots it serves.</summary>
internal sealed record NodesConfig(string Id, string ShardId, long ConfigEpoch, long CurrentEpoch, long LastVoteEpoch, List<int> Slots);

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
        NodesConfig? myself = null;
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
            if (!Array.Exists(fields[2].Split(','), flag => flag == "myself"))
                throw Invalid($"it lists another node, which this server cannot join yet: {line}");
            string shardId = "";
            foreach (var part in fields[1].Split(','))
            {
                if (part.StartsWith("shard-id=", StringComparison.Ordinal))
                    shardId = part.Substring("shard-id=".Length);
            }
            var slots = new List<int>();
            for (int i = 8; i < fields.Length; i++)
                AddRange(fields[i], slots);
            myself = new NodesConfig(fields[0], shardId, ParseLong(fields[6]), 0, 0, slots);
        }
        if (myself == null)
            throw Invalid("it has no line for this node (myself)");
        if (myself.Id.Length != 40 || myself.ShardId.Length != 40)
            throw Invalid($"the node or shard id is not 40 characters: {myself.Id} {myself.ShardId}");
        return myself with { CurrentEpoch = Math.Max(currentEpoch, myself.ConfigEpoch), LastVoteEpoch = lastVoteEpoch };
    }

    /// <summary>Writes <paramref name="config"/> durably; <paramref name="ip"/> and <paramref name="port"/> are the node's address.</summary>
    public void Save(NodesConfig config, string ip, int port)
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"{config.Id} {ip}:{port}@{port + 10000},,shard-id={config.ShardId} myself,master - 0 0 {config.ConfigEpoch} connected");
        AppendRanges(text, config.Slots);
        text.Append('\n');
        text.Append(CultureInfo.InvariantCulture, $"vars currentEpoch {config.CurrentEpoch} lastVoteEpoch {config.LastVoteEpoch}\n");
        string temporary = Path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            stream.Write(Encoding.ASCII.GetBytes(text.ToString()));
            stream.Flush(flushToDisk: true);
        }
        File.Move(temporary, Path, overwrite: true);
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
        // Migration states ("[slot->-id]") are not written by this server yet.
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
