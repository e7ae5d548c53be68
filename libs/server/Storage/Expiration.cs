using System;

namespace Garnet.server;

/// <summary>
/// Record expirations are absolute Unix times in milliseconds, the unit Redis keeps: every time Redis accepts, up to
/// <see cref="long.MaxValue"/>, is representable, and TTL/PTTL/EXPIRETIME/PEXPIRETIME report it exactly. 0 means no
/// expiration, so a time at or before 1970 is kept as 1 (already past).
/// </summary>
internal static class Expiration
{
    /// <summary>Now, in Unix milliseconds (the fixed instant of a logged or replayed command, see OperationClock).</summary>
    public static long NowUnixMs => Tsavorite.OperationClock.NowUnixMs;

    /// <summary>An absolute Unix time in milliseconds as a record keeps it: any time fits; 1970 and before are "already past".</summary>
    public static long FromUnixMilliseconds(long unixMs) => Math.Max(1, unixMs);

    /// <summary>Converts an amount of seconds or milliseconds to milliseconds, refusing overflow (Redis's check).</summary>
    public static bool TryToMilliseconds(long amount, bool milliseconds, out long result)
    {
        if (milliseconds)
        {
            result = amount;
            return true;
        }
        if (amount > long.MaxValue / 1000 || amount < long.MinValue / 1000)
        {
            result = 0;
            return false;
        }
        result = amount * 1000;
        return true;
    }

    /// <summary>
    /// A command's time argument (seconds or milliseconds, absolute or relative to now, possibly negative) as a record
    /// keeps it; false when Redis refuses it: seconds * 1000 overflows, or for a relative time now + the time does.
    /// </summary>
    public static bool TryFromArgument(long amount, bool milliseconds, bool absolute, out long unixMs)
    {
        unixMs = 0;
        if (!TryToMilliseconds(amount, milliseconds, out long ms))
            return false;
        if (!absolute)
            return TryFromRelativeMilliseconds(ms, out unixMs);
        unixMs = FromUnixMilliseconds(ms);
        return true;
    }

    /// <summary>A time relative to now (milliseconds, may be negative) as a record keeps it; false when now plus it overflows.</summary>
    public static bool TryFromRelativeMilliseconds(long milliseconds, out long unixMs)
    {
        long now = NowUnixMs;
        if (milliseconds > long.MaxValue - now)
        {
            unixMs = 0;
            return false;
        }
        unixMs = FromUnixMilliseconds(now + milliseconds);
        return true;
    }

    /// <summary>
    /// Milliseconds to seconds rounded to the nearest, as Redis's TTL and EXPIRETIME do ((ms + 500) / 1000), without
    /// overflowing near <see cref="long.MaxValue"/> (where Redis's own sum would).
    /// </summary>
    public static long RoundToSeconds(long milliseconds)
        => (milliseconds / 1000) + (milliseconds % 1000 >= 500 ? 1 : 0);

    /// <summary>
    /// An expiration of the earlier persisted formats (checkpoint format 1, operation log format 1), in .NET UTC ticks,
    /// as Unix milliseconds; 0 (none) stays 0, and a time before 1970 becomes 1 (already past).
    /// </summary>
    public static long FromLegacyTicks(long ticks)
        => ticks == 0 ? 0 : FromUnixMilliseconds((ticks - DateTime.UnixEpoch.Ticks) / TimeSpan.TicksPerMillisecond);
}
