using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Tsavorite;

/// <summary>
/// The 64-bit hash of a key. It reads eight bytes per step and ends with a full avalanche, so both
/// the low bits (bucket index) and the high bits (tag) of the result are well mixed.
/// </summary>
public static class KeyHash
{
    private const ulong Prime1 = 0x9E3779B185EBCA87UL;
    private const ulong Prime2 = 0xC2B2AE3D27D4EB4FUL;
    private const ulong Prime3 = 0x165667B19E3779F9UL;
    private const ulong Prime4 = 0x85EBCA77C2B2AE63UL;

    /// <summary>Hashes <paramref name="key"/>; equal byte sequences always hash equal.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Hash(ReadOnlySpan<byte> key)
    {
        ref byte start = ref MemoryMarshal.GetReference(key);
        int length = key.Length;
        ulong hash = Prime3 ^ ((ulong)length * Prime1);
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            ulong lane = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, i));
            hash ^= BitOperations.RotateLeft(lane * Prime2, 31) * Prime1;
            hash = BitOperations.RotateLeft(hash, 27) * Prime1 + Prime4;
        }

        int remaining = length - i;
        if (remaining > 0)
        {
            ulong lane = 0;
            for (int j = 0; j < remaining; j++)
                lane |= (ulong)Unsafe.Add(ref start, i + j) << (j * 8);
            hash ^= BitOperations.RotateLeft(lane * Prime2, 31) * Prime1;
            hash = BitOperations.RotateLeft(hash, 23) * Prime2 + Prime3;
        }

        hash ^= hash >> 33;
        hash *= Prime2;
        hash ^= hash >> 29;
        hash *= Prime3;
        hash ^= hash >> 32;
        return (long)hash;
    }
}
