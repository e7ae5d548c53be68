using System;
using System.Threading;

namespace Garnet.server;

/// <summary>Server-wide counters for INFO. Sessions add their per-batch counts, not per command.</summary>
public sealed class ServerStatistics : IDisposable
{
    private static readonly int s_commandSlots = MaxCommandId() + 1;

    // Per-command call counts are kept per thread: a shared counter for GET would bounce one cache
    // line between every core on every command. INFO sums the threads' arrays.
    private readonly ThreadLocal<long[]> _commandCallsPerThread = new(() => new long[s_commandSlots], trackAllValues: true);

    private long _connectionsReceived;
    private long _commandsProcessed;
    private long _keyspaceHits;
    private long _keyspaceMisses;
    private long _expiredKeys;
    private long _rejectedConnections;

    public long ConnectionsReceived => Volatile.Read(ref _connectionsReceived);
    public long CommandsProcessed => Volatile.Read(ref _commandsProcessed);
    public long KeyspaceHits => Volatile.Read(ref _keyspaceHits);
    public long KeyspaceMisses => Volatile.Read(ref _keyspaceMisses);
    public long ExpiredKeys => Volatile.Read(ref _expiredKeys);
    public long RejectedConnections => Volatile.Read(ref _rejectedConnections);

    /// <summary>Calls of <paramref name="command"/> since start or the last reset.</summary>
    public long CommandCalls(RespCommand command)
    {
        long total = 0;
        foreach (var calls in _commandCallsPerThread.Values)
            total += Volatile.Read(ref calls[(int)command]);
        return total;
    }

    private static int MaxCommandId()
    {
        int max = 0;
        foreach (RespCommand command in Enum.GetValues<RespCommand>())
            max = Math.Max(max, (int)command);
        return max;
    }

    internal void AddConnection() => Interlocked.Increment(ref _connectionsReceived);

    internal void AddCommands(long count) => Interlocked.Add(ref _commandsProcessed, count);

    internal void AddCommandCall(RespCommand command)
    {
        // Custom commands (ids from ExtensionRegistry.FirstId) are not counted per command.
        if ((int)command < s_commandSlots)
            _commandCallsPerThread.Value![(int)command]++;
    }

    internal void AddHits(long hits, long misses)
    {
        if (hits != 0)
            Interlocked.Add(ref _keyspaceHits, hits);
        if (misses != 0)
            Interlocked.Add(ref _keyspaceMisses, misses);
    }

    internal void AddExpiredKeys(long count) => Interlocked.Add(ref _expiredKeys, count);

    /// <summary>CONFIG RESETSTAT.</summary>
    public void Reset()
    {
        Volatile.Write(ref _commandsProcessed, 0);
        Volatile.Write(ref _keyspaceHits, 0);
        Volatile.Write(ref _keyspaceMisses, 0);
        Volatile.Write(ref _expiredKeys, 0);
        Volatile.Write(ref _rejectedConnections, 0);
        foreach (var calls in _commandCallsPerThread.Values)
            Array.Clear(calls);
    }

    /// <summary>Releases the per-thread counters.</summary>
    public void Dispose() => _commandCallsPerThread.Dispose();
}
