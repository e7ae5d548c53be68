namespace Tsavorite;

/// <summary>Why the engine drops a record's value (see <see cref="ISessionFunctions{TInput, TOutput}.DisposeRecord"/>).</summary>
public enum DisposeReason : byte
{
    /// <summary>The key was deleted (Delete, or an RMW updater asked for it).</summary>
    Deleted,

    /// <summary>Upsert wrote the key's value into a new record; the old live record is no longer reachable.</summary>
    Superseded,

    /// <summary>The record had expired and a write replaced or reused it, or the head of the log passed it.</summary>
    Expired,

    /// <summary>The head of the log passed the live record and the eviction policy dropped it.</summary>
    Evicted,
}
