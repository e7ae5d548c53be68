using System;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>
/// The argument of RESTORE-BATCH: keys with their values and times to live, as a slot migration sends them to the node
/// that imports their slots, many in one command so that the target parses and dispatches once per batch, not per key.
/// A flags byte (<see cref="ReplaceFlag"/>, <see cref="ExpectedFlag"/>), with <see cref="ExpectedFlag"/> the number of keys
/// the whole migration expects to send (int64, little-endian: the target grows its index for them at once), then entries of: the value's type (<see cref="DumpPayload"/>'s type byte:
/// <see cref="DumpPayload.StringType"/> or an object's), the key's length and the value's (int32, little-endian), the
/// milliseconds left to live (int64, 0 for none), the key and the value (an object serialized as DUMP serializes it).
/// No checksum: the bytes travel on one TCP connection and, on the target, into an operation log entry that has one.
/// </summary>
internal sealed class SlotKeyBatch
{
    public const byte ReplaceFlag = 1;
    public const byte ExpectedFlag = 2;
    public const int EntryHeaderLength = 1 + 4 + 4 + 8;

    // A batch grown past this (a large value) is not kept for the next one.
    private const int KeptSize = 4 << 20;

    private byte[] _buffer = new byte[64 << 10];
    private int _length;

    /// <summary>Entries added since <see cref="Begin"/>.</summary>
    public int Count { get; private set; }

    /// <summary>The batch so far.</summary>
    public ReadOnlySpan<byte> Written => _buffer.AsSpan(0, _length);

    /// <summary>
    /// Starts an empty batch: its keys replace existing ones on the target when <paramref name="replace"/>; a positive
    /// <paramref name="expectedKeys"/> announces how many keys the migration will send in all.
    /// </summary>
    public void Begin(bool replace, long expectedKeys = 0)
    {
        if (_buffer.Length > KeptSize)
            _buffer = new byte[64 << 10];
        _buffer[0] = (byte)((replace ? ReplaceFlag : 0) | (expectedKeys > 0 ? ExpectedFlag : 0));
        _length = 1;
        if (expectedKeys > 0)
        {
            BinaryPrimitives.WriteInt64LittleEndian(_buffer.AsSpan(1), expectedKeys);
            _length += 8;
        }
        Count = 0;
    }

    /// <summary>Adds <paramref name="key"/> holding <paramref name="value"/> of <paramref name="type"/>, with <paramref name="ttlMs"/> left (0: none).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Add(byte type, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, long ttlMs)
    {
        long needed = (long)_length + EntryHeaderLength + key.Length + value.Length;
        if (needed > Array.MaxLength)
            throw new InvalidOperationException("A key and value too large to migrate in one batch.");
        if (needed > _buffer.Length)
            Array.Resize(ref _buffer, (int)Math.Min(Array.MaxLength, Math.Max(needed, (long)_buffer.Length * 2)));
        var span = _buffer.AsSpan(_length);
        span[0] = type;
        BinaryPrimitives.WriteInt32LittleEndian(span.Slice(1), key.Length);
        BinaryPrimitives.WriteInt32LittleEndian(span.Slice(5), value.Length);
        BinaryPrimitives.WriteInt64LittleEndian(span.Slice(9), ttlMs);
        key.CopyTo(span.Slice(EntryHeaderLength));
        value.CopyTo(span.Slice(EntryHeaderLength + key.Length));
        _length = (int)needed;
        Count++;
    }
}

/// <summary>Reads a <see cref="SlotKeyBatch"/> as received: every length is checked against what is left.</summary>
internal ref struct SlotKeyBatchReader
{
    private readonly ReadOnlySpan<byte> _payload;
    private int _position;

    public SlotKeyBatchReader(ReadOnlySpan<byte> payload)
    {
        _payload = payload;
        Valid = payload.Length >= 1 && (payload[0] & ~(SlotKeyBatch.ReplaceFlag | SlotKeyBatch.ExpectedFlag)) == 0;
        Replace = Valid && (payload[0] & SlotKeyBatch.ReplaceFlag) != 0;
        _position = 1;
        if (Valid && (payload[0] & SlotKeyBatch.ExpectedFlag) != 0)
        {
            Valid = payload.Length >= 9 && (ExpectedKeys = BinaryPrimitives.ReadInt64LittleEndian(payload.Slice(1))) >= 0;
            _position = 9;
        }
    }

    /// <summary>The keys the migration announced it will send in all, or 0.</summary>
    public long ExpectedKeys { get; }

    /// <summary>Whether the batch was well formed up to where it was read.</summary>
    public bool Valid { get; private set; }

    /// <summary>Whether its keys replace existing ones.</summary>
    public bool Replace { get; }

    /// <summary>The next entry; false at the end, or (with <see cref="Valid"/> false) at a malformed one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool TryNext(out byte type, out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value, out long ttlMs)
    {
        type = 0;
        key = value = default;
        ttlMs = 0;
        if (!Valid || _position == _payload.Length)
            return false;
        var rest = _payload.Slice(_position);
        if (rest.Length < SlotKeyBatch.EntryHeaderLength)
            return Invalid();
        int keyLength = BinaryPrimitives.ReadInt32LittleEndian(rest.Slice(1));
        int valueLength = BinaryPrimitives.ReadInt32LittleEndian(rest.Slice(5));
        ttlMs = BinaryPrimitives.ReadInt64LittleEndian(rest.Slice(9));
        if (keyLength < 0 || valueLength < 0 || ttlMs < 0 || (long)keyLength + valueLength > rest.Length - SlotKeyBatch.EntryHeaderLength)
            return Invalid();
        type = rest[0];
        key = rest.Slice(SlotKeyBatch.EntryHeaderLength, keyLength);
        value = rest.Slice(SlotKeyBatch.EntryHeaderLength + keyLength, valueLength);
        _position += SlotKeyBatch.EntryHeaderLength + keyLength + valueLength;
        return true;
    }

    private bool Invalid()
    {
        Valid = false;
        return false;
    }
}
