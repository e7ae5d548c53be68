namespace Tsavorite;

/// <summary>Outcome of reserving space at the tail of the log.</summary>
internal enum AllocationStatus
{
    /// <summary>Space was reserved.</summary>
    Success,

    /// <summary>Another thread is opening the next page: refresh the epoch and try again.</summary>
    RetryNow,

    /// <summary>The memory budget is full and no page can be evicted.</summary>
    OutOfMemory,
}
