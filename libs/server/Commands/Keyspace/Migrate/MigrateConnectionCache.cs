using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>
/// The server's open connections to MIGRATE targets, one per "host:port" as the command names it, as Redis keeps them:
/// at most <see cref="MaxConnections"/>, each closed after <see cref="IdleLimitMs"/> unused (looked at once a second,
/// as Redis's cron does, and again when one is taken). A connection is taken out while a MIGRATE uses it, so two
/// sessions never share one (a second MIGRATE to the same target meanwhile opens its own, and the cache keeps the one
/// handed back last); one that failed is closed instead of handed back.
/// </summary>
internal sealed class MigrateConnectionCache : IDisposable
{
    /// <summary>Redis's MIGRATE_SOCKET_CACHE_ITEMS.</summary>
    public const int MaxConnections = 64;

    /// <summary>Redis's MIGRATE_SOCKET_CACHE_TTL (10 seconds).</summary>
    public const long IdleLimitMs = 10_000;

    private static readonly TimeSpan SweepPeriod = TimeSpan.FromSeconds(1);

    private readonly Dictionary<string, MigrateConnection> _idle = new(StringComparer.Ordinal);
    private readonly object _lock = new();
    private PeriodicLoop? _sweep;
    private bool _disposed;

    /// <summary>Connections kept for reuse.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
                return _idle.Count;
        }
    }

    /// <summary>The kept connection to <paramref name="name"/>, taken out of the cache; null when there is none.</summary>
    public MigrateConnection? Take(string name)
    {
        MigrateConnection? connection;
        lock (_lock)
        {
            if (!_idle.Remove(name, out connection))
                return null;
        }
        if (Environment.TickCount64 - connection.LastUsedMs <= IdleLimitMs)
            return connection;
        connection.Dispose();
        return null;
    }

    /// <summary>Keeps <paramref name="connection"/> for the next MIGRATE to its target, closing the least recently used one if the cache is full.</summary>
    public void Return(MigrateConnection connection)
    {
        connection.LastUsedMs = Environment.TickCount64;
        MigrateConnection? closed = null;
        lock (_lock)
        {
            if (_disposed)
            {
                closed = connection;
            }
            else
            {
                if (_idle.Remove(connection.Name, out var previous))
                    closed = previous;
                else if (_idle.Count >= MaxConnections)
                    closed = RemoveLeastRecentlyUsed();
                _idle[connection.Name] = connection;
                // The sweep runs only once a connection was ever kept: servers that never MIGRATE pay nothing.
                if (_sweep == null)
                {
                    _sweep = new PeriodicLoop(SweepPeriod, _ => CloseIdle());
                    _sweep.Start();
                }
            }
        }
        closed?.Dispose();
    }

    private MigrateConnection RemoveLeastRecentlyUsed()
    {
        MigrateConnection? oldest = null;
        foreach (var candidate in _idle.Values)
        {
            if (oldest == null || candidate.LastUsedMs < oldest.LastUsedMs)
                oldest = candidate;
        }
        _idle.Remove(oldest!.Name);
        return oldest;
    }

    /// <summary>Closes the connections unused for longer than <see cref="IdleLimitMs"/>.</summary>
    private void CloseIdle()
    {
        List<MigrateConnection>? closed = null;
        long now = Environment.TickCount64;
        lock (_lock)
        {
            foreach (var connection in _idle.Values)
            {
                if (now - connection.LastUsedMs > IdleLimitMs)
                    (closed ??= new()).Add(connection);
            }
            if (closed != null)
            {
                foreach (var connection in closed)
                    _idle.Remove(connection.Name);
            }
        }
        if (closed != null)
        {
            foreach (var connection in closed)
                connection.Dispose();
        }
    }

    /// <summary>Stops the sweep and closes every kept connection.</summary>
    public void Dispose()
    {
        PeriodicLoop? sweep;
        List<MigrateConnection> closed;
        lock (_lock)
        {
            _disposed = true;
            sweep = _sweep;
            closed = new List<MigrateConnection>(_idle.Values);
            _idle.Clear();
        }
        sweep?.Dispose();
        foreach (var connection in closed)
            connection.Dispose();
    }
}
