using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of SET and its relatives. A plain SET (also SETEX, PSETEX, MSET) is a blind
/// Upsert; SET with NX, XX, GET or KEEPTTL (also SETNX, GETSET, MSETNX) is an RMW because it depends
/// on the current record.
/// </summary>
internal static class SetLogic
{
    /// <summary>The form of the written value: encoded by its text, unless a copy (RENAME, COPY, MOVE) or BITOP says otherwise.</summary>
    public static StringForm FormOf(ref StringInput input) => input.Form;

    // ---- Upsert (plain SET) ----

    public static RecordFieldInfo UpsertFieldInfo(ReadOnlySpan<byte> value, ref StringInput input)
        => RecordFit.Fields(value.Length, input.ExpirationUnixMs);

    public static bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input)
    {
        // A SET without WITHETAG writes a value without an ETag (Garnet's rule; Commands/ETag).
        if (record.Info.HasETag)
            record.RemoveETag();
        if (!RecordFit.TryResize(ref record, value.Length, input.ExpirationUnixMs != 0, input.ExpirationUnixMs))
            return false;
        value.CopyTo(record.Value);
        return true;
    }

    public static bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input)
    {
        value.CopyTo(record.Value);
        RecordFit.SetExpiration(ref record, input.ExpirationUnixMs);
        return true;
    }

    // ---- RMW (conditional SET) ----

    public static bool NeedInitialUpdate(ref StringInput input, ref StringOutput output)
    {
        if ((input.Flags & StringInputFlags.IfExists) != 0)
        {
            output.Result = StringResult.ConditionNotMet;
            return false;
        }
        return true;
    }

    public static RecordFieldInfo InitialFieldInfo(ref StringInput input) => RecordFit.Fields(input.Value.Length, input.ExpirationUnixMs);

    public static bool InitialUpdater(ref LogRecord record, ref StringInput input)
    {
        input.Value.Span.CopyTo(record.Value);
        RecordFit.SetExpiration(ref record, input.ExpirationUnixMs);
        return true;
    }

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        CopyOldValue(record.Value, ref input, ref output);
        if ((input.Flags & StringInputFlags.IfNotExists) != 0)
        {
            output.Result = StringResult.ConditionNotMet;
            return true;
        }
        long expiration = NewExpiration(record.Expiration, ref input);
        if (record.Info.HasETag)
            record.RemoveETag();
        if (!RecordFit.TryResize(ref record, input.Value.Length, expiration != 0, expiration))
            return false;
        input.Value.Span.CopyTo(record.Value);
        return true;
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output)
    {
        CopyOldValue(source.Value, ref input, ref output);
        if ((input.Flags & StringInputFlags.IfNotExists) != 0)
        {
            output.Result = StringResult.ConditionNotMet;
            return false;
        }
        return true;
    }

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
        => RecordFit.Fields(input.Value.Length, NewExpiration(source.Expiration, ref input));

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input)
    {
        input.Value.Span.CopyTo(destination.Value);
        RecordFit.SetExpiration(ref destination, NewExpiration(source.Expiration, ref input));
        return true;
    }

    private static long NewExpiration(long current, ref StringInput input)
        => (input.Flags & StringInputFlags.KeepTtl) != 0 ? current : input.ExpirationUnixMs;

    private static void CopyOldValue(ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output)
    {
        if ((input.Flags & StringInputFlags.ReturnOld) != 0 && output.Buffer != null)
        {
            output.Buffer.Set(value);
            output.HasValue = true;
        }
    }
}
