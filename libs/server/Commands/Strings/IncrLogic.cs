using System;
using System.Buffers.Text;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of INCR, INCRBY, DECR, DECRBY (delta in <see cref="StringInput.Number"/>) and
/// INCRBYFLOAT (delta in <see cref="StringInput.Float"/>). Values are stored as decimal text, as in
/// Redis; the expiration is kept. INCRBYFLOAT computes in x87 extended precision and stores Redis's
/// "%.17Lf" text, which is also the reply (copied to the output buffer).
/// </summary>
internal static class IncrLogic
{
    /// <summary>Room for the text of any result: a long (20 bytes) or a long double.</summary>
    private static int TextRoom(ref StringInput input) => IsFloat(ref input) ? LongDouble.MaxHumanLength : 24;

    private static bool IsFloat(ref StringInput input) => input.Command == RespCommand.INCRBYFLOAT;

    /// <summary>An integer result is encoded as Redis encodes a new integer; INCRBYFLOAT's text is a plain string (never int).</summary>
    public static StringForm FormOf(ref StringInput input) => IsFloat(ref input) ? StringForm.Text : StringForm.Encoded;

    public static RecordFieldInfo InitialFieldInfo(ref StringInput input)
    {
        Span<byte> text = stackalloc byte[TextRoom(ref input)];
        return new RecordFieldInfo(Format(ref input, input.Number, LongDouble.Zero + input.Float, text));
    }

    public static bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        var floating = LongDouble.Zero + input.Float;
        if (IsFloat(ref input) && !floating.IsFinite)
        {
            output.Result = StringResult.NaNOrInfinity;
            return false;
        }
        Span<byte> text = stackalloc byte[TextRoom(ref input)];
        int length = Format(ref input, input.Number, floating, text);
        text.Slice(0, length).CopyTo(record.Value);
        output.Number = input.Number;
        SetTextOutput(ref input, ref output, text.Slice(0, length));
        return true;
    }

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        if (!TryCompute(record.Value, ref input, ref output, out long number, out var floating))
            return true; // error reported in output; nothing changes
        Span<byte> text = stackalloc byte[TextRoom(ref input)];
        int length = Format(ref input, number, floating, text);
        if (!record.TrySetValueLength(length))
            return false;
        text.Slice(0, length).CopyTo(record.Value);
        SetTextOutput(ref input, ref output, text.Slice(0, length));
        return true;
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output)
        => TryCompute(source.Value, ref input, ref output, out _, out _);

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        var scratch = new StringOutput(null);
        TryCompute(source.Value, ref input, ref scratch, out long number, out var floating);
        Span<byte> text = stackalloc byte[TextRoom(ref input)];
        return new RecordFieldInfo(Format(ref input, number, floating, text)) { HasExpiration = source.Info.HasExpiration };
    }

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output)
    {
        if (!TryCompute(source.Value, ref input, ref output, out long number, out var floating))
            return false;
        Span<byte> text = stackalloc byte[TextRoom(ref input)];
        int length = Format(ref input, number, floating, text);
        text.Slice(0, length).CopyTo(destination.Value);
        RecordFit.SetExpiration(ref destination, source.Expiration);
        SetTextOutput(ref input, ref output, text.Slice(0, length));
        return true;
    }

    /// <summary>Parses the current value and applies the delta; on error sets the output's result.</summary>
    private static bool TryCompute(ReadOnlySpan<byte> current, ref StringInput input, ref StringOutput output, out long number, out LongDouble floating)
    {
        number = 0;
        floating = LongDouble.Zero;
        if (IsFloat(ref input))
        {
            if (!LongDouble.TryParse(current, out var value))
            {
                output.Result = StringResult.NotFloat;
                return false;
            }
            floating = value + input.Float;
            if (!floating.IsFinite)
            {
                output.Result = StringResult.NaNOrInfinity;
                return false;
            }
            return true;
        }
        if (!NumberFormat.TryParseLong(current, out long old))
        {
            output.Result = StringResult.NotInteger;
            return false;
        }
        long delta = input.Number;
        if ((delta > 0 && old > long.MaxValue - delta) || (delta < 0 && old < long.MinValue - delta))
        {
            output.Result = StringResult.Overflow;
            return false;
        }
        number = old + delta;
        output.Number = number;
        return true;
    }

    private static int Format(ref StringInput input, long number, LongDouble floating, Span<byte> destination)
    {
        if (IsFloat(ref input))
            return floating.FormatHuman(destination);
        Utf8Formatter.TryFormat(number, destination, out int written);
        return written;
    }

    private static void SetTextOutput(ref StringInput input, ref StringOutput output, ReadOnlySpan<byte> text)
    {
        if (IsFloat(ref input) && output.Buffer != null)
        {
            output.Buffer.Set(text);
            output.HasValue = true;
        }
    }
}
