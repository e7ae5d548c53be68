using System;
using System.IO;

namespace Garnet.server;

/// <summary>
/// The stream's bytes for DUMP payloads and page flushes: the counters, then each node's IDs, counts and array as
/// they are (no re-encoding), then the groups with their consumers and pending entries. Reading back checks the
/// nodes' structure, so a corrupt payload is refused rather than crashing a later command.
/// </summary>
public sealed partial class StreamObject
{
    private const byte FormatVersion = 1;

    /// <inheritdoc/>
    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(FormatVersion);
        writer.Write(_created);
        writer.Write(_length);
        WriteId(writer, _lastId);
        WriteId(writer, _firstId);
        WriteId(writer, _maxDeletedId);
        writer.Write(_entriesAdded);
        writer.Write(_nodes.Count);
        foreach (var node in _nodes)
        {
            WriteId(writer, node.First);
            WriteId(writer, node.Last);
            writer.Write(node.Count);
            writer.Write(node.Live);
            writer.Write(node.MasterLength);
            writer.Write(node.Used);
            writer.Write(node.Data, 0, node.Used);
        }
        var groups = _groups;
        writer.Write(groups?.Count ?? 0);
        if (groups == null)
            return;
        foreach (var group in groups)
        {
            WriteBytes(writer, group.Name);
            WriteId(writer, group.LastId);
            writer.Write(group.EntriesRead);
            writer.Write(group.Consumers.Count);
            foreach (var consumer in group.Consumers)
            {
                WriteBytes(writer, consumer.Name);
                writer.Write(consumer.SeenTime);
                writer.Write(consumer.ActiveTime);
            }
            writer.Write(group.Pending.Count);
            for (int i = 0; i < group.Pending.Count; i++)
            {
                var pending = group.Pending[i];
                WriteId(writer, pending.Id);
                writer.Write(group.IndexOf(pending.Consumer.Name));
                writer.Write(pending.DeliveryTime);
                writer.Write(pending.DeliveryCount);
            }
        }
    }

    /// <summary>Reads a stream written by <see cref="Serialize"/>.</summary>
    public static StreamObject Deserialize(BinaryReader reader)
    {
        if (reader.ReadByte() != FormatVersion)
            throw new InvalidDataException("Unknown stream format.");
        var stream = new StreamObject
        {
            _created = reader.ReadBoolean(),
            _length = reader.ReadInt64(),
            _lastId = ReadId(reader),
            _firstId = ReadId(reader),
            _maxDeletedId = ReadId(reader),
            _entriesAdded = reader.ReadInt64(),
        };
        int nodeCount = ReadCount(reader);
        long live = 0;
        StreamId previous = default;
        for (int n = 0; n < nodeCount; n++)
        {
            var first = ReadId(reader);
            var last = ReadId(reader);
            int count = reader.ReadInt32();
            int liveCount = reader.ReadInt32();
            int masterLength = reader.ReadInt32();
            var data = ReadBytes(reader);
            var node = new StreamNode(first, last, data, count, liveCount, masterLength);
            if ((n > 0 && first <= previous) || !IsWellFormed(node))
                throw new InvalidDataException("Malformed stream node.");
            previous = last;
            live += liveCount;
            stream._nodes.Add(node);
            stream.HeapSize += node.HeapSize;
        }
        if (live != stream._length || (stream._nodes.Count > 0 && previous > stream._lastId))
            throw new InvalidDataException("Stream length or last ID does not match its entries.");

        int groupCount = ReadCount(reader);
        for (int g = 0; g < groupCount; g++)
        {
            var group = new StreamConsumerGroup(ReadBytes(reader), ReadId(reader), reader.ReadInt64());
            int consumerCount = ReadCount(reader);
            for (int c = 0; c < consumerCount; c++)
            {
                var consumer = new StreamConsumer(ReadBytes(reader), reader.ReadInt64(), reader.ReadInt64());
                if (group.Consumers.Count > 0 && group.Consumers[^1].Name.AsSpan().SequenceCompareTo(consumer.Name) >= 0)
                    throw new InvalidDataException("Consumers out of order.");
                group.Consumers.Add(consumer);
            }
            int pendingCount = ReadCount(reader);
            for (int p = 0; p < pendingCount; p++)
            {
                var id = ReadId(reader);
                int owner = reader.ReadInt32();
                if ((uint)owner >= (uint)group.Consumers.Count || (group.Pending.Count > 0 && group.Pending[^1].Id >= id))
                    throw new InvalidDataException("Malformed pending entry.");
                var entry = new StreamPendingEntry(id, group.Consumers[owner], reader.ReadInt64(), reader.ReadInt64());
                group.Pending.Add(entry);
                entry.Consumer.Pending.Add(entry);
            }
            stream.AddGroup(group);
        }
        return stream;
    }

    /// <summary>Whether a node read from outside parses into its claimed entries, in increasing ID order, within its limits.</summary>
    private static bool IsWellFormed(StreamNode node)
    {
        try
        {
            if (node.Count < 1 || node.Count > StreamNode.MaxEntries || node.Live < 1 || node.MasterLength > node.Used)
                return false;
            int master = StreamNode.ReadVarint(node.Data, 0, out ulong fields);
            for (ulong i = 0; i < fields && master <= node.MasterLength; i++)
            {
                master = StreamNode.ReadVarint(node.Data, master, out ulong length);
                master += (int)Math.Min(length, int.MaxValue / 2);
            }
            if (master != node.MasterLength)
                return false;
            int entries = 0, live = 0;
            StreamId previous = default;
            for (int at = node.FirstEntry; at < node.Used;)
            {
                node.ReadHeader(at, out byte flags, out var id, out int body);
                if ((entries == 0 && id != node.First) || (entries > 0 && id <= previous))
                    return false;
                previous = id;
                entries++;
                if ((flags & StreamNode.DeletedFlag) == 0)
                    live++;
                at = node.Skip(flags, body);
                if (at > node.Used)
                    return false;
            }
            return entries == node.Count && live == node.Live && previous == node.Last;
        }
        catch (IndexOutOfRangeException)
        {
            return false;
        }
    }

    private static void WriteId(BinaryWriter writer, StreamId id)
    {
        writer.Write(id.Ms);
        writer.Write(id.Seq);
    }

    private static StreamId ReadId(BinaryReader reader) => new(reader.ReadUInt64(), reader.ReadUInt64());

    private static void WriteBytes(BinaryWriter writer, byte[] bytes)
    {
        writer.Write(bytes.Length);
        writer.Write(bytes);
    }

    private static int ReadCount(BinaryReader reader)
    {
        int count = reader.ReadInt32();
        if (count < 0)
            throw new InvalidDataException("Negative count.");
        return count;
    }

    private static byte[] ReadBytes(BinaryReader reader)
    {
        int length = ReadCount(reader);
        var bytes = reader.ReadBytes(length);
        if (bytes.Length != length)
            throw new EndOfStreamException();
        return bytes;
    }
}
