using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Engine callbacks of EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (absolute time in
/// <see cref="StringInput.ExpirationUnixMs"/>, conditions NX/XX/GT/LT in the flags) and PERSIST.
/// <see cref="StringOutput.Number"/> is 1 when the expiration changed (or the key was deleted because
/// the time is already past), 0 otherwise.
/// </summary>
internal static class ExpireLogic
{
    public static bool NeedInitialUpdate(ref StringOutput output)
    {
        output.Number = 0;
        return false;
    }

    /// <summary>Whether the conditions allow replacing <paramref name="current"/> (0 = no expiration, i.e. infinite).</summary>
    private static bool ConditionsAllow(long current, ref StringInput input)
    {
        var flags = input.Flags;
        if ((flags & StringInputFlags.ExpireNx) != 0 && current != 0)
            return false;
        if ((flags & StringInputFlags.ExpireXx) != 0 && current == 0)
            return false;
        if ((flags & StringInputFlags.ExpireGt) != 0 && (current == 0 || input.ExpirationUnixMs <= current))
            return false;
        if ((flags & StringInputFlags.ExpireLt) != 0 && current != 0 && input.ExpirationUnixMs >= current)
            return false;
        return true;
    }

    private static bool IsPersist(ref StringInput input) => input.Command == RespCommand.PERSIST;

    private static bool IsPast(ref StringInput input) => input.ExpirationUnixMs <= Expiration.NowUnixMs;

    public static bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        long current = record.Expiration;
        if (IsPersist(ref input))
        {
            output.Number = current != 0 ? 1 : 0;
            record.RemoveExpiration();
            return true;
        }
        if (!ConditionsAllow(current, ref input))
        {
            output.Number = 0;
            return true;
        }
        output.Number = 1;
        if (IsPast(ref input))
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            return true;
        }
        return record.TrySetExpiration(input.ExpirationUnixMs);
    }

    public static bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        long current = source.Expiration;
        if (IsPersist(ref input))
        {
            output.Number = current != 0 ? 1 : 0;
            return current != 0;
        }
        if (!ConditionsAllow(current, ref input))
        {
            output.Number = 0;
            return false;
        }
        output.Number = 1;
        if (IsPast(ref input))
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            return false;
        }
        return true;
    }

    public static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
        => RecordFit.Fields(source.ValueLength, IsPersist(ref input) ? 0 : input.ExpirationUnixMs);

    public static bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input)
    {
        source.Value.CopyTo(destination.Value);
        if (!IsPersist(ref input))
            RecordFit.SetExpiration(ref destination, input.ExpirationUnixMs);
        return true;
    }
}
