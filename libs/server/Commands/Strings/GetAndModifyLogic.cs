using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of GETDEL and GETEX: both return the current value and then delete it (GETDEL,
/// or GETEX with a time already past) or change its expiration (GETEX EX/PX/EXAT/PXAT/PERSIST).
/// </summary>
internal static class GetAndModifyLogic
{
    public static bool NeedInitialUpdate() => false;

    private static bool Deletes(ref StringInput input)
        => input.Command == RespCommand.GETDEL
            || (input.ExpirationUnixMs != 0 && input.ExpirationUnixMs <= Expiration.NowUnixMs);

    private static long NewExpiration(long current, ref StringInput input)
        => (input.Flags & StringInputFlags.Persist) != 0 ? 0 : input.ExpirationUnixMs != 0 ? input.ExpirationUnixMs : current;

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        output.Buffer!.Set(record.Value);
        output.HasValue = true;
        output.Number = record.Info.HasExpiration ? 1 : 0; // whether PERSIST removes a time to live ("persist" event)
        if (Deletes(ref input))
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            return true;
        }
        long expiration = NewExpiration(record.Expiration, ref input);
        return RecordFit.TryResize(ref record, record.ValueLength, expiration != 0, expiration);
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        output.Buffer!.Set(source.Value);
        output.HasValue = true;
        output.Number = source.Info.HasExpiration ? 1 : 0;
        if (Deletes(ref input))
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            return false;
        }
        return NewExpiration(source.Expiration, ref input) != source.Expiration;
    }

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
        => RecordFit.Fields(source.ValueLength, NewExpiration(source.Expiration, ref input));

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input)
    {
        source.Value.CopyTo(destination.Value);
        RecordFit.SetExpiration(ref destination, NewExpiration(source.Expiration, ref input));
        return true;
    }
}
