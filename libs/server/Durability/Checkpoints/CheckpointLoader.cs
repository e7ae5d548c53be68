using System;
using System.Buffers.Binary;
using System.IO;

namespace Garnet.server;

/// <summary>What loading a checkpoint found.</summary>
/// <param name="Version">The version it holds.</param>
/// <param name="AofStart">The operation log offset from which entries of later versions may follow.</param>
/// <param name="Records">Records applied.</param>
/// <param name="Path">The file.</param>
/// <param name="Damage">Null when the file was whole; otherwise what was wrong, and only the records before it were applied.</param>
public sealed record CheckpointLoadReport(long Version, long AofStart, long Records, string Path, string? Damage);

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
        var (_, path) = checkpoints[0];
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1 << 20, FileOptions.SequentialScan);
        using var sender = new DiscardingSender();
        var session = new RespServerSession(server, sender, replaying: true);
        var reader = new BlockReader(file);
        long version = 0, aofStart = 0, records = 0;
        string? damage = null;
        try
        {
            var first = reader.Next() ?? throw new InvalidDataException("it is empty");
            if (first.Length < CheckpointFile.FirstPayloadSize || !first.AsSpan(0, 8).SequenceEqual(CheckpointFile.Magic))
                throw new InvalidDataException("it is not a checkpoint file");
            int format = BinaryPrimitives.ReadInt32LittleEndian(first.AsSpan(8));
            if (format != CheckpointFile.Format)
                throw new InvalidDataException($"its format {format} is not known to this server");
            version = BinaryPrimitives.ReadInt64LittleEndian(first.AsSpan(16));
            aofStart = BinaryPrimitives.ReadInt64LittleEndian(first.AsSpan(24));
            bool ended = false;
            while (!ended)
            {
                var payload = reader.Next() ?? throw new InvalidDataException("it ends before its last record");
                ended = Apply(session, server, payload, ref records);
            }
            if (reader.Next() != null)
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
        return new CheckpointLoadReport(version, aofStart, records, path, damage);
    }

    /// <summary>Applies one block's items; true at the end item.</summary>
    private static bool Apply(RespServerSession session, StoreWrapper server, byte[] payload, ref long records)
    {
        var span = payload.AsSpan();
        int at = 0;
        while (at < span.Length)
        {
            byte kind = span[at++];
            switch (kind)
            {
                case CheckpointFile.KindDatabase:
                    {
                        int index = ReadInt32(span, ref at);
                        if ((uint)index >= (uint)server.DatabaseCount)
                            throw new InvalidDataException($"it holds database {index}, but the server has {server.DatabaseCount}");
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
                            long ticks = (flags & CheckpointFile.FlagExpiration) != 0 ? ReadInt64(span, ref at) : 0;
                            var value = ReadBytes(span, ref at);
                            if (!(kind == CheckpointFile.KindString ? session.LoadString(key, value, ticks, flags >> 2) : session.LoadObject(key, value, ticks)))
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

    /// <summary>The file's blocks, each checked against its CRC.</summary>
    private sealed class BlockReader(FileStream file)
    {
        private readonly byte[] _header = new byte[CheckpointFile.BlockHeaderSize];
        private byte[] _payload = [];

        /// <summary>The next block's payload (valid until the next call), or null at the end of the file.</summary>
        public byte[]? Next()
        {
            int got = file.ReadAtLeast(_header, _header.Length, throwOnEndOfStream: false);
            if (got == 0)
                return null;
            if (got < _header.Length)
                throw new InvalidDataException("it ends inside a block header");
            int length = BinaryPrimitives.ReadInt32LittleEndian(_header);
            uint checksum = BinaryPrimitives.ReadUInt32LittleEndian(_header.AsSpan(4));
            if (length <= 0 || length > file.Length - file.Position)
                throw new InvalidDataException($"a block of impossible length {length} at offset {file.Position - _header.Length}");
            if (_payload.Length != length)
                _payload = new byte[length];
            file.ReadExactly(_payload);
            if (CheckpointFile.Checksum(_payload) != checksum)
                throw new InvalidDataException($"the block at offset {file.Position - length - _header.Length} does not match its checksum");
            // Blocks are padded to the alignment they were written with.
            long next = (file.Position + CheckpointFile.BlockAlignment - 1) & ~(long)(CheckpointFile.BlockAlignment - 1);
            file.Position = Math.Min(next, file.Length);
            return _payload;
        }
    }
}
