using System;
using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime;
using Garnet.server;

namespace Garnet;

/// <summary>What the start-up warm-up did: how long it took, how many requests it sent and methods it had compiled, and why it stopped.</summary>
public sealed record WarmUpReport(TimeSpan Elapsed, long Requests, long MethodsCompiled, string? Failure)
{
    /// <summary>The line the host logs.</summary>
    public override string ToString() => Failure == null
        ? $"Warmed up in {Elapsed.TotalMilliseconds:F0} ms: {Requests} requests, {MethodsCompiled} methods compiled"
        : $"Warm-up stopped after {Elapsed.TotalMilliseconds:F0} ms ({Failure}); the first requests may be served by unoptimized code";
}

/// <summary>
/// Brings a fresh process's hot paths to optimized code before the server listens. The runtime compiles a method first
/// without optimizations and recompiles it optimized (with the profile it gathered) only after it has been called often
/// enough; on one core, a fresh server's first second of load ran that slow code (issue 23's first runs). Here the same
/// code runs first on a throwaway server: its own stores in memory, on a free loopback port, reached by a few loopback
/// connections sending <see cref="WarmUpTraffic"/>. Compiled code belongs to the process, not to a server, so the real
/// server starts with it; none of the throwaway's keys, statistics or clients remain. It stops once a quiet spell passes
/// with nothing new compiled, or at its budget.
/// </summary>
public static class StartupWarmUp
{
    /// <summary>No method compiled for this long: the runtime has optimized what the traffic runs (its call-counting delay is 10 ms in the server's runtimeconfig, ten times that on one core).</summary>
    private static readonly TimeSpan QuietSpell = TimeSpan.FromMilliseconds(300);

    private const int Connections = 2;

    /// <summary>Runs the warm-up for at most <paramref name="budget"/>; a failure ends it early and is reported, never thrown.</summary>
    public static WarmUpReport Run(ServerOptions options, TimeSpan budget)
    {
        long start = Stopwatch.GetTimestamp();
        long compiledBefore = JitInfo.GetCompiledMethodCount();
        long requests = 0;
        string? failure = null;
        try
        {
            using var server = new GarnetServer(options.ForWarmUp());
            server.Start();
            using var traffic = new WarmUpTraffic(server.Port, Connections, replyTimeout: budget + TimeSpan.FromSeconds(5));
            try
            {
                long compiled = JitInfo.GetCompiledMethodCount();
                long lastCompiled = Stopwatch.GetTimestamp();
                while (Stopwatch.GetElapsedTime(start) < budget)
                {
                    traffic.RunRound();
                    long now = JitInfo.GetCompiledMethodCount();
                    if (now != compiled)
                    {
                        compiled = now;
                        lastCompiled = Stopwatch.GetTimestamp();
                    }
                    else if (Stopwatch.GetElapsedTime(lastCompiled) >= QuietSpell)
                    {
                        break;
                    }
                }
            }
            finally
            {
                requests = traffic.Requests;
            }
        }
        catch (Exception e) when (e is SocketException or FormatException or InvalidOperationException or System.IO.IOException)
        {
            failure = e.Message;
        }
        // The throwaway's stores and buffers are garbage now; the real server should not start with them in its heap.
        GCSettings.LargeObjectHeapCompactionMode = GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect();
        return new WarmUpReport(Stopwatch.GetElapsedTime(start), requests, JitInfo.GetCompiledMethodCount() - compiledBefore, failure);
    }
}
