using System.Collections.Concurrent;
using System.Diagnostics;
using Garnet.server;
using Prometheus;

namespace Garnet;

/// <summary>
/// <c>garnet_command_duration_seconds{command="get"}</c>: a histogram of each command's run time. The histogram of
/// every built-in command is made up front, in an array indexed by the command id, so recording one is an array load
/// and prometheus-net's lock-free observe, with no allocation; custom commands, whose ids are open-ended, get theirs
/// on first use. A command's histogram is published once it has been observed, so unused commands add no lines.
/// </summary>
internal sealed class CommandLatencyHistograms : ICommandLatencyObserver
{
    /// <summary>Upper bounds from 10 µs doubling to about 5 s: a GET takes microseconds, a KEYS or a script can take seconds.</summary>
    private static readonly double[] s_buckets = Histogram.ExponentialBuckets(0.00001, 2, 20);

    private static readonly double s_secondsPerTimestamp = 1.0 / Stopwatch.Frequency;

    private readonly Histogram _histogram;
    private readonly Histogram.Child?[] _byId;
    private readonly ConcurrentDictionary<RespCommand, Histogram.Child> _custom = new();

    public CommandLatencyHistograms(IMetricFactory factory)
    {
        _histogram = factory.CreateHistogram(MetricsEndpoint.Prefix + "command_duration_seconds",
            "Time a command ran, from after its checks (arity, ACL) to its reply written; commands in MULTI count within EXEC, commands a script calls within EVAL.",
            new HistogramConfiguration
            {
                LabelNames = ["command"],
                Buckets = s_buckets,
                SuppressInitialValue = true,
                ExemplarBehavior = ExemplarBehavior.NoExemplars(),
            });
        _byId = new Histogram.Child?[CommandTable.IdCount];
        foreach (var command in CommandTable.All)
            _byId[(int)command.Command] = _histogram.WithLabels(command.LowerName);
    }

    public void Record(RespCommandInfo command, long elapsedTimestamp)
    {
        int id = (int)command.Command;
        var child = (uint)id < (uint)_byId.Length ? _byId[id] : null;
        child ??= CustomChild(command);
        child.Observe(elapsedTimestamp * s_secondsPerTimestamp);
    }

    private Histogram.Child CustomChild(RespCommandInfo command)
        => _custom.GetOrAdd(command.Command, static (_, state) => state.Histogram.WithLabels(state.Name), (Histogram: _histogram, Name: command.LowerName));
}
