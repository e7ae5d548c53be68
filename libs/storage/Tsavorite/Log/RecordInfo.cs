using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Tsavorite;

/// <summary>
/// The 8-byte header at the start of every log record: the previous address in the record's hash
/// chain (48 bits) and the record's state bits. A header word of zero never belongs to a record; it
/// marks unallocated space at the end of a page.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 8)]
public struct RecordInfo
{
    private const int TombstoneBit = 48;
    private const int ValidBit = 49;
    private const int SealedBit = 50;
    private const int DirtyBit = 51;
    private const int HasExpirationBit = 52;
    private const int HasETagBit = 53;
    private const int HasFillerBit = 54;
    private const int AbandonedBit = 55;
    private const int ValueIsObjectBit = 56;
    private const int SplitSharedBit = 57;
    private const int UserBitsShift = 58;
    private const long UserBitsMask = 3L << UserBitsShift;
    private const int ValueIsExternalBit = 60;
    private const int VersionParityBit = 61;

    [FieldOffset(0)]
    private long _word;

    /// <summary>The raw header word.</summary>
    public readonly long Word => _word;

    /// <summary>Address of the next older record in the same hash chain.</summary>
    public long PreviousAddress
    {
        readonly get => _word & LogAddress.AddressMask;
        set => _word = (_word & ~LogAddress.AddressMask) | (value & LogAddress.AddressMask);
    }

    /// <summary>The record marks its key as deleted.</summary>
    public bool Tombstone { readonly get => Get(TombstoneBit); set => Set(TombstoneBit, value); }

    /// <summary>The record is part of the store: set once it is initialized and linked into its chain.</summary>
    public bool Valid { readonly get => Get(ValidBit); set => Set(ValidBit, value); }

    /// <summary>The record is being replaced and must not be updated in place.</summary>
    public bool Sealed { readonly get => Get(SealedBit); set => Set(SealedBit, value); }

    /// <summary>The record changed since the last checkpoint.</summary>
    public bool Dirty { readonly get => Get(DirtyBit); set => Set(DirtyBit, value); }

    /// <summary>The record carries a 64-bit expiration after its value.</summary>
    public bool HasExpiration { readonly get => Get(HasExpirationBit); set => Set(HasExpirationBit, value); }

    /// <summary>The record carries a 64-bit ETag after its value.</summary>
    public bool HasETag { readonly get => Get(HasETagBit); set => Set(HasETagBit, value); }

    /// <summary>The record has slack after its used bytes, whose length is stored right after them.</summary>
    public bool HasFiller { readonly get => Get(HasFillerBit); set => Set(HasFillerBit, value); }

    /// <summary>
    /// The record's space belongs to nobody: it lost the race to be linked, or it was freed. Its
    /// sizes stay readable so a log scan can step over it.
    /// </summary>
    public bool Abandoned { readonly get => Get(AbandonedBit); set => Set(AbandonedBit, value); }

    /// <summary>
    /// The value is not bytes but a reference to a heap object the store's user keeps (a handle).
    /// The engine only carries the bit; <see cref="ISessionFunctions{TInput, TOutput}.DisposeRecord"/>
    /// tells the user when such a value is dropped.
    /// </summary>
    public bool ValueIsObject { readonly get => Get(ValueIsObjectBit); set => Set(ValueIsObjectBit, value); }

    /// <summary>
    /// The value slot holds an <see cref="ExternalValue"/> descriptor, and the value's bytes live in a native block
    /// the record owns. <see cref="LogRecord.Value"/> reads through it, so callbacks see an ordinary value.
    /// </summary>
    public bool ValueIsExternal { readonly get => Get(ValueIsExternalBit); set => Set(ValueIsExternalBit, value); }

    /// <summary>
    /// Whether the checkpoint version the record was written in is odd. Only read for records written while a
    /// snapshot is taken (see TsavoriteKV.Snapshot.cs), where it tells the two versions then alive apart.
    /// </summary>
    public bool VersionParity { readonly get => Get(VersionParityBit); set => Set(VersionParityBit, value); }

    /// <summary>
    /// An index resize split the record's hash chain, and the record heads one half while the other
    /// half's chain (or another bucket's) passes through it too: it is never unlinked to reuse its
    /// space (see <see cref="BucketSplit"/>). Kept when the record's space is revived in place.
    /// </summary>
    public bool SplitShared { readonly get => Get(SplitSharedBit); set => Set(SplitSharedBit, value); }

    /// <summary>
    /// Two bits the store's user keeps with the record (Garnet: how a string value was produced, which
    /// OBJECT ENCODING reports). The engine only carries them: a new or reused record starts with 0, and
    /// a record moved by the head of the log keeps them; a copy update's callbacks decide the new record's.
    /// </summary>
    public int UserBits
    {
        readonly get => (int)((_word & UserBitsMask) >> UserBitsShift);
        set => _word = (_word & ~UserBitsMask) | (((long)value << UserBitsShift) & UserBitsMask);
    }

    /// <summary>
    /// Marks the record linked: valid, no longer abandoned. One store of the header word, as for
    /// <see cref="MarkAbandoned"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void MarkLinked() => _word = (_word & ~(1L << AbandonedBit)) | (1L << ValidBit);

    /// <summary>
    /// Marks the record abandoned: not valid, its space nobody's. One store of the header word: a log scan reads
    /// headers without a latch and steps over a record that is neither valid nor abandoned as dead space, so
    /// setting the two bits one after the other would let it skip a record that was just live.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void MarkAbandoned() => _word = (_word & ~(1L << ValidBit)) | (1L << AbandonedBit);

    /// <summary>The header has never been written (unallocated page space).</summary>
    public readonly bool IsNull => _word == 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool Get(int bit) => (_word & (1L << bit)) != 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Set(int bit, bool value)
    {
        if (value)
            _word |= 1L << bit;
        else
            _word &= ~(1L << bit);
    }

    /// <summary>A header for a record being initialized: chained to <paramref name="previousAddress"/>, not yet valid.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static long InitialWord(long previousAddress) => (previousAddress & LogAddress.AddressMask) | (1L << AbandonedBit);

    /// <inheritdoc/>
    public override readonly string ToString()
        => $"prev={PreviousAddress} valid={Valid} tomb={Tombstone} sealed={Sealed} exp={HasExpiration} etag={HasETag} filler={HasFiller} abandoned={Abandoned} object={ValueIsObject} external={ValueIsExternal} shared={SplitShared}";
}
