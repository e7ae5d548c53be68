namespace Tsavorite;

/// <summary>
/// Who reserves space at the tail, which decides how much of the memory budget the reservation may fill
/// (see <see cref="HybridLog.TryAllocate"/>). Each class may go one step further than the one before it, so a
/// class is never starved by the classes below it.
/// </summary>
internal enum AllocationClass
{
    /// <summary>Ordinary writes: every page of the budget but the last <see cref="HybridLog.ReservePages"/>.</summary>
    Writer,

    /// <summary>
    /// Writes that give memory back or hold it level (tombstones, pops, expiration changes) and writes that must
    /// not wait for the head (holders of key locks, scanning threads): one page more than writers.
    /// </summary>
    Reserve,

    /// <summary>
    /// The head mover's copies: every page beyond the reserve class's, up to the log's frames. The live records of
    /// one page fit in the rest of the tail page plus one fresh page, so a page the head mover starts emptying is
    /// always emptied, and passing it gives the page back; when the budget shrinks under the log, the head mover
    /// is what brings the log back within it.
    /// </summary>
    HeadMover,
}
