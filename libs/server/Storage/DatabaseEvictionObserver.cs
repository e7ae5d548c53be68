using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// What a database does when the head of its log drops a live or expired key: the object the record refers to
/// is released, and the removal is signalled (<see cref="KeyRemovalHook"/>: WATCH, client tracking, the keyspace
/// events "evicted" or "expired").
/// </summary>
internal sealed class DatabaseEvictionObserver : IEvictionObserver
{
    private readonly GarnetDatabase _database;
    private readonly KeyRemovalHook _removals;

    public DatabaseEvictionObserver(GarnetDatabase database, KeyRemovalHook removals)
    {
        _database = database;
        _removals = removals;
    }

    /// <summary>
    /// Where this thread builds channel names. The head mover may run on several threads at once, and a call never
    /// re-enters itself on one thread, so a buffer per thread is shared by every database's observer without locks.
    /// </summary>
    [ThreadStatic]
    private static byte[]? t_channel;

    /// <inheritdoc/>
    public void OnDropped(ref LogRecord record, DisposeReason reason)
    {
        _database.Objects.Release(in record);
        // The head of the log drops keys for these two reasons only.
        var removal = reason == DisposeReason.Evicted ? ServerKeyRemoval.Evicted : ServerKeyRemoval.Expired;
        _removals.OnRemoved(record.Key, _database.Index, removal, ref t_channel);
    }

    /// <inheritdoc/>
    /// <remarks>The key keeps its value (on the device, the object in the object log): only the heap copy goes.</remarks>
    public void OnPagedOut(ref LogRecord record) => _database.Objects.Release(in record);
}
