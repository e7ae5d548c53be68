using Garnet.server;
using Microsoft.Extensions.Logging;

namespace Garnet;

/// <summary>
/// Everything the host runs with: the validated server settings plus what only the process needs
/// (logging, the startup line, thread-pool sizes). <see cref="OptionsParser"/> builds it from options.
/// </summary>
public sealed class HostSettings
{
    /// <summary>The server's settings, in engine units (sizes in bytes).</summary>
    public ServerOptions Server { get; init; } = new();

    /// <summary>Lowest level written to the console log. Default <see cref="LogLevel.Information"/>.</summary>
    public LogLevel LogLevel { get; init; } = LogLevel.Information;

    /// <summary>Whether the startup line is left out. Default false.</summary>
    public bool Quiet { get; init; }

    /// <summary>Minimum worker and I/O threads of the thread pool; 0 keeps the runtime's default.</summary>
    public int MinThreads { get; init; }

    /// <summary>Maximum worker and I/O threads of the thread pool; 0 keeps the runtime's default.</summary>
    public int MaxThreads { get; init; }

    /// <summary>TCP port of the Prometheus endpoint (<see cref="MetricsEndpoint"/>) on the server's address; 0, the default, serves none.</summary>
    public int MetricsPort { get; init; }
}
