using System;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Garnet;

/// <summary>
/// Runs a <see cref="GarnetServer"/> inside a .NET generic host: starts it with the host, disposes it
/// when the host stops (Ctrl-C, SIGTERM, or the application stopping), and stops the host when a
/// client sends SHUTDOWN.
/// </summary>
public sealed class GarnetHostedService : IHostedService, IDisposable
{
    private readonly HostSettings _settings;
    private readonly IHostApplicationLifetime _lifetime;
    private readonly ILogger _logger;
    private GarnetServer? _server;
    private MetricsEndpoint? _metrics;

    public GarnetHostedService(HostSettings settings, IHostApplicationLifetime lifetime, ILogger<GarnetHostedService> logger)
    {
        _settings = settings;
        _lifetime = lifetime;
        _logger = logger;
    }

    /// <summary>The running server, or null before the host started it.</summary>
    public GarnetServer? Server => _server;

    /// <summary>The Prometheus endpoint, or null when --metrics-port is 0 or the host has not started.</summary>
    public MetricsEndpoint? Metrics => _metrics;

    /// <summary>Creates the server and starts listening, then the metrics endpoint if one is asked for; a bind failure fails the host's start.</summary>
    public Task StartAsync(CancellationToken cancellationToken)
    {
        var server = new GarnetServer(_settings.Server);
        MetricsEndpoint? metrics = null;
        try
        {
            if (_settings.MetricsPort != 0)
            {
                metrics = new MetricsEndpoint(server.Store, server.Options.Address, _settings.MetricsPort);
                // Before any session opens: sessions read it once.
                server.Store.CommandLatency = metrics.Latency;
            }
            server.Store.ShutdownRequested += OnShutdownRequested;
            server.Store.ClientEviction.ClientEvicted += OnClientEvicted;
            server.Start();
            metrics?.Start();
        }
        catch
        {
            metrics?.Dispose();
            server.Dispose();
            throw;
        }
        _server = server;
        _metrics = metrics;

        if (server.WarmUp is { } warmUp)
            HostLog.WarmedUp(_logger, warmUp.Failure == null ? LogLevel.Debug : LogLevel.Warning, warmUp.ToString());
        var endPoint = new IPEndPoint(IPAddress.Parse(server.Options.Address), server.Port);
        HostLog.Listening(_logger, _settings.Quiet ? LogLevel.Debug : LogLevel.Information, OptionsParser.Version, endPoint.ToString());
        if (server.Options.UnixSocketPath != null)
            HostLog.ListeningOnUnixSocket(_logger, server.Options.UnixSocketPath);
        if (metrics != null)
            HostLog.ServingMetrics(_logger, metrics.Port);
        foreach (var warning in server.StartWarnings)
            HostLog.StartWarning(_logger, warning);
        return Task.CompletedTask;
    }

    /// <summary>Stops serving metrics, stops listening, closes the connections and frees the stores.</summary>
    public Task StopAsync(CancellationToken cancellationToken)
    {
        _metrics?.Dispose();
        if (_server != null)
        {
            HostLog.ShuttingDown(_logger);
            _server.Store.ShutdownRequested -= OnShutdownRequested;
            _server.Store.ClientEviction.ClientEvicted -= OnClientEvicted;
            _server.Dispose();
            HostLog.Stopped(_logger);
        }
        return Task.CompletedTask;
    }

    private void OnClientEvicted(string client) => HostLog.ClientEvicted(_logger, client);

    private void OnShutdownRequested()
    {
        HostLog.ShutdownCommandReceived(_logger);
        // The event fires on the session that ran SHUTDOWN; stopping disposes that session's server,
        // so it happens on a pool thread rather than inside the command.
        ThreadPool.QueueUserWorkItem(static lifetime => lifetime.StopApplication(), _lifetime, preferLocal: false);
    }

    public void Dispose()
    {
        _metrics?.Dispose();
        _server?.Dispose();
    }
}
