using System;

namespace Tsavorite;

/// <summary>
/// Reports the completion of one device read or write.
/// </summary>
/// <param name="errorCode">Zero when the operation succeeded; otherwise an errno-like code describing the failure.</param>
/// <param name="numBytes">The number of bytes actually transferred.</param>
/// <param name="context">The context object the caller passed when it issued the operation.</param>
public delegate void DeviceIOCompletionCallback(uint errorCode, uint numBytes, object? context);

/// <summary>
/// A storage device the hybrid log flushes its older pages to and reads them back from.
/// </summary>
/// <remarks>
/// Addresses are byte offsets in one flat device address space; a segmented device maps them onto
/// several files. Completion callbacks may run on any thread, and may run before the issuing call
/// returns, so callers must not hold locks the callback needs. A callback must not throw: it is the
/// only way a failure reaches the caller, and an exception escaping it is treated as a fatal bug.
/// </remarks>
public interface IDevice : IDisposable
{
    /// <summary>
    /// Gets the name of the device: the base path of its files, or "null" for the null device.
    /// </summary>
    string Name { get; }

    /// <summary>
    /// Gets the alignment, in bytes, that callers must respect for addresses and lengths so the log
    /// can be moved onto a device that performs unbuffered I/O.
    /// </summary>
    uint SectorSize { get; }

    /// <summary>
    /// Gets the number of bytes stored in each segment file (a power of two), or -1 when the device is
    /// not segmented.
    /// </summary>
    long SegmentSize { get; }

    /// <summary>
    /// Writes <paramref name="length"/> bytes from native memory at <paramref name="source"/> to the
    /// device at <paramref name="destinationAddress"/>.
    /// </summary>
    /// <remarks>
    /// The memory must stay valid and unchanged until <paramref name="callback"/> runs. The callback runs
    /// exactly once, when the data has been handed to the operating system or the write has failed.
    /// </remarks>
    /// <param name="source">The start of the native memory to write.</param>
    /// <param name="destinationAddress">The device byte address the data is written to.</param>
    /// <param name="length">The number of bytes to write.</param>
    /// <param name="callback">The callback that reports completion.</param>
    /// <param name="context">An object passed back to <paramref name="callback"/> unchanged.</param>
    void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context);

    /// <summary>
    /// Reads <paramref name="length"/> bytes at device address <paramref name="sourceAddress"/> into
    /// native memory at <paramref name="destination"/>.
    /// </summary>
    /// <remarks>
    /// The memory must stay valid until <paramref name="callback"/> runs, which happens exactly once.
    /// </remarks>
    /// <param name="sourceAddress">The device byte address to read from.</param>
    /// <param name="destination">The start of the native memory that receives the data.</param>
    /// <param name="length">The number of bytes to read.</param>
    /// <param name="callback">The callback that reports completion.</param>
    /// <param name="context">An object passed back to <paramref name="callback"/> unchanged.</param>
    void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context);

    /// <summary>
    /// Reads <paramref name="destination"/>.Length bytes at device address <paramref name="sourceAddress"/> on the
    /// calling thread, and returns zero or an errno-like error code. The log's pending reads use it: a record read
    /// back from the operating system's cache takes a few microseconds, far less than handing it to another
    /// thread and waiting for the completion.
    /// </summary>
    /// <param name="sourceAddress">The device byte address to read from.</param>
    /// <param name="destination">The memory that receives the data.</param>
    uint Read(ulong sourceAddress, Span<byte> destination);

    /// <summary>
    /// Deletes every segment that lies entirely below <paramref name="address"/>, releasing the space of
    /// a truncated log. Segments that still hold data at or above the address are kept whole.
    /// </summary>
    /// <param name="address">The lowest device address the log still needs.</param>
    void TruncateUntilAddress(long address);

    /// <summary>
    /// Blocks until no write issued through this device is still in flight, including the completion
    /// callbacks of those writes. It must not be called from a completion callback, which would wait
    /// for itself.
    /// </summary>
    void WaitForPendingWrites();
}
