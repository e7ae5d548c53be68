using System;
using System.Buffers.Binary;
using System.IO;
using System.Text;

namespace Garnet.server;

/// <summary>
/// Where a replica's checkpoint stands in its primary's stream, kept in the checkpoint so that a replica restarting from
/// it asks its primary to continue from there instead of sending everything again.
/// </summary>
/// <param name="ReplicationId">The primary's history the data follows.</param>
/// <param name="Offset">The primary's offset the checkpoint holds everything up to (the version moved between two entries).</param>
/// <param name="SkipThroughVersion">The primary's checkpoint version whose entries the stream still skips (see <see cref="ReplicaStream"/>).</param>
/// <param name="LogDelta">The replica's log mirrored the stream at the primary's offset minus this file offset (see
/// <see cref="ReplicaLogMirror"/>), or <see cref="NoLog"/>.</param>
internal sealed record ReplicaCheckpointState(string ReplicationId, long Offset, long SkipThroughVersion, long LogDelta)
{
    /// <summary>The replica's log did not mirror the stream when the checkpoint was taken.</summary>
    public const long NoLog = long.MinValue;

    /// <summary>The item's bytes in a checkpoint file (after its kind).</summary>
    public byte[] Serialize()
    {
        byte[] id = Encoding.ASCII.GetBytes(ReplicationId);
        var bytes = new byte[4 + id.Length + 24];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, id.Length);
        id.CopyTo(bytes.AsSpan(4));
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(4 + id.Length), Offset);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(12 + id.Length), SkipThroughVersion);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(20 + id.Length), LogDelta);
        return bytes;
    }

    /// <summary>Reads the item <see cref="Serialize"/> wrote.</summary>
    public static ReplicaCheckpointState Deserialize(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length < 28)
            throw new InvalidDataException("its replication item is too short");
        int idLength = BinaryPrimitives.ReadInt32LittleEndian(bytes);
        if (idLength <= 0 || idLength > 64 || bytes.Length != 4 + idLength + 24)
            throw new InvalidDataException("its replication item is malformed");
        string id = Encoding.ASCII.GetString(bytes.Slice(4, idLength));
        long offset = BinaryPrimitives.ReadInt64LittleEndian(bytes.Slice(4 + idLength));
        long skip = BinaryPrimitives.ReadInt64LittleEndian(bytes.Slice(12 + idLength));
        long delta = BinaryPrimitives.ReadInt64LittleEndian(bytes.Slice(20 + idLength));
        if (offset < 0)
            throw new InvalidDataException("its replication item holds a negative offset");
        return new ReplicaCheckpointState(id, offset, skip, delta);
    }
}
