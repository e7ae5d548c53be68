using System;
using System.Collections.Generic;

namespace Resp.benchmark;

/// <summary>
/// A connection's request batches, encoded before the clock starts and then cycled through: all
/// batches live back to back in one array, so sending batch <c>i</c> is one slice and one write.
/// </summary>
public sealed class PreparedBatches
{
    /// <summary>Most distinct commands generated for one connection; beyond that batches repeat.</summary>
    public const int MaxDistinctCommands = 1 << 20;

    private readonly byte[] _data;
    private readonly int[] _offsets;
    private readonly byte[]? _opSlots;

    private PreparedBatches(byte[] data, int[] offsets, int commandsPerBatch, byte[]? opSlots)
    {
        _data = data;
        _offsets = offsets;
        CommandsPerBatch = commandsPerBatch;
        _opSlots = opSlots;
    }

    /// <summary>Number of distinct batches.</summary>
    public int Count => _offsets.Length - 1;

    /// <summary>Operations in every batch: commands, or transactions of <see cref="OpTypes.CommandsPerOp"/> commands for MULTIINCR4.</summary>
    public int CommandsPerBatch { get; }

    /// <summary>Bytes of all batches together.</summary>
    public long TotalBytes => _data.Length;

    /// <summary>The encoded commands of batch <paramref name="index"/>.</summary>
    public ReadOnlySpan<byte> Batch(int index) => _data.AsSpan(_offsets[index], _offsets[index + 1] - _offsets[index]);

    /// <summary>The array behind all batches, and where batch <paramref name="index"/> starts in it and how long it is.</summary>
    public byte[] Segment(int index, out int offset, out int length)
    {
        offset = _offsets[index];
        length = _offsets[index + 1] - offset;
        return _data;
    }

    /// <summary>Online batches: which workload slot command <paramref name="command"/> of batch <paramref name="index"/> is.</summary>
    public int OpSlot(int index, int command) => _opSlots![(index * CommandsPerBatch) + command];

    /// <summary>
    /// Generates the batches of <paramref name="op"/> for one connection: as many as
    /// <paramref name="batchesNeeded"/> but no more than <see cref="MaxDistinctCommands"/> commands
    /// or <paramref name="byteBudget"/> bytes (at least one batch).
    /// </summary>
    public static PreparedBatches ForOp(RequestGenerator generator, OpType op, int batchSize, long batchesNeeded, long byteBudget) =>
        Build(batchSize, OpTypes.CommandsPerOp(op), batchesNeeded, byteBudget, null, (buffer, _) => generator.WriteBatch(buffer, op, batchSize));

    /// <summary>
    /// Generates online batches of <paramref name="commandsPerBatch"/> commands, each drawn from
    /// <paramref name="mix"/>, remembering which workload slot every command belongs to.
    /// </summary>
    public static PreparedBatches ForMix(RequestGenerator generator, WorkloadMix mix, FastRandom random, int commandsPerBatch, long batchesNeeded, long byteBudget)
    {
        var slots = new List<byte>();
        return Build(commandsPerBatch, commandsPerOp: 1, batchesNeeded, byteBudget, slots, (buffer, _) =>
        {
            for (int i = 0; i < commandsPerBatch; i++)
            {
                int slot = mix.Pick(random);
                slots.Add((byte)slot);
                generator.Write(buffer, mix.Ops[slot]);
            }
        });
    }

    private static PreparedBatches Build(int opsPerBatch, int commandsPerOp, long batchesNeeded, long byteBudget, List<byte>? slots, Action<RequestBuffer, int> writeBatch)
    {
        var buffer = new RequestBuffer();
        var offsets = new List<int> { 0 };
        writeBatch(buffer, 0);
        offsets.Add(buffer.Length);

        long batchBytes = Math.Max(1, buffer.Length);
        long limit = Math.Min(batchesNeeded, Math.Max(1, MaxDistinctCommands / ((long)opsPerBatch * commandsPerOp)));
        limit = Math.Min(limit, Math.Max(1, byteBudget / batchBytes));
        limit = Math.Min(limit, Math.Max(1, Array.MaxLength / batchBytes / 2));
        for (int i = 1; i < limit; i++)
        {
            writeBatch(buffer, i);
            offsets.Add(buffer.Length);
        }
        return new PreparedBatches(buffer.Written.ToArray(), offsets.ToArray(), opsPerBatch, slots?.ToArray());
    }
}

/// <summary>The operations of an online run and how often each is drawn.</summary>
public sealed class WorkloadMix
{
    private readonly int[] _cumulativePercent;

    /// <summary>Creates a mix of <paramref name="ops"/> with <paramref name="percents"/> adding up to 100.</summary>
    public WorkloadMix(IReadOnlyList<OpType> ops, IReadOnlyList<int> percents)
    {
        if (ops.Count == 0 || ops.Count != percents.Count || ops.Count > byte.MaxValue)
            throw new ArgumentException("Each operation needs one percentage.", nameof(percents));
        Ops = new OpType[ops.Count];
        _cumulativePercent = new int[ops.Count];
        int sum = 0;
        for (int i = 0; i < ops.Count; i++)
        {
            if (ops[i] == OpType.SETGET)
                throw new ArgumentException("SETGET is itself a mix; list SET and GET instead.", nameof(ops));
            if (!OpTypes.IsSingleCommand(ops[i]))
                throw new ArgumentException($"{ops[i]} is several commands; online mixes take single commands.", nameof(ops));
            Ops[i] = ops[i];
            sum += percents[i];
            _cumulativePercent[i] = sum;
        }
        if (sum != 100)
            throw new ArgumentException("The percentages must add up to 100.", nameof(percents));
    }

    /// <summary>The operations, by slot.</summary>
    public OpType[] Ops { get; }

    /// <summary>Draws the slot of the next command.</summary>
    public int Pick(FastRandom random)
    {
        long draw = random.NextLong(100);
        for (int i = 0; i < _cumulativePercent.Length; i++)
        {
            if (draw < _cumulativePercent[i])
                return i;
        }
        return _cumulativePercent.Length - 1;
    }
}
