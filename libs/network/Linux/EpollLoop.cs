using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

namespace Garnet.networking.Linux;

/// <summary>
/// One event-loop thread with its own epoll set, serving the connections assigned to it: for each ready connection
/// it receives once, runs the consumer on this thread, and sends the replies (Redis's model, one loop per core).
/// </summary>
/// <remarks>
/// Interest is level-triggered, so a connection is read once per wake-up and the kernel reports it again while bytes
/// remain: no read that ends in EAGAIN, and no re-arming. Connections live in a table owned by this thread; an event
/// carries the slot and a generation, so an event for a connection closed earlier in the same batch is recognised and
/// skipped. Connections join through a queue and an eventfd, so only the thread leading the loop adds to the table;
/// a thread that handed the loop over before a disk read (see EpollLoop.Leadership.cs) may still free a slot, under
/// the table's lock.
/// <para>
/// With a busy-poll window the loop keeps polling, without sleeping, for that long after its last events. A client's
/// request then finds the loop awake: the client's send only queues the event instead of also waking a sleeping thread
/// (on loopback the sender's core pays for that wake-up, which on an idle core takes an interprocessor interrupt, a
/// trap in a virtual machine).
/// An idle loop still sleeps, so the cost is at most one window of polling per burst of events.
/// </para>
/// </remarks>
internal sealed unsafe partial class EpollLoop : IDisposable, Tsavorite.IBlockingReadObserver
{
    private const int MaxEvents = 256;
    private const ulong WakeToken = ulong.MaxValue;

    [ThreadStatic]
    private static EpollLoop? t_current;

    private readonly Func<EpollLoop, EpollLoop> _handOffTarget;
    private readonly long _busyPollTicks;
    private readonly int _epoll;
    private readonly int _wakeFd;
    private readonly int _receiveBufferSize;
    private readonly ConcurrentQueue<EpollConnectionHandler> _joining = new();
    private readonly List<EpollConnectionHandler?> _slots = [];
    private readonly List<uint> _generations = [];
    private readonly Stack<int> _freeSlots = new();
    private readonly object _tableLock = new();
    private volatile bool _stopping;

    /// <summary>A consumer on this loop holds the thread for long (see <see cref="HandOffOthers"/>); new connections go elsewhere.</summary>
    private volatile bool _busy;

    private long _cycles;
    private long _emptyPolls;
    private long _sleeps;

    /// <param name="name">The thread's name.</param>
    /// <param name="handOffTarget">Picks a loop other than the given one, free to take its connections.</param>
    /// <param name="busyPoll">How long the loop polls without sleeping after its last events; zero to always sleep.</param>
    /// <param name="receiveBufferSize">Size of the buffer the loop's connections receive into.</param>
    public EpollLoop(string name, Func<EpollLoop, EpollLoop> handOffTarget, TimeSpan busyPoll, int receiveBufferSize)
    {
        _handOffTarget = handOffTarget;
        _receiveBufferSize = receiveBufferSize;
        _busyPollTicks = (long)(busyPoll.TotalSeconds * Stopwatch.Frequency);
        _epoll = LinuxSockets.CreateEpoll();
        try
        {
            _wakeFd = LinuxSockets.CreateEventFd();
            LinuxSockets.Add(_epoll, _wakeFd, LinuxSockets.EPOLLIN, WakeToken);
        }
        catch
        {
            LinuxSockets.CloseDescriptor(_epoll);
            throw;
        }
        _name = name;
        StartThread();
    }

    /// <summary>Gets the loop the calling thread leads (polls and dispatches for), if any.</summary>
    internal static EpollLoop? Current => t_current;

    internal int EpollDescriptor => _epoll;

    /// <summary>
    /// The buffer this loop's connections receive into when they hold no partial command (most receives): one per
    /// thread of the loop instead of one per connection (a thread that handed the loop over keeps its own while it
    /// finishes its connection's batch). A connection never keeps it past its receive.
    /// </summary>
    internal PinnedBuffer ReceiveBuffer => t_receiveBuffer ??= PinnedBuffer.Allocate(_receiveBufferSize);

    /// <summary>Gets whether a consumer on this loop is holding its thread for long.</summary>
    internal bool IsBusy => _busy;

    /// <summary>Gets what this loop has done so far; read from any thread.</summary>
    internal EventLoopCounters Counters => new(Volatile.Read(ref _cycles), Volatile.Read(ref _emptyPolls), Volatile.Read(ref _sleeps), Volatile.Read(ref _handOvers),
        Volatile.Read(ref _liveThreads));

    /// <summary>Hands a new connection to this loop; it is set up (consumer, interest) on the loop's thread.</summary>
    public void Adopt(EpollConnectionHandler connection)
    {
        _joining.Enqueue(connection);
        LinuxSockets.Signal(_wakeFd);
    }

    /// <summary>
    /// Moves every connection of this loop but <paramref name="keep"/> (whose consumer is about to hold this thread
    /// for long: a script past its time limit) to another loop, so they go on being served meanwhile. Loop thread only;
    /// the loop takes new connections again once that consumer returns.
    /// </summary>
    internal void HandOffOthers(EpollConnectionHandler keep)
    {
        if (t_current != this || _stopping)
            return;
        _busy = true;
        var target = _handOffTarget(this);
        lock (_tableLock)
        {
            for (var i = 0; i < _slots.Count; i++)
            {
                // A connection held by a thread that handed the loop over is still being served by that thread.
                if (_slots[i] is { IsHeld: false } connection && connection != keep)
                {
                    connection.Detach();
                    target.Adopt(connection);
                }
            }
        }
        while (_joining.TryDequeue(out var joining))
            target.Adopt(joining);
    }

