using System.Collections.Generic;
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
/// leader, as before. Handing over happens once per batch and only when the loop has other connections to serve.
/// </remarks>
internal sealed unsafe partial class EpollLoop
{
    /// <summary>Threads a loop may have, leading, finishing a batch after handing over, or idle.</summary>
    private const int MaxThreads = 32;

    /// <summary>The loop the calling thread belongs to, leading it or not.</summary>
    [System.ThreadStatic]
    private static EpollLoop? t_member;

    /// <summary>The connection the calling thread is dispatching, while it leads.</summary>
    [System.ThreadStatic]
    private static EpollConnectionHandler? t_dispatching;

    /// <summary>The connection the calling thread took out of the epoll set when it handed the loop over.</summary>
    [System.ThreadStatic]
    private static EpollConnectionHandler? t_held;

    [System.ThreadStatic]
    private static PinnedBuffer? t_receiveBuffer;

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
                _leaderWanted.Wait();
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

    /// <inheritdoc />
    void Tsavorite.IBlockingReadObserver.BeforeBlockingRead()
    {
        if (t_current != this || _stopping || t_dispatching is not { } connection || Volatile.Read(ref _connectionCount) < 2)
            return;
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
