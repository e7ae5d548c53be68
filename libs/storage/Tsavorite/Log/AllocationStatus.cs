namespace Tsavorite;

/// <summary>Outcome of reserving space at the tail of the log.</summary>
internal enum AllocationStatus
{
    /// <summary>Space was reserved.</summary>
    Success,

    /// <summary>Another thread is opening the next page: refresh the epoch and try again.</summary>
    RetryNow,

    /// <summary>The budget's pages are taken and the head mover is making room: release latches, refresh the epoch, pause and try again.</summary>
    WaitForHead,

    /// <summary>The memory budget is full and no page can be evicted.</summary>
    OutOfMemory,
}
