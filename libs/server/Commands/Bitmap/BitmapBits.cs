using System;
using System.Numerics;
using System.Runtime.InteropServices;

namespace Garnet.server;

/// <summary>
/// The bit arithmetic of the bitmap commands over plain byte spans. Bit 0 is the most significant
/// bit of byte 0, as in Redis; bytes past the end of a value read as zero.
/// </summary>
internal static class BitmapBits
{
    /// <summary>The bit at <paramref name="offset"/>, 0 past the end.</summary>
    public static int GetBit(ReadOnlySpan<byte> value, long offset)
    {
        long index = offset >> 3;
        if (index >= value.Length)
            return 0;
        return (value[(int)index] >> (7 - (int)(offset & 7))) & 1;
    }

    /// <summary>Sets the bit at <paramref name="offset"/> (inside the value) and returns its old value.</summary>
    public static int SetBit(Span<byte> value, long offset, int bit)
    {
        int index = (int)(offset >> 3);
        int shift = 7 - (int)(offset & 7);
        int old = (value[index] >> shift) & 1;
        if (bit != 0)
            value[index] = (byte)(value[index] | (1 << shift));
        else
            value[index] = (byte)(value[index] & ~(1 << shift));
        return old;
    }

    /// <summary>Number of set bits from bit <paramref name="startBit"/> to <paramref name="endBit"/>, both inclusive and inside the value.</summary>
    public static long Count(ReadOnlySpan<byte> value, long startBit, long endBit)
    {
        if (startBit > endBit)
            return 0;
        int first = (int)(startBit >> 3);
        int last = (int)(endBit >> 3);
        int firstMask = 0xFF >> (int)(startBit & 7);
        int lastMask = (0xFF << (7 - (int)(endBit & 7))) & 0xFF;
        if (first == last)
            return BitOperations.PopCount((uint)(value[first] & firstMask & lastMask));
        long count = BitOperations.PopCount((uint)(value[first] & firstMask)) + BitOperations.PopCount((uint)(value[last] & lastMask));
        return count + PopCount(value.Slice(first + 1, last - first - 1));
    }

    /// <summary>Hardware popcount over whole ulongs, then the tail bytes.</summary>
    public static long PopCount(ReadOnlySpan<byte> bytes)
    {
        long count = 0;
        var words = MemoryMarshal.Cast<byte, ulong>(bytes);
        for (int i = 0; i < words.Length; i++)
            count += BitOperations.PopCount(words[i]);
        for (int i = words.Length * sizeof(ulong); i < bytes.Length; i++)
            count += BitOperations.PopCount(bytes[i]);
        return count;
    }

    /// <summary>
    /// Position of the first bit equal to <paramref name="bit"/> from <paramref name="startBit"/> to
    /// <paramref name="endBit"/> (inclusive, inside the value), or -1.
    /// </summary>
    public static long Find(ReadOnlySpan<byte> value, long startBit, long endBit, int bit)
    {
        if (startBit > endBit)
            return -1;
        long position = startBit;
        // Leading bits up to a byte boundary.
        while (position <= endBit && (position & 7) != 0)
        {
            if (GetBit(value, position) == bit)
                return position;
            position++;
        }
        // Whole bytes: skip those holding no wanted bit.
        long wholeEnd = (endBit + 1) & ~7L;
        if (position < wholeEnd)
        {
            var bytes = value.Slice((int)(position >> 3), (int)((wholeEnd - position) >> 3));
            int index = bytes.IndexOfAnyExcept(bit != 0 ? (byte)0x00 : (byte)0xFF);
            if (index >= 0)
            {
                int b = bit != 0 ? bytes[index] : (byte)~bytes[index];
                return position + ((long)index << 3) + BitOperations.LeadingZeroCount((uint)b) - 24;
            }
            position = wholeEnd;
        }
        // Trailing bits of the last, partial byte.
        for (; position <= endBit; position++)
        {
            if (GetBit(value, position) == bit)
                return position;
        }
        return -1;
    }

