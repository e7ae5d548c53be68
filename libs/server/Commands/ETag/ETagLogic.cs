using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of the ETag writes: SET ... WITHETAG, SETIFMATCH, SETIFGREATER and DELIFGREATER (the ETag
/// compared with in <see cref="StringInput.Number"/>), the Reader part of GETWITHETAG and GETIFNOTMATCH, and
/// what every other string write does to a record's ETag (<see cref="Carried"/>, <see cref="Advance"/>).
/// The ETag is the record's optional 8-byte field (<see cref="RecordInfo.HasETag"/>); a key without one has
/// ETag 0. The result ETag goes to <see cref="StringOutput.Number"/>; an unmet condition is
/// <see cref="StringResult.ConditionNotMet"/>, with the current value copied unless NOGET was given.
/// </summary>
internal static class ETagLogic
{
    // ---- What other string writes do to an ETag (Garnet: they advance it when they change the value) ----

    /// <summary>
    /// Whether a copy of a record for <paramref name="input"/> keeps its ETag: every string write does except a
    /// plain SET (and its relatives SETNX, GETSET, MSETNX), which writes a new value without one.
    /// </summary>
    public static bool Carried(ref StringInput input)
        => input.Command is not (RespCommand.SET or RespCommand.SETNX or RespCommand.GETSET or RespCommand.MSETNX);

    /// <summary>Advances the ETag of a record a write changed in place (called only when it has one).</summary>
    public static void Advance(ref LogRecord record) => record.TrySetETag(record.ETag + 1);

    /// <summary>Gives a copy the ETag of its source, advanced when the write changed the value.</summary>
    public static void CarryTo(in LogRecord source, ref LogRecord destination, bool changedValue)
        => destination.TrySetETag(source.ETag + (changedValue ? 1 : 0));

    // ---- Reads ----

    /// <summary>GETWITHETAG and GETIFNOTMATCH: the ETag, and the value unless GETIFNOTMATCH's ETag is the key's.</summary>
    public static bool Reader(in LogRecord record, ref StringInput input, ref StringOutput output)
    {
        long etag = record.ETag;
        output.Number = etag;
        if (input.Command == RespCommand.GETIFNOTMATCH && input.Number == etag)
            return true;
        output.Buffer!.Set(record.Value);
        output.HasValue = true;
        return true;
    }

    // ---- RMW ----

    /// <summary>Whether the key's current ETag lets the command write (a SET WITHETAG always may, NX aside).</summary>
    private static bool Holds(ref StringInput input, long current) => input.Command switch
    {
        RespCommand.SETIFMATCH => input.Number == current,
        RespCommand.SETIFGREATER or RespCommand.DELIFGREATER => input.Number > current,
        _ => true,
    };

    /// <summary>The ETag a write leaves on a key whose ETag was <paramref name="current"/>.</summary>
    private static long NextETag(ref StringInput input, long current)
    {
        if (input.Command == RespCommand.SETIFGREATER || (input.Flags & StringInputFlags.ExactETag) != 0)
            return input.Number;
        return current + 1;
    }

    /// <summary>The ETag of a key the write creates (or puts over an object): SETIFMATCH counts the ETag given as the key's.</summary>
    private static long InitialETag(ref StringInput input)
        => NextETag(ref input, input.Command == RespCommand.SETIFMATCH ? input.Number : 0);

    /// <summary>The expiration after the write: SET's rules for SET WITHETAG, else the one given or the one the key had.</summary>
    private static long NewExpiration(long current, ref StringInput input)
    {
        if (input.Command == RespCommand.SET)
            return (input.Flags & StringInputFlags.KeepTtl) != 0 ? current : input.ExpirationUnixMs;
        return input.ExpirationUnixMs != 0 ? input.ExpirationUnixMs : current;
    }

    public static bool NeedInitialUpdate(ref StringInput input, ref StringOutput output)
    {
        if (input.Command == RespCommand.DELIFGREATER)
            return false;
        if ((input.Flags & StringInputFlags.IfExists) != 0)
        {
            output.Result = StringResult.ConditionNotMet;
            return false;
        }
        return true;
    }

    public static RecordFieldInfo InitialFieldInfo(ref StringInput input)
        => new(input.Value.Length) { HasETag = true, HasExpiration = input.ExpirationUnixMs != 0 };

    public static bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output)
    {
        input.Value.Span.CopyTo(record.Value);
        RecordFit.SetExpiration(ref record, input.ExpirationUnixMs);
        long etag = InitialETag(ref input);
        record.TrySetETag(etag);
        output.Number = etag;
        return true;
    }

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        if (!Decide(in record, ref input, ref output, ref rmwInfo))
            return true;
        // A key without an ETag field gets one in a new record (the first ETag write on it).
        if (!record.Info.HasETag)
            return false;
        long expiration = NewExpiration(record.Expiration, ref input);
        long etag = NextETag(ref input, record.ETag);
        if (!RecordFit.TryResize(ref record, input.Value.Length, expiration != 0, expiration))
            return false;
        input.Value.Span.CopyTo(record.Value);
        record.TrySetETag(etag);
        output.Number = etag;
        return true;
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        // Over an object (StringCommandsOverObjects lets only the ETag sets here) the write is unconditional, as SET's is.
        return source.Info.ValueIsObject || Decide(in source, ref input, ref output, ref rmwInfo);
    }

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
        => new(input.Value.Length) { HasETag = true, HasExpiration = NewExpiration(source.Expiration, ref input) != 0 };

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output)
    {
        input.Value.Span.CopyTo(destination.Value);
        RecordFit.SetExpiration(ref destination, NewExpiration(source.Expiration, ref input));
        long etag = source.Info.ValueIsObject ? InitialETag(ref input) : NextETag(ref input, source.ETag);
        destination.TrySetETag(etag);
        output.Number = etag;
        return true;
    }

    /// <summary>
    /// Checks the condition against the key's record: true when the write goes ahead. Otherwise reports the unmet
    /// condition (with the ETag and, unless NOGET, the value), or for DELIFGREATER deletes the key when it holds.
    /// </summary>
    private static bool Decide(in LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        long current = record.ETag;
        if (input.Command == RespCommand.DELIFGREATER)
        {
            if (Holds(ref input, current))
            {
                output.Number = 1;
                rmwInfo.Action = OperationAction.ExpireAndStop;
            }
            else
            {
                output.Result = StringResult.ConditionNotMet;
            }
            return false;
        }
        if ((input.Flags & StringInputFlags.IfNotExists) != 0)
        {
            output.Result = StringResult.ConditionNotMet;
            return false;
        }
        if (Holds(ref input, current))
            return true;
        output.Result = StringResult.ConditionNotMet;
        output.Number = current;
        if ((input.Flags & StringInputFlags.NoGet) == 0)
        {
            output.Buffer!.Set(record.Value);
            output.HasValue = true;
        }
        return false;
    }
}
