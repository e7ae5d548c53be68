using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// The time operations see, in the units of record expirations (UTC ticks). Normally the system clock; a thread may
/// fix it for the operations it runs next, so that a command sees one instant throughout and replaying the command
/// from the operation log later sees that same instant (expirations decided then are decided again alike).
/// </summary>
public static class OperationClock
{
    [ThreadStatic]
    private static long t_fixedTicks;

    /// <summary>Now, as this thread's operations see it.</summary>
    public static long NowTicks
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            long fixedTicks = t_fixedTicks;
            return fixedTicks != 0 ? fixedTicks : DateTime.UtcNow.Ticks;
        }
    }

    /// <summary>Fixes this thread's clock at <paramref name="ticks"/> (positive) until <see cref="Release"/>.</summary>
    public static void Fix(long ticks) => t_fixedTicks = ticks;

    /// <summary>This thread's clock follows the system clock again.</summary>
    public static void Release() => t_fixedTicks = 0;
}
