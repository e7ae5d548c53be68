using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// What a database does when the head of its log drops a live or expired key: the object the record refers to
/// is released, a watched key counts as modified, as Redis signals an evicted key to WATCH, clients tracking the key
/// are told it was invalidated, and the keyspace events "evicted" or "expired" are published.
/// </summary>
internal sealed class DatabaseEvictionObserver : IEvictionObserver
{
    private readonly GarnetDatabase _database;
    private readonly WatchVersionTable _watchVersions;
    private readonly KeyspaceNotifications? _notifications;
    private readonly TrackingTable _tracking;

    public DatabaseEvictionObserver(GarnetDatabase database, WatchVersionTable watchVersions, KeyspaceNotifications? notifications, TrackingTable tracking)
    {
        _database = database;
        _watchVersions = watchVersions;
        _notifications = notifications;
        _tracking = tracking;
    }

    /// <inheritdoc/>
    public void OnDropped(ref LogRecord record, DisposeReason reason)
    {
        _database.Objects.Release(in record);
        int slot = WatchVersionTable.SlotOf(record.Key);
        _watchVersions.BeginWrite(slot);
        _watchVersions.EndWrite(slot);
        if (_tracking.Active)
            _tracking.InvalidateFromServer(record.Key);
        if (_notifications is { Active: not KeyspaceEventClasses.None } notifications)
            Notify(notifications, ref record, reason);
    }

    /// <summary>
    /// Where this thread builds channel names. The head mover may run on several threads at once, and a call never
    /// re-enters itself on one thread, so a buffer per thread is shared by every database's observer without locks.
    /// </summary>
    [ThreadStatic]
    private static byte[]? t_channel;

    private void Notify(KeyspaceNotifications notifications, ref LogRecord record, DisposeReason reason)
    {
        if (reason == DisposeReason.Evicted)
            notifications.Publish(KeyspaceEventClasses.Evicted, KeyspaceEventNames.Evicted, record.Key, _database.Index, ref t_channel);
        else if (reason == DisposeReason.Expired)
            notifications.Publish(KeyspaceEventClasses.Expired, KeyspaceEventNames.Expired, record.Key, _database.Index, ref t_channel);
    }

    /// <inheritdoc/>
    /// <remarks>The key keeps its value (on the device, the object in the object log): only the heap copy goes.</remarks>
    public void OnPagedOut(ref LogRecord record) => _database.Objects.Release(in record);
}