    /// <summary>Reads <paramref name="bits"/> bits (1..64) at <paramref name="offset"/> as an unsigned number, most significant first.</summary>
    public static ulong GetUnsigned(ReadOnlySpan<byte> value, long offset, int bits)
    {
        ulong result = 0;
        for (int i = 0; i < bits; i++)
            result = (result << 1) | (uint)GetBit(value, offset + i);
        return result;
    }

    /// <summary>Reads <paramref name="bits"/> bits as a two's complement signed number.</summary>
    public static long GetSigned(ReadOnlySpan<byte> value, long offset, int bits)
    {
        ulong raw = GetUnsigned(value, offset, bits);
        if (bits < 64 && (raw & (1UL << (bits - 1))) != 0)
            raw |= ulong.MaxValue << bits;
        return (long)raw;
    }

    /// <summary>Writes the low <paramref name="bits"/> bits of <paramref name="number"/> at <paramref name="offset"/> (inside the value).</summary>
    public static void SetField(Span<byte> value, long offset, int bits, ulong number)
    {
        for (int i = 0; i < bits; i++)
            SetBit(value, offset + i, (int)((number >> (bits - 1 - i)) & 1));
    }

    /// <summary>
    /// <paramref name="destination"/> = <paramref name="destination"/> op <paramref name="source"/> over
    /// the source's length; AND also clears what lies past the source (missing bytes are zero).
    /// </summary>
    public static void Combine(Span<byte> destination, ReadOnlySpan<byte> source, BitCombine op)
    {
        int length = Math.Min(destination.Length, source.Length);
        int vectorized = 0;
        if (Vector.IsHardwareAccelerated && length >= Vector<byte>.Count)
        {
            var to = MemoryMarshal.Cast<byte, Vector<byte>>(destination.Slice(0, length));
            var from = MemoryMarshal.Cast<byte, Vector<byte>>(source.Slice(0, length));
            for (int i = 0; i < to.Length; i++)
            {
                to[i] = op switch
                {
                    BitCombine.And => to[i] & from[i],
                    BitCombine.Or => to[i] | from[i],
                    BitCombine.Xor => to[i] ^ from[i],
                    _ => Vector.AndNot(to[i], from[i]),
                };
            }
            vectorized = to.Length * Vector<byte>.Count;
        }
        for (int i = vectorized; i < length; i++)
        {
            destination[i] = op switch
            {
                BitCombine.And => (byte)(destination[i] & source[i]),
                BitCombine.Or => (byte)(destination[i] | source[i]),
                BitCombine.Xor => (byte)(destination[i] ^ source[i]),
                _ => (byte)(destination[i] & ~source[i]),
            };
        }
        if (op == BitCombine.And && length < destination.Length)
            destination.Slice(length).Clear();
    }

    /// <summary><paramref name="destination"/> = ~<paramref name="source"/>, same length.</summary>
    public static void Not(Span<byte> destination, ReadOnlySpan<byte> source)
    {
        int vectorized = 0;
        if (Vector.IsHardwareAccelerated && source.Length >= Vector<byte>.Count)
        {
            var to = MemoryMarshal.Cast<byte, Vector<byte>>(destination.Slice(0, source.Length));
            var from = MemoryMarshal.Cast<byte, Vector<byte>>(source);
            for (int i = 0; i < from.Length; i++)
                to[i] = ~from[i];
            vectorized = from.Length * Vector<byte>.Count;
        }
        for (int i = vectorized; i < source.Length; i++)
            destination[i] = (byte)~source[i];
    }
}

/// <summary>The operations of BITOP (DIFF, DIFF1, ANDOR and ONE since Redis 8.2).</summary>
internal enum BitOp : byte
{
    And,
    Or,
    Xor,
    Not,
    /// <summary>X and not (Y1 or Y2 ...).</summary>
    Diff,
    /// <summary>(Y1 or Y2 ...) and not X.</summary>
    Diff1,
    /// <summary>X and (Y1 or Y2 ...).</summary>
    AndOr,
    /// <summary>Bits set in exactly one source.</summary>
    One,
}

/// <summary>How <see cref="BitmapBits.Combine"/> merges a source into a destination.</summary>
internal enum BitCombine : byte
{
    And,
    Or,
    Xor,
    /// <summary>Destination and not source.</summary>
    AndNot,
}
