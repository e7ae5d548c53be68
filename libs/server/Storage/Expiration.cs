using System;

namespace Garnet.server;

/// <summary>
/// Record expirations are absolute UTC ticks (100 ns); commands speak Unix seconds and milliseconds.
/// Times whose tick value would overflow a 64-bit integer (about 27,000 years from 1970) are refused.
/// </summary>
internal static class Expiration
{
    private const long TicksPerMillisecond = TimeSpan.TicksPerMillisecond;
    private static readonly long s_epochTicks = DateTime.UnixEpoch.Ticks;
    private static readonly long s_maxUnixMilliseconds = (long.MaxValue - s_epochTicks) / TicksPerMillisecond;

    /// <summary>Now, in record units.</summary>
    public static long NowTicks => Tsavorite.OperationClock.NowTicks;

    /// <summary>Now, in Unix milliseconds.</summary>
    public static long NowUnixMilliseconds => (NowTicks - s_epochTicks) / TicksPerMillisecond;

    /// <summary>Converts an absolute Unix time in milliseconds; times before 1970 become "already past".</summary>
    public static bool TryFromUnixMilliseconds(long unixMilliseconds, out long ticks)
    {
        if (unixMilliseconds > s_maxUnixMilliseconds)
        {
            ticks = 0;
            return false;
        }
        ticks = Math.Max(1, s_epochTicks + Math.Max(0, unixMilliseconds) * TicksPerMillisecond);
        return true;
    }

    /// <summary>Converts an amount of seconds or milliseconds to a Unix millisecond count, refusing overflow.</summary>
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

    /// <summary>Converts a time relative to now (in milliseconds, may be negative) to record units.</summary>
    public static bool TryFromRelativeMilliseconds(long milliseconds, out long ticks)
    {
        long now = NowUnixMilliseconds;
        if (milliseconds > 0 && now > long.MaxValue - milliseconds)
        {
            ticks = 0;
            return false;
        }
        return TryFromUnixMilliseconds(now + milliseconds, out ticks);
    }

    /// <summary>Record units to Unix milliseconds.</summary>
    public static long ToUnixMilliseconds(long ticks) => (ticks - s_epochTicks) / TicksPerMillisecond;
}
