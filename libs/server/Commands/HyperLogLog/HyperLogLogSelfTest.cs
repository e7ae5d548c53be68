using System;
using System.Buffers.Binary;

namespace Garnet.server;

/// <summary>
/// PFSELFTEST: checks this server's HyperLogLog code on generated data, as Redis's self-test checks its own.
/// 1. Dense registers: random values set one by one read back unchanged (neighbours in the same packed bytes
///    untouched), and the bulk encoder and decoder agree with the single-register accessors.
/// 2. Sparse values: random register sets encode and decode to the same registers.
/// 3. Estimates: ten million generated elements go into byte registers, a packed dense value and a value that
///    starts sparse and turns dense as PFADD's engine path does; at 1, 10, 100, ... elements the value must
///    still be sparse while it cannot have outgrown the limit, all three must hold the same registers, and the
///    estimate must be within six standard errors (1 at ten elements, where collisions dominate).
/// Returns null on success, else the failure as an error reply ("TESTFAILED ...").
/// </summary>
internal static class HyperLogLogSelfTest
{
    private const int RegisterCycles = 1000;
    private const int SparseCycles = 100;
    private const int Elements = 10_000_000;

    public static string? Run()
    {
        int seed = Random.Shared.Next();
        var random = new Random(seed);
        return CheckDenseRegisters(random) ?? CheckSparseRoundTrip(random) ?? CheckEstimates(random);
    }

    private static string? CheckDenseRegisters(Random random)
    {
        var expected = new byte[HyperLogLog.RegisterCount];
        var decoded = new byte[HyperLogLog.RegisterCount];
        var value = new byte[HyperLogLog.DenseLength];
        var body = value.AsSpan(HyperLogLog.HeaderLength);
        for (int cycle = 0; cycle < RegisterCycles; cycle++)
        {
            for (int i = 0; i < HyperLogLog.RegisterCount; i++)
            {
                expected[i] = (byte)random.Next(HyperLogLog.MaxRegister + 1);
                HyperLogLog.SetDenseRegister(body, i, expected[i]);
            }
            for (int i = 0; i < HyperLogLog.RegisterCount; i++)
            {
                int actual = HyperLogLog.GetDenseRegister(body, i);
                if (actual != expected[i])
                    return $"TESTFAILED Register {i} should be {expected[i]} but is {actual}";
            }
            // The bulk paths PFCOUNT and PFMERGE use must read the same registers.
            HyperLogLog.Encode(expected, value);
            Array.Clear(decoded);
            if (!HyperLogLog.TryMergeInto(value, decoded) || !decoded.AsSpan().SequenceEqual(expected))
                return "TESTFAILED dense encode/decode disagree";
            for (int i = 0; i < HyperLogLog.RegisterCount; i++)
            {
                if (HyperLogLog.GetDenseRegister(body, i) != expected[i])
                    return $"TESTFAILED encoded register {i} should be {expected[i]}";
            }
        }
        return null;
    }

    private static string? CheckSparseRoundTrip(Random random)
    {
        var registers = new byte[HyperLogLog.RegisterCount];
        var decoded = new byte[HyperLogLog.RegisterCount];
        var value = new byte[HyperLogLog.HeaderLength + HyperLogLog.SparseMaxBytes];
        for (int cycle = 0; cycle < SparseCycles; cycle++)
        {
            Array.Clear(registers);
            int count = random.Next(HyperLogLog.SparseMaxBytes / HyperLogLog.SparseEntryLength + 1);
            for (int i = 0; i < count; i++)
                registers[random.Next(HyperLogLog.RegisterCount)] = (byte)random.Next(1, HyperLogLog.SparseMaxValue + 1);
            int length = HyperLogLog.EncodedLength(sparse: true, registers);
            if (length == HyperLogLog.DenseLength)
                return "TESTFAILED sparse encoding not used";
            var encoded = value.AsSpan(0, length);
            HyperLogLog.Encode(registers, encoded);
            Array.Clear(decoded);
            if (!HyperLogLog.IsSparse(encoded) || !HyperLogLog.TryMergeInto(encoded, decoded) || !decoded.AsSpan().SequenceEqual(registers))
                return "TESTFAILED sparse encode/decode disagree";
        }
        return null;
    }

