using System;
using System.Runtime.InteropServices;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>The bitmap commands (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP): parsing, engine operation and reply; BITFIELD is in BitFieldCommand.cs.</summary>
public sealed unsafe partial class RespServerSession
{
    private static ReadOnlySpan<byte> ErrBitOffset => "ERR bit offset is not an integer or out of range"u8;
    private static ReadOnlySpan<byte> ErrBitValue => "ERR bit is not an integer or out of range"u8;
    private static ReadOnlySpan<byte> ErrBitPosBit => "ERR The bit argument must be 1 or 0."u8;
    private static ReadOnlySpan<byte> ErrBitOpNot => "ERR BITOP NOT must be called with a single source key."u8;

    /// <summary>Largest bit offset: the last bit of a 512 MB string (proto-max-bulk-len).</summary>
    private const long MaxBitOffset = AppendLogic.MaxStringLength * 8 - 1;

    private void ExecuteBitmapCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.SETBIT: SetBit(); break;
            case RespCommand.GETBIT: GetBit(); break;
            case RespCommand.BITCOUNT: BitCount(); break;
            case RespCommand.BITPOS: BitPos(); break;
            case RespCommand.BITOP: BitOpCommand(); break;
            case RespCommand.BITFIELD: BitField(readOnly: false); break;
            case RespCommand.BITFIELD_RO: BitField(readOnly: true); break;
            default: throw new InvalidOperationException($"{command} is not a bitmap command.");
        }
    }

    /// <summary>Parses a SETBIT/GETBIT offset: 0 to 2^32 - 1.</summary>
    private bool TryParseBitOffset(int index, out long offset)
    {
        if (!NumberFormat.TryParseLong(_args[index].Span, out offset) || offset < 0 || offset > MaxBitOffset)
        {
            _writer.WriteError(ErrBitOffset);
            return false;
        }
        return true;
    }

    private void SetBit()
    {
        if (!TryParseBitOffset(2, out long offset))
            return;
        if (!NumberFormat.TryParseLong(_args[3].Span, out long bit) || (bit != 0 && bit != 1))
        {
            _writer.WriteError(ErrBitValue);
            return;
        }
        var input = new StringInput(RespCommand.SETBIT) { Number = offset, Number2 = bit };
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.SetBit, _args[1].Span, status);
        _writer.WriteInteger(output.Number);
    }

    private void GetBit()
    {
        if (!TryParseBitOffset(2, out long offset))
            return;
        var output = default(StringOutput);
        var status = ReadString(_args[1].Span, RespCommand.GET, ref output);
        CountLookup(status.Found);
        if (WriteStringResultError(output.Result))
            return;
        _writer.WriteInteger(status.Found ? BitmapBits.GetBit(Output.Span, offset) : 0);
    }

    /// <summary>
    /// Parses the optional BYTE|BIT unit at <paramref name="index"/>; false (with a syntax error
    /// written) for anything else.
    /// </summary>
    private bool TryParseBitUnit(int index, out bool inBits)
    {
        inBits = false;
        if (index >= _argCount)
            return true;
        if (_args[index].EqualsUpper("BIT"u8))
        {
            inBits = true;
            return true;
        }
        if (_args[index].EqualsUpper("BYTE"u8))
            return true;
        _writer.WriteError(RespStrings.ErrSyntax);
        return false;
    }

    /// <summary>
    /// Turns a BITCOUNT/BITPOS range (negative indexes count from the end) into an inclusive bit
    /// range inside a value of <paramref name="length"/> bytes; start &gt; end when it is empty.
    /// </summary>
    private static void ClampBitRange(long length, long start, long end, bool inBits, out long startBit, out long endBit)
    {
        long total = inBits ? length << 3 : length;
        if (start < 0)
            start = total + start;
        if (end < 0)
            end = total + end;
        if (start < 0)
            start = 0;
        if (end < 0)
            end = 0;
        if (end >= total)
            end = total - 1;
        if (start > end)
        {
            startBit = 0;
            endBit = -1;
        }
        else if (inBits)
        {
            startBit = start;
            endBit = end;
        }
        else
        {
            startBit = start << 3;
            endBit = (end << 3) + 7;
        }
    }

    private void BitCount()
    {
        long start = 0, end = -1;
        bool inBits = false;
        if (_argCount == 4 || _argCount == 5)
        {
            if (!NumberFormat.TryParseLong(_args[2].Span, out start) || !NumberFormat.TryParseLong(_args[3].Span, out end))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return;
            }
            if (!TryParseBitUnit(4, out inBits))
                return;
        }
        else if (_argCount != 2)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        var output = default(StringOutput);
        var status = ReadString(_args[1].Span, RespCommand.GET, ref output);
        CountLookup(status.Found);
        if (WriteStringResultError(output.Result))
            return;
        if (!status.Found)
        {
            _writer.WriteInteger(0);
            return;
        }
        // As Redis: two negative indexes in the wrong order are an empty range, before clamping could turn them into the first byte.
        if (start < 0 && end < 0 && start > end)
        {
            _writer.WriteInteger(0);
            return;
        }
        var value = Output.Span;
        ClampBitRange(value.Length, start, end, inBits, out long startBit, out long endBit);
        _writer.WriteInteger(BitmapBits.Count(value, startBit, endBit));
    }

    private void BitPos()
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long bit))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (bit != 0 && bit != 1)
        {
            _writer.WriteError(ErrBitPosBit);
            return;
        }
        var output = default(StringOutput);
        var status = ReadString(_args[1].Span, RespCommand.GET, ref output);
        CountLookup(status.Found);
        if (WriteStringResultError(output.Result))
            return;
        // A missing key is an endless run of zeros (Redis answers before looking at the range).
        if (!status.Found)
        {
            _writer.WriteInteger(bit != 0 ? -1 : 0);
            return;
        }
        if (_argCount > 6)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        var value = Output.Span;
        long start = 0, end = -1;
        bool endGiven = _argCount >= 5;
        bool inBits = false;
        if (_argCount >= 4)
        {
            if (!NumberFormat.TryParseLong(_args[3].Span, out start))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return;
            }
            if (!TryParseBitUnit(5, out inBits))
                return;
            if (endGiven && !NumberFormat.TryParseLong(_args[4].Span, out end))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return;
            }
        }
        if (!endGiven)
            end = inBits ? ((long)value.Length << 3) - 1 : value.Length - 1;
        ClampBitRange(value.Length, start, end, inBits, out long startBit, out long endBit);
        if (startBit > endBit)
        {
            _writer.WriteInteger(-1);
            return;
        }
        long position = BitmapBits.Find(value, startBit, endBit, (int)bit);
        // Looking for a clear bit with no explicit end: the string continues with zeros past the range.
        if (position < 0 && bit == 0 && !endGiven)
            position = endBit + 1;
        _writer.WriteInteger(position);
    }

    /// <summary>
    /// BITOP reads each source, computes the result, then writes (or deletes) the destination. Until
    /// transactions lock keys, the reads and the write are not one atomic step against other clients.
    /// </summary>
    private void BitOpCommand()
    {
        if (!TryParseBitOp(_args[1], out var op))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        int sourceCount = _argCount - 3;
        if (op == BitOp.Not && sourceCount != 1)
        {
            _writer.WriteError(ErrBitOpNot);
            return;
        }
        if ((op == BitOp.Diff || op == BitOp.Diff1 || op == BitOp.AndOr) && sourceCount < 2)
        {
            _writer.WriteError($"ERR BITOP {_args[1].ToString().ToUpperInvariant()} must be called with at least two source keys.");
            return;
        }

        var sources = new byte[sourceCount][];
        int maxLength = 0;
        for (int i = 0; i < sourceCount; i++)
        {
            var output = default(StringOutput);
            var status = ReadString(_args[3 + i].Span, RespCommand.GET, ref output);
            CountLookup(status.Found);
            if (WriteStringResultError(output.Result))
                return;
            sources[i] = status.Found ? Output.Span.ToArray() : Array.Empty<byte>();
            maxLength = Math.Max(maxLength, sources[i].Length);
        }

        var destination = _args[2].Span;
        if (maxLength == 0)
        {
            var deleted = Store.Delete(destination);
            if (WriteIfOutOfMemory(deleted))
                return;
            if (deleted.Found)
                NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, destination);
            _writer.WriteInteger(0);
            return;
        }

        var result = ComputeBitOp(op, sources, maxLength);

        // Redis builds BITOP's result as a raw buffer, whatever its bytes.
        var input = new StringInput(RespCommand.SET) { Form = StringForm.Raw };
        var writeOutput = new StringOutput(Output);
        var written = Store.Upsert(destination, result, ref input, ref writeOutput);
        if (WriteIfOutOfMemory(written))
            return;
        NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.Set, destination, written);
        _writer.WriteInteger(maxLength);
    }

    private static bool TryParseBitOp(ArgSlice name, out BitOp op)
    {
        if (name.EqualsUpper("AND"u8))
            op = BitOp.And;
        else if (name.EqualsUpper("OR"u8))
            op = BitOp.Or;
        else if (name.EqualsUpper("XOR"u8))
            op = BitOp.Xor;
        else if (name.EqualsUpper("NOT"u8))
            op = BitOp.Not;
        else if (name.EqualsUpper("DIFF"u8))
            op = BitOp.Diff;
        else if (name.EqualsUpper("DIFF1"u8))
            op = BitOp.Diff1;
        else if (name.EqualsUpper("ANDOR"u8))
            op = BitOp.AndOr;
        else if (name.EqualsUpper("ONE"u8))
            op = BitOp.One;
        else
        {
            op = default;
            return false;
        }
        return true;
    }

    /// <summary>BITOP's result over <paramref name="maxLength"/> bytes; shorter sources are zero-padded.</summary>
    private static byte[] ComputeBitOp(BitOp op, byte[][] sources, int maxLength)
    {
        var result = new byte[maxLength];
        switch (op)
        {
            case BitOp.Not:
                BitmapBits.Not(result, sources[0]);
                return result;
            case BitOp.And:
            case BitOp.Or:
            case BitOp.Xor:
                var combine = op == BitOp.And ? BitCombine.And : op == BitOp.Or ? BitCombine.Or : BitCombine.Xor;
                sources[0].CopyTo(result, 0);
                for (int i = 1; i < sources.Length; i++)
                    BitmapBits.Combine(result, sources[i], combine);
                return result;
            case BitOp.One:
                // Bits seen once so far (a third sighting flips back on) and bits seen more than once.
                var more = new byte[maxLength];
                var both = new byte[maxLength];
                foreach (var source in sources)
                {
                    result.CopyTo(both, 0);
                    BitmapBits.Combine(both, source, BitCombine.And);
                    BitmapBits.Combine(more, both, BitCombine.Or);
                    BitmapBits.Combine(result, source, BitCombine.Xor);
                }
                BitmapBits.Combine(result, more, BitCombine.AndNot);
                return result;
            default:
                // DIFF, DIFF1 and ANDOR: the first source X against the union of the others.
                var others = new byte[maxLength];
                for (int i = 1; i < sources.Length; i++)
                    BitmapBits.Combine(others, sources[i], BitCombine.Or);
                if (op == BitOp.Diff1)
                {
                    BitmapBits.Combine(others, sources[0], BitCombine.AndNot);
                    return others;
                }
                sources[0].CopyTo(result, 0);
                BitmapBits.Combine(result, others, op == BitOp.Diff ? BitCombine.AndNot : BitCombine.And);
                return result;
        }
    }
}
