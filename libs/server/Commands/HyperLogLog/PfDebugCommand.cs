using System;
using System.Text;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// PFDEBUG GETREG|DECODE|ENCODING|TODENSE key and PFSELFTEST, as Redis 7.2 answers them. Like Redis, PFDEBUG looks
/// the key up before it reads the subcommand, so a missing key or a string that is not a HyperLogLog is reported
/// first. GETREG and TODENSE turn a sparse value dense (a write, logged like any other).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static ReadOnlySpan<byte> ErrPfDebugNoKey => "ERR The specified key does not exist"u8;
    private static ReadOnlySpan<byte> ErrPfDebugNotSparse => "ERR HLL encoding is not sparse"u8;

    private void PfDebug()
    {
        var subcommand = _args[1].Span;
        bool getRegisters = Ascii.EqualsIgnoreCase(subcommand, "GETREG"u8);
        if (getRegisters || Ascii.EqualsIgnoreCase(subcommand, "TODENSE"u8))
        {
            if (!TryPfDebugToDense(out bool converted))
                return;
            if (getRegisters)
                PfDebugRegisters();
            else
                _writer.WriteInteger(converted ? 1 : 0);
            return;
        }

        var registers = HyperLogLogRegisters();
        if (!TryReadHyperLogLog(registers, out bool sparse))
            return;
        if (Ascii.EqualsIgnoreCase(subcommand, "ENCODING"u8))
        {
            _writer.WriteSimpleString(sparse ? "sparse"u8 : "dense"u8);
        }
        else if (Ascii.EqualsIgnoreCase(subcommand, "DECODE"u8))
        {
            if (!sparse)
            {
                _writer.WriteError(ErrPfDebugNotSparse);
                return;
            }
            var text = new byte[HyperLogLogSparseText.MaxLength(registers.Length - registers.Count((byte)0))];
            int length = HyperLogLogSparseText.Write(registers, text);
            _writer.WriteBulk(text.AsSpan(0, length));
        }
        else
        {
            _writer.WriteError($"ERR Unknown PFDEBUG subcommand '{Encoding.UTF8.GetString(subcommand)}'");
        }
    }

    /// <summary>Turns the key's value dense if it is sparse; false (with the error replied) when there is no HyperLogLog to convert.</summary>
    private bool TryPfDebugToDense(out bool converted)
    {
        converted = false;
        var input = new StringInput(RespCommand.PFDEBUG);
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[2].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return false;
        if (status.NotFound)
        {
            _writer.WriteError(ErrPfDebugNoKey);
            return false;
        }
        if (output.Number == HyperLogLogLogic.WrongType)
        {
            _writer.WriteError(HyperLogLog.WrongTypeError);
            return false;
        }
        converted = output.Number == HyperLogLogLogic.Changed;
        return true;
    }

    /// <summary>GETREG's reply: every register, read after the conversion.</summary>
    private void PfDebugRegisters()
    {
        var registers = HyperLogLogRegisters();
        if (!TryReadHyperLogLog(registers, out _))
            return;
        _writer.WriteArrayHeader(HyperLogLog.RegisterCount);
        foreach (byte register in registers)
            _writer.WriteInteger(register);
    }

    /// <summary>
    /// Reads the key's HyperLogLog into <paramref name="registers"/> (cleared); false, with the error replied,
    /// when the key is missing or does not hold one.
    /// </summary>
    private bool TryReadHyperLogLog(Span<byte> registers, out bool sparse)
    {
        sparse = false;
        var output = default(StringOutput);
        var status = ReadString(_args[2].Span, RespCommand.GET, ref output);
        if (WriteStringResultError(output.Result))
            return false;
        if (!status.Found)
        {
            _writer.WriteError(ErrPfDebugNoKey);
            return false;
        }
        if (!HyperLogLog.TryMergeInto(Output.Span, registers))
        {
            _writer.WriteError(HyperLogLog.WrongTypeError);
            return false;
        }
        sparse = HyperLogLog.IsSparse(Output.Span);
        return true;
    }

    private void PfSelfTest()
    {
        string? failure = HyperLogLogSelfTest.Run();
        if (failure == null)
            _writer.WriteOk();
        else
            _writer.WriteError(failure);
    }
}
