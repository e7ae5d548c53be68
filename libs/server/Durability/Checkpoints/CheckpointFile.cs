using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Globalization;
using System.IO;

namespace Garnet.server;

/// <summary>
/// The layout of a checkpoint file, <c>checkpoint.NNNNNNNNNNNN</c> (the version it holds, zero-padded) in the
/// checkpoint directory's <c>checkpoints</c> folder. It is written as <c>.tmp</c>, fsync'd, renamed and the
/// directory fsync'd: a file with the final name is complete, and the newest one is what recovery starts from.
/// </summary>
/// <remarks>
/// <code>
/// file     block*                                  (every byte belongs to a block)
/// block    u32 payload length  u32 CRC-32C(payload)  payload  zeros up to a multiple of 4096 bytes
/// first    "GARNETCK"  u32 format (2)  u32 0  i64 version  i64 AOF start  i64 unix ms  i32 databases
/// payload  item*
/// item     u8 kind:
///            1 database  i32 index  i64 keys        (the records that follow are its own; about how many keys it had)
///            2 string    u8 flags  key  [i64 expiration, Unix ms]  [i64 ETag]  value
///            3 object    u8 flags  key  [i64 expiration, Unix ms]  value = DUMP's type byte + its object bytes
///            4 deleted   u8 0      key               (a tombstone, or a value that had expired)
///            5 end       i64 records                (the last item of the last block)
///            6 functions value = FUNCTION DUMP's payload of the libraries (once, before the databases)
/// key, value  i32 length  bytes
/// flags    bit 0: an expiration follows; bit 1: an ETag follows (a string's, Commands/ETag);
///          bits 2-3: the string's user bits (how it was produced, OBJECT ENCODING)
/// </code>
/// Records of a database are in the order of its log: applied in order, the last record of a key wins and a deleted
/// one removes it. The AOF start is the operation log address from which entries of later versions may follow.
/// Format 1 (before expirations were kept in Unix milliseconds) is the same layout with expirations in .NET UTC ticks;
/// the loader still reads it, converting them.
/// </remarks>
internal static class CheckpointFile
{
    public const string Folder = "checkpoints";
    public const string Prefix = "checkpoint.";
    public const string TempSuffix = ".tmp";
    public const int Format = 2;

    /// <summary>The format whose expirations are .NET UTC ticks.</summary>
    public const int FormatTicksExpirations = 1;
    public const int BlockHeaderSize = 8;
    public const int BlockAlignment = FileSync.DirectIoAlignment;
    public const int FirstPayloadSize = 8 + 4 + 4 + 8 + 8 + 8 + 4;

    public const byte KindDatabase = 1;
    public const byte KindString = 2;
    public const byte KindObject = 3;
    public const byte KindDeleted = 4;
    public const byte KindEnd = 5;
    public const byte KindFunctions = 6;

    /// <summary>A replica's place in its primary's stream (<see cref="ReplicaCheckpointState"/>); only in a replica's checkpoint.</summary>
    public const byte KindReplication = 7;

    public const byte FlagExpiration = 1;
    public const byte FlagETag = 2;

    public static ReadOnlySpan<byte> Magic => "GARNETCK"u8;

    /// <summary>The name of the checkpoint of <paramref name="version"/>.</summary>
    public static string NameOf(long version) => Prefix + version.ToString("D12", CultureInfo.InvariantCulture);

    /// <summary>The complete checkpoints in <paramref name="directory"/>, newest first (by version).</summary>
    public static List<(long Version, string Path)> List(string directory)
    {
        var found = new List<(long, string)>();
        if (!Directory.Exists(directory))
            return found;
        foreach (var path in Directory.EnumerateFiles(directory, Prefix + "*"))
        {
            var name = Path.GetFileName(path).AsSpan(Prefix.Length);
            if (long.TryParse(name, NumberStyles.None, CultureInfo.InvariantCulture, out long version))
                found.Add((version, path));
        }
        found.Sort((a, b) => b.Item1.CompareTo(a.Item1));
        return found;
    }

    /// <summary>Fills the first block's payload.</summary>
    public static void WriteFirst(Span<byte> payload, long version, long aofStart, long unixMs, int databases)
    {
        Magic.CopyTo(payload);
        BinaryPrimitives.WriteInt32LittleEndian(payload.Slice(8), Format);
        BinaryPrimitives.WriteInt32LittleEndian(payload.Slice(12), 0);
        BinaryPrimitives.WriteInt64LittleEndian(payload.Slice(16), version);
        BinaryPrimitives.WriteInt64LittleEndian(payload.Slice(24), aofStart);
        BinaryPrimitives.WriteInt64LittleEndian(payload.Slice(32), unixMs);
        BinaryPrimitives.WriteInt32LittleEndian(payload.Slice(40), databases);
    }

    /// <summary>CRC-32C of a block's payload.</summary>
    public static uint Checksum(ReadOnlySpan<byte> payload) => OperationLogEntry.Checksum(payload);
}
