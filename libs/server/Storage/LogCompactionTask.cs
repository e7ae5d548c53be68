using System;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Compaction of the databases' log files with the storage tier: every <see cref="ServerOptions.CompactionFrequencySecs"/>
/// seconds, a database whose log spans more than <see cref="ServerOptions.CompactionMaxSegments"/> files has its
/// oldest ones compacted (<see cref="TsavoriteKV.Compact"/>, as <see cref="ServerOptions.CompactionType"/> says), so
/// that it is left with that many.
/// </summary>
/// <remarks>
/// The task stays inside the database while it compacts (<see cref="GarnetDatabase.TryEnter"/>), so a flush cannot
/// free the store under it; a flush meanwhile makes it stop, leaving the log as it was. A failure is counted and
/// the task goes on.
/// </remarks>
internal sealed class LogCompactionTask : IDisposable
{
    private readonly StoreWrapper _server;
    private readonly PeriodicLoop _loop;
    private long _failures;

    public LogCompactionTask(StoreWrapper server, TimeSpan interval)
    {
        _server = server;
        _loop = new PeriodicLoop(interval, CompactAll);
    }

    /// <summary>Compactions that failed with an exception (the task carried on).</summary>
    public long Failures => Volatile.Read(ref _failures);

    /// <summary>Starts the periodic task.</summary>
    public void Start() => _loop.Start();

    private void CompactAll(CancellationToken token)
    {
        for (int i = 0; i < _server.DatabaseCount && !token.IsCancellationRequested; i++)
        {
            var database = _server.PeekDatabase(i);
            if (database == null || database.Retired)
                continue;
            try
            {
                Compact(database, token);
            }
            catch (Exception) when (!token.IsCancellationRequested)
            {
                // A background task has nobody to report to; a device error must not end compaction for good.
                Interlocked.Increment(ref _failures);
            }
        }
    }

    private void Compact(GarnetDatabase database, CancellationToken token)
    {
        var store = database.MainStore;
        var options = _server.Options;
        long segment = options.SegmentSize;
        long until = CompactionLimit(store.Log.BeginAddress, store.Log.TailAddress, segment, options.CompactionMaxSegments);
        if (until <= store.Log.BeginAddress)
            return;
        using var session = store.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects));
        if (!database.TryEnter(session))
            return;
        try
        {
            store.Compact(until, options.CompactionType, () => token.IsCancellationRequested || database.Retired);
        }
        finally
        {
            session.EndUnsafe();
        }
    }

    /// <summary>
    /// Where the log must begin for [<paramref name="begin"/>, <paramref name="tail"/>) to span at most
    /// <paramref name="maxSegments"/> files of <paramref name="segment"/> bytes: the start of the oldest file to keep.
    /// </summary>
    internal static long CompactionLimit(long begin, long tail, long segment, int maxSegments)
    {
        long firstSegment = begin / segment;
        long lastSegment = Math.Max(begin, tail - 1) / segment;
        long files = lastSegment - firstSegment + 1;
        return files <= maxSegments ? begin : (lastSegment + 1 - maxSegments) * segment;
    }

    /// <summary>Stops the task and waits for a compaction in progress to end (it checks between records).</summary>
    public void Dispose() => _loop.Dispose();
}
