using System;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// PFADD's fast path: raises registers directly in the stored encoding instead of decoding all 16384
/// registers and encoding them again. Dense values are updated in their packed 6-bit form; sparse
/// values get entries raised or inserted in sorted order. Anything else (a conversion to dense, a value
/// that needs more room than the record has, a malformed value) is left to the general path, which
/// re-applies every hash; raising registers is idempotent, so work already done here is harmless.
/// </summary>
internal static class HyperLogLogInPlace
{
    /// <summary>Applies PFADD hashes in place; false when the general path must run instead.</summary>
    public static bool TryAdd(ref LogRecord record, ReadOnlySpan<byte> hashBytes, out bool changed)
    {
        changed = false;
        var value = record.Value;
        if (value.Length < HyperLogLog.HeaderLength || !value.StartsWith("HYLL"u8))
            return false;
        var hashes = MemoryMarshal.Cast<byte, ulong>(hashBytes);
        if (!HyperLogLog.IsSparse(value))
        {
            if (value.Length != HyperLogLog.DenseLength || value[4] != 0)
                return false;
            var body = value.Slice(HyperLogLog.HeaderLength);
            foreach (ulong hash in hashes)
                changed |= RaiseDense(body, hash);
            return true;
        }

        if (!IsValidSparse(value.Slice(HyperLogLog.HeaderLength)))
            return false;
        foreach (ulong hash in hashes)
        {
            Split(hash, out int index, out byte rank);
            value = record.Value;
            var body = value.Slice(HyperLogLog.HeaderLength);
            int count = body.Length / HyperLogLog.SparseEntryLength;
            int position = FindSparse(body, count, index);
            if (position >= 0)
            {
                int at = position * HyperLogLog.SparseEntryLength + 2;
                if (body[at] < rank)
                {
                    body[at] = rank;
                    changed = true;
                }
                continue;
            }
            // Insert at ~position, unless it would outgrow the sparse limit or the record.
            int insertAt = ~position * HyperLogLog.SparseEntryLength;
            if (body.Length + HyperLogLog.SparseEntryLength > HyperLogLog.SparseMaxBytes
                || !record.TrySetValueLength(value.Length + HyperLogLog.SparseEntryLength))
                return false;
            body = record.Value.Slice(HyperLogLog.HeaderLength);
            body.Slice(insertAt, body.Length - HyperLogLog.SparseEntryLength - insertAt).CopyTo(body.Slice(insertAt + HyperLogLog.SparseEntryLength));
            BinaryPrimitives.WriteUInt16LittleEndian(body.Slice(insertAt), (ushort)index);
            body[insertAt + 2] = rank;
            changed = true;
        }
        return true;
    }

    /// <summary>
    /// The sparse entries are sorted, in range and within the sparse limit: checked before every
    /// update (it costs one pass over at most 1000 entries) so a malformed value answers WRONGTYPE
    /// from the general path instead of being modified.
    /// </summary>
    private static bool IsValidSparse(ReadOnlySpan<byte> body)
    {
        if (body.Length % HyperLogLog.SparseEntryLength != 0 || body.Length > HyperLogLog.SparseMaxBytes)
            return false;
        int previous = -1;
        for (int offset = 0; offset < body.Length; offset += HyperLogLog.SparseEntryLength)
        {
            int index = BinaryPrimitives.ReadUInt16LittleEndian(body.Slice(offset));
            byte register = body[offset + 2];
            if (index <= previous || index >= HyperLogLog.RegisterCount || register == 0 || register > HyperLogLog.MaxRegister)
                return false;
            previous = index;
        }
        return true;
    }

    /// <summary>The register a hash selects and the value it proposes (as in <see cref="HyperLogLog.AddHash"/>).</summary>
    private static void Split(ulong hash, out int index, out byte rank)
    {
        index = (int)(hash & (HyperLogLog.RegisterCount - 1));
        rank = (byte)(BitOperations.TrailingZeroCount((hash >> HyperLogLog.IndexBits) | (1UL << (64 - HyperLogLog.IndexBits))) + 1);
    }

    private static bool RaiseDense(Span<byte> body, ulong hash)
    {
        Split(hash, out int index, out byte rank);
        int group = (index >> 2) * 3;
        int shift = (index & 3) * 6;
        int packed = body[group] | (body[group + 1] << 8) | (body[group + 2] << 16);
        if (((packed >> shift) & 63) >= rank)
            return false;
        packed = (packed & ~(63 << shift)) | (rank << shift);
        body[group] = (byte)packed;
        body[group + 1] = (byte)(packed >> 8);
        body[group + 2] = (byte)(packed >> 16);
        return true;
    }

    /// <summary>Binary search of the sorted sparse entries: the entry's position, or the complement of where it belongs.</summary>
    private static int FindSparse(ReadOnlySpan<byte> body, int count, int index)
    {
        int low = 0, high = count - 1;
        while (low <= high)
        {
            int middle = (low + high) >> 1;
            int candidate = BinaryPrimitives.ReadUInt16LittleEndian(body.Slice(middle * HyperLogLog.SparseEntryLength));
            if (candidate == index)
                return middle;
            if (candidate < index)
                low = middle + 1;
            else
                high = middle - 1;
        }
        return ~low;
    }
}
