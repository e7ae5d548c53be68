using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>One second's worst duration of a latency event (LATENCY HISTORY).</summary>
public readonly record struct LatencySample(long UnixSeconds, long Milliseconds);

/// <summary>What LATENCY LATEST reports of an event: its newest sample and its worst since start or reset.</summary>
public readonly record struct LatencyEventSummary(string Event, long UnixSeconds, long LatestMilliseconds, long MaxMilliseconds);

/// <summary>
/// The latency monitor (LATENCY LATEST/HISTORY/RESET/GRAPH/DOCTOR): events that took at least latency-monitor-threshold
/// milliseconds (0 turns it off), each event a series of its last <see cref="MaxSamples"/> seconds with a spike, keeping
/// the worst of each second. Spikes are rare by definition, so a lock guards the series.
/// </summary>
public sealed class LatencyMonitor
{
    /// <summary>Samples an event keeps (Redis keeps 160).</summary>
    public const int MaxSamples = 160;

    /// <summary>Commands (not @fast) that ran past the threshold.</summary>
    public const string CommandEvent = "command";

    /// <summary>@fast commands that ran past the threshold.</summary>
    public const string FastCommandEvent = "fast-command";

    /// <summary>A pass of active expiration over the databases.</summary>
    public const string ExpireCycleEvent = "expire-cycle";

    /// <summary>An fsync of the operation log that commits acknowledged writes (appendfsync always, or a commit).</summary>
    public const string AofFsyncEvent = "aof-fsync-always";

    private sealed class Series
    {
        public readonly LatencySample[] Samples = new LatencySample[MaxSamples];
        public int Next;
        public int Count;
        public long Max;

        public ref LatencySample Newest => ref Samples[(Next + MaxSamples - 1) % MaxSamples];
    }

    private readonly object _lock = new();
    // In the order events first spiked, so replies list them the same way each time.
    private readonly List<(string Event, Series Series)> _events = new();
    private long _threshold;

    /// <summary>latency-monitor-threshold in milliseconds; 0 records nothing.</summary>
    public long ThresholdMilliseconds
    {
        get => Volatile.Read(ref _threshold);
        set => Volatile.Write(ref _threshold, value);
    }

    /// <summary>Whether a duration of <paramref name="milliseconds"/> is a spike worth recording.</summary>
    public bool Records(long milliseconds)
    {
        long threshold = ThresholdMilliseconds;
        return threshold > 0 && milliseconds >= threshold;
    }

    /// <summary>Records <paramref name="milliseconds"/> for <paramref name="eventName"/> if it reaches the threshold.</summary>
    public void AddIfSpike(string eventName, long milliseconds)
    {
        if (Records(milliseconds))
            Add(eventName, milliseconds, DateTimeOffset.UtcNow.ToUnixTimeSeconds());
    }

    /// <summary>Records a spike of <paramref name="eventName"/> at <paramref name="unixSeconds"/>.</summary>
    public void Add(string eventName, long milliseconds, long unixSeconds)
    {
        lock (_lock)
        {
            var series = Find(eventName);
            if (series == null)
            {
                series = new Series();
                _events.Add((eventName, series));
            }
            series.Max = Math.Max(series.Max, milliseconds);
            // A second keeps its worst spike.
            if (series.Count > 0 && series.Newest.UnixSeconds == unixSeconds)
            {
                if (milliseconds > series.Newest.Milliseconds)
                    series.Newest = new LatencySample(unixSeconds, milliseconds);
                return;
            }
            series.Samples[series.Next] = new LatencySample(unixSeconds, milliseconds);
            series.Next = (series.Next + 1) % MaxSamples;
            series.Count = Math.Min(series.Count + 1, MaxSamples);
        }
    }

    /// <summary>LATENCY LATEST: every event with samples.</summary>
    public List<LatencyEventSummary> Latest()
    {
        lock (_lock)
        {
            var list = new List<LatencyEventSummary>(_events.Count);
            foreach (var (name, series) in _events)
            {
                var newest = series.Newest;
                list.Add(new LatencyEventSummary(name, newest.UnixSeconds, newest.Milliseconds, series.Max));
            }
            return list;
        }
    }

    /// <summary>LATENCY HISTORY: the samples of <paramref name="eventName"/>, oldest first (empty for an unknown event).</summary>
    public List<LatencySample> History(string eventName)
    {
        lock (_lock)
        {
            var list = new List<LatencySample>();
            var series = Find(eventName);
            if (series != null)
            {
                for (int i = 0; i < series.Count; i++)
                    list.Add(series.Samples[(series.Next - series.Count + i + MaxSamples) % MaxSamples]);
            }
            return list;
        }
    }

    /// <summary>The all-time worst of <paramref name="eventName"/> (0 if it never spiked).</summary>
    public long MaxOf(string eventName)
    {
        lock (_lock)
            return Find(eventName)?.Max ?? 0;
    }

    /// <summary>The names of the events with samples.</summary>
    public List<string> Events()
    {
        lock (_lock)
        {
            var names = new List<string>(_events.Count);
            foreach (var (name, _) in _events)
                names.Add(name);
            return names;
        }
    }

    /// <summary>LATENCY RESET with no event: forgets every event; returns how many there were.</summary>
    public int ResetAll()
    {
        lock (_lock)
        {
            int count = _events.Count;
            _events.Clear();
            return count;
        }
    }

    /// <summary>LATENCY RESET event: forgets <paramref name="eventName"/>; returns whether it had samples.</summary>
    public bool Reset(string eventName)
    {
        lock (_lock)
        {
            for (int i = 0; i < _events.Count; i++)
            {
                if (_events[i].Event == eventName)
                {
                    _events.RemoveAt(i);
                    return true;
                }
            }
            return false;
        }
    }

    private Series? Find(string eventName)
    {
        foreach (var (name, series) in _events)
        {
            if (name == eventName)
                return series;
        }
        return null;
    }
}
