using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

namespace Garnet.networking.Linux;

/// <summary>
/// Leaders and followers: a loop's thread that is about to wait for a disk read (a record of the storage tier) hands the
/// loop to another thread first, so the loop's other connections are served meanwhile and only the connection whose
/// command reads the disk waits for it.
/// </summary>
/// <remarks>
/// One thread at a time leads the loop: it polls and dispatches. When a command it dispatches is about to read the
/// device (<see cref="Tsavorite.BlockingReads"/>), the leader takes that connection out of the epoll set (so nobody else
/// dispatches it), wakes an idle follower or starts a thread to lead in its place, and goes on with the connection's
/// batch; the replies keep their order because the batch stays on one thread. When the batch is done the thread puts
/// the connection back in the set (level-triggered: whatever arrived meanwhile is reported to the new leader) and
/// becomes an idle follower. A loop has at most <see cref="MaxThreads"/> threads; past that a read simply blocks the
/// leader. Handing over happens once per batch and only when the loop has other connections to serve.
/// <para>
/// Handing over costs about as much as a read the operating system has cached (two epoll_ctl calls and a thread
/// wake-up, some microseconds), so the loop keeps a moving average of how long its reads take and hands over only
/// while that is above <see cref="SlowRead"/>: a client whose reads come from the page cache holds up the others for
/// about as long as a command takes, and one whose reads go to a device hands the loop over. The average starts
/// slow, so the first reads hand over until the loop has seen they are fast; a read that is unexpectedly slow after
/// a run of fast ones holds the loop up once, and raises the average for the next.
/// </para>
/// </remarks>
internal sealed unsafe partial class EpollLoop
{
    /// <summary>Threads a loop may have, leading, finishing a batch after handing over, or idle.</summary>
    private const int MaxThreads = 32;

    /// <summary>
    /// How long a follower waits to be woken before it ends: a burst of slow reads leaves threads (each with its
    /// receive buffer) that steady disk reads keep busy, but that an idle or page-cache-bound loop gives back.
    /// </summary>
    private static readonly TimeSpan FollowerIdleLifetime = TimeSpan.FromSeconds(5);

    /// <summary>The loop the calling thread belongs to, leading it or not.</summary>
    [System.ThreadStatic]
    private static EpollLoop? t_member;

    /// <summary>
    /// The connection the leader is dispatching (a field, not a thread static: only the leading thread writes it, and
    /// reads it only while it leads, so the event loop pays no thread-local access per event).
    /// </summary>
    private EpollConnectionHandler? _dispatching;

    /// <summary>The connection the calling thread took out of the epoll set when it handed the loop over.</summary>
    [System.ThreadStatic]
    private static EpollConnectionHandler? t_held;

    [System.ThreadStatic]
    private static PinnedBuffer? t_receiveBuffer;

    /// <summary>When the calling thread's announced read began (Stopwatch ticks).</summary>
    [System.ThreadStatic]
    private static long t_readStarted;

    /// <summary>Reads slower than this on average are worth handing the loop over for.</summary>
    private static readonly long SlowRead = Stopwatch.Frequency * 30 / 1_000_000;

    /// <summary>Moving average of this loop's device reads (Stopwatch ticks; one eighth per read); starts slow.</summary>
    private long _readTicks = 4 * SlowRead;

    private readonly string _name;
    private readonly SemaphoreSlim _leaderWanted = new(0);
    private readonly List<Thread> _threads = [];
    private int _idleFollowers;
    private int _liveThreads;
    private int _connectionCount;
    private long _handOvers;

    private void StartThread()
    {
        Thread thread;
        lock (_threads)
        {
            thread = new Thread(RunThread) { IsBackground = true, Name = _threads.Count == 0 ? _name : _name + " follower " + _threads.Count };
            _threads.Add(thread);
        }
        Interlocked.Increment(ref _liveThreads);
        thread.Start();
    }

    /// <summary>A thread of the loop: leads when it starts, then each time it is woken to, until the loop stops.</summary>
    private void RunThread()
    {
        t_member = this;
        var events = (byte*)NativeMemory.Alloc((nuint)(MaxEvents * LinuxSockets.EventSize));
        try
        {
            Lead(events);
            while (!_stopping)
            {
                Interlocked.Increment(ref _idleFollowers);
                if (!_leaderWanted.Wait(FollowerIdleLifetime))
                {
                    if (TryRetire())
                        return;
                    // A leader counted on this thread just as it timed out: its wake-up is on the way.
                    _leaderWanted.Wait();
                }
                if (_stopping)
                    break;
                Lead(events);
            }
        }
        finally
        {
            NativeMemory.Free(events);
            if (Interlocked.Decrement(ref _liveThreads) == 0)
                CleanUp();
        }
    }

    /// <summary>
    /// Ends an idle follower: it leaves the idle count, unless a thread handing the loop over has just taken one from
    /// it to wake a follower (then one of the idle ones, perhaps this, must take that wake-up). Its receive buffer goes
    /// with it.
    /// </summary>
    private bool TryRetire()
    {
        while (true)
        {
            int idle = Volatile.Read(ref _idleFollowers);
            if (idle == 0)
                return false;
            if (Interlocked.CompareExchange(ref _idleFollowers, idle - 1, idle) == idle)
                break;
        }
        lock (_threads)
            _threads.Remove(Thread.CurrentThread);
        t_receiveBuffer = null;
        t_member = null;
        return true;
    }

    /// <inheritdoc />
    void Tsavorite.IBlockingReadObserver.BeforeBlockingRead()
    {
        t_readStarted = Stopwatch.GetTimestamp();
        if (t_current != this || _stopping || Volatile.Read(ref _readTicks) < SlowRead || _dispatching is not { } connection
            || Volatile.Read(ref _connectionCount) < 2)
        {
            return;
        }
        if (!connection.Hold())
            return;
        if (!TryWakeLeader())
        {
            connection.Unhold();
            return;
        }
        // From here the new leader polls; this thread only finishes the connection's batch (see Lead).
        t_current = null;
        Tsavorite.BlockingReads.Observer = null;
        t_held = connection;
        Interlocked.Increment(ref _handOvers);
    }

    /// <inheritdoc />
    void Tsavorite.IBlockingReadObserver.AfterBlockingRead()
    {
        // Racy between the loop's threads on purpose: an update lost now and then only makes the average a little late.
        long took = Stopwatch.GetTimestamp() - t_readStarted;
        long average = Volatile.Read(ref _readTicks);
        Volatile.Write(ref _readTicks, average + ((took - average) / 8));
    }

    /// <summary>Wakes an idle follower to lead, or starts a thread to, unless the loop has all the threads it may.</summary>
    private bool TryWakeLeader()
    {
        while (true)
        {
            int idle = Volatile.Read(ref _idleFollowers);
            if (idle == 0)
                break;
            if (Interlocked.CompareExchange(ref _idleFollowers, idle - 1, idle) == idle)
            {
                _leaderWanted.Release();
                return true;
            }
        }
        if (Volatile.Read(ref _liveThreads) >= MaxThreads)
            return false;
        StartThread();
        return true;
    }

    /// <summary>After handing the loop over: the batch is done, so the connection is watched again (unless it closed).</summary>
    private static void FinishHeldConnection()
    {
        var held = t_held;
        t_held = null;
        held?.Unhold();
    }

    private void ReleaseFollowers()
    {
        int count;
        lock (_threads)
            count = _threads.Count;
        _leaderWanted.Release(count);
    }

    private void JoinThreads()
    {
        Thread[] threads;
        lock (_threads)
            threads = _threads.ToArray();
        foreach (var thread in threads)
            thread.Join();
    }
}
