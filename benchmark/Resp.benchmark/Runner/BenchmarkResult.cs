using System.Collections.Generic;

namespace Resp.benchmark;

/// <summary>Latency percentiles of one operation of an online run, in microseconds.</summary>
public sealed record LatencySummary(string Op, long Count, double P50, double P90, double P99, double P999, double Max, double Mean);

/// <summary>The outcome of one measurement (one thread count).</summary>
public sealed class BenchmarkResult
{
    /// <summary>"offline" (throughput) or "online" (latency).</summary>
    public required string Mode { get; init; }

    /// <summary>The operation (offline) or the mix such as "GET:80,SET:20" (online).</summary>
    public required string Workload { get; init; }

    /// <summary>Client threads.</summary>
    public required int Threads { get; init; }

    /// <summary>Connections per thread (offline) or client threads per thread count (online).</summary>
    public required int Clients { get; init; }

    /// <summary>Commands per network write: --batchsize offline, --itp online.</summary>
    public required int BatchSize { get; init; }

    /// <summary>Distinct keys.</summary>
    public required long DbSize { get; init; }

    /// <summary>Key length in bytes.</summary>
    public required int KeyLength { get; init; }

    /// <summary>Value length in bytes.</summary>
    public required int ValueLength { get; init; }

    /// <summary>"uniform" or "zipf:THETA".</summary>
    public required string Distribution { get; init; }

    /// <summary>
    /// Commands that make one operation: 1, or 6 for a MULTIINCR4 transaction (MULTI, 4 INCR, EXEC).
    /// <see cref="Requests"/>, <see cref="Replies"/> and ops/s count operations.
    /// </summary>
    public int CommandsPerOp { get; init; } = 1;

    /// <summary>Operations sent during the measurement.</summary>
    public required long Requests { get; init; }

    /// <summary>Operations whose replies all arrived during the measurement.</summary>
    public required long Replies { get; init; }

    /// <summary>Error replies, plus error elements inside replies (a command that failed inside EXEC).</summary>
    public required long Errors { get; init; }

    /// <summary>The first error's text, if there was one.</summary>
    public string? FirstError { get; init; }

    /// <summary>Seconds from releasing the clients to the last one finishing.</summary>
    public required double ElapsedSeconds { get; init; }

    /// <summary>Operations (<see cref="Replies"/>) per second over <see cref="ElapsedSeconds"/>.</summary>
    public double OpsPerSecond => ElapsedSeconds > 0 ? Replies / ElapsedSeconds : 0;

    /// <summary>Online runs: one entry per operation, then "ALL"; empty offline.</summary>
    public IReadOnlyList<LatencySummary> Latencies { get; init; } = [];
}
