using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// Offsets of a record's fields. A record is laid out as
/// <code>
/// [RecordInfo 8][key length 4][access 4][key][pad][value length 4][value (8-aligned)][pad to 8]
/// [ETag 8 if HasETag][expiration 8 if HasExpiration][filler length 4 if HasFiller ... slack]
/// </code>
/// Every record starts and ends 8-byte aligned. The slack (filler) lets a value grow in place and
/// lets a freed record be reused by a smaller one. The access word is the record's LRU clock or LFU
/// counter (see <see cref="RecordAccess"/>), which eviction reads when the record reaches the head of the log.
/// </summary>
public static class RecordLayout
{
    /// <summary>Offset of the key length.</summary>
    public const int KeyLengthOffset = 8;

    /// <summary>Offset of the access word (<see cref="RecordAccess"/>).</summary>
    public const int AccessOffset = 12;

    /// <summary>Offset of the key bytes.</summary>
    public const int KeyOffset = 16;

    /// <summary>The smallest possible record: empty key, empty value.</summary>
    public const int MinRecordSize = 24;

    /// <summary>Offset of the value length for a key of <paramref name="keyLength"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ValueLengthOffset(int keyLength) => Alignment.RoundUp(KeyOffset + keyLength + 4, 8) - 4;

    /// <summary>Offset of the value bytes for a key of <paramref name="keyLength"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ValueOffset(int keyLength) => Alignment.RoundUp(KeyOffset + keyLength + 4, 8);

    /// <summary>Offset of the optional fields, given key and value lengths.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int OptionalsOffset(int keyLength, int valueLength) => Alignment.RoundUp(ValueOffset(keyLength) + valueLength, 8);

    /// <summary>Bytes used by a record with the given fields (no slack).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int UsedSize(int keyLength, int valueLength, bool hasETag, bool hasExpiration)
        => OptionalsOffset(keyLength, valueLength) + (hasETag ? 8 : 0) + (hasExpiration ? 8 : 0);

    /// <summary>Bytes to allocate for a new record of <paramref name="keyLength"/> bytes of key and the given fields.</summary>
    public static int AllocatedSize(int keyLength, in RecordFieldInfo info)
    {
        if (keyLength < 0 || info.ValueLength < 0 || info.ExtraValueSpace < 0)
            throw new ArgumentOutOfRangeException(nameof(info), "Record field lengths cannot be negative.");
        // An out-of-line value takes its descriptor's bytes in the record, and its room to grow is in its block.
        long size = info.ValueIsExternal
            ? UsedSize(keyLength, ExternalValue.Size, info.HasETag, info.HasExpiration)
            : (long)UsedSize(keyLength, info.ValueLength, info.HasETag, info.HasExpiration) + Alignment.RoundUp(info.ExtraValueSpace, 8);
        if (size > int.MaxValue / 2)
            throw new ArgumentOutOfRangeException(nameof(info), "Record is too large.");
        return (int)size;
    }
}
