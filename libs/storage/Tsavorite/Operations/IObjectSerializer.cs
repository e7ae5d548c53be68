namespace Tsavorite;

/// <summary>
/// Serializes the heap objects that records refer to when their pages are flushed. The engine knows
/// which records hold objects (<see cref="RecordInfo.ValueIsObject"/>) but not how a value refers
/// to one, so the store's owner turns each such record's object into bytes in the object log and
/// notes the entry's address in the record, where the page written right after carries it to disk.
/// </summary>
public interface IObjectSerializer
{
    /// <summary>
    /// Called once for each valid, live object record in a range being flushed, in address order, on
    /// the flush's own thread, after every thread has seen the range become read-only and before the
    /// range is written. Other threads may still read the record and copy it to the tail meanwhile.
    /// </summary>
    /// <param name="record">The record in log memory.</param>
    /// <param name="objectLog">Where the object's bytes go: one entry per object.</param>
    void Serialize(ref LogRecord record, ObjectLogWriter objectLog);

    /// <summary>
    /// Called for each object record read back from the device (the storage tier), on the copy read back, whose
    /// reference to an object is stale: make it refer to its object read back from <paramref name="objectLog"/> when
    /// <paramref name="load"/> (an operation is about to use it), or to none (a scan, a deleted record). Return
    /// false if the object could not be read back: the operation then fails as for a device error.
    /// </summary>
    bool OnReadBack(ref LogRecord copy, ObjectLog? objectLog, bool load) => true;

    /// <summary>
    /// Called when the operation that loaded <paramref name="copy"/> (see <see cref="OnReadBack"/>) is done with it:
    /// release the object it still refers to, unless an update took it over.
    /// </summary>
    void ReleaseReadBack(ref LogRecord copy)
    {
    }
}
