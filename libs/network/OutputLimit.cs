using System.Threading;

namespace Garnet.networking;

/// <summary>
/// How many reply bytes a connection may hold for a client that does not read them (Redis's
/// <c>client-output-buffer-limit</c> for one class of clients): past <see cref="HardBytes"/> at once, or past
/// <see cref="SoftBytes"/> for <see cref="SoftSeconds"/> seconds in a row, the connection is closed and what it held is
/// dropped. 0 turns a limit off.
/// </summary>
public readonly record struct OutputLimit(long HardBytes, long SoftBytes, int SoftSeconds)
{
    /// <summary>No limit (Redis's default for normal clients).</summary>
    public static OutputLimit None => default;
}

/// <summary>
/// The current <see cref="OutputLimit"/> of one class of clients, shared by their connections so that a change (CONFIG
/// SET client-output-buffer-limit) applies to connections already open; counts the connections it closed.
/// </summary>
public sealed class OutputLimitClass
{
    private readonly object _gate = new();
    private OutputLimit _limit;
    private long _disconnections;

    /// <summary>Creates the class with limit <paramref name="limit"/>.</summary>
    public OutputLimitClass(OutputLimit limit) => _limit = limit;

    /// <summary>Gets or sets the limit; read by connections when their unsent replies grow.</summary>
    public OutputLimit Limit
    {
        // A lock, not a volatile field: the limit is three values that change together.
        get { lock (_gate) return _limit; }
        set { lock (_gate) _limit = value; }
    }

    /// <summary>Connections closed for passing this class's limit.</summary>
    public long Disconnections => Interlocked.Read(ref _disconnections);

    public void CountDisconnection() => Interlocked.Increment(ref _disconnections);

    /// <summary>
    /// Whether <paramref name="unsentBytes"/> passes the limit now, given when the connection first went over the soft
    /// limit (<paramref name="overSoftSince"/>, 0 if it was under it; updated here).
    /// </summary>
    public bool IsPassed(long unsentBytes, ref long overSoftSince)
    {
        var limit = Limit;
        if (limit.HardBytes > 0 && unsentBytes > limit.HardBytes)
            return true;
        if (limit.SoftBytes <= 0 || unsentBytes <= limit.SoftBytes)
        {
            overSoftSince = 0;
            return false;
        }
        long now = System.Environment.TickCount64;
        if (overSoftSince == 0)
        {
            overSoftSince = now;
            return false;
        }
        return now - overSoftSince >= limit.SoftSeconds * 1000L;
    }
}
