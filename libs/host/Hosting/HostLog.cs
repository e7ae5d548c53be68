using Microsoft.Extensions.Logging;

namespace Garnet;

/// <summary>The host's log messages, with stable event ids.</summary>
internal static partial class HostLog
{
    /// <summary>The startup line; logged at Information, or at Debug when --quiet.</summary>
    [LoggerMessage(EventId = 1, Message = "Garnet {Version} listening on {EndPoint}")]
    public static partial void Listening(ILogger logger, LogLevel level, string version, string endPoint);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "Also listening on Unix socket {Path}")]
    public static partial void ListeningOnUnixSocket(ILogger logger, string path);

    [LoggerMessage(EventId = 3, Level = LogLevel.Information, Message = "SHUTDOWN received; stopping")]
    public static partial void ShutdownCommandReceived(ILogger logger);

    [LoggerMessage(EventId = 4, Level = LogLevel.Information, Message = "Shutting down")]
    public static partial void ShuttingDown(ILogger logger);

    [LoggerMessage(EventId = 5, Level = LogLevel.Debug, Message = "Server stopped")]
    public static partial void Stopped(ILogger logger);

    [LoggerMessage(EventId = 7, Level = LogLevel.Information, Message = "Serving Prometheus metrics at /metrics on port {Port}")]
    public static partial void ServingMetrics(ILogger logger, int port);

    [LoggerMessage(EventId = 6, Level = LogLevel.Warning, Message = "{Warning}")]
    public static partial void StartWarning(ILogger logger, string warning);

    [LoggerMessage(EventId = 8, Level = LogLevel.Information, Message = "Evicting client: {Client}")]
    public static partial void ClientEvicted(ILogger logger, string client);

    /// <summary>The start-up warm-up's outcome: at Debug (the startup line stays the one line), at Warning when it failed.</summary>
    [LoggerMessage(EventId = 9, Message = "{Report}")]
    public static partial void WarmedUp(ILogger logger, LogLevel level, string report);
}
