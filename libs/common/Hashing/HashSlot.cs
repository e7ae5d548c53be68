using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Garnet.common;

/// <summary>
/// The Redis Cluster hash slot of a key: CRC-16/XMODEM (polynomial 0x1021, initial value 0, no reflection, no final XOR;
/// "123456789" gives 0x31C3) of the key, or of its hash tag, modulo 16384. The hash tag is what lies between the first
/// '{' and the first '}' after it, when that is not empty: keys sharing a tag share a slot, which is how a client keeps
/// the keys of a multi-key command together.
/// </summary>
public static class HashSlot
{
    /// <summary>How many slots a cluster's keys are spread over.</summary>
    public const int Count = 16384;

    // Four tables of 256: table k (k = 0..3) holds the CRC of a byte followed by k zero bytes, so that four bytes are
    // taken in one step of four independent lookups (slicing-by-4) instead of a chain of four dependent ones: every
    // command with a key in cluster mode computes this.
    private static readonly ushort[] s_tables = BuildTables();

    private static ushort[] BuildTables()
    {
        var tables = new ushort[4 * 256];
        for (int i = 0; i < 256; i++)
        {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++)
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            tables[i] = (ushort)crc;
        }
        for (int k = 1; k < 4; k++)
        {
            for (int i = 0; i < 256; i++)
            {
                int previous = tables[((k - 1) * 256) + i];
                tables[(k * 256) + i] = (ushort)((previous << 8) ^ tables[previous >> 8]);
            }
        }
        return tables;
    }

    /// <summary>The slot of <paramref name="key"/>, from 0 to 16383.</summary>
    public static int Of(ReadOnlySpan<byte> key) => Crc16(HashedPart(key)) & (Count - 1);

    /// <summary>The part of <paramref name="key"/> its slot is computed from: the hash tag, if it has one, else all of it.</summary>
    public static ReadOnlySpan<byte> HashedPart(ReadOnlySpan<byte> key)
    {
        int open = key.IndexOf((byte)'{');
        if (open < 0)
            return key;
        int close = key.Slice(open + 1).IndexOf((byte)'}');
        // "{}" is no tag: the whole key is hashed.
        return close <= 0 ? key : key.Slice(open + 1, close);
    }

    /// <summary>CRC-16/XMODEM of <paramref name="bytes"/>.</summary>
    public static ushort Crc16(ReadOnlySpan<byte> bytes)
    {
        ref ushort one = ref MemoryMarshal.GetArrayDataReference(s_tables);
        ref ushort two = ref Unsafe.Add(ref one, 256);
        ref ushort three = ref Unsafe.Add(ref one, 512);
        ref ushort four = ref Unsafe.Add(ref one, 768);
        ref byte at = ref MemoryMarshal.GetReference(bytes);
        int length = bytes.Length;
        int crc = 0;
        int i = 0;
        // Four bytes at a time: the state's two bytes fold into the first two of them (the CRC is linear).
        for (; i + 4 <= length; i += 4)
        {
            crc = Unsafe.Add(ref four, ((crc >> 8) ^ Unsafe.Add(ref at, i)) & 0xFF)
                ^ Unsafe.Add(ref three, (crc ^ Unsafe.Add(ref at, i + 1)) & 0xFF)
                ^ Unsafe.Add(ref two, Unsafe.Add(ref at, i + 2))
                ^ Unsafe.Add(ref one, Unsafe.Add(ref at, i + 3));
        }
        for (; i < length; i++)
            crc = (crc << 8) ^ Unsafe.Add(ref one, ((crc >> 8) ^ Unsafe.Add(ref at, i)) & 0xFF);
        return (ushort)crc;
    }
}
