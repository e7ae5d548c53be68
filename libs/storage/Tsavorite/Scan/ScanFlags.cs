using System;

namespace Tsavorite;

/// <summary>What a log scan reports besides the newest live record of each key.</summary>
[Flags]
public enum ScanFlags
{
    /// <summary>Only the newest live (valid, not deleted, not expired) record of each key, where it lies.</summary>
    None = 0,

    /// <summary>
    /// Also the newest record of a key when it has expired (the callback can tell by
    /// <see cref="LogRecord.IsExpired"/>): for tasks that delete expired records.
    /// </summary>
    IncludeExpired = 1 << 0,

    /// <summary>
    /// Also a key whose newest record was written at or beyond the scan's end while the scan ran:
    /// it is reported (with that newest record) when the scan passes one of the key's older records,
    /// so a key that exists for the whole scan is never missed because an update moved it past the end.
    /// A key may then be reported more than once (as by a resumable cursor, e.g. Redis SCAN).
    /// </summary>
    IncludeMovedPastEnd = 1 << 1,

    /// <summary>
    /// Instead: every valid record of the snapshot being taken (see TsavoriteKV.Snapshot.cs), whether live, superseded,
    /// deleted or expired, in address order; a loader applying them in that order ends with the snapshot's state.
    /// </summary>
    Snapshot = 1 << 2,
}
