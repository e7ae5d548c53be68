namespace Tsavorite;

/// <summary>What a callback asks the engine to do after it returns.</summary>
public enum OperationAction : byte
{
    /// <summary>Carry on as the callback's return value says.</summary>
    Default,

    /// <summary>Stop the operation without changing anything; it returns a canceled status.</summary>
    CancelOperation,

    /// <summary>Delete the record (RMW updaters): the key becomes absent; the operation returns not-found.</summary>
    ExpireAndStop,
}

/// <summary>Context of a Read callback.</summary>
public struct ReadInfo
{
    /// <summary>Logical address of the record.</summary>
    public long Address;

    /// <summary>Set by the callback to cancel.</summary>
    public OperationAction Action;

    /// <summary>
    /// Set by the callback when the read is not an access of the key (TTL, TYPE, EXISTS, OBJECT): the record's
    /// access word (<see cref="RecordAccess"/>), which eviction and OBJECT IDLETIME/FREQ read, stays as it was.
    /// </summary>
    public bool SkipAccessUpdate;
}

/// <summary>Context of an Upsert callback.</summary>
public struct UpsertInfo
{
    /// <summary>Logical address of the record being written.</summary>
    public long Address;

    /// <summary>Set by the callback to cancel.</summary>
    public OperationAction Action;

    /// <summary>
    /// Set by an in-place writer that gave the record its access word itself (RESTORE ... IDLETIME or FREQ):
    /// the engine then does not count the write as an access.
    /// </summary>
    public bool SkipAccessUpdate;
}

/// <summary>Context of an RMW callback.</summary>
public struct RMWInfo
{
    /// <summary>Logical address of the record being written.</summary>
    public long Address;

    /// <summary>Set by the callback to cancel, or to delete the record.</summary>
    public OperationAction Action;

    /// <summary>As <see cref="UpsertInfo.SkipAccessUpdate"/>, for an in-place update.</summary>
    public bool SkipAccessUpdate;
}

/// <summary>Context of a Delete callback.</summary>
public struct DeleteInfo
{
    /// <summary>Logical address of the record being deleted.</summary>
    public long Address;

    /// <summary>Set by the callback to cancel.</summary>
    public OperationAction Action;
}
