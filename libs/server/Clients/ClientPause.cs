using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>What CLIENT PAUSE holds back: every command, or only those that may write.</summary>
public enum ClientPauseMode
{
    /// <summary>No pause.</summary>
    None = 0,

    /// <summary>Commands that write or may replicate (and EXEC of such, scripts that may write); expiry waits too.</summary>
    Write = 1,

    /// <summary>Every command of every client.</summary>
    All = 2,
}

/// <summary>Who paused: each holds its own pause, and ending one (CLIENT UNPAUSE ends a client's) leaves the others on.</summary>
public enum ClientPausePurpose
{
    /// <summary>CLIENT PAUSE, ended by CLIENT UNPAUSE or its time.</summary>
    Client = 0,

    /// <summary>A failover this server takes part in (FAILOVER, REPLFAILOVER): writers wait until it ends.</summary>
    Failover = 1,
}

/// <summary>
/// The server's CLIENT PAUSE state and the clients it holds. As in Redis, a pause lasts until the latest end any
/// CLIENT PAUSE asked for and keeps the stricter mode (ALL stays ALL when a WRITE pause follows), until it ends or
/// CLIENT UNPAUSE ends it; the held clients then go on in the order they were held. As Redis keeps one pause per
/// purpose, a failover's pause is apart from the clients' (<see cref="ClientPausePurpose"/>): what is in force is the
/// strictest of them, and ending one lets go only what the others do not hold.
/// </summary>
/// <remarks>
/// A session reads <see cref="IsActive"/> once per received batch (one volatile read; nothing else when no pause is on)
/// and, while it is on, asks <see cref="Holds"/> of each command. A held session keeps its command and what follows
/// it and stops consuming (see RespServerSession.Pause.cs); <see cref="TryHold"/> queues it here under the lock, so a
/// pause that ends meanwhile cannot miss it. When a pause ends, every held session goes on, and one that another pause
/// still holds is held again as it runs its command. Lock order: a session's gate, then this lock.
/// </remarks>
public sealed class ClientPause : IDisposable
{
    private const int PurposeCount = 2;

    private readonly object _lock = new();
    private readonly List<RespServerSession> _held = new();
    private readonly Timer _timer;
    // Each purpose's mode and end (Environment.TickCount64); written under the lock.
    private readonly int[] _modes = new int[PurposeCount];
    private readonly long[] _ends = new long[PurposeCount];
    // The strictest mode of the purposes not cleared yet (one may have just run out): IsActive's one read.
    private volatile int _mode;

