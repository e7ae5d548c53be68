using Garnet.common;

namespace Garnet.server;

/// <summary>How an object-store operation ended, beyond the engine's status.</summary>
public enum ObjectResult : byte
{
    /// <summary>The command ran (its reply is in the writer), or the snapshot/install was done.</summary>
    Ok,

    /// <summary>The key holds another type; nothing was changed or written.</summary>
    WrongType,

    /// <summary>The memory budget is full; nothing was changed or written.</summary>
    OutOfMemory,
}

/// <summary>The output of an object-store operation.</summary>
public struct ObjectOutput
{
    /// <summary>Where <see cref="GarnetObject.Operate"/> writes the command's reply (a session buffer, copied to the client after the latch is released).</summary>
    public RespWriter Writer;

    /// <summary>How the operation ended.</summary>
    public ObjectResult Result;

    /// <summary>The copied or referenced object (Snapshot, Reference).</summary>
    public GarnetObject? Object;

    /// <summary>Expiration (Unix milliseconds, 0 for none) of the record a Snapshot or Reference read.</summary>
    public long ExpirationUnixMs;

    /// <summary>A number an operation hands back to its session (e.g. how many elements it removed).</summary>
    public long Number;

    /// <summary>A floating-point number an operation hands back to its session (e.g. the score ZPOPMIN popped).</summary>
    public double Double;

    /// <summary>
    /// Whether the command already ran in this operation. The engine may retry an operation (e.g. when
    /// a page fills while it appends a record); the object was already changed and the reply written,
    /// so a retry must not run the command again.
    /// </summary>
    internal bool Ran;

    /// <summary>An object built for a new record, added to the table only once the record is linked (so a lost link leaks no handle).</summary>
    internal GarnetObject? Pending;

    /// <summary>
    /// Whether the command changed the object's elements: its count changed (noted by the store functions), or the
    /// command says so (ZADD updating a score). Keyspace notifications publish only for commands that changed data.
    /// </summary>
    internal bool Modified;

    /// <summary>Whether XADD's MAXLEN/MINID removed entries (an "xtrim" keyspace event after "xadd").</summary>
    internal bool Trimmed;

    /// <summary>Whether the command left the object empty, so the key was deleted (a "del" keyspace event).</summary>
    internal bool Emptied;

    /// <summary>An element an operation hands back to its session (e.g. the value LMOVE popped).</summary>
    public byte[]? Element;
}
