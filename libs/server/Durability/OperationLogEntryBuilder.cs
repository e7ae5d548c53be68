using System;
using System.Buffers.Binary;
using System.Buffers.Text;

namespace Garnet.server;

/// <summary>
/// Gathers the commands of one operation log entry in a session (one command, or those of a transaction or script run)
/// in the body layout of <see cref="OperationLogEntry"/>, so that appending it is one copy into the log.
/// </summary>
internal sealed class OperationLogEntryBuilder
{
    private const int InitialSize = 512;

    // A body that grew past this for a large command is not kept for the next ones.
    private const int KeptSize = 1 << 20;

    private byte[] _buffer = new byte[InitialSize];
    private int _length = OperationLogEntry.BodyHeaderSize;
    private int _count;
    private int _lastStart = -1;

    /// <summary>Commands gathered.</summary>
    public int Count => _count;

    /// <summary>Adds a command: <paramref name="count"/> arguments from <paramref name="args"/>, run in <paramref name="database"/> at <paramref name="clockUnixMs"/> with <paramref name="seed"/>.</summary>
    public unsafe void Add(int database, long clockUnixMs, ulong seed, ushort commandId, ArgSlice[] args, int count)
    {
        long respLength = ArrayHeaderLength(count);
        for (int i = 0; i < count; i++)
            respLength += BulkLength(args[i].Length);
        if (respLength > int.MaxValue - _length - OperationLogEntry.CommandHeaderSize - 8)
            throw new InvalidOperationException("The command is too large for the operation log.");
        Ensure(OperationLogEntry.CommandHeaderSize + (int)respLength);

        _lastStart = _length;
        var header = _buffer.AsSpan(_length, OperationLogEntry.CommandHeaderSize);
        header.Clear();
        BinaryPrimitives.WriteInt32LittleEndian(header, database);
        BinaryPrimitives.WriteInt32LittleEndian(header.Slice(4), (int)respLength);
        BinaryPrimitives.WriteInt64LittleEndian(header.Slice(8), clockUnixMs);
        BinaryPrimitives.WriteUInt64LittleEndian(header.Slice(16), seed);
        BinaryPrimitives.WriteUInt16LittleEndian(header.Slice(24), commandId);
        _length += OperationLogEntry.CommandHeaderSize;

        _length += WriteHeader((byte)'*', count, _buffer.AsSpan(_length));
        for (int i = 0; i < count; i++)
            WriteBulk(args[i].Span);
        _count++;
    }

    /// <summary>Takes back the command <see cref="Add"/> added last (it failed, so replay must not run it).</summary>
    public void RemoveLast()
    {
        if (_lastStart < 0)
            return;
        _length = _lastStart;
        _lastStart = -1;
        _count--;
    }

    /// <summary>
    /// Replaces the command <see cref="Add"/> added last by DEL of its arguments at <paramref name="keyPositions"/>, run
    /// in the same database at the same instant, or takes it back when there are none. MIGRATE is logged so (as Redis
    /// propagates it): replaying it would transfer the keys again. The replacement stays even if the command then
    /// replies an error (the keys the target took are gone whatever it replied).
    /// </summary>
    public void ReplaceLastWithDelete(ArgSlice[] args, ReadOnlySpan<int> keyPositions)
    {
        if (_lastStart < 0)
            return;
        var header = _buffer.AsSpan(_lastStart, OperationLogEntry.CommandHeaderSize);
        int database = BinaryPrimitives.ReadInt32LittleEndian(header);
        long clockTicks = BinaryPrimitives.ReadInt64LittleEndian(header.Slice(8));
        ulong seed = BinaryPrimitives.ReadUInt64LittleEndian(header.Slice(16));
        RemoveLast();
        if (keyPositions.IsEmpty)
            return;

        var name = "DEL"u8;
        long respLength = ArrayHeaderLength(keyPositions.Length + 1) + BulkLength(name.Length);
        foreach (int position in keyPositions)
            respLength += BulkLength(args[position].Length);
        if (respLength > int.MaxValue - _length - OperationLogEntry.CommandHeaderSize - 8)
            throw new InvalidOperationException("The command is too large for the operation log.");
        Ensure(OperationLogEntry.CommandHeaderSize + (int)respLength);

        header = _buffer.AsSpan(_length, OperationLogEntry.CommandHeaderSize);
        header.Clear();
        BinaryPrimitives.WriteInt32LittleEndian(header, database);
        BinaryPrimitives.WriteInt32LittleEndian(header.Slice(4), (int)respLength);
        BinaryPrimitives.WriteInt64LittleEndian(header.Slice(8), clockTicks);
        BinaryPrimitives.WriteUInt64LittleEndian(header.Slice(16), seed);
        BinaryPrimitives.WriteUInt16LittleEndian(header.Slice(24), (ushort)RespCommand.DEL);
        _length += OperationLogEntry.CommandHeaderSize;
        _length += WriteHeader((byte)'*', keyPositions.Length + 1, _buffer.AsSpan(_length));
        WriteBulk(name);
        foreach (int position in keyPositions)
            WriteBulk(args[position].Span);
        _count++;
        // Not _lastStart: a RemoveLast for the command's error reply must leave the deletes logged.
    }

    private void WriteBulk(ReadOnlySpan<byte> value)
    {
        _length += WriteHeader((byte)'$', value.Length, _buffer.AsSpan(_length));
        value.CopyTo(_buffer.AsSpan(_length));
        _length += value.Length;
        _buffer[_length++] = (byte)'\r';
        _buffer[_length++] = (byte)'\n';
    }

    /// <summary>The body, its header filled in with <paramref name="version"/>; valid until the next change.</summary>
    public ReadOnlySpan<byte> Build(long version)
    {
        var header = _buffer.AsSpan(0, OperationLogEntry.BodyHeaderSize);
        header.Clear();
        header[0] = OperationLogEntry.KindCommands;
        header[1] = OperationLogEntry.Format;
        BinaryPrimitives.WriteInt32LittleEndian(header.Slice(4), _count);
        BinaryPrimitives.WriteInt64LittleEndian(header.Slice(8), version);
        return _buffer.AsSpan(0, _length);
    }

    /// <summary>Forgets the commands gathered (after appending them).</summary>
    public void Clear()
    {
        _length = OperationLogEntry.BodyHeaderSize;
        _count = 0;
        _lastStart = -1;
        if (_buffer.Length > KeptSize)
            _buffer = new byte[InitialSize];
    }

    private void Ensure(int more)
    {
        long needed = (long)_length + more + 8;
        if (needed <= _buffer.Length)
            return;
        long size = Math.Max(needed, Math.Min((long)_buffer.Length * 2, Array.MaxLength));
        if (size > Array.MaxLength)
            throw new InvalidOperationException("The entry is too large for the operation log.");
        Array.Resize(ref _buffer, (int)size);
    }

    private static int ArrayHeaderLength(int count) => 3 + DigitCount(count);

    private static long BulkLength(int length) => 3 + DigitCount(length) + (long)length + 2;

    private static int DigitCount(int value)
    {
        int digits = 1;
        while (value >= 10)
        {
            value /= 10;
            digits++;
        }
        return digits;
    }

    private static int WriteHeader(byte prefix, int value, Span<byte> destination)
    {
        destination[0] = prefix;
        Utf8Formatter.TryFormat(value, destination.Slice(1), out int digits);
        destination[1 + digits] = (byte)'\r';
        destination[2 + digits] = (byte)'\n';
        return 3 + digits;
    }
}
