using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// The time operations see, in the unit of record expirations: Unix milliseconds (the unit Redis keeps, so that every
/// expiration it accepts, up to <see cref="long.MaxValue"/>, is representable). Normally the system clock; a thread may
/// fix it for the operations it runs next, so that a command sees one instant throughout and replaying the command from
/// the operation log later sees that same instant (expirations decided then are decided again alike).
/// </summary>
public static class OperationClock
{
    private const long TicksPerMillisecond = TimeSpan.TicksPerMillisecond;
    private const long EpochTicks = 621_355_968_000_000_000; // DateTime.UnixEpoch.Ticks, as a constant the JIT folds

    [ThreadStatic]
    private static long t_fixedUnixMs;

    /// <summary>Now, as this thread's operations see it (Unix milliseconds).</summary>
    public static long NowUnixMs
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            long fixedUnixMs = t_fixedUnixMs;
            // A division by a constant compiles to a multiply and a shift: no dearer than the clock read it follows.
            return fixedUnixMs != 0 ? fixedUnixMs : (DateTime.UtcNow.Ticks - EpochTicks) / TicksPerMillisecond;
        }
    }

    /// <summary>Fixes this thread's clock at <paramref name="unixMs"/> (positive) until <see cref="Release"/>.</summary>
    public static void Fix(long unixMs) => t_fixedUnixMs = unixMs;

    /// <summary>This thread's clock follows the system clock again.</summary>
    public static void Release() => t_fixedUnixMs = 0;
}
