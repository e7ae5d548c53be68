using System;

namespace Garnet.server;

/// <summary>Why the server removed a key on its own, with no command naming it.</summary>
internal enum ServerKeyRemoval : byte
{
    /// <summary>The key's time to live ran out: active expiration deleted it, or the head of the log dropped it.</summary>
    Expired,

    /// <summary>The eviction policy dropped the live key for the memory budget.</summary>
    Evicted,
}

/// <summary>
/// What follows a key the server removed on its own (<see cref="ActiveExpiration"/>, <see cref="DatabaseEvictionObserver"/>),
/// in one place: the key counts as modified for WATCH, clients tracking it are told it was invalidated, the
/// keyspace event "expired" or "evicted" is published, and clients blocked on it are served again (an XREADGROUP whose
/// stream went ends with NOGROUP, as in Redis 7.2). Commands signal their keys through the session's own paths
/// (the command table's keys in RunCommand), which cost nothing here.
/// </summary>
/// <remarks>
/// Redis's order: an expired key's event goes out before the key is signalled as modified (deleteExpiredKeyAndPropagate),
/// an evicted key's after (performEvictions).
/// </remarks>
internal sealed class KeyRemovalHook
{
    private readonly WatchVersionTable _watchVersions;
    private readonly TrackingTable _tracking;
    private readonly KeyspaceNotifications _notifications;
    private readonly BlockingRegistry _blocking;

    public KeyRemovalHook(WatchVersionTable watchVersions, TrackingTable tracking, KeyspaceNotifications notifications, BlockingRegistry blocking)
    {
        _blocking = blocking;
        _watchVersions = watchVersions;
        _tracking = tracking;
        _notifications = notifications;
    }

    /// <summary>
    /// Signals that <paramref name="key"/> of database <paramref name="database"/> was removed for <paramref name="reason"/>;
    /// <paramref name="channel"/> is the caller's buffer for channel names (one per thread: callers run concurrently).
    /// </summary>
    public void OnRemoved(ReadOnlySpan<byte> key, int database, ServerKeyRemoval reason, ref byte[]? channel)
    {
        if (reason == ServerKeyRemoval.Expired)
        {
            _notifications.Publish(KeyspaceEventClasses.Expired, KeyspaceEventNames.Expired, key, database, ref channel);
            SignalModified(key, database);
        }
        else
        {
            SignalModified(key, database);
            _notifications.Publish(KeyspaceEventClasses.Evicted, KeyspaceEventNames.Evicted, key, database, ref channel);
        }
    }

    /// <summary>
    /// A watched key counts as modified; a tracked key is invalidated (as Redis's signalModifiedKey); its blocked clients
    /// are served again (as Redis's signalDeletedKeyAsReady).
    /// </summary>
    private void SignalModified(ReadOnlySpan<byte> key, int database)
    {
        int slot = WatchVersionTable.SlotOf(key);
        _watchVersions.BeginWrite(slot);
        _watchVersions.EndWrite(slot);
        if (_tracking.Active)
            _tracking.InvalidateFromServer(key);
        _blocking.SignalInBackground(database, key);
    }
}
