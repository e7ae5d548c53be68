using System;
using System.Threading;

namespace Garnet.server;

/// <summary>Server-wide counters for INFO. Sessions add their per-batch counts, not per command.</summary>
public sealed class ServerStatistics : IDisposable
{
    /// <summary>Counter slots: one per command id, then one per subcommand (INFO reports "cmdstat_client|id" as Redis does).</summary>
    private static readonly int s_subcommandSlotBase = MaxCommandId() + 1;
    private static readonly int s_commandSlots = s_subcommandSlotBase + 256;

    /// <summary>How many counter slots a <see cref="CommandCounters"/> has.</summary>
    internal static int CommandSlots => s_commandSlots;

    /// <summary>The counter slot of a subcommand (see <see cref="RespCommandInfo.StatsSlot"/>).</summary>
    internal static int SubcommandSlot(Subcommand subcommand) => s_subcommandSlotBase + (int)subcommand;

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
    public long CommandCalls(RespCommand command) => Counts((int)command).Calls;

    /// <summary>What INFO commandstats reports for <paramref name="command"/> (a command or subcommand) since start or the last reset.</summary>
    public CommandCounts Counts(RespCommandInfo command) => Counts(command.StatsSlot);

    private CommandCounts Counts(int slot)
    {
        if (slot >= ExtensionRegistry.FirstId)
            return _custom.Read(slot - ExtensionRegistry.FirstId);
        long calls = 0, ticks = 0, failed = 0, rejected = 0;
        int id = slot;
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
    internal void AddCommandCall(CommandCounters countersOfThisThread, int slot)
    {
        if ((uint)slot < (uint)countersOfThisThread.Calls.Length)
            countersOfThisThread.Calls[slot]++;
        else if (slot >= ExtensionRegistry.FirstId && !countersOfThisThread.Discarded)
            _custom.Add(slot - ExtensionRegistry.FirstId, 0, 1);
    }

    /// <summary>Counts <paramref name="calls"/> calls of <paramref name="command"/> that ran in <paramref name="ticks"/> together (a stretch's run).</summary>
    internal void AddCommandRun(CommandCounters countersOfThisThread, int slot, int calls, long ticks)
    {
        if ((uint)slot < (uint)countersOfThisThread.Calls.Length)
        {
            countersOfThisThread.Calls[slot] += calls;
            countersOfThisThread.Ticks[slot] += ticks;
        }
        else if (slot >= ExtensionRegistry.FirstId && !countersOfThisThread.Discarded)
        {
            _custom.Add(slot - ExtensionRegistry.FirstId, 0, calls);
            _custom.Add(slot - ExtensionRegistry.FirstId, 1, ticks);
        }
    }

    /// <summary>Adds <paramref name="ticks"/> of run time, and a failure when <paramref name="failed"/>, to <paramref name="command"/>.</summary>
    internal void AddCommandTime(CommandCounters countersOfThisThread, int slot, long ticks, bool failed)
    {
        if ((uint)slot < (uint)countersOfThisThread.Ticks.Length)
        {
            countersOfThisThread.Ticks[slot] += ticks;
            if (failed)
                countersOfThisThread.Failed[slot]++;
        }
        else if (slot >= ExtensionRegistry.FirstId && !countersOfThisThread.Discarded)
        {
            _custom.Add(slot - ExtensionRegistry.FirstId, 1, ticks);
            if (failed)
                _custom.Add(slot - ExtensionRegistry.FirstId, 2, 1);
        }
    }

    /// <summary>latency-tracking: whether commands' durations go into their latency histograms.</summary>
    public bool LatencyTracking
    {
        get => Volatile.Read(ref _latencyTracking);
        set => Volatile.Write(ref _latencyTracking, value);
    }
    private bool _latencyTracking = true;

    /// <summary>latency-tracking-info-percentiles: the percentiles INFO latencystats reports.</summary>
    public double[] LatencyPercentiles
    {
        get => Volatile.Read(ref _latencyPercentiles);
        set => Volatile.Write(ref _latencyPercentiles, value);
    }
    private double[] _latencyPercentiles = [50, 99, 99.9];

    // Custom commands' histograms are shared by every thread, as their counters are (and made for those that run).
    private readonly System.Collections.Concurrent.ConcurrentDictionary<int, long[]> _customHistograms = new();

    /// <summary>Adds <paramref name="count"/> runs of <paramref name="ticks"/> each to the latency histogram of <paramref name="slot"/>.</summary>
    internal void AddLatency(CommandCounters countersOfThisThread, int slot, long ticks, long count)
    {
        var histograms = countersOfThisThread.Histograms;
        if ((uint)slot < (uint)histograms.Length)
        {
            // Read by value (a reference to an element of an array of arrays costs a type check each time); made once.
            var histogram = histograms[slot] ?? (histograms[slot] = new long[LatencyHistogram.BucketCount]);
            LatencyHistogram.Add(histogram, ticks, count);
        }
        else if (slot >= ExtensionRegistry.FirstId && !countersOfThisThread.Discarded)
            LatencyHistogram.AddShared(_customHistograms.GetOrAdd(slot, static _ => new long[LatencyHistogram.BucketCount]), ticks, count);
    }

    /// <summary>The latency histogram of <paramref name="command"/> summed over the threads, and how many durations it holds (0: none).</summary>
    public long LatencyHistogramOf(RespCommandInfo command, out long[] buckets)
    {
        buckets = new long[LatencyHistogram.BucketCount];
        int slot = command.StatsSlot;
        if (slot >= ExtensionRegistry.FirstId)
            return LatencyHistogram.AddInto(buckets, _customHistograms.TryGetValue(slot, out var custom) ? custom : null);
        long total = 0;
        foreach (var counters in _countersPerThread.Values)
            total += LatencyHistogram.AddInto(buckets, Volatile.Read(ref counters.Histograms[slot]));
        return total;
    }

    /// <summary>Counts a call of <paramref name="command"/> refused before it ran (arity, authentication, ACL, -BUSY ...): Redis's rejected_calls.</summary>
    internal void AddCommandRejected(CommandCounters countersOfThisThread, int slot)
    {
        if ((uint)slot < (uint)countersOfThisThread.Rejected.Length)
            countersOfThisThread.Rejected[slot]++;
        else if (slot >= ExtensionRegistry.FirstId && !countersOfThisThread.Discarded)
            _custom.Add(slot - ExtensionRegistry.FirstId, 3, 1);
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
        _customHistograms.Clear();
        Errors.Reset();
    }

    /// <summary>Error replies by their code (INFO errorstats) and in all (total_error_replies).</summary>
    public ErrorStatistics Errors { get; } = new();

    /// <summary>Releases the per-thread counters.</summary>
    public void Dispose() => _countersPerThread.Dispose();
}