    public ClientPause()
    {
        _timer = new Timer(static state => ((ClientPause)state!).EndIfDue(), this, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>Whether a pause is on (or just ended and not yet cleared): the once-per-batch check.</summary>
    public bool IsActive => _mode != (int)ClientPauseMode.None;

    /// <summary>The mode in force now: the strictest of the pauses whose time is not up.</summary>
    public ClientPauseMode Mode => _mode == (int)ClientPauseMode.None ? ClientPauseMode.None : ModeAt(Environment.TickCount64);

    /// <summary>Whether expiry (active expiration) must wait: Redis pauses it in both modes.</summary>
    public bool PausesExpiry => Mode != ClientPauseMode.None;

    /// <summary>Clients held now (counted in INFO blocked_clients, as Redis counts them).</summary>
    public int HeldCount
    {
        get
        {
            lock (_lock)
                return _held.Count;
        }
    }

    /// <summary>
    /// Pauses for <paramref name="milliseconds"/> from now on behalf of <paramref name="purpose"/>, or longer if its pause in
    /// force ends later (CLIENT PAUSE's rule, per purpose).
    /// </summary>
    public void Pause(long milliseconds, ClientPauseMode mode, ClientPausePurpose purpose)
    {
        List<RespServerSession>? released = null;
        lock (_lock)
        {
            long now = Environment.TickCount64;
            int p = (int)purpose;
            // A pause whose time is up but that the timer has not cleared yet counts as over, and so do its holds.
            if (ModeAt(now) == ClientPauseMode.None)
                released = TakeHeld();
            if (_modes[p] == (int)ClientPauseMode.None || now >= _ends[p])
            {
                _modes[p] = (int)ClientPauseMode.None;
                _ends[p] = 0;
            }
            else if (_modes[p] > (int)mode)
            {
                mode = (ClientPauseMode)_modes[p];
            }
            long end = Math.Max(_ends[p], now + Math.Max(0, Math.Min(milliseconds, long.MaxValue / 4)));
            Volatile.Write(ref _ends[p], end);
            Volatile.Write(ref _modes[p], end > now ? (int)mode : (int)ClientPauseMode.None);
            Settle(now);
        }
        Release(released);
    }

    /// <summary>Ends <paramref name="purpose"/>'s pause (CLIENT UNPAUSE ends the clients'); the held clients go on unless another pause holds them.</summary>
    public void Unpause(ClientPausePurpose purpose)
    {
        List<RespServerSession> released;
        lock (_lock)
        {
            int p = (int)purpose;
            Volatile.Write(ref _modes[p], (int)ClientPauseMode.None);
            Volatile.Write(ref _ends[p], 0);
            Settle(Environment.TickCount64);
            released = TakeHeld();
        }
        Release(released);
    }

    /// <summary>
    /// Whether the pause in force holds <paramref name="command"/>: in ALL mode every command, in WRITE mode one
    /// <paramref name="mayWrite"/> says may write.
    /// </summary>
    internal bool Holds(bool mayWrite)
    {
        var mode = Mode;
        return mode == ClientPauseMode.All || (mode == ClientPauseMode.Write && mayWrite);
    }

    /// <summary>Queues <paramref name="session"/> to go on when the pause ends; false if it has ended meanwhile.</summary>
    internal bool TryHold(RespServerSession session, bool mayWrite)
    {
        lock (_lock)
        {
            if (!Holds(mayWrite))
                return false;
            _held.Add(session);
            return true;
        }
    }

    /// <summary>Forgets a held session that closed.</summary>
    internal void Forget(RespServerSession session)
    {
        lock (_lock)
            _held.Remove(session);
    }

    /// <summary>The strictest mode among the pauses whose time is not up at <paramref name="now"/>.</summary>
    private ClientPauseMode ModeAt(long now)
    {
        int strictest = (int)ClientPauseMode.None;
        for (int p = 0; p < PurposeCount; p++)
        {
            int mode = Volatile.Read(ref _modes[p]);
            if (mode > strictest && now < Volatile.Read(ref _ends[p]))
                strictest = mode;
        }
        return (ClientPauseMode)strictest;
    }

    private void EndIfDue()
    {
        List<RespServerSession>? released = null;
        lock (_lock)
        {
            long now = Environment.TickCount64;
            bool ended = false;
            for (int p = 0; p < PurposeCount; p++)
            {
                if (_modes[p] != (int)ClientPauseMode.None && now >= _ends[p])
                {
                    Volatile.Write(ref _modes[p], (int)ClientPauseMode.None);
                    Volatile.Write(ref _ends[p], 0);
                    ended = true;
                }
            }
            Settle(now);
            if (ended)
                released = TakeHeld();
        }
        Release(released);
    }

    /// <summary>Under the lock: publishes the strictest mode of the pauses left and sets the timer for the first to end.</summary>
    private void Settle(long now)
    {
        int strictest = (int)ClientPauseMode.None;
        long firstEnd = long.MaxValue;
        for (int p = 0; p < PurposeCount; p++)
        {
            if (_modes[p] == (int)ClientPauseMode.None)
                continue;
            strictest = Math.Max(strictest, _modes[p]);
            firstEnd = Math.Min(firstEnd, _ends[p]);
        }
        _mode = strictest;
        if (strictest == (int)ClientPauseMode.None)
        {
            _timer.Change(Timeout.Infinite, Timeout.Infinite);
            return;
        }
        long due = Math.Max(0, firstEnd - now);
        _timer.Change(Math.Min(due, int.MaxValue - 1), Timeout.Infinite);
    }

    private List<RespServerSession> TakeHeld()
    {
        var held = new List<RespServerSession>(_held);
        _held.Clear();
        return held;
    }

    /// <summary>
    /// Lets the held sessions go on one after the other, in the order they were held, as Redis runs unblocked clients:
    /// on the thread pool, since the caller (CLIENT UNPAUSE) holds its own session's gate and each takes its own.
    /// </summary>
    private static void Release(List<RespServerSession>? released)
    {
        if (released == null || released.Count == 0)
            return;
        ThreadPool.UnsafeQueueUserWorkItem(static sessions =>
        {
            foreach (var session in sessions)
                session.RunHeldCommand();
        }, released, preferLocal: false);
    }

    public void Dispose() => _timer.Dispose();
}
