using System;

namespace Tsavorite;

/// <summary>
/// Keeps records from being copied forward (by the head mover settling a page, or by compaction) while a caller scans
/// the log in steps, with other work between the steps (a slot migration scans a batch of keys, sends it, and goes on):
/// a record copied forward between two steps would land past the end the caller scans to, and its original would be
/// gone when the caller's next step reached it. Within one scan call this is the scan's own doing; across calls it is
/// this hold's. Meanwhile the head passes no page that needs settling, so under memory pressure writes may wait for
/// the hold to end (as during a checkpoint's snapshot); the holding thread's own writes never wait for the head.
/// Taken and disposed on the same thread.
/// </summary>
public sealed class ScanHold : IDisposable
{
    private TsavoriteKV? _store;

    internal ScanHold(TsavoriteKV store) => _store = store;

    public void Dispose()
    {
        var store = _store;
        if (store == null)
            return;
        _store = null;
        store.ReleaseScanHold();
    }
}

public sealed unsafe partial class TsavoriteKV
{
    /// <summary>Holds off copy-forwards until the hold is disposed (see <see cref="ScanHold"/>).</summary>
    public ScanHold HoldScans()
    {
        ScanGate.EnterScan(Epoch);
        ScanDepth++;
        return new ScanHold(this);
    }

    internal void ReleaseScanHold()
    {
        ScanDepth--;
        ScanGate.ExitScan();
    }
}
