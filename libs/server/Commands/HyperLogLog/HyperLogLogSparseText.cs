using System;
using System.Buffers.Text;

namespace Garnet.server;

/// <summary>
/// PFDEBUG DECODE's text: registers spelled as Redis's sparse opcodes, as Redis prints them, so tools that read
/// it see what they would from Redis. Our sparse body lists (index, value) entries instead (see
/// <see cref="HyperLogLog"/>); the opcodes are derived from the registers: a run of zero registers is
/// "z:n" (ZERO, n 1..64) or "Z:n" (XZERO, n 65..16384), a run of registers of one value is "v:value,n"
/// (VAL, n 1..4, longer runs split into several), all separated by single spaces.
/// </summary>
internal static class HyperLogLogSparseText
{
    private const int ZeroMaxRun = 64;
    private const int ValueMaxRun = 4;

    /// <summary>The longest text <see cref="Write"/> produces for registers with <paramref name="nonZero"/> non-zero registers.</summary>
    public static int MaxLength(int nonZero)
        // At worst each non-zero register is its own "v:vv,n " (8 bytes) after its own "Z:nnnnn " (8 bytes), plus a last zero run.
        => (nonZero + 1) * 16;

    /// <summary>Writes the opcode text of <paramref name="registers"/> into <paramref name="destination"/>; returns its length.</summary>
    public static int Write(ReadOnlySpan<byte> registers, Span<byte> destination)
    {
        int length = 0;
        int index = 0;
        while (index < registers.Length)
        {
            byte value = registers[index];
            int run = 1;
            int maxRun = value == 0 ? HyperLogLog.RegisterCount : ValueMaxRun;
            while (index + run < registers.Length && run < maxRun && registers[index + run] == value)
                run++;
            if (length > 0)
                destination[length++] = (byte)' ';
            if (value == 0)
            {
                destination[length++] = run <= ZeroMaxRun ? (byte)'z' : (byte)'Z';
                destination[length++] = (byte)':';
                length += Format(run, destination.Slice(length));
            }
            else
            {
                "v:"u8.CopyTo(destination.Slice(length));
                length += 2;
                length += Format(value, destination.Slice(length));
                destination[length++] = (byte)',';
                length += Format(run, destination.Slice(length));
            }
            index += run;
        }
        return length;
    }

    private static int Format(int number, Span<byte> destination)
    {
        Utf8Formatter.TryFormat(number, destination, out int written);
        return written;
    }
}
