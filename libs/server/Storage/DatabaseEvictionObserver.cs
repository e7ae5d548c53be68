using Tsavorite;

namespace Garnet.server;

/// <summary>
/// What a database does when the head of its log drops a live or expired key: the object the record refers to
/// is released, and a watched key counts as modified, as Redis signals an evicted key to WATCH; clients tracking the
/// key are told it was invalidated.
/// </summary>
internal sealed class DatabaseEvictionObserver : IEvictionObserver
{
    private readonly ObjectTable _objects;
    private readonly WatchVersionTable _watchVersions;
    private readonly TrackingTable _tracking;

    public DatabaseEvictionObserver(ObjectTable objects, WatchVersionTable watchVersions, TrackingTable tracking)
    {
        _objects = objects;
        _watchVersions = watchVersions;
        _tracking = tracking;
    }

    /// <inheritdoc/>
    public void OnDropped(ref LogRecord record, DisposeReason reason)
    {
        _objects.Release(in record);
        int slot = WatchVersionTable.SlotOf(record.Key);
        _watchVersions.BeginWrite(slot);
        _watchVersions.EndWrite(slot);
        if (_tracking.Active)
            _tracking.InvalidateFromServer(record.Key);
    }

    /// <inheritdoc/>
    /// <remarks>The key keeps its value (on the device, the object in the object log): only the heap copy goes.</remarks>
    public void OnPagedOut(ref LogRecord record) => _objects.Release(in record);
}
