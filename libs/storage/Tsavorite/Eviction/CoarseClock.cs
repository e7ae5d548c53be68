using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Milliseconds since an arbitrary start, refreshed every <see cref="PeriodMs"/> by a background thread, for
/// the access words' clocks (seconds under LRU, minutes under LFU). Reading the system clock on every read
/// cost a few percent of GET throughput; Redis likewise reads a cached LRU clock that its cron refreshes.
/// </summary>
/// <remarks>
/// A dedicated sleeping thread rather than a <see cref="Timer"/>: a timer's callback wakes a thread-pool
/// worker, which then spins looking for more work, and ten such wake-ups a second cost a server pinned to
/// one core a quarter of its GET throughput.
/// </remarks>
internal static class CoarseClock
{
    /// <summary>How stale the clock may be; far below the one-second resolution of the LRU clock.</summary>
    public const int PeriodMs = 100;

    private static long s_milliseconds = StartRefreshing();

    /// <summary>The clock's current reading.</summary>
    public static long Milliseconds => Volatile.Read(ref s_milliseconds);

    private static long StartRefreshing()
    {
        var thread = new Thread(static () =>
        {
            while (true)
            {
                Thread.Sleep(PeriodMs);
                Volatile.Write(ref s_milliseconds, Environment.TickCount64);
            }
        })
        {
            IsBackground = true,
            Name = "Tsavorite clock",
        };
        thread.Start();
        return Environment.TickCount64;
    }
}
