namespace Garnet.server;

/// <summary>
/// Receives the server's figures from <see cref="ServerMetrics.Collect"/>, each under a Prometheus-style name (snake
/// case, the base unit in the name, counters ending in _total) without a prefix. A name is always the same kind with
/// the same label name; an exporter turns the calls into its own metrics.
/// </summary>
public interface IServerMetricsWriter
{
    /// <summary>
    /// A count since the server started. It only grows, except that CONFIG RESETSTAT sets the statistics INFO resets
    /// back to zero; an exporter that must stay monotonic treats a drop as a restart from zero.
    /// </summary>
    void Counter(string name, string help, double value, string? labelName = null, string? labelValue = null);

    /// <summary>A reading that goes up and down.</summary>
    void Gauge(string name, string help, double value, string? labelName = null, string? labelValue = null);
}
