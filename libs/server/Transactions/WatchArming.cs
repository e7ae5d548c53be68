using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Whether writes must move the versions of <see cref="WatchVersionTable"/>. While no session
/// watches, a write only marks itself in flight in its own session's counter and skips the table
/// (two interlocked operations on a random cache line and a second hash of the key, about a tenth
/// of a pipelined SET's server time). The first WATCH arms the table: it raises the flag, makes the
/// flag visible to every core with a process-wide barrier, and waits until every write that started
/// unarmed is done, so the version and value it then reads are final. The table disarms once no
/// session has watched for <see cref="DisarmDelay"/>, so a steady WATCH workload arms once.
/// </summary>
/// <remarks>
/// The writer's side is a Dekker pair without a fence: it stores its in-flight count, then loads
/// the flag. The arming side's <see cref="Interlocked.MemoryBarrierProcessWide"/> orders both: a
/// writer whose load came before the barrier has its count visible after it (and is waited for);
/// a writer whose load came after sees the flag and moves versions like any armed write.
/// </remarks>
public sealed class WatchArming : IDisposable
{
    private readonly object _lock = new();
    private readonly List<WritesInFlight> _writers = new();
    private readonly Timer _disarmTimer;
    private volatile bool _armed;
    private bool _drained; // armed, and no write that started unarmed is left
    private int _watchers;
    private long _lastReleaseTicks;
    private bool _timerPending;
    private bool _disposed;

    /// <summary>A table that starts disarmed.</summary>
    public WatchArming() => _disarmTimer = new Timer(static state => ((WatchArming)state!).OnDisarmTimer(), this, Timeout.Infinite, Timeout.Infinite);

    /// <summary>How long the table stays armed after the last watch ends (default one second).</summary>
    public TimeSpan DisarmDelay { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Whether writes currently move versions.</summary>
    public bool Armed => _armed;

    /// <summary>Sessions holding watches.</summary>
    public int Watchers
    {
        get
        {
            lock (_lock)
                return _watchers;
        }
    }

    /// <summary>
    /// A session's counter of unarmed writes in flight; <see cref="Unregister"/> it when the session ends. The writes
    /// of an <paramref name="alwaysArmed"/> session move versions even while the table is disarmed, so no WATCH ever
    /// waits for them.
    /// </summary>
    public WritesInFlight Register(bool alwaysArmed = false)
    {
        var writer = new WritesInFlight(alwaysArmed);
        if (alwaysArmed)
            return writer;
        lock (_lock)
            _writers.Add(writer);
        return writer;
    }

    /// <summary>Forgets a session's counter.</summary>
    public void Unregister(WritesInFlight writer)
    {
        lock (_lock)
            _writers.Remove(writer);
    }

    /// <summary>
    /// Starts a write by <paramref name="writer"/>'s session. True: the table is disarmed, the write
    /// moves no version and must end with <see cref="EndUnarmedWrite"/>. False: the write moves versions.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryBeginUnarmedWrite(WritesInFlight writer)
    {
        if (writer.AlwaysArmed)
            return false;
        // Only the session's own thread changes its count: plain increments, published by volatile stores.
        Volatile.Write(ref writer.Count, writer.Count + 1);
        if (!_armed)
            return true;
        Volatile.Write(ref writer.Count, writer.Count - 1);
        return false;
    }

    /// <summary>Ends a write that <see cref="TryBeginUnarmedWrite"/> let skip the versions.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void EndUnarmedWrite(WritesInFlight writer) => Volatile.Write(ref writer.Count, writer.Count - 1);

    /// <summary>
    /// A session starts watching: arms the table if needed, and returns once no write that started
    /// unarmed is in flight (<paramref name="self"/>, the caller's own counter, is not waited for).
    /// The wait happens outside the table's lock, and the caller must hold no key lock: an unarmed
    /// write may be waiting for one. It should not hold epoch protection either.
    /// </summary>
    public void AddWatcher(WritesInFlight self)
    {
        WritesInFlight[] writers;
        lock (_lock)
        {
            _watchers++;
            if (_drained)
                return;
            _armed = true;
            writers = _writers.ToArray();
        }
        Interlocked.MemoryBarrierProcessWide();
        foreach (var writer in writers)
        {
            if (writer == self)
                continue;
            var spinner = new SpinWait();
            while (Volatile.Read(ref writer.Count) != 0)
                spinner.SpinOnce();
        }
        // Still armed: the table never disarms while a session watches.
        lock (_lock)
            _drained = true;
    }

    /// <summary>A session stops watching (EXEC, DISCARD, UNWATCH, RESET, disconnect).</summary>
    public void RemoveWatcher()
    {
        lock (_lock)
        {
            if (--_watchers > 0 || _disposed)
                return;
            _lastReleaseTicks = Environment.TickCount64;
            if (!_timerPending)
            {
                _timerPending = true;
                _disarmTimer.Change(DisarmDelay, Timeout.InfiniteTimeSpan);
            }
        }
    }

    private void OnDisarmTimer()
    {
        lock (_lock)
        {
            _timerPending = false;
            if (_watchers > 0 || _disposed || !_armed)
                return;
            long idle = Environment.TickCount64 - _lastReleaseTicks;
            long delay = (long)DisarmDelay.TotalMilliseconds;
            if (idle >= delay)
            {
                // Safe at any moment without watchers: a write that still moves versions does no harm,
                // and the next WATCH waits for the writes that started unarmed.
                _armed = false;
                _drained = false;
                return;
            }
            _timerPending = true;
            _disarmTimer.Change(TimeSpan.FromMilliseconds(delay - idle), Timeout.InfiniteTimeSpan);
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        lock (_lock)
            _disposed = true;
        _disarmTimer.Dispose();
    }
}

/// <summary>
/// One session's count of writes in flight that skipped the watch versions. Padded to its own cache
/// lines: every write stores to it, and counters of sessions on other cores must not share a line.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 128)]
public sealed class WritesInFlight(bool alwaysArmed)
{
    [FieldOffset(64)]
    internal int Count;

    /// <summary>The session's writes always move versions (see <see cref="WatchArming.Register"/>).</summary>
    [FieldOffset(68)]
    internal readonly bool AlwaysArmed = alwaysArmed;
}
