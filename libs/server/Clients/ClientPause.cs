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

/// <summary>
/// The server's CLIENT PAUSE state and the clients it holds. As in Redis, a pause lasts until the latest end any
/// CLIENT PAUSE asked for and keeps the stricter mode (ALL stays ALL when a WRITE pause follows), until it ends or
/// CLIENT UNPAUSE ends it; the held clients then go on in the order they were held.
/// </summary>
/// <remarks>
/// A session reads <see cref="IsActive"/> once per received batch (one volatile read; nothing else when no pause is on)
/// and, while it is on, asks <see cref="Holds"/> of each command. A held session keeps its command and what follows
/// it and stops consuming (see RespServerSession.Pause.cs); <see cref="TryHold"/> queues it here under the lock, so a
/// pause that ends meanwhile cannot miss it. Lock order: a session's gate, then this lock.
/// </remarks>
public sealed class ClientPause : IDisposable
{
    private readonly object _lock = new();
    private readonly List<RespServerSession> _held = new();
    private readonly Timer _timer;
    private volatile int _mode;
    private long _end;

    public ClientPause()
    {
        _timer = new Timer(static state => ((ClientPause)state!).EndIfDue(), this, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>Whether a pause is on (or just ended and not yet cleared): the once-per-batch check.</summary>
    public bool IsActive => _mode != (int)ClientPauseMode.None;

    /// <summary>The mode in force now, <see cref="ClientPauseMode.None"/> once the pause's time is up.</summary>
    public ClientPauseMode Mode
    {
        get
        {
            var mode = (ClientPauseMode)_mode;
            return mode != ClientPauseMode.None && Environment.TickCount64 < Volatile.Read(ref _end) ? mode : ClientPauseMode.None;
        }
    }

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

    /// <summary>CLIENT PAUSE: pauses for <paramref name="milliseconds"/> from now, or longer if a pause in force ends later.</summary>
    public void Pause(long milliseconds, ClientPauseMode mode)
    {
        List<RespServerSession>? released = null;
        lock (_lock)
        {
            long now = Environment.TickCount64;
            var current = Mode;
            if (current == ClientPauseMode.None)
            {
                // A pause whose time is up but that the timer has not cleared yet counts as over.
                released = TakeHeld();
                _end = 0;
            }
            else if (current > mode)
            {
                mode = current;
            }
            Volatile.Write(ref _end, Math.Max(_end, now + milliseconds));
            _mode = milliseconds > 0 || _end > now ? (int)mode : (int)ClientPauseMode.None;
            ArmTimer(now);
        }
        Release(released);
    }

    /// <summary>CLIENT UNPAUSE: ends the pause, if any, and lets the held clients go on.</summary>
    public void Unpause()
    {
        List<RespServerSession> released;
        lock (_lock)
        {
            _mode = (int)ClientPauseMode.None;
            _end = 0;
            _timer.Change(Timeout.Infinite, Timeout.Infinite);
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

    private void EndIfDue()
    {
        List<RespServerSession>? released = null;
        lock (_lock)
        {
            long now = Environment.TickCount64;
            if (_mode == (int)ClientPauseMode.None)
                return;
            if (now < _end)
            {
                ArmTimer(now);
                return;
            }
            _mode = (int)ClientPauseMode.None;
            _end = 0;
            released = TakeHeld();
        }
        Release(released);
    }

    private void ArmTimer(long now)
    {
        if (_mode == (int)ClientPauseMode.None)
            return;
        long due = Math.Max(0, _end - now);
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
