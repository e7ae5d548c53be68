using System;
using System.Threading;

namespace Garnet.server;

/// <summary>Server-wide counters for INFO. Sessions add their per-batch counts, not per command.</summary>
public sealed class ServerStatistics : IDisposable
{
    private static readonly int s_commandSlots = MaxCommandId() + 1;

    // Per-command counts are kept per thread: a shared counter for GET would bounce one cache
    // line between every core on every command. INFO sums the threads' arrays.
    private readonly ThreadLocal<CommandCounters> _countersPerThread = new(() => new CommandCounters(s_commandSlots), trackAllValues: true);

    // Custom commands are rarer and their number is open, so they share counters.
    private readonly CustomCommandCounters _custom = new();

    private long _connectionsReceived;
    private long _commandsProcessed;
    private long _keyspaceHits;
    private long _keyspaceMisses;
    private long _expiredKeys;
    private long _rejectedConnections;
    private long _aclDeniedAuth;
    private long _aclDeniedCommand;
    private long _aclDeniedKey;
    private long _aclDeniedChannel;

    public long ConnectionsReceived => Volatile.Read(ref _connectionsReceived);
    public long CommandsProcessed => Volatile.Read(ref _commandsProcessed);
    public long KeyspaceHits => Volatile.Read(ref _keyspaceHits);
    public long KeyspaceMisses => Volatile.Read(ref _keyspaceMisses);
    public long ExpiredKeys => Volatile.Read(ref _expiredKeys);
    public long RejectedConnections => Volatile.Read(ref _rejectedConnections);
    public long AclDeniedAuth => Volatile.Read(ref _aclDeniedAuth);
    public long AclDeniedCommand => Volatile.Read(ref _aclDeniedCommand);
    public long AclDeniedKey => Volatile.Read(ref _aclDeniedKey);
    public long AclDeniedChannel => Volatile.Read(ref _aclDeniedChannel);

    /// <summary>Counts one refusal by ACL (INFO stats acl_access_denied_*).</summary>
    internal void AddAclDenied(AclDenial reason)
    {
        switch (reason)
        {
            case AclDenial.Auth: Interlocked.Increment(ref _aclDeniedAuth); break;
            case AclDenial.Command: Interlocked.Increment(ref _aclDeniedCommand); break;
            case AclDenial.Key: Interlocked.Increment(ref _aclDeniedKey); break;
            case AclDenial.Channel: Interlocked.Increment(ref _aclDeniedChannel); break;
            default: throw new ArgumentOutOfRangeException(nameof(reason));
        }
    }

    /// <summary>Calls of <paramref name="command"/> since start or the last reset.</summary>
    public long CommandCalls(RespCommand command) => Counts(command).Calls;

    /// <summary>What INFO commandstats reports for <paramref name="command"/> since start or the last reset.</summary>
    public CommandCounts Counts(RespCommand command)
    {
        if ((int)command >= ExtensionRegistry.FirstId)
            return _custom.Read((int)command - ExtensionRegistry.FirstId);
        long calls = 0, ticks = 0, failed = 0, rejected = 0;
        int id = (int)command;
        foreach (var counters in _countersPerThread.Values)
        {
            calls += Volatile.Read(ref counters.Calls[id]);
            ticks += Volatile.Read(ref counters.Ticks[id]);
            failed += Volatile.Read(ref counters.Failed[id]);
            rejected += Volatile.Read(ref counters.Rejected[id]);
        }
        return new CommandCounts(calls, ticks, failed, rejected);
    }

    private static int MaxCommandId()
    {
        int max = 0;
        foreach (RespCommand command in Enum.GetValues<RespCommand>())
            max = Math.Max(max, (int)command);
        return max;
    }

    internal void AddConnection() => Interlocked.Increment(ref _connectionsReceived);

    internal void AddRejectedConnection() => Interlocked.Increment(ref _rejectedConnections);

    /// <summary>Clients closed for passing client-query-buffer-limit (INFO client_query_buffer_limit_disconnections).</summary>
    public long QueryBufferLimitDisconnections => Volatile.Read(ref _queryBufferLimitDisconnections);
    private long _queryBufferLimitDisconnections;

    internal void AddQueryBufferLimitDisconnection() => Interlocked.Increment(ref _queryBufferLimitDisconnections);

    internal void AddCommands(long count) => Interlocked.Add(ref _commandsProcessed, count);

    /// <summary>
    /// The calling thread's per-command counters. A session fetches them once per batch (the thread
    /// runs the whole batch) and passes them to <see cref="AddCommandCall"/>: a ThreadLocal lookup per
    /// command costs more than the increment.
    /// </summary>
    internal CommandCounters CountersOfThisThread() => _countersPerThread.Value!;

    /// <summary>Counts a call of <paramref name="command"/> in <paramref name="countersOfThisThread"/> (from <see cref="CountersOfThisThread"/>, fetched on this thread).</summary>
    internal void AddCommandCall(CommandCounters countersOfThisThread, RespCommand command)
    {
        if ((uint)command < (uint)countersOfThisThread.Calls.Length)
            countersOfThisThread.Calls[(int)command]++;
        else if ((int)command >= ExtensionRegistry.FirstId)
            _custom.Add((int)command - ExtensionRegistry.FirstId, 0, 1);
    }

    /// <summary>Adds <paramref name="ticks"/> of run time, and a failure when <paramref name="failed"/>, to <paramref name="command"/>.</summary>
    internal void AddCommandTime(CommandCounters countersOfThisThread, RespCommand command, long ticks, bool failed)
    {
        if ((uint)command < (uint)countersOfThisThread.Ticks.Length)
        {
            countersOfThisThread.Ticks[(int)command] += ticks;
            if (failed)
                countersOfThisThread.Failed[(int)command]++;
        }
        else if ((int)command >= ExtensionRegistry.FirstId)
        {
            _custom.Add((int)command - ExtensionRegistry.FirstId, 1, ticks);
            if (failed)
                _custom.Add((int)command - ExtensionRegistry.FirstId, 2, 1);
        }
    }

    /// <summary>Counts a call of <paramref name="command"/> refused before it ran (arity, authentication, ACL, -BUSY ...): Redis's rejected_calls.</summary>
    internal void AddCommandRejected(CommandCounters countersOfThisThread, RespCommand command)
    {
        if ((uint)command < (uint)countersOfThisThread.Rejected.Length)
            countersOfThisThread.Rejected[(int)command]++;
        else if ((int)command >= ExtensionRegistry.FirstId)
            _custom.Add((int)command - ExtensionRegistry.FirstId, 3, 1);
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
        Volatile.Write(ref _connectionsReceived, 0);
        Volatile.Write(ref _commandsProcessed, 0);
        Volatile.Write(ref _keyspaceHits, 0);
        Volatile.Write(ref _keyspaceMisses, 0);
        Volatile.Write(ref _expiredKeys, 0);
        Volatile.Write(ref _rejectedConnections, 0);
        Volatile.Write(ref _queryBufferLimitDisconnections, 0);
        Volatile.Write(ref _aclDeniedAuth, 0);
        Volatile.Write(ref _aclDeniedCommand, 0);
        Volatile.Write(ref _aclDeniedKey, 0);
        Volatile.Write(ref _aclDeniedChannel, 0);
        foreach (var counters in _countersPerThread.Values)
            counters.Clear();
        _custom.Clear();
        Errors.Reset();
    }

    /// <summary>Error replies by their code (INFO errorstats) and in all (total_error_replies).</summary>
    public ErrorStatistics Errors { get; } = new();

    /// <summary>Releases the per-thread counters.</summary>
    public void Dispose() => _countersPerThread.Dispose();
}
