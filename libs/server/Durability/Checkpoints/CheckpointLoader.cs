using System;
using System.Buffers.Binary;
using System.IO;
using System.Runtime.InteropServices;

namespace Garnet.server;

/// <summary>What loading a checkpoint found.</summary>
/// <param name="Version">The version it holds.</param>
/// <param name="AofStart">The operation log offset from which entries of later versions may follow.</param>
/// <param name="Records">Records applied.</param>
/// <param name="Path">The file.</param>
/// <param name="Damage">Null when the file was whole; otherwise what was wrong, and only the records before it were applied.</param>
/// <param name="Keys">Keys in the databases once it was loaded (rdb_last_load_keys_loaded).</param>
public sealed record CheckpointLoadReport(long Version, long AofStart, long Records, string Path, string? Damage, long Keys)
{
    /// <summary>A replica's checkpoint: where it stands in its primary's stream; null otherwise.</summary>
    internal ReplicaCheckpointState? Replication { get; init; }
}

/// <summary>
/// Recovery's first step: applies the newest checkpoint (see <see cref="CheckpointFile"/>) to the empty databases, block by
/// block, each checked against its CRC before any of its records is applied.
/// </summary>
internal static class CheckpointLoader
{
    /// <summary>
    /// Loads the newest checkpoint in <paramref name="directory"/>, or returns null when there is none. A damaged file
    /// throws <see cref="InvalidDataException"/> with <paramref name="failOnError"/>; without it, the records before the
    /// damage stay applied and the report says what was wrong.
    /// </summary>
    public static CheckpointLoadReport? LoadNewest(StoreWrapper server, string directory, bool failOnError)
    {
        var checkpoints = CheckpointFile.List(directory);
        if (checkpoints.Count == 0)
            return null;
        return Load(server, checkpoints[0].Path, failOnError);
    }

    /// <summary>The version and log address a checkpoint file holds (its first block), read without loading it.</summary>
    public static (long Version, long AofStart) ReadHeader(string path)
    {
        using var reader = new BlockReader(path);
        if (!reader.Next())
            throw new InvalidDataException($"The checkpoint {path} is empty.");
        var first = reader.Payload;
        if (first.Length < CheckpointFile.FirstPayloadSize || !first.Slice(0, 8).SequenceEqual(CheckpointFile.Magic))
            throw new InvalidDataException($"{path} is not a checkpoint file.");
        return (BinaryPrimitives.ReadInt64LittleEndian(first.Slice(16)), BinaryPrimitives.ReadInt64LittleEndian(first.Slice(24)));
    }

    /// <summary>Loads the checkpoint file at <paramref name="path"/> into the databases (as <see cref="LoadNewest"/>).</summary>
    public static CheckpointLoadReport Load(StoreWrapper server, string path, bool failOnError)
    {
        using var reader = new BlockReader(path);
        using var sender = new DiscardingSender();
        var session = new RespServerSession(server, sender, replaying: true);
        long version = 0, aofStart = 0, records = 0;
        ReplicaCheckpointState? replication = null;
        string? damage = null;
        try
        {
            if (!reader.Next())
                throw new InvalidDataException("it is empty");
            var first = reader.Payload;
            if (first.Length < CheckpointFile.FirstPayloadSize || !first.Slice(0, 8).SequenceEqual(CheckpointFile.Magic))
                throw new InvalidDataException("it is not a checkpoint file");
            int format = BinaryPrimitives.ReadInt32LittleEndian(first.Slice(8));
            if (format != CheckpointFile.Format && format != CheckpointFile.FormatTicksExpirations)
                throw new InvalidDataException($"its format {format} is not known to this server");
            bool ticksExpirations = format == CheckpointFile.FormatTicksExpirations;
            version = BinaryPrimitives.ReadInt64LittleEndian(first.Slice(16));
            aofStart = BinaryPrimitives.ReadInt64LittleEndian(first.Slice(24));
            bool ended = false;
            while (!ended)
            {
                if (!reader.Next())
                    throw new InvalidDataException("it ends before its last record");
                ended = Apply(session, server, reader.Payload, ticksExpirations, ref records, ref replication);
            }
            if (reader.Next())
                throw new InvalidDataException("bytes follow its last record");
        }
        catch (InvalidDataException e)
        {
            damage = $"{e.Message} (after {records} records)";
            if (failOnError || version == 0)
            {
                throw new InvalidDataException($"The checkpoint {path} is damaged: {damage}. "
                    + "Start without --fail-on-recovery-error to recover what comes before the damage, or restore the file.", e);
            }
        }
        finally
        {
            session.EndCheckpointLoad();
            session.Dispose();
        }
        long keys = 0;
        for (int i = 0; i < server.DatabaseCount; i++)
            keys += server.PeekDatabase(i)?.MainStore.KeyCount ?? 0;
        // A damaged checkpoint is not where the stream stood: a replica loading it must sync from its primary again.
        return new CheckpointLoadReport(version, aofStart, records, path, damage, keys) { Replication = damage == null ? replication : null };
    }

