using System;
using System.Buffers.Binary;
using System.Numerics;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The HyperLogLog value format and estimator. A value is a 16-byte header followed by registers:
/// <code>
/// "HYLL" | encoding (0 dense, 1 sparse) | 3 reserved bytes | 8-byte cached cardinality (LE, top bit set = not cached)
/// </code>
/// Dense: 16384 registers of 6 bits, four registers per 3 bytes (12288 bytes). Sparse: ascending
/// 3-byte entries (register index as a little-endian u16, then its value) for the non-zero
/// registers only. A value stays sparse while its body is at most <see cref="SparseMaxBytes"/> and
/// no register exceeds <see cref="SparseMaxValue"/>, then turns dense for good, as Redis's does
/// (hll-sparse-max-bytes; its sparse opcodes hold values up to 32), so PFDEBUG ENCODING and DECODE
/// can answer as Redis would.
/// The 64-bit element hash gives the register index (low 14 bits) and, from the remaining 50 bits,
/// the length of the run of zeros plus one (1..51) as the register candidate.
/// </summary>
internal static class HyperLogLog
{
    /// <summary>Number of index bits.</summary>
    public const int IndexBits = 14;

    /// <summary>Number of registers (16384).</summary>
    public const int RegisterCount = 1 << IndexBits;

    /// <summary>Largest register value: 64 - 14 hash bits left, plus one.</summary>
    public const int MaxRegister = 64 - IndexBits + 1;

    /// <summary>Header length in bytes.</summary>
    public const int HeaderLength = 16;

    /// <summary>Length of the dense body: 16384 registers × 6 bits.</summary>
    public const int DenseBodyLength = RegisterCount * 6 / 8;

    /// <summary>Length of a whole dense value.</summary>
    public const int DenseLength = HeaderLength + DenseBodyLength;

    /// <summary>Bytes of one sparse entry.</summary>
    public const int SparseEntryLength = 3;

    /// <summary>Largest sparse body before the value turns dense (Redis's hll-sparse-max-bytes default).</summary>
    public const int SparseMaxBytes = 3000;

    /// <summary>Largest register value a sparse value holds (the most Redis's sparse VAL opcode can express).</summary>
    public const int SparseMaxValue = 32;

    private const byte EncodingDense = 0;
    private const byte EncodingSparse = 1;

    /// <summary>The error for a key whose string value is not a HyperLogLog.</summary>
    public static ReadOnlySpan<byte> WrongTypeError => "WRONGTYPE Key is not a valid HyperLogLog string value."u8;

    private static ReadOnlySpan<byte> Magic => "HYLL"u8;

    /// <summary>Hashes an element once, in the session; the engine callbacks only see hashes.</summary>
    public static ulong HashElement(ReadOnlySpan<byte> element) => (ulong)KeyHash.Hash(element);

    /// <summary>Raises the register that <paramref name="hash"/> selects; true if it grew.</summary>
    public static bool AddHash(Span<byte> registers, ulong hash)
    {
        int index = (int)(hash & (RegisterCount - 1));
        // The sentinel bit bounds the run at 50 zeros, so the value is 1..51.
        byte value = (byte)(BitOperations.TrailingZeroCount((hash >> IndexBits) | (1UL << (64 - IndexBits))) + 1);
        if (registers[index] >= value)
            return false;
        registers[index] = value;
        return true;
    }

    /// <summary>Whether <paramref name="value"/> holds the sparse encoding (call only on a valid value).</summary>
    public static bool IsSparse(ReadOnlySpan<byte> value) => value[4] == EncodingSparse;

    /// <summary>
    /// Checks that <paramref name="value"/> is a HyperLogLog and raises each of <paramref name="registers"/>
    /// (one byte per register) to the value's register where that is larger. Returns false, leaving
    /// <paramref name="registers"/> possibly partly raised, if the value is not a valid HyperLogLog.
    /// </summary>
    public static bool TryMergeInto(ReadOnlySpan<byte> value, Span<byte> registers)
    {
        if (value.Length < HeaderLength || !value.StartsWith(Magic))
            return false;
        var body = value.Slice(HeaderLength);
        if (value[4] == EncodingDense)
        {
            if (body.Length != DenseBodyLength)
                return false;
            for (int group = 0, r = 0; group < DenseBodyLength; group += 3, r += 4)
            {
                int packed = body[group] | (body[group + 1] << 8) | (body[group + 2] << 16);
                for (int k = 0; k < 4; k++)
                {
                    byte register = (byte)((packed >> (6 * k)) & 63);
                    if (register > MaxRegister)
                        return false;
                    if (register > registers[r + k])
                        registers[r + k] = register;
                }
            }
            return true;
        }
        if (value[4] != EncodingSparse || body.Length % SparseEntryLength != 0 || body.Length > SparseMaxBytes)
            return false;
        int previous = -1;
        for (int offset = 0; offset < body.Length; offset += SparseEntryLength)
        {
            int index = BinaryPrimitives.ReadUInt16LittleEndian(body.Slice(offset));
            byte register = body[offset + 2];
            if (index <= previous || index >= RegisterCount || register == 0 || register > MaxRegister)
                return false;
            previous = index;
            if (register > registers[index])
                registers[index] = register;
        }
        return true;
    }

