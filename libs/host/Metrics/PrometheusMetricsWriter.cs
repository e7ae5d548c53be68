using System.Collections.Generic;
using Garnet.server;
using Prometheus;

namespace Garnet;

/// <summary>
/// Turns <see cref="ServerMetrics.Collect"/>'s figures into prometheus-net counters and gauges named
/// <c>garnet_</c> + the figure's name, made on first sight. Counters stay monotonic across CONFIG RESETSTAT: they
/// move by what the figure grew since the last scrape, and a figure that dropped is taken to have restarted from zero.
/// A labelled value not reported in a scrape (a database emptied, a command count reset) is unpublished until it is
/// reported again (a counter then goes on from where it was). Used by one
/// scrape at a time (<see cref="MetricsEndpoint"/> holds a lock around it).
/// </summary>
internal sealed class PrometheusMetricsWriter : IServerMetricsWriter
{
    private readonly IMetricFactory _factory;
    private readonly Dictionary<string, Counter> _counters = new();
    private readonly Dictionary<string, Gauge> _gauges = new();
    private readonly Dictionary<(string Name, string Label), double> _lastCounts = new();

    /// <summary>The labelled values published, by metric and label, with the scrape that last reported them.</summary>
    private readonly Dictionary<(string Name, string Label), (ChildBase Child, long Scrape)> _labelled = new();
    private readonly List<(string Name, string Label)> _stale = new();
    private long _scrape;

    public PrometheusMetricsWriter(IMetricFactory factory) => _factory = factory;

    /// <summary>Starts a scrape: values reported before <see cref="EndScrape"/> are current.</summary>
    public void BeginScrape() => _scrape++;

    /// <summary>Unpublishes the labelled values this scrape did not report.</summary>
    public void EndScrape()
    {
        _stale.Clear();
        foreach (var (key, (child, scrape)) in _labelled)
        {
            if (scrape != _scrape)
            {
                child.Unpublish();
                _stale.Add(key);
            }
        }
        foreach (var key in _stale)
        {
            _labelled.Remove(key);
            _lastCounts.Remove(key);
        }
    }

    public void Counter(string name, string help, double value, string? labelName = null, string? labelValue = null)
    {
        if (!_counters.TryGetValue(name, out var counter))
        {
            counter = _factory.CreateCounter(MetricsEndpoint.Prefix + name, help, LabelsOf(labelName));
            _counters.Add(name, counter);
        }
        var key = (name, labelValue ?? "");
        double last = _lastCounts.GetValueOrDefault(key);
        _lastCounts[key] = value;
        double growth = value >= last ? value - last : value;
        if (labelValue == null)
        {
            counter.Inc(growth);
            return;
        }
        var child = counter.WithLabels(labelValue);
        child.Inc(growth);
        _labelled[key] = (child, _scrape);
    }

    public void Gauge(string name, string help, double value, string? labelName = null, string? labelValue = null)
    {
        if (!_gauges.TryGetValue(name, out var gauge))
        {
            gauge = _factory.CreateGauge(MetricsEndpoint.Prefix + name, help, LabelsOf(labelName));
            _gauges.Add(name, gauge);
        }
        if (labelValue == null)
        {
            gauge.Set(value);
            return;
        }
        var child = gauge.WithLabels(labelValue);
        child.Set(value);
        _labelled[(name, labelValue)] = (child, _scrape);
    }

    private static string[] LabelsOf(string? labelName) => labelName == null ? [] : [labelName];
}
