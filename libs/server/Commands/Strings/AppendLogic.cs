using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of APPEND (data in <see cref="StringInput.Value"/>) and SETRANGE (offset in
/// <see cref="StringInput.Number"/>): both grow the value, so copies reserve slack for the next growth.
/// The new length goes to <see cref="StringOutput.Number"/>.
/// </summary>
internal static class AppendLogic
{
    /// <summary>Largest string Redis allows (proto-max-bulk-len).</summary>
    public const long MaxStringLength = 512L * 1024 * 1024;

    private static long NewLength(int currentLength, ref StringInput input)
        => input.Command == RespCommand.APPEND
            ? (long)currentLength + input.Value.Length
            : Math.Max(currentLength, input.Number + input.Value.Length);

    /// <summary>
    /// APPEND to a missing key stores its argument as SET would; any other APPEND or SETRANGE edits a raw
    /// buffer (Redis unshares the value first, even to append nothing).
    /// </summary>
    public static StringForm FormOf(ref StringInput input, bool created)
        => created && input.Command == RespCommand.APPEND ? StringForm.Encoded : StringForm.Raw;

    public static bool NeedInitialUpdate(ref StringInput input, ref StringOutput output)
    {
        // SETRANGE with empty data on a missing key creates nothing and answers 0.
        if (input.Command == RespCommand.SETRANGE && input.Value.Length == 0)
        {
            output.Number = 0;
            return false;
        }
        return true;
    }

    public static RecordFieldInfo InitialFieldInfo(ref StringInput input) => new((int)NewLength(0, ref input));

    public static bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        var value = record.Value;
        int offset = input.Command == RespCommand.APPEND ? 0 : (int)input.Number;
        value.Slice(0, offset).Clear();
        input.Value.Span.CopyTo(value.Slice(offset));
        output.Number = value.Length;
        return true;
    }

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        int oldLength = record.ValueLength;
        long newLength = NewLength(oldLength, ref input);
        if (newLength > MaxStringLength)
        {
            output.Result = StringResult.TooLarge;
            return true;
        }
        if (!record.TrySetValueLength((int)newLength))
            return false;
        Write(record.Value, oldLength, ref input);
        output.Number = newLength;
        return true;
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output)
    {
        if (NewLength(source.ValueLength, ref input) > MaxStringLength)
        {
            output.Result = StringResult.TooLarge;
            return false;
        }
        return true;
    }

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        int newLength = (int)Math.Min(NewLength(source.ValueLength, ref input), MaxStringLength);
        // Reserve room to grow in place next time, as Redis's strings do (up to 1 MB of slack).
        return new RecordFieldInfo(newLength) { HasExpiration = source.Info.HasExpiration, ExtraValueSpace = Math.Min(newLength, 1 << 20) };
    }

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output)
    {
        if (NewLength(source.ValueLength, ref input) > MaxStringLength)
        {
            output.Result = StringResult.TooLarge;
            return false;
        }
        source.Value.CopyTo(destination.Value);
        Write(destination.Value, source.ValueLength, ref input);
        RecordFit.SetExpiration(ref destination, source.Expiration);
        output.Number = destination.ValueLength;
        return true;
    }

    /// <summary>Writes the new bytes into a value already resized; SETRANGE zero-fills any gap.</summary>
    private static void Write(Span<byte> value, int oldLength, ref StringInput input)
    {
        if (input.Command == RespCommand.APPEND)
        {
            input.Value.Span.CopyTo(value.Slice(oldLength));
            return;
        }
        int offset = (int)input.Number;
        if (offset > oldLength)
            value.Slice(oldLength, offset - oldLength).Clear();
        input.Value.Span.CopyTo(value.Slice(offset));
    }
}
