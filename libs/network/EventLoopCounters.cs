namespace Garnet.networking;

/// <summary>What a server's epoll event loops have done since they started (all zero for other I/O models).</summary>
/// <param name="Cycles">Passes that handled at least one event.</param>
/// <param name="EmptyPolls">Busy polls that found nothing to do (see <see cref="NetworkServerOptions.BusyPoll"/>).</param>
/// <param name="Sleeps">Times a loop went to sleep until the next event.</param>
/// <param name="HandOvers">Times a loop's thread handed the loop to another before waiting for a disk read.</param>
/// <param name="Threads">The loops' threads now: one each, and the followers that reads of the disk started and that have not ended.</param>
public readonly record struct EventLoopCounters(long Cycles, long EmptyPolls, long Sleeps, long HandOvers, long Threads)
{
    /// <summary>Adds two sets of counters.</summary>
    public static EventLoopCounters operator +(EventLoopCounters a, EventLoopCounters b)
        => new(a.Cycles + b.Cycles, a.EmptyPolls + b.EmptyPolls, a.Sleeps + b.Sleeps, a.HandOvers + b.HandOvers, a.Threads + b.Threads);
}
