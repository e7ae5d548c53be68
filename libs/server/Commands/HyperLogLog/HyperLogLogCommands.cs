using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>The HyperLogLog commands PFADD, PFCOUNT and PFMERGE: parsing, reads and merges, and replies.</summary>
public sealed unsafe partial class RespServerSession
{
    // Session-owned, pinned buffers that engine inputs point into: PFADD's element hashes (grown on
    // demand) and the registers PFCOUNT and PFMERGE merge, one byte per register.
    private byte[]? _hllHashes;
    private byte[]? _hllRegisters;

    private void ExecuteHyperLogLogCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.PFADD: PfAdd(); break;
            case RespCommand.PFCOUNT: PfCount(); break;
            case RespCommand.PFMERGE: PfMerge(); break;
            case RespCommand.PFDEBUG: PfDebug(); break; // PfDebugCommand.cs
            case RespCommand.PFSELFTEST: PfSelfTest(); break; // PfDebugCommand.cs
            default: throw new InvalidOperationException($"{command} is not a HyperLogLog command.");
        }
    }

    private void PfAdd()
    {
        int elements = _argCount - 2;
        int length = elements * sizeof(ulong);
        if (_hllHashes == null || _hllHashes.Length < length)
            _hllHashes = GC.AllocateUninitializedArray<byte>(Math.Max(256, (int)Math.Min(Array.MaxLength, 2L * length)), pinned: true);
        fixed (byte* hashes = _hllHashes)
        {
            // The array is pinned for its lifetime, so the pointer stays valid after this block too.
            for (int i = 0; i < elements; i++)
                ((ulong*)hashes)[i] = HyperLogLog.HashElement(_args[i + 2].Span);
            var input = new StringInput(RespCommand.PFADD) { Value = new ArgSlice(hashes, length) };
            UpdateHyperLogLog(ref input, replyOk: false);
        }
    }

    private void PfCount()
    {
        var registers = HyperLogLogRegisters();
        if (!TryMergeKeys(1, registers))
            return;
        _writer.WriteInteger(HyperLogLog.Estimate(registers));
    }

    /// <summary>
    /// Reads the sources (and the destination, whose registers stay in the union) and writes the union
    /// with one RMW on the destination. Without transaction locks (a later issue) the reads and the
    /// write are not one atomic step against concurrent writers of the sources.
    /// </summary>
    private void PfMerge()
    {
        var registers = HyperLogLogRegisters();
        if (!TryMergeKeys(2, registers))
            return;
        fixed (byte* pointer = _hllRegisters)
        {
            var input = new StringInput(RespCommand.PFMERGE) { Value = new ArgSlice(pointer, HyperLogLog.RegisterCount) };
            UpdateHyperLogLog(ref input, replyOk: true);
        }
    }

    /// <summary>Runs PFADD's or PFMERGE's RMW on the first key and replies.</summary>
    private void UpdateHyperLogLog(ref StringInput input, bool replyOk)
    {
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        if (output.Number == HyperLogLogLogic.WrongType)
        {
            _writer.WriteError(HyperLogLog.WrongTypeError);
            return;
        }
        // PFMERGE reports "pfadd" whatever it changed, as Redis does; PFADD only when a register changed.
        if (replyOk || output.Number == HyperLogLogLogic.Changed)
            NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.PfAdd, _args[1].Span, status);
        if (replyOk)
            _writer.WriteOk();
        else
            _writer.WriteInteger(output.Number);
    }

    /// <summary>The cleared merge registers.</summary>
    private Span<byte> HyperLogLogRegisters()
    {
        _hllRegisters ??= GC.AllocateUninitializedArray<byte>(HyperLogLog.RegisterCount, pinned: true);
        var registers = _hllRegisters.AsSpan();
        registers.Clear();
        return registers;
    }

    /// <summary>
    /// Merges the HyperLogLogs of the keys from argument <paramref name="firstKey"/> on into
    /// <paramref name="registers"/>; missing keys count as empty. Replies WRONGTYPE and returns false
    /// when a key holds another string.
    /// </summary>
    private bool TryMergeKeys(int firstKey, Span<byte> registers)
    {
        for (int i = firstKey; i < _argCount; i++)
        {
            var output = default(StringOutput);
            var status = ReadString(_args[i].Span, RespCommand.GET, ref output);
            if (WriteStringResultError(output.Result))
                return false;
            if (status.Found && !HyperLogLog.TryMergeInto(Output.Span, registers))
            {
                _writer.WriteError(HyperLogLog.WrongTypeError);
                return false;
            }
        }
        return true;
    }
}
