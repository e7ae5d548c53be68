namespace Tsavorite;

/// <summary>Callback of a log scan.</summary>
public interface IScanFunctions
{
    /// <summary>
    /// Fires for each live record (valid, not deleted, not expired, the newest of its key) in log
    /// order, and for the others <see cref="ScanFlags"/> asks for, with the bucket latch of the
    /// record's key held shared. Return false to stop the scan.
    /// </summary>
    bool OnRecord(in LogRecord record, long address);
}
