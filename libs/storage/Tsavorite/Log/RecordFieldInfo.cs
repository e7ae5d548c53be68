namespace Tsavorite;

/// <summary>What a new record must hold: its value length and which optional fields it carries.</summary>
public struct RecordFieldInfo
{
    /// <summary>Length of the value in bytes.</summary>
    public int ValueLength;

    /// <summary>Reserve space for a 64-bit expiration.</summary>
    public bool HasExpiration;

    /// <summary>Reserve space for a 64-bit ETag.</summary>
    public bool HasETag;

    /// <summary>Extra bytes to reserve after the used part so the value can later grow in place.</summary>
    public int ExtraValueSpace;

    /// <summary>
    /// The write gives memory back or holds it level (a pop, a removal, an expiration change): it may use the page
    /// the budget keeps in reserve (see <see cref="AllocationClass.Reserve"/>), as Redis lets commands not flagged deny-oom run over
    /// maxmemory. The head of the log reclaims what such writes leave behind.
    /// </summary>
    public bool MayUseReserve;

    /// <summary>
    /// The value goes out of line (see <see cref="ExternalValue"/>): set by the store from the value's length, not by callbacks.
    /// </summary>
    internal bool ValueIsExternal;

    /// <summary>Bytes of the out-of-line block the value needs (its length and room to grow), 0 for an inline value.</summary>
    internal readonly long LargeValueBytes => ValueIsExternal ? (long)ValueLength + ExtraValueSpace : 0;

    /// <summary>Creates the field info for a value of <paramref name="valueLength"/> bytes and no optionals.</summary>
    public RecordFieldInfo(int valueLength)
    {
        ValueLength = valueLength;
        HasExpiration = false;
        HasETag = false;
        ExtraValueSpace = 0;
        MayUseReserve = false;
        ValueIsExternal = false;
    }
}
