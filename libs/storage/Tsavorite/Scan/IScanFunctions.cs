namespace Tsavorite;

/// <summary>Callback of a log scan.</summary>
public interface IScanFunctions
{
    /// <summary>
    /// Fires for each live record (valid, not deleted, not expired, the newest of its key) in log
    /// order, with the bucket latch of its key held shared. Return false to stop the scan.
    /// </summary>
    bool OnRecord(in LogRecord record, long address);
}
