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

    // Custom commands (ids from ExtensionRegistry.FirstId) are rarer and their number is open, so they
    // share counters, in chunks that never move so no increment is lost while another chunk is added.
    private const int CustomChunkBits = 8;
    private readonly long[]?[] _customCalls = new long[]?[(ExtensionRegistry.MaxCount >> CustomChunkBits) + 1];

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
    public long CommandCalls(RespCommand command)
    {
        if ((int)command >= ExtensionRegistry.FirstId)
        {
            int index = (int)command - ExtensionRegistry.FirstId;
            var chunk = Volatile.Read(ref _customCalls[index >> CustomChunkBits]);
            return chunk == null ? 0 : Volatile.Read(ref chunk[index & ((1 << CustomChunkBits) - 1)]);
        }
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
    internal long[] CommandCallsOfThisThread() => _commandCallsPerThread.Value!;

    /// <summary>Counts a call of <paramref name="command"/> in <paramref name="callsOfThisThread"/> (from <see cref="CommandCallsOfThisThread"/>, fetched on this thread).</summary>
    internal void AddCommandCall(long[] callsOfThisThread, RespCommand command)
    {
        if ((int)command < callsOfThisThread.Length)
            callsOfThisThread[(int)command]++;
        else if ((int)command >= ExtensionRegistry.FirstId)
            AddCustomCall((int)command - ExtensionRegistry.FirstId);
    }

    private void AddCustomCall(int index)
    {
        ref var slot = ref _customCalls[index >> CustomChunkBits];
        var chunk = Volatile.Read(ref slot);
        if (chunk == null)
        {
            Interlocked.CompareExchange(ref slot, new long[1 << CustomChunkBits], null);
            chunk = Volatile.Read(ref slot)!;
        }
        Interlocked.Increment(ref chunk[index & ((1 << CustomChunkBits) - 1)]);
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
        Volatile.Write(ref _queryBufferLimitDisconnections, 0);
        Volatile.Write(ref _aclDeniedAuth, 0);
        Volatile.Write(ref _aclDeniedCommand, 0);
        Volatile.Write(ref _aclDeniedKey, 0);
        Volatile.Write(ref _aclDeniedChannel, 0);
        foreach (var calls in _commandCallsPerThread.Values)
            Array.Clear(calls);
        foreach (var chunk in _customCalls)
        {
            if (chunk != null)
                Array.Clear(chunk);
        }
    }

    /// <summary>Releases the per-thread counters.</summary>
    public void Dispose() => _commandCallsPerThread.Dispose();
}
