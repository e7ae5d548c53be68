using System.Threading;

namespace Garnet.server;

/// <summary>
/// Whether anything watches commands as they run: a MONITOR client (<see cref="MonitorFeed"/>) or a tracking client
/// (<see cref="TrackingTable"/>). One word, so a command looks once while neither is on, instead of once per feature.
/// </summary>
internal sealed class CommandObservers
{
    /// <summary>Set while some client monitors.</summary>
    public const int Monitoring = 1;

    /// <summary>Set while some client tracks.</summary>
    public const int Tracking = 2;

    private volatile int _active;

    /// <summary>Whether any observer is on.</summary>
    public bool Any => _active != 0;

    /// <summary>Turns <paramref name="observer"/> on or off (by its owner, under its own lock, as its count changes).</summary>
    public void Set(int observer, bool on)
    {
        if (on)
            Interlocked.Or(ref _active, observer);
        else
            Interlocked.And(ref _active, ~observer);
    }
}