    /// <summary>Applies one block's items; true at the end item.</summary>
    private static bool Apply(RespServerSession session, StoreWrapper server, ReadOnlySpan<byte> span, bool ticksExpirations, ref long records,
        ref ReplicaCheckpointState? replication)
    {
        int at = 0;
        while (at < span.Length)
        {
            byte kind = span[at++];
            switch (kind)
            {
                case CheckpointFile.KindDatabase:
                    {
                        int index = ReadInt32(span, ref at);
                        long keys = ReadInt64(span, ref at);
                        if ((uint)index >= (uint)server.DatabaseCount)
                            throw new InvalidDataException($"it holds database {index}, but the server has {server.DatabaseCount}");
                        server.CreateDatabaseFor(index, keys);
                        session.BeginCheckpointLoad(index);
                        break;
                    }
                case CheckpointFile.KindString:
                case CheckpointFile.KindObject:
                case CheckpointFile.KindDeleted:
                    {
                        byte flags = Take(span, ref at, 1)[0];
                        var key = ReadBytes(span, ref at);
                        if (kind == CheckpointFile.KindDeleted)
                        {
                            session.LoadDeleted(key);
                        }
                        else
                        {
                            long expiresAt = (flags & CheckpointFile.FlagExpiration) != 0 ? ReadInt64(span, ref at) : 0;
                            if (ticksExpirations)
                                expiresAt = Expiration.FromLegacyTicks(expiresAt);
                            long? etag = (flags & CheckpointFile.FlagETag) != 0 ? ReadInt64(span, ref at) : null;
                            var value = ReadBytes(span, ref at);
                            if (!(kind == CheckpointFile.KindString ? session.LoadString(key, value, expiresAt, flags >> 2, etag) : session.LoadObject(key, value, expiresAt)))
                                throw new InvalidDataException($"record {records} could not be applied (a malformed object, or out of memory)");
                        }
                        if (++records % 1024 == 0)
                            session.RefreshDuringLoad();
                        break;
                    }
                case CheckpointFile.KindFunctions:
                    {
                        if (!session.LoadFunctions(ReadBytes(span, ref at)))
                            throw new InvalidDataException("its function libraries could not be loaded");
                        break;
                    }
                case CheckpointFile.KindReplication:
                    {
                        replication = ReplicaCheckpointState.Deserialize(ReadBytes(span, ref at));
                        break;
                    }
                case CheckpointFile.KindEnd:
                    {
                        long count = ReadInt64(span, ref at);
                        if (count != records || at != span.Length)
                            throw new InvalidDataException($"its end says {count} records where {records} were read");
                        return true;
                    }
                default:
                    throw new InvalidDataException($"it holds an item of unknown kind {kind}");
            }
        }
        return false;
    }

    private static ReadOnlySpan<byte> Take(ReadOnlySpan<byte> span, ref int at, int length)
    {
        if (length < 0 || length > span.Length - at)
            throw new InvalidDataException("a record runs past its block");
        var taken = span.Slice(at, length);
        at += length;
        return taken;
    }

