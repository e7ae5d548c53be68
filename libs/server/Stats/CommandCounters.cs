using System;
using System.Threading;

namespace Garnet.server;

/// <summary>What INFO commandstats reports for a command: calls, time spent, calls that failed and calls refused before running.</summary>
public readonly record struct CommandCounts(long Calls, long Ticks, long Failed, long Rejected)
{
    /// <summary>The time spent in microseconds (from <see cref="System.Diagnostics.Stopwatch"/> ticks).</summary>
    public long Microseconds => TicksToMicroseconds(Ticks);

    /// <summary>Stopwatch ticks in microseconds, without the overflow of multiplying first (ticks are nanoseconds on Linux).</summary>
    public static long TicksToMicroseconds(long ticks)
    {
        long frequency = System.Diagnostics.Stopwatch.Frequency;
        return frequency % 1_000_000 == 0 ? ticks / (frequency / 1_000_000) : (long)(ticks * (1_000_000.0 / frequency));
    }
}

/// <summary>
/// One thread's per-command counters, indexed by command id. Sessions running on the thread write them without
/// synchronization (the thread runs the whole batch); INFO sums every thread's.
/// </summary>
internal sealed class CommandCounters
{
    public readonly long[] Calls;
    public readonly long[] Ticks;
    public readonly long[] Failed;
    public readonly long[] Rejected;

    /// <summary>Each command's latency histogram (<see cref="LatencyHistogram"/>), made at its first timing.</summary>
    public readonly long[]?[] Histograms;

    /// <summary>
    /// Counters nothing reads (a session replaying the operation log counts into them): custom commands, which count in
    /// shared counters instead of these, are then not counted at all.
    /// </summary>
    public bool Discarded { get; init; }

    public CommandCounters(int slots)
    {
        Histograms = new long[]?[slots];
        Calls = new long[slots];
        Ticks = new long[slots];
        Failed = new long[slots];
        Rejected = new long[slots];
    }

    public void Clear()
    {
        Array.Clear(Calls);
        Array.Clear(Ticks);
        Array.Clear(Failed);
        Array.Clear(Rejected);
        Array.Clear(Histograms);
    }
}

/// <summary>
/// The counters of custom commands (ids from <see cref="ExtensionRegistry.FirstId"/>), whose number is open: shared by
/// every thread and added to atomically, in chunks that never move so no addition is lost while another chunk is made.
/// </summary>
internal sealed class CustomCommandCounters
{
    private const int ChunkBits = 8;
    private const int Fields = 4;
    private readonly long[]?[] _chunks = new long[]?[(ExtensionRegistry.MaxCount >> ChunkBits) + 1];

    public void Add(int index, int field, long amount)
    {
        ref var slot = ref _chunks[index >> ChunkBits];
        var chunk = Volatile.Read(ref slot);
        if (chunk == null)
        {
            Interlocked.CompareExchange(ref slot, new long[(1 << ChunkBits) * Fields], null);
            chunk = Volatile.Read(ref slot)!;
        }
        Interlocked.Add(ref chunk[((index & ((1 << ChunkBits) - 1)) * Fields) + field], amount);
    }

    public CommandCounts Read(int index)
    {
        var chunk = Volatile.Read(ref _chunks[index >> ChunkBits]);
        if (chunk == null)
            return default;
        int at = (index & ((1 << ChunkBits) - 1)) * Fields;
        return new CommandCounts(Volatile.Read(ref chunk[at]), Volatile.Read(ref chunk[at + 1]), Volatile.Read(ref chunk[at + 2]), Volatile.Read(ref chunk[at + 3]));
    }

    public void Clear()
    {
        foreach (var chunk in _chunks)
        {
            if (chunk != null)
                Array.Clear(chunk);
        }
    }
}
