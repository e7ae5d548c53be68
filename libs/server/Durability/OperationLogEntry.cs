using System;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;

namespace Garnet.server;

/// <summary>
/// The layout of an operation log entry, the same in memory and in the files (little-endian):
/// <code>
/// header   u32 length (whole entry, a multiple of 8)   u32 checksum (CRC-32C of the body: bytes 8..length)
/// body     u8 kind (1: commands)  u8 format (2)  u16 flags  i32 count  i64 version
///          count × [ i32 database  i32 RESP length  i64 clock (Unix ms)  u64 random seed  u16 command id  6 × 0
///                    the command as a RESP array of bulk strings ]
///          zeros up to the length
/// </code>
/// One entry is one command, or the commands of one transaction or script run (applied together at replay, in order).
/// The header word is written last: until then it is zero, which tells the log's writer the entry is not complete.
/// Format 1 (before expirations were kept in Unix milliseconds) held the clock in .NET UTC ticks; its entries are
/// still read, their clock converted, so a log written by an earlier server replays at the instants it ran.
/// Flags: <see cref="FlagReplicated"/>; earlier servers wrote 0 there and did not read it.
/// </summary>
internal static class OperationLogEntry
{
    public const int HeaderSize = 8;
    public const int BodyHeaderSize = 16;
    public const int CommandHeaderSize = 32;
    public const byte KindCommands = 1;
    public const byte Format = 2;

    /// <summary>The format whose clocks are .NET UTC ticks.</summary>
    public const byte FormatTicksClock = 1;

    /// <summary>
    /// The entry was appended by a replica as it applied its primary's entry (the same commands, at the replica's version;
    /// see ReplicaLogMirror): a log whose entries after a checkpoint all carry it is its primary's stream.
    /// </summary>
    public const ushort FlagReplicated = 1;

    /// <summary>The flags of an entry's <paramref name="body"/>.</summary>
    public static ushort FlagsOf(ReadOnlySpan<byte> body) => BinaryPrimitives.ReadUInt16LittleEndian(body.Slice(2));

    /// <summary>The header word of an entry of <paramref name="length"/> bytes whose body has <paramref name="checksum"/>.</summary>
    public static long HeaderWord(int length, uint checksum) => (uint)length | ((long)checksum << 32);

    public static int LengthOf(long headerWord) => (int)(uint)headerWord;

    public static uint ChecksumOf(long headerWord) => (uint)((ulong)headerWord >> 32);

    /// <summary>Entry bytes for a body of <paramref name="bodyLength"/> bytes.</summary>
    public static int EntryLength(int bodyLength) => HeaderSize + ((bodyLength + 7) & ~7);

    /// <summary>CRC-32C of <paramref name="body"/> followed by zeros up to a multiple of 8 bytes (as the entry holds it).</summary>
    public static uint Checksum(ReadOnlySpan<byte> body)
    {
        uint crc = 0xFFFFFFFF;
        var words = MemoryMarshal.Cast<byte, ulong>(body);
        foreach (ulong word in words)
            crc = BitOperations.Crc32C(crc, word);
        int rest = body.Length - (words.Length * 8);
        if (rest > 0)
        {
            Span<byte> last = stackalloc byte[8];
            last.Clear();
            body.Slice(words.Length * 8).CopyTo(last);
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt64LittleEndian(last));
        }
        return ~crc;
    }
}

/// <summary>One command of an entry, as replay needs it.</summary>
internal readonly ref struct LoggedCommand
{
    public LoggedCommand(int database, long clockUnixMs, ulong seed, ushort commandId, ReadOnlySpan<byte> resp)
    {
        Database = database;
        ClockUnixMs = clockUnixMs;
        Seed = seed;
        CommandId = commandId;
        Resp = resp;
    }

    public int Database { get; }

    /// <summary>The instant the command ran at (Unix milliseconds), which replay fixes the clock at.</summary>
    public long ClockUnixMs { get; }

    public ulong Seed { get; }

    public ushort CommandId { get; }

    /// <summary>The command as a RESP array of bulk strings.</summary>
    public ReadOnlySpan<byte> Resp { get; }
}

/// <summary>Walks the commands of an entry's body, checking that they fill it exactly.</summary>
internal ref struct LoggedCommandReader
{
    private readonly ReadOnlySpan<byte> _body;
    private readonly bool _ticksClock;
    private int _position;
    private int _left;

    /// <summary>Starts on <paramref name="body"/>; false if its header is not an entry of commands in a known format.</summary>
    public static bool TryStart(ReadOnlySpan<byte> body, out LoggedCommandReader reader)
    {
        reader = default;
        if (body.Length < OperationLogEntry.BodyHeaderSize || body[0] != OperationLogEntry.KindCommands
            || (body[1] != OperationLogEntry.Format && body[1] != OperationLogEntry.FormatTicksClock))
            return false;
        int count = BinaryPrimitives.ReadInt32LittleEndian(body.Slice(4));
        if (count <= 0)
            return false;
        reader = new LoggedCommandReader(body, count);
        return true;
    }

    /// <summary>The checkpoint version the entry's writes belong to.</summary>
    public readonly long Version => BinaryPrimitives.ReadInt64LittleEndian(_body.Slice(8));

    private LoggedCommandReader(ReadOnlySpan<byte> body, int count)
    {
        _body = body;
        _ticksClock = body[1] == OperationLogEntry.FormatTicksClock;
        _position = OperationLogEntry.BodyHeaderSize;
        _left = count;
    }

    /// <summary>The next command; false at the end or if the body is malformed (<paramref name="malformed"/> then says so).</summary>
    public bool TryNext(out LoggedCommand command, out bool malformed)
    {
        command = default;
        malformed = false;
        if (_left == 0)
        {
            // What follows the last command is the padding only.
            malformed = _body.Length - _position >= 8 || _body.Slice(_position).IndexOfAnyExcept((byte)0) >= 0;
            return false;
        }
        if (_body.Length - _position < OperationLogEntry.CommandHeaderSize)
        {
            malformed = true;
            return false;
        }
        var header = _body.Slice(_position, OperationLogEntry.CommandHeaderSize);
        int database = BinaryPrimitives.ReadInt32LittleEndian(header);
        int respLength = BinaryPrimitives.ReadInt32LittleEndian(header.Slice(4));
        if (database < 0 || respLength <= 0 || respLength > _body.Length - _position - OperationLogEntry.CommandHeaderSize)
        {
            malformed = true;
            return false;
        }
        long clock = BinaryPrimitives.ReadInt64LittleEndian(header.Slice(8));
        if (_ticksClock)
            clock = Expiration.FromLegacyTicks(clock);
        command = new LoggedCommand(database, clock, BinaryPrimitives.ReadUInt64LittleEndian(header.Slice(16)),
            BinaryPrimitives.ReadUInt16LittleEndian(header.Slice(24)), _body.Slice(_position + OperationLogEntry.CommandHeaderSize, respLength));
        _position += OperationLogEntry.CommandHeaderSize + respLength;
        _left--;
        return true;
    }
}
