using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Garnet.server;

/// <summary>The text replies of the latency monitor: LATENCY GRAPH's chart and LATENCY DOCTOR's report.</summary>
internal static class LatencyReport
{
    private const int GraphWidth = 80;
    private const int GraphRows = 4;

    /// <summary>
    /// LATENCY GRAPH: a title with the shown samples' high and low and the all-time high, a rule, one column per sample
    /// (newest right, at most 80) scaled between low and high in half rows ('_' a half, '|' a whole, '#' the top whole),
    /// and under each column how long ago it happened, written downwards (s, m, h or d).
    /// </summary>
    public static string Graph(string eventName, List<LatencySample> samples, long allTimeMax, long nowUnixSeconds)
    {
        int first = Math.Max(0, samples.Count - GraphWidth);
        long high = long.MinValue, low = long.MaxValue;
        for (int i = first; i < samples.Count; i++)
        {
            high = Math.Max(high, samples[i].Milliseconds);
            low = Math.Min(low, samples[i].Milliseconds);
        }
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"{eventName} - high {high} ms, low {low} ms (all time high {allTimeMax} ms)\n");
        text.Append('-', GraphWidth).Append('\n');

        int columns = samples.Count - first;
        var halves = new int[columns];
        for (int c = 0; c < columns; c++)
        {
            long value = samples[first + c].Milliseconds;
            // At least half a row, so the lowest sample still shows.
            halves[c] = high == low ? 2 * GraphRows : 1 + (int)Math.Round((double)(value - low) / (high - low) * (2 * GraphRows - 1));
        }
        for (int row = GraphRows - 1; row >= 0; row--)
        {
            for (int c = 0; c < columns; c++)
            {
                int h = halves[c];
                char mark = h >= 2 * (row + 1) ? (h <= 2 * (row + 1) + 1 ? '#' : '|') : h == 2 * row + 1 ? '_' : ' ';
                text.Append(mark);
            }
            text.Append('\n');
        }
        text.Append('\n');

        var labels = new string[columns];
        int longest = 0;
        for (int c = 0; c < columns; c++)
        {
            labels[c] = Age(nowUnixSeconds - samples[first + c].UnixSeconds);
            longest = Math.Max(longest, labels[c].Length);
        }
        for (int line = 0; line < longest; line++)
        {
            for (int c = 0; c < columns; c++)
                text.Append(line < labels[c].Length ? labels[c][line] : ' ');
            text.Append('\n');
        }
        return text.ToString();
    }

    private static string Age(long seconds)
    {
        seconds = Math.Max(0, seconds);
        if (seconds < 60)
            return seconds.ToString(CultureInfo.InvariantCulture) + "s";
        if (seconds < 3600)
            return (seconds / 60).ToString(CultureInfo.InvariantCulture) + "m";
        if (seconds < 86400)
            return (seconds / 3600).ToString(CultureInfo.InvariantCulture) + "h";
        return (seconds / 86400).ToString(CultureInfo.InvariantCulture) + "d";
    }

    /// <summary>
    /// LATENCY DOCTOR: for each event its spikes' count, mean, mean deviation, spacing and all-time worst, then what
    /// usually causes that event here and what to look at.
    /// </summary>
    public static string Doctor(LatencyMonitor monitor)
    {
        var text = new StringBuilder();
        long threshold = monitor.ThresholdMilliseconds;
        var events = monitor.Events();
        if (events.Count == 0)
        {
            if (threshold <= 0)
            {
                text.Append("The latency monitor is off (latency-monitor-threshold is 0), so no spike has been recorded.\n");
                text.Append("To record operations slower than N milliseconds: CONFIG SET latency-monitor-threshold N\n");
            }
            else
            {
                text.Append(CultureInfo.InvariantCulture, $"No operation took {threshold} ms or more (latency-monitor-threshold) since the server started or the last LATENCY RESET.\n");
            }
            return text.ToString();
        }

        text.Append(CultureInfo.InvariantCulture, $"Latency spikes of {threshold} ms or more (latency-monitor-threshold) were recorded for {events.Count} event(s):\n\n");
        int index = 1;
        foreach (string name in events)
        {
            var samples = monitor.History(name);
            if (samples.Count == 0)
                continue;
            double mean = 0;
            foreach (var sample in samples)
                mean += sample.Milliseconds;
            mean /= samples.Count;
            double deviation = 0;
            foreach (var sample in samples)
                deviation += Math.Abs(sample.Milliseconds - mean);
            deviation /= samples.Count;
            double period = samples.Count > 1 ? (double)(samples[^1].UnixSeconds - samples[0].UnixSeconds) / (samples.Count - 1) : 0;
            text.Append(CultureInfo.InvariantCulture,
                $"{index++}. {name}: {samples.Count} spike(s), mean {mean:F0} ms, mean deviation {deviation:F0} ms, one every {period:F1} s on average; worst since start or reset {monitor.MaxOf(name)} ms.\n");
        }

        text.Append("\nWhat to look at:\n\n");
        foreach (string name in events)
            text.Append("- ").Append(name).Append(": ").Append(Advice(name)).Append('\n');
        return text.ToString();
    }

    private static string Advice(string eventName) => eventName switch
    {
        LatencyMonitor.CommandEvent =>
            "commands that are not @fast ran long. SLOWLOG GET names them; the usual cause is an O(N) command over a large key (KEYS, SMEMBERS, HGETALL, LRANGE 0 -1, SORT, ZUNIONSTORE) or a long script. Prefer SCAN and its family, and smaller keys.",
        LatencyMonitor.FastCommandEvent =>
            "@fast commands ran long, which their own work does not explain: the thread waited on the storage tier (a read from disk), on the operating system (swapping, a busy or overcommitted machine) or on a garbage collection. Check INFO memory and the machine's load.",
        LatencyMonitor.ExpireCycleEvent =>
            "a pass of active expiration ran long: many keys expired at once. Spread expirations out (add a random part to TTLs).",
        LatencyMonitor.AofFsyncEvent =>
            "an fsync of the operation log that acknowledged writes wait for was slow: the device is slow or busy. A faster device, or appendfsync everysec (writes acknowledged before they are on disk), shortens it.",
        _ => "see LATENCY HISTORY " + eventName + " for when it happened.",
    };
}