    /// <summary>Frees the slot of a connection that closed (on the loop's thread, or one that handed it over).</summary>
    internal void Forget(int slot)
    {
        lock (_tableLock)
        {
            _slots[slot] = null;
            _generations[slot]++;
            _freeSlots.Push(slot);
            _connectionCount--;
        }
    }

    /// <summary>
    /// Closes this loop's connections other than <paramref name="except"/>, on the calling thread, which must be
    /// this loop's: used when the server is disposed from inside one of this loop's consumers, when this thread
    /// cannot return to its events to let those connections close themselves.
    /// </summary>
    internal void CloseAllExcept(ConnectionHandler? except)
    {
        EpollConnectionHandler?[] slots;
        lock (_tableLock)
            slots = _slots.ToArray();
        foreach (var connection in slots)
        {
            if (connection is not null && connection != except)
                connection.CloseForShutdown();
        }
        while (_joining.TryDequeue(out var joining))
            joining.CloseForShutdown();
    }

    /// <summary>Stops the loop once its current events are handled and waits for it unless called from the loop itself.</summary>
    public void Dispose()
    {
        _stopping = true;
        LinuxSockets.Signal(_wakeFd);
        ReleaseFollowers();
        if (t_member != this)
            JoinThreads();
    }

    /// <summary>
    /// Polls and dispatches until the loop stops or this thread hands the loop over before a disk read (then it returns
    /// once its connection's batch is done, and the connection is watched again).
    /// </summary>
    private void Lead(byte* events)
    {
        t_current = this;
        Tsavorite.BlockingReads.Observer = this;
        try
        {
            var pollUntil = 0L;
            while (!_stopping)
            {
                int count;
                if (_busyPollTicks > 0 && Stopwatch.GetTimestamp() < pollUntil)
                {
                    count = LinuxSockets.Poll(_epoll, events, MaxEvents);
                    if (count == 0)
                    {
                        Volatile.Write(ref _emptyPolls, _emptyPolls + 1);
                        continue;
                    }
                }
                else
                {
                    Volatile.Write(ref _sleeps, _sleeps + 1);
                    count = LinuxSockets.Wait(_epoll, events, MaxEvents);
                }
                if (count < 0)
                {
                    if (LinuxSockets.Errno == LinuxSockets.EINTR)
                        continue;
                    _stopping = true;
                    break;
                }
                if (!DispatchRound(events, count))
                {
                    // Handed over during that round: the rest of its events are the new leader's (the interest is
                    // level-triggered, so its next wait reports them again).
                    FinishHeldConnection();
                    return;
                }
                Volatile.Write(ref _cycles, _cycles + 1);
                // No spinning while the round's replies wait for other work (see EventLoopHints).
                if (EventLoopHints.TakeRepliesAwaitOtherWork())
                    pollUntil = 0;
                else if (_busyPollTicks > 0)
                    pollUntil = Stopwatch.GetTimestamp() + _busyPollTicks;
            }
        }
        finally
        {
            if (t_current == this)
            {
                t_current = null;
                Tsavorite.BlockingReads.Observer = null;
            }
        }
    }

    /// <summary>Closes what is left (normally nothing) and the descriptors: by the last of the loop's threads to end.</summary>
    private void CleanUp()
    {
        CloseAllExcept(null);
        LinuxSockets.CloseDescriptor(_wakeFd);
        LinuxSockets.CloseDescriptor(_epoll);
    }

    /// <summary>
    /// Dispatches one wait's events; false when this thread handed the loop over during one of them. Apart from
    /// <see cref="Lead"/>, whose loop never returns and so only ever runs as on-stack-replaced code, so that the work of
    /// every round is compiled at the full tier.
    /// </summary>
    private bool DispatchRound(byte* events, int count)
    {
        for (var i = 0; i < count; i++)
        {
            if (!Dispatch(LinuxSockets.EventData(events, i), LinuxSockets.EventMask(events, i)))
                return false;
        }
        return true;
    }

    /// <summary>Handles one event; false when this thread handed the loop over while the connection's consumer ran.</summary>
    private bool Dispatch(ulong data, uint events)
    {
        if (data == WakeToken)
        {
            LinuxSockets.Drain(_wakeFd);
            while (_joining.TryDequeue(out var joining))
                Join(joining);
            return true;
        }

        var slot = (int)(uint)data;
        if ((uint)slot >= (uint)_slots.Count || _generations[slot] != (uint)(data >> 32) || _slots[slot] is not { } connection)
            return true;
        _dispatching = connection;
        try
        {
            connection.OnEvents(events);
        }
        catch (Exception e)
        {
            // Consumer failures are handled inside; anything else still ends only this connection, not the loop.
            connection.CloseAfterLoopError(e);
        }
        // A connection held by this thread means it handed the loop over (BeforeBlockingRead): the new leader owns
        // _dispatching now.
        if (connection.IsHeld)
            return false;
        _dispatching = null;
        if (_busy)
            _busy = false;
        return true;
    }

    private void Join(EpollConnectionHandler connection)
    {
        int slot;
        ulong token;
        lock (_tableLock)
        {
            if (_freeSlots.Count > 0)
            {
                slot = _freeSlots.Pop();
                _slots[slot] = connection;
            }
            else
            {
                slot = _slots.Count;
                _slots.Add(connection);
                _generations.Add(0);
            }
            _connectionCount++;
            token = ((ulong)_generations[slot] << 32) | (uint)slot;
        }
        // A connection that fails to start closes itself, which frees the slot again.
        try
        {
            connection.Start(this, slot, token);
        }
        catch (Exception e)
        {
            connection.CloseAfterLoopError(e);
        }
    }
}
