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
            var body = record.Value.Slice(HyperLogLog.HeaderLength);
            switch (RaiseSparse(body, index, rank, out int insertAt))
            {
                case SparseRaise.Unchanged:
                    continue;
                case SparseRaise.Raised:
                    changed = true;
                    continue;
                case SparseRaise.NeedsDense:
                    return false;
            }
            // Insert, unless it would outgrow the sparse limit or the record.
            if (body.Length + HyperLogLog.SparseEntryLength > HyperLogLog.SparseMaxBytes
                || !record.TrySetValueLength(record.ValueLength + HyperLogLog.SparseEntryLength))
                return false;
            InsertSparse(record.Value.Slice(HyperLogLog.HeaderLength), insertAt, index, rank);
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

    /// <summary>What <see cref="RaiseSparse"/> did, or what it needs done.</summary>
    internal enum SparseRaise
    {
        /// <summary>The register already held at least the value.</summary>
        Unchanged,

        /// <summary>The register's entry was raised.</summary>
        Raised,

        /// <summary>The register has no entry yet: <see cref="InsertSparse"/> must add one.</summary>
        NeedsInsert,

        /// <summary>The value is above <see cref="HyperLogLog.SparseMaxValue"/>: the value must turn dense.</summary>
        NeedsDense,
    }

    /// <summary>
    /// Raises register <paramref name="index"/> of a valid sparse body to <paramref name="rank"/> when that
    /// is larger; when the register has no entry, <paramref name="insertAt"/> is the byte offset it belongs at.
    /// </summary>
    internal static SparseRaise RaiseSparse(Span<byte> body, int index, byte rank, out int insertAt)
    {
        insertAt = 0;
        int position = FindSparse(body, body.Length / HyperLogLog.SparseEntryLength, index);
        if (position >= 0)
        {
            int at = position * HyperLogLog.SparseEntryLength + 2;
            if (body[at] >= rank)
                return SparseRaise.Unchanged;
            if (rank > HyperLogLog.SparseMaxValue)
                return SparseRaise.NeedsDense;
            body[at] = rank;
            return SparseRaise.Raised;
        }
        if (rank > HyperLogLog.SparseMaxValue)
            return SparseRaise.NeedsDense;
        insertAt = ~position * HyperLogLog.SparseEntryLength;
        return SparseRaise.NeedsInsert;
    }

    /// <summary>Adds an entry at <paramref name="insertAt"/> of <paramref name="body"/>, already grown by one entry (the last entry's bytes are free).</summary>
    internal static void InsertSparse(Span<byte> body, int insertAt, int index, byte rank)
    {
        body.Slice(insertAt, body.Length - HyperLogLog.SparseEntryLength - insertAt).CopyTo(body.Slice(insertAt + HyperLogLog.SparseEntryLength));
        BinaryPrimitives.WriteUInt16LittleEndian(body.Slice(insertAt), (ushort)index);
        body[insertAt + 2] = rank;
    }

    /// <summary>The register a hash selects and the value it proposes (as in <see cref="HyperLogLog.AddHash"/>).</summary>
    internal static void Split(ulong hash, out int index, out byte rank)
    {
        index = (int)(hash & (HyperLogLog.RegisterCount - 1));
        rank = (byte)(BitOperations.TrailingZeroCount((hash >> HyperLogLog.IndexBits) | (1UL << (64 - HyperLogLog.IndexBits))) + 1);
    }

    /// <summary>Raises the register of a dense body that <paramref name="hash"/> selects; true if it grew.</summary>
    internal static bool RaiseDense(Span<byte> body, ulong hash)
    {
        Split(hash, out int index, out byte rank);
        if (HyperLogLog.GetDenseRegister(body, index) >= rank)
            return false;
        HyperLogLog.SetDenseRegister(body, index, rank);
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