    private static string? CheckEstimates(Random random)
    {
        var registers = new byte[HyperLogLog.RegisterCount];
        var dense = new byte[HyperLogLog.DenseLength];
        HyperLogLog.Encode(registers, dense);
        var adaptive = new AdaptiveValue();
        var decoded = new byte[HyperLogLog.RegisterCount];
        double relativeError = 1.04 / Math.Sqrt(HyperLogLog.RegisterCount);
        ulong salt = (ulong)random.NextInt64();
        Span<byte> element = stackalloc byte[sizeof(ulong)];
        long checkpoint = 1;
        for (long j = 1; j <= Elements; j++)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(element, (ulong)j ^ salt);
            ulong hash = HyperLogLog.HashElement(element);
            HyperLogLog.AddHash(registers, hash);
            HyperLogLogInPlace.RaiseDense(dense.AsSpan(HyperLogLog.HeaderLength), hash);
            adaptive.Add(hash);
            if (j != checkpoint)
                continue;

            // j elements set at most j registers: within the limit the value must still be sparse.
            if (j * HyperLogLog.SparseEntryLength <= HyperLogLog.SparseMaxBytes && !adaptive.IsSparse)
                return "TESTFAILED sparse encoding not used";
            Array.Clear(decoded);
            if (!HyperLogLog.TryMergeInto(dense, decoded) || !decoded.AsSpan().SequenceEqual(registers))
                return $"TESTFAILED dense registers disagree at card:{j}";
            Array.Clear(decoded);
            if (!HyperLogLog.TryMergeInto(adaptive.Value, decoded) || !decoded.AsSpan().SequenceEqual(registers))
                return $"TESTFAILED dense/sparse disagree at card:{j}";
            long estimate = HyperLogLog.Estimate(registers);
            long absoluteError = Math.Abs(j - estimate);
            long maxError = j == 10 ? 1 : (long)Math.Ceiling(relativeError * 6 * j);
            if (absoluteError > maxError)
                return $"TESTFAILED Too big error. card:{j} abserr:{absoluteError}";
            checkpoint *= 10;
        }
        return null;
    }

    /// <summary>A value kept as PFADD's engine path keeps it: sparse entries raised or inserted in place until one does not fit, then dense.</summary>
    private sealed class AdaptiveValue
    {
        private readonly byte[] _buffer = new byte[HyperLogLog.DenseLength];
        private int _length;

        public AdaptiveValue()
        {
            _length = HyperLogLog.EncodedLength(sparse: true, new byte[HyperLogLog.RegisterCount]);
            HyperLogLog.Encode(new byte[HyperLogLog.RegisterCount], _buffer.AsSpan(0, _length));
        }

        public ReadOnlySpan<byte> Value => _buffer.AsSpan(0, _length);

        public bool IsSparse => HyperLogLog.IsSparse(Value);

        public void Add(ulong hash)
        {
            if (!IsSparse)
            {
                HyperLogLogInPlace.RaiseDense(_buffer.AsSpan(HyperLogLog.HeaderLength), hash);
                return;
            }
            HyperLogLogInPlace.Split(hash, out int index, out byte rank);
            var body = _buffer.AsSpan(HyperLogLog.HeaderLength, _length - HyperLogLog.HeaderLength);
            var outcome = HyperLogLogInPlace.RaiseSparse(body, index, rank, out int insertAt);
            if (outcome == HyperLogLogInPlace.SparseRaise.NeedsInsert && body.Length + HyperLogLog.SparseEntryLength <= HyperLogLog.SparseMaxBytes)
            {
                _length += HyperLogLog.SparseEntryLength;
                HyperLogLogInPlace.InsertSparse(_buffer.AsSpan(HyperLogLog.HeaderLength, _length - HyperLogLog.HeaderLength), insertAt, index, rank);
                return;
            }
            if (outcome is HyperLogLogInPlace.SparseRaise.Unchanged or HyperLogLogInPlace.SparseRaise.Raised)
                return;
            // The general path: decode, add, encode at the length the registers now need.
            var registers = new byte[HyperLogLog.RegisterCount];
            HyperLogLog.TryMergeInto(Value, registers);
            HyperLogLog.AddHash(registers, hash);
            _length = HyperLogLog.EncodedLength(sparse: true, registers);
            HyperLogLog.Encode(registers, _buffer.AsSpan(0, _length));
        }
    }
}
