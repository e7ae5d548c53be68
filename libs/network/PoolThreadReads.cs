using System;
using System.Diagnostics;
using System.Threading;

namespace Garnet.networking;

/// <summary>
/// The device-read observer of connections whose batches run on thread-pool threads (asynchronous sockets, TLS): such a
/// thread waits for its client's device read itself, which holds up no other connection as long as the pool has another
/// thread for their batches. The pool does not know the thread is blocked, and when every thread is, it adds one only
/// about every half second; so while reads are slow (a disk's, not the page cache's), each thread waiting for one
/// raises the pool's minimum by one for as long as it waits, and the pool starts a thread at once for queued work.
/// </summary>
internal sealed class PoolThreadReads : Tsavorite.IBlockingReadObserver
{
    /// <summary>The one observer of every pool thread.</summary>
    public static readonly PoolThreadReads Instance = new();

    /// <summary>Reads at least this slow, on average, count as a disk's (as the event loops' hand-over threshold).</summary>
    private static readonly long SlowRead = Stopwatch.Frequency * 30 / 1_000_000;

    /// <summary>At most this many threads above the pool's own minimum are asked for.</summary>
    internal const int MaxExtraThreads = 256;

    [ThreadStatic]
    private static long t_readStarted;

    [ThreadStatic]
    private static bool t_counted;

    private readonly object _lock = new();
    private long _readTicks = SlowRead * 4; // starts slow: the first reads of a cold log are a disk's
    private int _waiting;
    private int _baseMinimum = -1;

    /// <inheritdoc />
    public void BeforeBlockingRead()
    {
        t_readStarted = Stopwatch.GetTimestamp();
        if (Volatile.Read(ref _readTicks) < SlowRead)
            return;
        lock (_lock)
        {
            if (_baseMinimum < 0)
            {
                ThreadPool.GetMinThreads(out int workers, out _);
                _baseMinimum = workers;
            }
            if (_waiting >= MaxExtraThreads)
                return;
            _waiting++;
            t_counted = true;
            SetMinimum(_baseMinimum + _waiting);
        }
    }

    /// <inheritdoc />
    public void AfterBlockingRead()
    {
        // Racy between threads on purpose: an update lost now and then only makes the average a little late.
        long took = Stopwatch.GetTimestamp() - t_readStarted;
        long average = Volatile.Read(ref _readTicks);
        Volatile.Write(ref _readTicks, average + ((took - average) / 8));
        if (!t_counted)
            return;
        t_counted = false;
        lock (_lock)
        {
            _waiting--;
            SetMinimum(_baseMinimum + _waiting);
        }
    }

    private static void SetMinimum(int workers)
    {
        ThreadPool.GetMinThreads(out _, out int io);
        ThreadPool.SetMinThreads(workers, io);
    }
}
