using System;
using System.Runtime.InteropServices;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of the bitmap writes. SETBIT carries the bit offset in <see cref="StringInput.Number"/>
/// and the bit in <see cref="StringInput.Number2"/>, and answers the old bit in <see cref="StringOutput.Number"/>.
/// BITFIELD carries its parsed <see cref="BitFieldOp"/>s in <see cref="StringInput.Value"/> and the
/// length its writes need in <see cref="StringInput.Number"/>; it answers one (value, present) pair of
/// longs per op in the output buffer. Both grow the value with zeros and keep its expiration.
/// BITOP writes its destination with a plain Upsert and never reaches these callbacks.
/// </summary>
internal static class BitmapLogic
{
    /// <summary>Bytes of one BITFIELD reply in the output buffer: the value and whether it is present.</summary>
    public const int BitFieldResultSize = 2 * sizeof(long);

    /// <summary>Length in bytes the command needs the value to have at least.</summary>
    private static long RequiredLength(ref StringInput input) => input.Command switch
    {
        RespCommand.SETBIT => (input.Number >> 3) + 1,
        RespCommand.BITFIELD => input.Number,
        _ => throw new InvalidOperationException($"{input.Command} does not update bitmaps through RMW."),
    };

    /// <summary>SETBIT and BITFIELD edit the value as a raw buffer, as Redis does (even when no bit changes).</summary>
    public static StringForm FormOf() => StringForm.Raw;

    public static bool NeedInitialUpdate(ref StringInput input, ref StringOutput output) => true;

    public static RecordFieldInfo InitialFieldInfo(ref StringInput input) => new((int)RequiredLength(ref input));

    public static bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        var value = record.Value;
        value.Clear();
        Apply(value, ref input, ref output);
        return true;
    }

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        int oldLength = record.ValueLength;
        long required = RequiredLength(ref input);
        if (required > oldLength)
        {
            if (!record.TrySetValueLength((int)required))
                return false;
            record.Value.Slice(oldLength).Clear();
        }
        Apply(record.Value, ref input, ref output);
        return true;
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output) => true;

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        long required = RequiredLength(ref input);
        if (required <= source.ValueLength)
            return new RecordFieldInfo(source.ValueLength) { HasExpiration = source.Info.HasExpiration };
        // Bitmaps often grow bit by bit: reserve slack so the next growth fits in place (up to 1 MB).
        int length = (int)required;
        return new RecordFieldInfo(length) { HasExpiration = source.Info.HasExpiration, ExtraValueSpace = Math.Min(length, 1 << 20) };
    }

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output)
    {
        var value = destination.Value;
        source.Value.CopyTo(value);
        value.Slice(source.ValueLength).Clear();
        Apply(value, ref input, ref output);
        RecordFit.SetExpiration(ref destination, source.Expiration);
        return true;
    }

    /// <summary>Runs the command on a value already long enough for it.</summary>
    private static void Apply(Span<byte> value, ref StringInput input, ref StringOutput output)
    {
        if (input.Command == RespCommand.SETBIT)
        {
            output.Number = BitmapBits.SetBit(value, input.Number, (int)input.Number2);
            return;
        }
        var ops = MemoryMarshal.Cast<byte, BitFieldOp>(input.Value.Span);
        var results = MemoryMarshal.Cast<byte, long>(output.Buffer!.GetWritable(ops.Length * BitFieldResultSize));
        for (int i = 0; i < ops.Length; i++)
        {
            bool present = ops[i].Apply(value, out results[2 * i]);
            results[2 * i + 1] = present ? 1 : 0;
        }
        output.HasValue = true;
    }
}
