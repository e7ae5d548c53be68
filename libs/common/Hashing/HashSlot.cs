using System;

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

    private static readonly ushort[] s_table = BuildTable();

    private static ushort[] BuildTable()
    {
        var table = new ushort[256];
        for (int i = 0; i < 256; i++)
        {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++)
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            table[i] = (ushort)crc;
        }
        return table;
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
        var table = s_table;
        int crc = 0;
        foreach (byte b in bytes)
            crc = (crc << 8) ^ table[((crc >> 8) ^ b) & 0xFF];
        return (ushort)crc;
    }
}
