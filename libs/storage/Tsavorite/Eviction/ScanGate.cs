using System.Threading;

namespace Tsavorite;

/// <summary>
/// Keeps scans and the head mover's settling of a page apart. A scan walks the log up to the tail it saw when it
/// started; a record the head mover copies forward meanwhile lands beyond that end and would be missed, or met
/// twice if the scan had passed it already. So the head mover settles no page while a scan runs, and a scan
/// starts only between pages. The head may still pass a running scan (the page was settled before the scan
/// began, so its live records are copies the scan meets below its end), which the scan steps over.
/// </summary>
/// <remarks>
/// A Dekker handshake with full fences on both sides: each side announces itself, then looks for the other.
/// A scan waits with its epoch refreshing, since the head mover may be waiting for an epoch drain; a thread
/// that scans makes its own writes privileged and never waits for the head (see <see cref="TsavoriteKV.InScan"/>),
/// since the head mover may be waiting for that scan to end.
/// </remarks>
internal sealed class ScanGate
{
    private int _activeScans;
    private int _settling;

    /// <summary>Whether a scan is running (the head mover waits before settling a page).</summary>
    public bool ScansActive => Volatile.Read(ref _activeScans) != 0;

    /// <summary>Enters a scan, waiting for the head mover to finish the page it is settling.</summary>
    public void EnterScan(LightEpoch epoch)
    {
        Interlocked.Increment(ref _activeScans);
        int waits = 0;
        while (Volatile.Read(ref _settling) != 0)
        {
            if (epoch.ThisInstanceProtected())
                epoch.ProtectAndDrain();
            HybridLog.PauseForHead(waits++);
        }
    }

    public void ExitScan() => Interlocked.Decrement(ref _activeScans);

    /// <summary>Starts settling a page if no scan runs; false if one does (the head mover waits and tries again).</summary>
    public bool TryEnterSettling()
    {
        Interlocked.Exchange(ref _settling, 1);
        if (Volatile.Read(ref _activeScans) == 0)
            return true;
        Volatile.Write(ref _settling, 0);
        return false;
    }

    public void ExitSettling() => Volatile.Write(ref _settling, 0);
}