    private static int ReadInt32(ReadOnlySpan<byte> span, ref int at) => BinaryPrimitives.ReadInt32LittleEndian(Take(span, ref at, 4));

    private static long ReadInt64(ReadOnlySpan<byte> span, ref int at) => BinaryPrimitives.ReadInt64LittleEndian(Take(span, ref at, 8));

    private static ReadOnlySpan<byte> ReadBytes(ReadOnlySpan<byte> span, ref int at) => Take(span, ref at, ReadInt32(span, ref at));

    /// <summary>
    /// The file's blocks, each checked against its CRC, read past the page cache where the file system allows (blocks are
    /// aligned): measured, copying the file out of the page cache took a sixth of a load.
    /// </summary>
    private sealed unsafe class BlockReader : IDisposable
    {
        private const int Alignment = CheckpointFile.BlockAlignment;

        private readonly Microsoft.Win32.SafeHandles.SafeFileHandle _file;
        private readonly long _length;
        private byte* _buffer;
        private int _capacity;
        private long _position;
        private int _payloadLength;

        public BlockReader(string path)
        {
            _file = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.Read);
            _length = RandomAccess.GetLength(_file);
            FileSync.TryDirectIo(_file);
            Ensure(4 << 20);
        }

        /// <summary>The payload of the block <see cref="Next"/> read (valid until the next call).</summary>
        public ReadOnlySpan<byte> Payload => new(_buffer + CheckpointFile.BlockHeaderSize, _payloadLength);

        /// <summary>Reads the next block; false at the end of the file.</summary>
        public bool Next()
        {
            if (_position >= _length)
                return false;
            int got = Read(_position, 0, Alignment);
            if (got < CheckpointFile.BlockHeaderSize)
                throw new InvalidDataException("it ends inside a block header");
            int length = BinaryPrimitives.ReadInt32LittleEndian(new ReadOnlySpan<byte>(_buffer, 4));
            uint checksum = BinaryPrimitives.ReadUInt32LittleEndian(new ReadOnlySpan<byte>(_buffer + 4, 4));
            if (length <= 0 || length > _length - _position - CheckpointFile.BlockHeaderSize)
                throw new InvalidDataException($"a block of impossible length {length} at offset {_position}");
            int total = CheckpointFile.BlockHeaderSize + length;
            int padded = (total + Alignment - 1) & ~(Alignment - 1);
            if (padded > Alignment)
            {
                Ensure(padded);
                if (Read(_position + Alignment, Alignment, padded - Alignment) < total - Alignment)
                    throw new InvalidDataException($"it ends inside the block at offset {_position}");
            }
            _payloadLength = length;
            if (CheckpointFile.Checksum(Payload) != checksum)
                throw new InvalidDataException($"the block at offset {_position} does not match its checksum");
            _position += padded;
            return true;
        }

        /// <summary>Reads up to <paramref name="count"/> bytes at <paramref name="offset"/> into the buffer at <paramref name="at"/>; fewer only at the end.</summary>
        private int Read(long offset, int at, int count)
        {
            int done = 0;
            while (done < count)
            {
                int got = RandomAccess.Read(_file, new Span<byte>(_buffer + at + done, count - done), offset + done);
                if (got <= 0)
                    break;
                done += got;
            }
            return done;
        }

        /// <summary>Grows the buffer to <paramref name="size"/> bytes, keeping its first block's bytes.</summary>
        private void Ensure(int size)
        {
            if (size <= _capacity)
                return;
            var grown = (byte*)NativeMemory.AlignedAlloc((nuint)size, Alignment);
            if (_buffer != null)
            {
                Buffer.MemoryCopy(_buffer, grown, size, Math.Min(_capacity, Alignment));
                NativeMemory.AlignedFree(_buffer);
            }
            _buffer = grown;
            _capacity = size;
        }

        public void Dispose()
        {
            _file.Dispose();
            if (_buffer != null)
                NativeMemory.AlignedFree(_buffer);
            _buffer = null;
        }
    }
}
