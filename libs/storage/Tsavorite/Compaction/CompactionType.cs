namespace Tsavorite;

/// <summary>How <see cref="TsavoriteKV.Compact"/> treats the records of the range it removes from the log.</summary>
public enum CompactionType
{
    /// <summary>No compaction.</summary>
    None,

    /// <summary>
    /// The range is dropped with whatever it holds (for a cache whose oldest data may go). The keys whose newest
    /// record is in it are deleted (a tombstone each, found by looking them up as <see cref="Lookup"/> does), so that
    /// the key count stays exact.
    /// </summary>
    Shift,

    /// <summary>
    /// The whole log after the range is read once to find which of the range's keys were written again; the rest
    /// are copied to the tail. One pass over the log, memory for the range's keys.
    /// </summary>
    Scan,

    /// <summary>Each record of the range is looked up in the index and copied to the tail if its key's chain leads to it.</summary>
    Lookup,
}
