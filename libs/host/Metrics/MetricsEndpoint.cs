using System;
using System.Net;
using Garnet.server;
using Prometheus;

namespace Garnet;

/// <summary>
/// <c>--metrics-port</c>: Prometheus's text format over HTTP at <c>/metrics</c>, served by prometheus-net's small
/// HttpListener-based server on the server's bind address. INFO's figures are read when a scrape asks for them
/// (<see cref="ServerMetrics.Collect"/>, through <see cref="PrometheusMetricsWriter"/>); the command latency
/// histograms (<see cref="Latency"/>) are the only figures recorded as commands run. Each endpoint has its own
/// registry, so servers in one process do not share metrics.
/// </summary>
public sealed class MetricsEndpoint : IDisposable
{
    /// <summary>What every metric's name starts with.</summary>
    public const string Prefix = "garnet_";

    private readonly StoreWrapper _store;
    private readonly PrometheusMetricsWriter _writer;
    private readonly MetricServer _http;
    private readonly object _scrapeLock = new();
    private bool _disposed;

    /// <summary>Prepares the endpoint for <paramref name="store"/> on <paramref name="address"/>:<paramref name="port"/>; nothing listens until <see cref="Start"/>.</summary>
    public MetricsEndpoint(StoreWrapper store, string address, int port)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(port);
        _store = store;
        var registry = Metrics.NewCustomRegistry();
        var factory = Metrics.WithCustomRegistry(registry);
        _writer = new PrometheusMetricsWriter(factory);
        Latency = new CommandLatencyHistograms(factory);
        registry.AddBeforeCollectCallback(Collect);
        Port = port;
        _http = new MetricServer(ListenerHost(address), port, "metrics/", registry);
    }

    /// <summary>The command latency histograms, for <see cref="StoreWrapper.CommandLatency"/>.</summary>
    public ICommandLatencyObserver Latency { get; }

    /// <summary>The port <c>/metrics</c> is served on.</summary>
    public int Port { get; }

    /// <summary>Starts listening; throws <see cref="HttpListenerException"/> if the port cannot be bound.</summary>
    public void Start() => _http.Start();

    private void Collect()
    {
        lock (_scrapeLock)
        {
            _writer.BeginScrape();
            ServerMetrics.Collect(_store, _writer);
            _writer.EndScrape();
        }
    }

    /// <summary>HttpListener's host for the first address of a bind list: "+" for any address, brackets around IPv6.</summary>
    private static string ListenerHost(string address)
    {
        var parsed = BindAddresses.Parse(address, out _)![0].Address;
        if (parsed.Equals(IPAddress.Any) || parsed.Equals(IPAddress.IPv6Any))
            return "+";
        return parsed.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? "[" + parsed + "]" : parsed.ToString();
    }

    /// <summary>Stops listening.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _http.Dispose();
    }
}
