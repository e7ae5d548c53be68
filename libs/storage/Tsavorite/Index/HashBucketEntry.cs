using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// One of the seven entries of a hash bucket: a 48-bit logical address (the newest record of the
/// chain), a 14-bit tag taken from the key hash, and a tentative bit set while an insert is not yet
/// known to be the only entry for its tag. A word of zero is a free entry.
/// </summary>
internal readonly struct HashBucketEntry
{
    public const int TagBits = 14;
    public const int TagShift = 48;
    public const long TagMask = (1L << TagBits) - 1;
    public const long TentativeBit = 1L << 62;

    public readonly long Word;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public HashBucketEntry(long word) => Word = word;

    public long Address => Word & LogAddress.AddressMask;

    public int Tag => (int)((Word >> TagShift) & TagMask);

    public bool Tentative => (Word & TentativeBit) != 0;

    public bool IsFree => Word == 0;

    /// <summary>
    /// The tag of a key hash: bits above those any index size uses for the bucket number. Never 0:
    /// a new entry has address 0, and with tag 0 its word would be 0, which means a free entry.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int TagOf(long hash)
    {
        int tag = (int)(((ulong)hash >> (64 - TagBits)) & TagMask);
        return tag == 0 ? 1 : tag;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Make(int tag, long address, bool tentative)
        => ((long)tag << TagShift) | (address & LogAddress.AddressMask) | (tentative ? TentativeBit : 0);
}
