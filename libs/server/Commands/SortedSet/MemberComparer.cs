using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>
/// The hash of sorted-set members: a seeded multiply-fold hash (in the manner of wyhash) over 8-byte
/// words, fast for the short members sorted sets usually hold. The seed is random per process, so
/// clients cannot choose members that all collide.
/// </summary>
internal static class MemberHash
{
    private const ulong Prime1 = 0xa0761d6478bd642fUL;
    private const ulong Prime2 = 0xe7037ed1a0b428dbUL;

    private static readonly ulong s_seed = (ulong)Random.Shared.NextInt64();

    /// <summary>The hash of <paramref name="data"/>.</summary>
    public static int Compute(ReadOnlySpan<byte> data)
    {
        ulong seed = s_seed;
        int length = data.Length;
        ulong a, b;
        if (length <= 16)
        {
            if (length >= 8)
            {
                a = BinaryPrimitives.ReadUInt64LittleEndian(data);
                b = BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(length - 8));
            }
            else if (length >= 4)
            {
                a = BinaryPrimitives.ReadUInt32LittleEndian(data);
                b = BinaryPrimitives.ReadUInt32LittleEndian(data.Slice(length - 4));
            }
            else if (length > 0)
            {
                a = ((ulong)data[0] << 16) | ((ulong)data[length >> 1] << 8) | data[length - 1];
                b = 0;
            }
            else
            {
                a = b = 0;
            }
        }
        else
        {
            int i = 0;
            for (; length - i > 16; i += 16)
                seed = Mix(BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(i)) ^ Prime1, BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(i + 8)) ^ seed);
            a = BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(length - 16));
            b = BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(length - 8));
        }
        return (int)Mix(Prime2 ^ (ulong)length, Mix(a ^ Prime2, b ^ seed));
    }

    /// <summary>The 128-bit product of <paramref name="x"/> and <paramref name="y"/>, folded to 64 bits.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix(ulong x, ulong y)
    {
        ulong high = Math.BigMul(x, y, out ulong low);
        return high ^ low;
    }
}

/// <summary>Compares sorted-set members by content (for the dictionaries of ZUNION/ZINTER/ZDIFF).</summary>
internal sealed class MemberComparer : IEqualityComparer<byte[]>
{
    public static readonly MemberComparer Instance = new();

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode(byte[] obj) => MemberHash.Compute(obj);
}
