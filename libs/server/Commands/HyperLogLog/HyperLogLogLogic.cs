using System;
using System.Runtime.InteropServices;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of PFADD, PFMERGE and PFDEBUG's conversion to dense. PFADD's <see cref="StringInput.Value"/>
/// holds the elements' 64-bit hashes; PFMERGE's holds <see cref="HyperLogLog.RegisterCount"/> register bytes (one
/// per register) to merge in by maximum; PFDEBUG's is empty: it only rewrites a sparse value as dense (and creates
/// nothing). Each callback decodes the value into one byte per register,
/// applies the input and re-encodes; the value only grows (sparse gains entries, or turns dense),
/// so a change that does not fit the record goes to a copy with room to grow.
/// <see cref="StringOutput.Number"/> gets <see cref="Changed"/>, <see cref="Unchanged"/> or <see cref="WrongType"/>.
/// </summary>
internal static class HyperLogLogLogic
{
    /// <summary>A register changed or the key was created.</summary>
    public const long Changed = 1;

    /// <summary>No register changed.</summary>
    public const long Unchanged = 0;

    /// <summary>The key holds a string that is not a HyperLogLog; nothing changed.</summary>
    public const long WrongType = -1;

    /// <summary>A HyperLogLog is a raw string, as Redis builds and edits it; a string that is not one stays as it was.</summary>
    public static StringForm? FormOf(ref StringOutput output) => output.Number == WrongType ? null : StringForm.Raw;

    public static bool NeedInitialUpdate(ref StringInput input, ref StringOutput output) => input.Command != RespCommand.PFDEBUG;

    public static RecordFieldInfo InitialFieldInfo(ref StringInput input)
    {
        Span<byte> registers = stackalloc byte[HyperLogLog.RegisterCount];
        registers.Clear();
        Apply(registers, ref input);
        return new RecordFieldInfo(HyperLogLog.EncodedLength(sparse: true, registers));
    }

    public static bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        Span<byte> registers = stackalloc byte[HyperLogLog.RegisterCount];
        registers.Clear();
        Apply(registers, ref input);
        HyperLogLog.Encode(registers, record.Value);
        output.Number = Changed;
        return true;
    }

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        if (input.Command == RespCommand.PFADD && HyperLogLogInPlace.TryAdd(ref record, input.Value.Span, out bool changed))
        {
            output.Number = changed ? Changed : Unchanged;
            return true;
        }
        Span<byte> registers = stackalloc byte[HyperLogLog.RegisterCount];
        if (!TryUpdate(record.Value, ref input, registers, out output.Number, out int newLength))
            return true;
        if (newLength != record.ValueLength && !record.TrySetValueLength(newLength))
            return false;
        HyperLogLog.Encode(registers, record.Value);
        return true;
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output)
    {
        Span<byte> registers = stackalloc byte[HyperLogLog.RegisterCount];
        return TryUpdate(source.Value, ref input, registers, out output.Number, out _);
    }

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        Span<byte> registers = stackalloc byte[HyperLogLog.RegisterCount];
        if (!TryUpdate(source.Value, ref input, registers, out _, out int newLength))
            newLength = source.ValueLength;
        // A sparse value keeps growing: reserve as much again (never past the dense size) so the
        // next additions fit in place.
        int slack = Math.Max(0, Math.Min(newLength, HyperLogLog.DenseLength - newLength));
        return new RecordFieldInfo(newLength) { HasExpiration = source.Info.HasExpiration, ExtraValueSpace = slack };
    }

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output)
    {
        Span<byte> registers = stackalloc byte[HyperLogLog.RegisterCount];
        if (!TryUpdate(source.Value, ref input, registers, out output.Number, out int newLength))
            return false;
        if (destination.ValueLength != newLength && !destination.TrySetValueLength(newLength))
            throw new InvalidOperationException("The copy of a HyperLogLog was laid out smaller than its new value.");
        HyperLogLog.Encode(registers, destination.Value);
        RecordFit.SetExpiration(ref destination, source.Expiration);
        return true;
    }

    /// <summary>
    /// Decodes <paramref name="value"/> into <paramref name="registers"/> and applies the input.
    /// False when nothing is to be written: the value is not a HyperLogLog, or no register changed.
    /// </summary>
    private static bool TryUpdate(ReadOnlySpan<byte> value, ref StringInput input, Span<byte> registers, out long result, out int newLength)
    {
        registers.Clear();
        newLength = value.Length;
        if (!HyperLogLog.TryMergeInto(value, registers))
        {
            result = WrongType;
            return false;
        }
        if (input.Command == RespCommand.PFDEBUG)
        {
            bool convert = HyperLogLog.IsSparse(value);
            result = convert ? Changed : Unchanged;
            if (convert)
                newLength = HyperLogLog.DenseLength;
            return convert;
        }
        if (!Apply(registers, ref input))
        {
            result = Unchanged;
            return false;
        }
        result = Changed;
        newLength = HyperLogLog.EncodedLength(HyperLogLog.IsSparse(value), registers);
        return true;
    }

    /// <summary>Applies PFADD's hashes or PFMERGE's registers; true if any register grew.</summary>
    private static bool Apply(Span<byte> registers, ref StringInput input)
    {
        var data = input.Value.Span;
        bool changed = false;
        if (input.Command == RespCommand.PFADD)
        {
            foreach (ulong hash in MemoryMarshal.Cast<byte, ulong>(data))
                changed |= HyperLogLog.AddHash(registers, hash);
            return changed;
        }
        if (input.Command != RespCommand.PFMERGE || data.Length != HyperLogLog.RegisterCount)
            throw new InvalidOperationException($"{input.Command} is not a HyperLogLog update.");
        for (int i = 0; i < HyperLogLog.RegisterCount; i++)
        {
            if (data[i] > registers[i])
            {
                registers[i] = data[i];
                changed = true;
            }
        }
        return changed;
    }
}