    /// <summary>
    /// The encoded length of <paramref name="registers"/>: sparse while the value is still sparse (or
    /// new), its entries fit and no register is above <see cref="SparseMaxValue"/>; dense otherwise.
    /// Dense never turns back.
    /// </summary>
    public static int EncodedLength(bool sparse, ReadOnlySpan<byte> registers)
    {
        if (!sparse)
            return DenseLength;
        int nonZero = 0;
        foreach (byte register in registers)
        {
            if (register == 0)
                continue;
            if (register > SparseMaxValue)
                return DenseLength;
            nonZero++;
        }
        return nonZero * SparseEntryLength <= SparseMaxBytes ? HeaderLength + nonZero * SparseEntryLength : DenseLength;
    }

    /// <summary>Register <paramref name="index"/> of a dense body (the 12288 bytes after the header).</summary>
    public static int GetDenseRegister(ReadOnlySpan<byte> body, int index)
    {
        int group = (index >> 2) * 3;
        int packed = body[group] | (body[group + 1] << 8) | (body[group + 2] << 16);
        return (packed >> ((index & 3) * 6)) & 63;
    }

    /// <summary>Sets register <paramref name="index"/> of a dense body, leaving its neighbours in the same bytes as they were.</summary>
    public static void SetDenseRegister(Span<byte> body, int index, int value)
    {
        int group = (index >> 2) * 3;
        int shift = (index & 3) * 6;
        int packed = body[group] | (body[group + 1] << 8) | (body[group + 2] << 16);
        packed = (packed & ~(63 << shift)) | ((value & 63) << shift);
        body[group] = (byte)packed;
        body[group + 1] = (byte)(packed >> 8);
        body[group + 2] = (byte)(packed >> 16);
    }

    /// <summary>Writes registers into <paramref name="destination"/>, whose length (from <see cref="EncodedLength"/>) picks the encoding.</summary>
    public static void Encode(ReadOnlySpan<byte> registers, Span<byte> destination)
    {
        Magic.CopyTo(destination);
        destination.Slice(5, HeaderLength - 5).Clear();
        // The cardinality is not cached yet: PFCOUNT always computes it.
        destination[HeaderLength - 1] = 0x80;
        var body = destination.Slice(HeaderLength);
        if (destination.Length == DenseLength)
        {
            destination[4] = EncodingDense;
            for (int group = 0, r = 0; group < DenseBodyLength; group += 3, r += 4)
            {
                int packed = registers[r] | (registers[r + 1] << 6) | (registers[r + 2] << 12) | (registers[r + 3] << 18);
                body[group] = (byte)packed;
                body[group + 1] = (byte)(packed >> 8);
                body[group + 2] = (byte)(packed >> 16);
            }
            return;
        }
        destination[4] = EncodingSparse;
        int offset = 0;
        for (int index = 0; index < RegisterCount; index++)
        {
            if (registers[index] == 0)
                continue;
            BinaryPrimitives.WriteUInt16LittleEndian(body.Slice(offset), (ushort)index);
            body[offset + 2] = registers[index];
            offset += SparseEntryLength;
        }
    }

    /// <summary>
    /// Ertl's improved estimator ("New cardinality estimation algorithms for HyperLogLog sketches",
    /// 2017): unbiased over the whole range without empirical corrections; standard error ≈ 0.81%.
    /// </summary>
    public static long Estimate(ReadOnlySpan<byte> registers)
    {
        const int Q = 64 - IndexBits;
        Span<int> histogram = stackalloc int[MaxRegister + 1];
        foreach (byte register in registers)
            histogram[register]++;
        const double M = RegisterCount;
        if (histogram[0] == RegisterCount)
            return 0;
        double z = M * Tau(1 - histogram[Q + 1] / M);
        for (int k = Q; k >= 1; k--)
            z = 0.5 * (z + histogram[k]);
        z += M * Sigma(histogram[0] / M);
        double alphaInfinity = 0.5 / Math.Log(2);
        return (long)Math.Round(alphaInfinity * M * M / z);
    }

    private static double Sigma(double x)
    {
        if (x == 1)
            return double.PositiveInfinity;
        double y = 1;
        double z = x;
        double previous;
        do
        {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        }
        while (z != previous);
        return z;
    }

    private static double Tau(double x)
    {
        if (x == 0 || x == 1)
            return 0;
        double y = 1;
        double z = 1 - x;
        double previous;
        do
        {
            x = Math.Sqrt(x);
            previous = z;
            y *= 0.5;
            z -= (1 - x) * (1 - x) * y;
        }
        while (z != previous);
        return z / 3;
    }
}
