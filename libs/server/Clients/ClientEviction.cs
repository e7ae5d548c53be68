using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Client eviction (Redis's maxmemory-clients): when the memory all clients hold together reaches the limit, the
/// clients holding the most are disconnected, largest first, until the rest are under it.
/// </summary>
/// <remarks>
/// The total is kept, not summed per check: each client adds the change in its own share (see
/// <c>RespServerSession.RecountMemory</c>) at the end of each of its batches, which is when its buffers grow (a
/// command too large for the receive buffer, replies a client does not read). Memory that changes between batches (a
/// backlog draining, pub/sub messages queuing for a subscriber) is counted again by a pass over all clients every
/// <see cref="Period"/>. Both only while the limit is set: with maxmemory-clients 0, a batch tests one flag.
/// As in Redis, clients with CLIENT NO-EVICT ON count toward the total but are never evicted, and the limit is at
/// least <see cref="MinimumLimit"/>, so a mistaken setting cannot cut off every client.
/// </remarks>
public sealed class ClientEviction : IDisposable
{
    /// <summary>The smallest limit applied (Redis's): a lower setting acts as this.</summary>
    public const long MinimumLimit = 128 * 1024;

    /// <summary>How often memory that changed between batches is counted again (Redis's client cron runs at 10 Hz).</summary>
    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(100);

    private readonly ClientRegistry _clients;
    private readonly Tsavorite.MemoryBudget _budget;
    private readonly object _evicting = new();
    private readonly object _loopGate = new();
    private PeriodicLoop? _loop;
    private bool _disposed;

    private volatile bool _on;
    /// <summary>The setting: bytes, or a percentage of maxmemory as a negative number (as Redis keeps it).</summary>
    private long _setting;
    private long _total;
    private long _evicted;
    /// <summary>Until when (TickCount64) batches leave eviction to the periodic pass: the last pass ended over the limit.</summary>
    private long _futileUntil;

    /// <summary>Creates client eviction, off, over <paramref name="clients"/>; a percentage is of <paramref name="budget"/>'s limit.</summary>
    public ClientEviction(ClientRegistry clients, Tsavorite.MemoryBudget budget)
    {
        _clients = clients;
        _budget = budget;
    }

    /// <summary>Whether maxmemory-clients is set (not 0): the only thing a batch looks at when it is not.</summary>
    public bool IsOn => _on;

    /// <summary>
    /// maxmemory-clients as CONFIG shows it: "0" (off), a number of bytes, or a percentage of maxmemory ("5%").
    /// Setting it takes a value already checked and normalized by CONFIG SET.
    /// </summary>
    public string Setting
    {
        get
        {
            long setting = Volatile.Read(ref _setting);
            return setting < 0 ? (-setting).ToString(CultureInfo.InvariantCulture) + "%" : setting.ToString(CultureInfo.InvariantCulture);
        }
        set
        {
            long setting = value.EndsWith('%')
                ? -long.Parse(value.AsSpan(0, value.Length - 1), NumberStyles.None, CultureInfo.InvariantCulture)
                : long.Parse(value, NumberStyles.None, CultureInfo.InvariantCulture);
            Volatile.Write(ref _setting, setting);
            bool wasOn = _on;
            _on = setting != 0;
            if (_on && !wasOn)
            {
                // Shares were not kept up to date while off: count everyone now, as Redis does when it is turned on.
                RecountAll();
                StartLoop();
            }
            if (_on)
                EvictIfOverLimit();
        }
    }

    /// <summary>The limit in bytes now: 0 when off, or when a percentage is set and maxmemory is not.</summary>
    public long Limit
    {
        get
        {
            long setting = Volatile.Read(ref _setting);
            long bytes;
            if (setting < 0)
            {
                long maxMemory = _budget.Limit;
                if (maxMemory <= 0)
                    return 0;
                bytes = (long)(maxMemory * (-setting / 100.0));
            }
            else if (setting > 0)
            {
                bytes = setting;
            }
            else
            {
                return 0;
            }
            return Math.Max(bytes, MinimumLimit);
        }
    }

    /// <summary>
    /// Raised for each client evicted, with a description of it (id, address, name, memory), for the host to log as
    /// Redis logs "Evicting client". Raised on the evicting thread: handlers must be quick and must not throw.
    /// </summary>
    public event Action<string>? ClientEvicted;

    /// <summary>Clients disconnected by client eviction (INFO stats evicted_clients).</summary>
    public long Evicted => Interlocked.Read(ref _evicted);

    /// <summary>The memory of all clients as last counted (kept only while eviction is on).</summary>
    public long CountedTotal => Interlocked.Read(ref _total);

    /// <summary>Counts <paramref name="session"/>'s memory again.</summary>
    internal void Recount(RespServerSession session)
    {
        long change = session.RecountMemory();
        if (change != 0)
            Interlocked.Add(ref _total, change);
    }

    /// <summary>Takes a closing <paramref name="session"/> out of the total.</summary>
    internal void Forget(RespServerSession session)
    {
        long change = session.ForgetMemory();
        if (change != 0)
            Interlocked.Add(ref _total, change);
    }

    /// <summary>
    /// At the end of a batch, past the limit: evicts as <see cref="EvictIfOverLimit"/>, unless the last pass could not
    /// get under the limit (NO-EVICT clients hold too much) less than a <see cref="Period"/> ago, so that batches do not
    /// each walk all clients for nothing; the periodic pass goes on looking meanwhile.
    /// </summary>
    internal void EvictAfterBatchIfOverLimit()
    {
        if (Environment.TickCount64 >= Volatile.Read(ref _futileUntil))
            EvictIfOverLimit();
    }

    /// <summary>
    /// Past the limit, evicts the clients holding the most until the total is under it. One thread evicts at a time;
    /// another that finds it busy leaves the work to it.
    /// </summary>
    internal void EvictIfOverLimit()
    {
        long limit = Limit;
        if (limit == 0 || Interlocked.Read(ref _total) < limit || !Monitor.TryEnter(_evicting))
            return;
        try
        {
            // Shares may be stale (a backlog that drained since): count each client again before choosing.
            var candidates = new List<(long Memory, RespServerSession Session)>();
            foreach (var session in _clients.Snapshot())
            {
                Recount(session);
                if (!session.NoEvict && !session.KillRequested)
                    candidates.Add((session.CountedMemory, session));
            }
            candidates.Sort(static (a, b) => b.Memory.CompareTo(a.Memory));
            foreach (var (memory, session) in candidates)
            {
                if (Interlocked.Read(ref _total) < limit)
                    break;
                session.Evict();
                Forget(session);
                Interlocked.Increment(ref _evicted);
                ClientEvicted?.Invoke(string.Create(CultureInfo.InvariantCulture,
                    $"id={session.ClientId} addr={session.RemoteEndpoint} name={session.ClientName} tot-mem={memory} (all clients {Interlocked.Read(ref _total) + memory}, maxmemory-clients {limit})"));
            }
            if (Interlocked.Read(ref _total) >= limit)
                Volatile.Write(ref _futileUntil, Environment.TickCount64 + (long)Period.TotalMilliseconds);
        }
        finally
        {
            Monitor.Exit(_evicting);
        }
    }

    private void RecountAll()
    {
        foreach (var session in _clients.Snapshot())
            Recount(session);
    }

    /// <summary>The pass over all clients starts the first time eviction is turned on and runs until shutdown.</summary>
    private void StartLoop()
    {
        lock (_loopGate)
        {
            if (_loop != null || _disposed)
                return;
            _loop = new PeriodicLoop(Period, _ => RecountAllIfOn());
            _loop.Start();
        }
    }

    private void RecountAllIfOn()
    {
        if (!_on)
            return;
        RecountAll();
        EvictIfOverLimit();
    }

    /// <inheritdoc />
    public void Dispose()
    {
        lock (_loopGate)
        {
            _disposed = true;
            _loop?.Dispose();
        }
    }
}
