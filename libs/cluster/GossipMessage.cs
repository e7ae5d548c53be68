using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Garnet.common;

namespace Garnet.cluster;

/// <summary>The kinds of message nodes exchange on their links (Redis's bus message types that this cluster uses).</summary>
internal enum GossipType : byte
{
    Ping = 1,
    Pong = 2,

    /// <summary>A ping that makes the receiver add the sender (CLUSTER MEET).</summary>
    Meet = 3,

    /// <summary>A ping that also announces a node found failing by a majority.</summary>
    Fail = 4,

    /// <summary>
    /// A replica's ping that asks the receiver (a primary) for its vote to take its failed primary's place in the epoch
    /// the message carries (Redis's FAILOVER_AUTH_REQUEST); the pong says whether it was given.
    /// </summary>
    AuthRequest = 5,
}

/// <summary>What a message says of a third node: who it is, where, and whether the sender finds it failing.</summary>
internal readonly record struct GossipEntry(string Id, string Ip, int Port, NodeFlags Flags);

/// <summary>A node's slots as the sender knows them, sent to a node that claims some of them with an older epoch (Redis's UPDATE).</summary>
internal sealed record SlotClaim(string Id, long ConfigEpoch, byte[] Slots);

/// <summary>
/// One message between nodes: the sender's own state (id, address, role, epochs and the slots it claims, which only it
/// is trusted about), what it knows of other nodes (for discovery and failure reports), the slot claims the receiver
/// should learn, and for <see cref="GossipType.Fail"/> the node failed. Carried as the payload of CLUSTER GOSSIP and of
/// its reply, in a versioned little-endian binary form.
/// </summary>
internal sealed class GossipMessage
{
    private const uint Magic = 0x32424347; // "GCB2"
    public const int SlotBytes = HashSlot.Count / 8;

    public GossipType Type;
    public string SenderId = "";
    public string ShardId = "";
    public string Ip = "";
    public int Port;
    public bool IsPrimary = true;
    public string PrimaryId = "";
    public long ConfigEpoch;
    public long CurrentEpoch;
    public byte[] Slots = new byte[SlotBytes];

    /// <summary>The IP the sender reached the receiver at (a node that knows no address of its own takes it, as in Redis).</summary>
    public string ReceiverIp = "";

    public List<GossipEntry> Entries = [];
    public List<SlotClaim> Updates = [];

    /// <summary>The node a <see cref="GossipType.Fail"/> message declares failed.</summary>
    public string FailedId = "";

    /// <summary>The sender's replication offset (a replica's applied offset of its primary's log; a primary's log end).</summary>
    public long ReplicationOffset;

    /// <summary>
    /// In an <see cref="GossipType.AuthRequest"/>, the epoch of the election; in a pong, the epoch of the election the
    /// sender voted for the receiver in (0: no vote).
    /// </summary>
    public long VoteEpoch;

    /// <summary>An <see cref="GossipType.AuthRequest"/> of CLUSTER FAILOVER FORCE: the primary need not be failed.</summary>
    public bool Forced;

    /// <summary>The history <see cref="ReplicationOffset"/> counts in (a primary's own, the one a replica follows).</summary>
    public string ReplicationId = "";

    /// <summary>A primary's: the offset up to which it acknowledged writes under commit-before-ack (0: it does not).</summary>
    public long AcknowledgedOffset;

    public static bool HasSlot(byte[] slots, int slot) => (slots[slot >> 3] & (1 << (slot & 7))) != 0;

    public static void AddSlot(byte[] slots, int slot) => slots[slot >> 3] |= (byte)(1 << (slot & 7));

    public byte[] Encode()
    {
        using var stream = new MemoryStream(SlotBytes + 256 + Entries.Count * 64);
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write(Magic);
            writer.Write((byte)Type);
            writer.Write(SenderId);
            writer.Write(ShardId);
            writer.Write(Ip);
            writer.Write(Port);
            writer.Write(IsPrimary);
            writer.Write(PrimaryId);
            writer.Write(ConfigEpoch);
            writer.Write(CurrentEpoch);
            writer.Write(Slots);
            writer.Write(ReceiverIp);
            writer.Write(Entries.Count);
            foreach (var entry in Entries)
            {
                writer.Write(entry.Id);
                writer.Write(entry.Ip);
                writer.Write(entry.Port);
                writer.Write((byte)entry.Flags);
            }
            writer.Write(Updates.Count);
            foreach (var update in Updates)
            {
                writer.Write(update.Id);
                writer.Write(update.ConfigEpoch);
                writer.Write(update.Slots);
            }
            writer.Write(FailedId);
            writer.Write(ReplicationOffset);
            writer.Write(VoteEpoch);
            writer.Write(Forced);
            writer.Write(ReplicationId);
            writer.Write(AcknowledgedOffset);
        }
        return stream.ToArray();
    }

    /// <summary>Reads a message; throws <see cref="InvalidDataException"/> on anything malformed.</summary>
    public static GossipMessage Decode(ReadOnlySpan<byte> bytes)
    {
        try
        {
            using var stream = new MemoryStream(bytes.ToArray(), writable: false);
            using var reader = new BinaryReader(stream, Encoding.UTF8);
            if (reader.ReadUInt32() != Magic)
                throw new InvalidDataException("not a cluster message");
            var message = new GossipMessage
            {
                Type = (GossipType)reader.ReadByte(),
                SenderId = reader.ReadString(),
                ShardId = reader.ReadString(),
                Ip = reader.ReadString(),
                Port = reader.ReadInt32(),
                IsPrimary = reader.ReadBoolean(),
                PrimaryId = reader.ReadString(),
                ConfigEpoch = reader.ReadInt64(),
                CurrentEpoch = reader.ReadInt64(),
                Slots = ReadSlots(reader),
                ReceiverIp = reader.ReadString(),
            };
            if (message.Type is < GossipType.Ping or > GossipType.AuthRequest || message.SenderId.Length != 40)
                throw new InvalidDataException("bad message type or sender");
            int entries = ReadCount(reader);
            for (int i = 0; i < entries; i++)
                message.Entries.Add(new GossipEntry(reader.ReadString(), reader.ReadString(), reader.ReadInt32(), (NodeFlags)reader.ReadByte()));
            int updates = ReadCount(reader);
            for (int i = 0; i < updates; i++)
                message.Updates.Add(new SlotClaim(reader.ReadString(), reader.ReadInt64(), ReadSlots(reader)));
            message.FailedId = reader.ReadString();
            message.ReplicationOffset = reader.ReadInt64();
            message.VoteEpoch = reader.ReadInt64();
            message.Forced = reader.ReadBoolean();
            message.ReplicationId = reader.ReadString();
            message.AcknowledgedOffset = reader.ReadInt64();
            return message;
        }
        catch (EndOfStreamException)
        {
            throw new InvalidDataException("truncated cluster message");
        }
    }

    private static byte[] ReadSlots(BinaryReader reader)
    {
        var slots = reader.ReadBytes(SlotBytes);
        if (slots.Length != SlotBytes)
            throw new InvalidDataException("truncated slot map");
        return slots;
    }

    private static int ReadCount(BinaryReader reader)
    {
        int count = reader.ReadInt32();
        if (count < 0 || count > 100_000)
            throw new InvalidDataException("bad entry count");
        return count;
    }
}
