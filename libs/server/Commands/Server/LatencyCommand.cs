using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// LATENCY LATEST / HISTORY / RESET / GRAPH / DOCTOR over the server's <see cref="LatencyMonitor"/>, and LATENCY
/// HISTOGRAM over the per-command latency histograms (both filled in Stats/RespServerSession.CommandTiming.cs).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_latencyHelp =
    [
        "DOCTOR",
        "    Return a human readable latency analysis report.",
        "GRAPH <event>",
        "    Return an ASCII latency graph for the <event> class.",
        "HISTORY <event>",
        "    Return time-latency samples for the <event> class.",
        "LATEST",
        "    Return the latest latency samples for all events.",
        "RESET [<event> ...]",
        "    Reset latency data of one or more <event> classes.",
        "    (default: reset all data for all event classes)",
        "HISTOGRAM [COMMAND ...]",
        "    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
        "    If no commands are specified then all histograms are replied.",
    ];

    private void LatencyCommand()
    {
        var subcommand = ResolveSubcommand(RespCommand.LATENCY);
        if (subcommand == null)
            return;
        var monitor = _server.LatencyMonitor;
        switch (subcommand.Id)
        {
            case Subcommand.LatencyLatest: LatencyLatest(monitor); break;
            case Subcommand.LatencyHistory: LatencyHistory(monitor); break;
            case Subcommand.LatencyReset: LatencyReset(monitor); break;
            case Subcommand.LatencyGraph: LatencyGraph(monitor); break;
            case Subcommand.LatencyDoctor: _writer.WriteVerbatim(Encoding.UTF8.GetBytes(LatencyReport.Doctor(monitor))); break;
            case Subcommand.LatencyHistogram: LatencyHistogramReply(); break;
            case Subcommand.LatencyHelp: WriteHelp(s_latencyHelp); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not a LATENCY subcommand.");
        }
    }

    /// <summary>[event, unix time of the newest spike, its milliseconds, the worst since start or reset] per event.</summary>
    private void LatencyLatest(LatencyMonitor monitor)
    {
        var events = monitor.Latest();
        _writer.WriteArrayHeader(events.Count);
        foreach (var summary in events)
        {
            _writer.WriteArrayHeader(4);
            _writer.WriteBulk(summary.Event);
            _writer.WriteInteger(summary.UnixSeconds);
            _writer.WriteInteger(summary.LatestMilliseconds);
            _writer.WriteInteger(summary.MaxMilliseconds);
        }
    }

    /// <summary>[unix time, milliseconds] per second with a spike, oldest first; empty for an event without samples.</summary>
    private void LatencyHistory(LatencyMonitor monitor)
    {
        var samples = monitor.History(Encoding.UTF8.GetString(_args[2].Span));
        _writer.WriteArrayHeader(samples.Count);
        foreach (var sample in samples)
        {
            _writer.WriteArrayHeader(2);
            _writer.WriteInteger(sample.UnixSeconds);
            _writer.WriteInteger(sample.Milliseconds);
        }
    }

    /// <summary>How many of the named events (every event, without names) had samples and were forgotten.</summary>
    private void LatencyReset(LatencyMonitor monitor)
    {
        if (_argCount == 2)
        {
            _writer.WriteInteger(monitor.ResetAll());
            return;
        }
        int reset = 0;
        for (int i = 2; i < _argCount; i++)
        {
            if (monitor.Reset(Encoding.UTF8.GetString(_args[i].Span)))
                reset++;
        }
        _writer.WriteInteger(reset);
    }

    private void LatencyGraph(LatencyMonitor monitor)
    {
        string eventName = Encoding.UTF8.GetString(_args[2].Span);
        var samples = monitor.History(eventName);
        if (samples.Count == 0)
        {
            _writer.WriteError("ERR No samples available for event '" + eventName + "'");
            return;
        }
        string graph = LatencyReport.Graph(eventName, samples, monitor.MaxOf(eventName), DateTimeOffset.UtcNow.ToUnixTimeSeconds());
        _writer.WriteVerbatim(Encoding.UTF8.GetBytes(graph));
    }

    /// <summary>
    /// LATENCY HISTOGRAM [command ...]: a map of command name to {calls, histogram_usec}, for the named commands (a container
    /// names all its subcommands, "parent|sub" one; unknown names are skipped) or all, leaving out those never timed. Each
    /// histogram maps a power-of-two bucket's upper bound in microseconds (from 1.024 µs up) to how many calls took at most
    /// that, listing only the buckets calls fell in.
    /// </summary>
    private void LatencyHistogramReply()
    {
        var commands = new List<RespCommandInfo>();
        if (_argCount == 2)
        {
            foreach (var info in CommandTable.All)
                AddTracked(commands, info);
            foreach (var info in _server.Extensions.All)
                commands.Add(info);
        }
        else
        {
            for (int i = 2; i < _argCount; i++)
            {
                string name = Encoding.UTF8.GetString(_args[i].Span);
                var info = name.Contains('|') ? SubcommandTable.Find(name)?.Info : CommandTable.Lookup(name) ?? _server.Extensions.Find(_args[i].Span)?.Info;
                if (info != null)
                    AddTracked(commands, info);
            }
        }

        var histograms = new List<(RespCommandInfo Info, long Calls, long[] Buckets)>();
        foreach (var info in commands)
        {
            long calls = _server.Statistics.LatencyHistogramOf(info, out var buckets);
            if (calls > 0)
                histograms.Add((info, calls, buckets));
        }
        _writer.WriteMapHeader(histograms.Count);
        Span<long> powerBuckets = stackalloc long[PowerBucketCount];
        foreach (var (info, calls, buckets) in histograms)
        {
            _writer.WriteBulk(info.LowerName);
            _writer.WriteMapHeader(2);
            _writer.WriteBulk("calls"u8);
            _writer.WriteInteger(calls);
            _writer.WriteBulk("histogram_usec"u8);
            powerBuckets.Clear();
            for (int b = 0; b < buckets.Length; b++)
            {
                if (buckets[b] != 0)
                    powerBuckets[PowerBucketOf(LatencyHistogram.LowestOf(b))] += buckets[b];
            }
            int used = 0;
            foreach (long count in powerBuckets)
            {
                if (count != 0)
                    used++;
            }
            _writer.WriteMapHeader(used);
            long cumulative = 0;
            for (int k = 0; k < PowerBucketCount; k++)
            {
                if (powerBuckets[k] == 0)
                    continue;
                cumulative += powerBuckets[k];
                _writer.WriteInteger((long)Math.Round((1024L << k) / 1000.0));
                _writer.WriteInteger(cumulative);
            }
        }
    }

    // LATENCY HISTOGRAM's buckets: up to 1,024 ns, then each twice as wide, the last (about a second) taking all longer.
    private const int PowerBucketCount = 21;

    private static int PowerBucketOf(long nanoseconds)
    {
        if (nanoseconds < 1024)
            return 0;
        int bit = 63 - System.Numerics.BitOperations.LeadingZeroCount((ulong)nanoseconds);
        return Math.Min(bit - 9, PowerBucketCount - 1);
    }

    /// <summary>A command, or every subcommand of a container (their calls are counted per subcommand).</summary>
    private static void AddTracked(List<RespCommandInfo> commands, RespCommandInfo info)
    {
        if (SubcommandTable.IsContainer(info.Command) && info.StatsSlot == (int)info.Command)
        {
            foreach (var subcommand in SubcommandTable.Of(info.Command))
            {
                if (!commands.Contains(subcommand.Info))
                    commands.Add(subcommand.Info);
            }
            return;
        }
        if (!commands.Contains(info))
            commands.Add(info);
    }
}
