using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// A view of one record in log memory (see <see cref="RecordLayout"/>). Callbacks receive it to read
/// the key and value and to change the value's length, ETag and expiration within the record's
/// allocated space. It is only valid inside the callback that received it.
/// </summary>
public readonly unsafe struct LogRecord
{
    private readonly byte* _record;

    internal LogRecord(long physicalAddress) => _record = (byte*)physicalAddress;

    internal LogRecord(byte* record) => _record = record;

    /// <summary>The record's physical (memory) address.</summary>
    public long PhysicalAddress => (long)_record;

    /// <summary>The header of the record.</summary>
    public ref RecordInfo Info => ref Unsafe.AsRef<RecordInfo>(_record);

    /// <summary>
    /// The access word: the LRU clock or LFU counter reads and updates maintain (see <see cref="RecordAccess"/>).
    /// Readers update it under a shared latch, so it is written with plain 32-bit stores that racing readers
    /// may overwrite with an equally current value.
    /// </summary>
    public ref uint Access => ref *(uint*)(_record + RecordLayout.AccessOffset);

    /// <summary>Length of the key in bytes.</summary>
    public int KeyLength => *(int*)(_record + RecordLayout.KeyLengthOffset);

    /// <summary>The key.</summary>
    public ReadOnlySpan<byte> Key => new(_record + RecordLayout.KeyOffset, KeyLength);

    /// <summary>Length of the value in bytes (of an out-of-line value too).</summary>
    public int ValueLength => Info.ValueIsExternal ? (int)ExternalDescriptor->Length : InlineValueLength;

    /// <summary>The value: writable in the mutators, to be treated as read-only in readers.</summary>
    public Span<byte> Value
    {
        get
        {
            if (Info.ValueIsExternal)
            {
                var descriptor = ExternalDescriptor;
                return new(descriptor->Pointer, (int)descriptor->Length);
            }
            return new(_record + RecordLayout.ValueOffset(KeyLength), InlineValueLength);
        }
    }

    /// <summary>Pointer to the first value byte (for callers that parse values in place).</summary>
    public byte* ValuePointer => Info.ValueIsExternal ? ExternalDescriptor->Pointer : _record + RecordLayout.ValueOffset(KeyLength);

    /// <summary>Bytes the value takes in the record: its length, or the descriptor's of an out-of-line value.</summary>
    internal int InlineValueLength => *(int*)(_record + RecordLayout.ValueLengthOffset(KeyLength));

    /// <summary>The descriptor in the value slot of a record whose value is out of line (<see cref="RecordInfo.ValueIsExternal"/>).</summary>
    internal ExternalValue* ExternalDescriptor => (ExternalValue*)(_record + RecordLayout.ValueOffset(KeyLength));

    /// <summary>Bytes of native memory the record's out-of-line value holds, 0 for an inline value.</summary>
    public long ExternalBytes => Info.ValueIsExternal ? ExternalDescriptor->Capacity : 0;

    /// <summary>Bytes the record's fields use.</summary>
    public int UsedSize
    {
        get
        {
            var info = Info;
            return RecordLayout.UsedSize(KeyLength, InlineValueLength, info.HasETag, info.HasExpiration);
        }
    }

    /// <summary>Bytes the record occupies in the log, slack included.</summary>
    public int AllocatedSize
    {
        get
        {
            int used = UsedSize;
            return Info.HasFiller ? used + *(int*)(_record + used) : used;
        }
    }

    /// <summary>Largest value length that fits in the allocated space with the current optional fields.</summary>
    public int MaxValueLength
    {
        get
        {
            var info = Info;
            if (info.ValueIsExternal)
                return (int)ExternalDescriptor->Capacity;
            int optionals = (info.HasETag ? 8 : 0) + (info.HasExpiration ? 8 : 0);
            return AllocatedSize - optionals - RecordLayout.ValueOffset(KeyLength);
        }
    }

    /// <summary>The expiration (absolute Unix milliseconds, see <see cref="OperationClock"/>), or 0 when the record has none.</summary>
    public long Expiration => Info.HasExpiration ? *(long*)(OptionalsPointer + (Info.HasETag ? 8 : 0)) : 0;

    /// <summary>The ETag, or 0 when the record has none.</summary>
    public long ETag => Info.HasETag ? *(long*)OptionalsPointer : 0;

    private byte* OptionalsPointer => _record + RecordLayout.OptionalsOffset(KeyLength, InlineValueLength);

    /// <summary>Whether the record has an expiration at or before <paramref name="nowUnixMs"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsExpired(long nowUnixMs) => Info.HasExpiration && Expiration <= nowUnixMs;

    /// <summary>
    /// Changes the value's length, keeping the optional fields, if the allocated space allows.
    /// Bytes of the old value are kept up to the smaller of both lengths; new bytes are undefined.
    /// </summary>
    public bool TrySetValueLength(int newLength)
    {
        if (newLength < 0)
            return false;
        if (Info.ValueIsExternal)
        {
            // The block's capacity is the limit; beyond it the value moves to a new record and block (a copy update).
            // So does a value that would use half the block or less, so a small value never holds a large block.
            var descriptor = ExternalDescriptor;
            if (newLength > descriptor->Capacity || 2L * newLength <= descriptor->Capacity)
                return false;
            descriptor->Length = newLength;
            return true;
        }
        int keyLength = KeyLength;
        int oldLength = ValueLength;
        if (newLength == oldLength)
            return true;
        var info = Info;
        int allocated = AllocatedSize;
        int optionalsLength = (info.HasETag ? 8 : 0) + (info.HasExpiration ? 8 : 0);
        int newUsed = RecordLayout.OptionalsOffset(keyLength, newLength) + optionalsLength;
        if (newUsed > allocated)
            return false;

        int oldOptionals = RecordLayout.OptionalsOffset(keyLength, oldLength);
        int newOptionals = RecordLayout.OptionalsOffset(keyLength, newLength);
        if (optionalsLength > 0 && oldOptionals != newOptionals)
            Buffer.MemoryCopy(_record + oldOptionals, _record + newOptionals, optionalsLength, optionalsLength);
        *(int*)(_record + RecordLayout.ValueLengthOffset(keyLength)) = newLength;
        SetFiller(newUsed, allocated);
        return true;
    }

    /// <summary>Sets the expiration, adding the field if there is room. Returns false if there is not.</summary>
    public bool TrySetExpiration(long expirationUnixMs)
    {
        if (!Info.HasExpiration)
        {
            int allocated = AllocatedSize;
            int newUsed = UsedSize + 8;
            if (newUsed > allocated)
                return false;
            Info.HasExpiration = true;
            SetFiller(newUsed, allocated);
        }
        *(long*)(OptionalsPointer + (Info.HasETag ? 8 : 0)) = expirationUnixMs;
        return true;
    }

    /// <summary>Removes the expiration field, if any; the space becomes slack.</summary>
    public void RemoveExpiration()
    {
        if (!Info.HasExpiration)
            return;
        int allocated = AllocatedSize;
        Info.HasExpiration = false;
        SetFiller(UsedSize, allocated);
    }

    /// <summary>Sets the ETag, adding the field if there is room. Returns false if there is not.</summary>
    public bool TrySetETag(long etag)
    {
        if (!Info.HasETag)
        {
            int allocated = AllocatedSize;
            int used = UsedSize;
            if (used + 8 > allocated)
                return false;
            byte* optionals = OptionalsPointer;
            if (Info.HasExpiration)
                *(long*)(optionals + 8) = *(long*)optionals;
            Info.HasETag = true;
            SetFiller(used + 8, allocated);
        }
        *(long*)OptionalsPointer = etag;
        return true;
    }

    /// <summary>Removes the ETag field, if any; the space becomes slack.</summary>
    public void RemoveETag()
    {
        if (!Info.HasETag)
            return;
        int allocated = AllocatedSize;
        byte* optionals = OptionalsPointer;
        if (Info.HasExpiration)
            *(long*)optionals = *(long*)(optionals + 8);
        Info.HasETag = false;
        SetFiller(UsedSize, allocated);
    }

    /// <summary>Records the slack between the used and the allocated size.</summary>
    private void SetFiller(int used, int allocated)
    {
        int filler = allocated - used;
        if (filler > 0)
        {
            *(int*)(_record + used) = filler;
            Info.HasFiller = true;
        }
        else
        {
            Info.HasFiller = false;
        }
    }

    /// <summary>
    /// Lays out a fresh record at this address: header chained to <paramref name="previousAddress"/>
    /// and not yet valid, the key, a value of the requested length and zeroed optional fields.
    /// </summary>
    internal void Initialize(ReadOnlySpan<byte> key, in RecordFieldInfo fields, int allocatedSize, long previousAddress, HybridLog? log = null)
    {
        Info = default;
        *(long*)_record = RecordInfo.InitialWord(previousAddress);
        *(int*)(_record + RecordLayout.KeyLengthOffset) = key.Length;
        key.CopyTo(new Span<byte>(_record + RecordLayout.KeyOffset, key.Length));
        LayOutValue(key.Length, in fields, allocatedSize, log);
    }

    /// <summary>
    /// Writes the value length (or the descriptor of a new out-of-line block), zeroed optional fields and the slack
    /// of a record whose header bits for the value and optionals are clear.
    /// </summary>
    private void LayOutValue(int keyLength, in RecordFieldInfo fields, int allocatedSize, HybridLog? log)
    {
        int inlineLength = fields.ValueIsExternal ? ExternalValue.Size : fields.ValueLength;
        *(int*)(_record + RecordLayout.ValueLengthOffset(keyLength)) = inlineLength;
        if (fields.ValueIsExternal)
        {
            *(ExternalValue*)(_record + RecordLayout.ValueOffset(keyLength)) =
                log!.AllocateExternal(fields.ValueLength, (long)fields.ValueLength + fields.ExtraValueSpace);
            Info.ValueIsExternal = true;
        }
        Info.HasETag = fields.HasETag;
        Info.HasExpiration = fields.HasExpiration;
        byte* optionals = _record + RecordLayout.OptionalsOffset(keyLength, inlineLength);
        if (fields.HasETag)
            *(long*)optionals = 0;
        if (fields.HasExpiration)
            *(long*)(optionals + (fields.HasETag ? 8 : 0)) = 0;
        SetFiller(RecordLayout.UsedSize(keyLength, inlineLength, fields.HasETag, fields.HasExpiration), allocatedSize);
    }

    /// <summary>
    /// Reuses this record's space for the same key (in-chain revivification of a deleted or expired
    /// record): the allocated size stays, the fields are reset as for a new record.
    /// The record's old out-of-line block, if any, is given up first.
    /// </summary>
    internal void Reinitialize(in RecordFieldInfo fields, HybridLog? log = null)
    {
        log?.ReleaseExternal(in this);
        int allocated = AllocatedSize;
        int keyLength = KeyLength;
        var info = Info;
        info.Tombstone = false;
        info.ValueIsObject = false;
        info.ValueIsExternal = false;
        info.UserBits = 0;
        info.HasETag = false;
        info.HasExpiration = false;
        info.HasFiller = false;
        Info = info;
        LayOutValue(keyLength, in fields, allocated, log);
    }
}
