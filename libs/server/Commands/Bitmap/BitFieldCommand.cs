using System;
using System.Runtime.InteropServices;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>BITFIELD and BITFIELD_RO: parsing the subcommands, one read or one RMW, and the reply.</summary>
public sealed unsafe partial class RespServerSession
{
    private static ReadOnlySpan<byte> ErrBitFieldType => "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is."u8;
    private static ReadOnlySpan<byte> ErrBitFieldOverflow => "ERR Invalid OVERFLOW type specified"u8;
    private static ReadOnlySpan<byte> ErrBitFieldReadOnly => "ERR BITFIELD_RO only supports the GET subcommand"u8;

    /// <summary>The parsed subcommands of the current BITFIELD, reused across commands.</summary>
    private BitFieldOp[] _bitFieldOps = []; // sized by the first BITFIELD

    private void BitField(bool readOnly)
    {
        int count = 0;
        bool writes = false;
        long requiredLength = 0;
        var overflow = BitFieldOverflow.Wrap;
        for (int i = 2; i < _argCount;)
        {
            int remaining = _argCount - i - 1;
            var arg = _args[i];
            BitFieldKind kind;
            if (arg.EqualsUpper("GET"u8) && remaining >= 2)
            {
                kind = BitFieldKind.Get;
            }
            else if (arg.EqualsUpper("SET"u8) && remaining >= 3)
            {
                kind = BitFieldKind.Set;
            }
            else if (arg.EqualsUpper("INCRBY"u8) && remaining >= 3)
            {
                kind = BitFieldKind.IncrBy;
            }
            else if (arg.EqualsUpper("OVERFLOW"u8) && remaining >= 1)
            {
                var mode = _args[i + 1];
                if (mode.EqualsUpper("WRAP"u8))
                    overflow = BitFieldOverflow.Wrap;
                else if (mode.EqualsUpper("SAT"u8))
                    overflow = BitFieldOverflow.Sat;
                else if (mode.EqualsUpper("FAIL"u8))
                    overflow = BitFieldOverflow.Fail;
                else
                {
                    _writer.WriteError(ErrBitFieldOverflow);
                    return;
                }
                i += 2;
                continue;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }

            if (!TryParseBitFieldType(_args[i + 1].Span, out bool signed, out int bits))
            {
                _writer.WriteError(ErrBitFieldType);
                return;
            }
            if (!TryParseBitFieldOffset(_args[i + 2].Span, bits, out long offset))
            {
                _writer.WriteError(ErrBitOffset);
                return;
            }
            long argument = 0;
            if (kind != BitFieldKind.Get)
            {
                if (!NumberFormat.TryParseLong(_args[i + 3].Span, out argument))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                writes = true;
                requiredLength = Math.Max(requiredLength, ((offset + bits - 1) >> 3) + 1);
            }

            if (count == _bitFieldOps.Length)
                Array.Resize(ref _bitFieldOps, Math.Max(8, count * 2));
            _bitFieldOps[count++] = new BitFieldOp
            {
                Kind = kind,
                Overflow = overflow,
                Signed = signed,
                Bits = (byte)bits,
                Offset = offset,
                Argument = argument,
            };
            i += kind == BitFieldKind.Get ? 3 : 4;
        }

        var ops = new ReadOnlySpan<BitFieldOp>(_bitFieldOps, 0, count);
        if (!writes)
        {
            var readOutput = default(StringOutput);
            var status = ReadString(_args[1].Span, RespCommand.GET, ref readOutput);
            CountLookup(status.Found);
            if (!status.Found && KeyspaceEventsOn)
                NotifyReadMiss(_args[1].Span, status);
            if (WriteStringResultError(readOutput.Result))
                return;
            var value = status.Found ? Output.Span : default;
            _writer.WriteArrayHeader(count);
            for (int i = 0; i < count; i++)
                _writer.WriteInteger(ops[i].Read(value));
            return;
        }
        if (readOnly)
        {
            _writer.WriteError(ErrBitFieldReadOnly);
            return;
        }

        var output = new StringOutput(Output);
        Status writeStatus;
        fixed (BitFieldOp* pointer = _bitFieldOps)
        {
            var input = new StringInput(RespCommand.BITFIELD)
            {
                Number = requiredLength,
                Value = new ArgSlice((byte*)pointer, count * sizeof(BitFieldOp)),
            };
            writeStatus = Store.RMW(_args[1].Span, ref input, ref output);
        }
        if (WriteIfOutOfMemory(writeStatus) || WriteStringResultError(output.Result))
            return;
        var results = MemoryMarshal.Cast<byte, long>(Output.Span);
        if (KeyspaceEventsOn)
            NotifyBitField(ops, results, writeStatus);
        _writer.WriteArrayHeader(count);
        for (int i = 0; i < count; i++)
        {
            if (results[2 * i + 1] != 0)
                _writer.WriteInteger(results[2 * i]);
            else
                _writer.WriteNull();
        }
    }

    /// <summary>
    /// BITFIELD's events, as Redis: "new" when the write created the key (even if every write failed on overflow),
    /// then "setbit" if a SET or INCRBY wrote (one that overflowed with FAIL answers nil and writes nothing).
    /// </summary>
    private void NotifyBitField(ReadOnlySpan<BitFieldOp> ops, ReadOnlySpan<long> results, Status status)
    {
        NotifyIfNew(status, _args[1].Span);
        for (int i = 0; i < ops.Length; i++)
        {
            if (ops[i].Kind != BitFieldKind.Get && results[2 * i + 1] != 0)
            {
                NotifyKeyspaceEvent(KeyspaceEventClasses.String, KeyspaceEventNames.SetBit, _args[1].Span);
                return;
            }
        }
    }

    /// <summary>Parses i1..i64 or u1..u63 (either case, as Redis).</summary>
    private static bool TryParseBitFieldType(ReadOnlySpan<byte> text, out bool signed, out int bits)
    {
        signed = false;
        bits = 0;
        if (text.Length < 2)
            return false;
        if (text[0] == 'i' || text[0] == 'I')
            signed = true;
        else if (text[0] != 'u' && text[0] != 'U')
            return false;
        if (!NumberFormat.TryParseLong(text.Slice(1), out long parsed) || parsed < 1 || parsed > (signed ? 64 : 63))
            return false;
        bits = (int)parsed;
        return true;
    }

    /// <summary>Parses a bit offset, or #N meaning N times the type's width; the first bit must lie in the first 512 MB.</summary>
    private static bool TryParseBitFieldOffset(ReadOnlySpan<byte> text, int bits, out long offset)
    {
        bool multiply = text.Length > 0 && text[0] == '#';
        if (!NumberFormat.TryParseLong(multiply ? text.Slice(1) : text, out offset) || offset < 0 || offset > MaxBitOffset)
            return false;
        if (multiply)
            offset *= bits;
        return offset <= MaxBitOffset;
    }
}
