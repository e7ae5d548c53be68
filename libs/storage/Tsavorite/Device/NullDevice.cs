using System;

namespace Tsavorite;

/// <summary>
/// A device that discards everything written to it, for a log that lives only in memory.
/// </summary>
/// <remarks>
/// Writes succeed immediately: the callback runs synchronously, before <see cref="WriteAsync"/>
/// returns. Reads always fail with <see cref="ReadErrorCode"/>, because nothing was ever stored; a
/// log backed by this device must never evict a page it may still need to read.
/// </remarks>
public sealed class NullDevice : IDevice
{
    /// <summary>
    /// The error code every read reports (the value of errno EIO, an input/output error).
    /// </summary>
    public const uint ReadErrorCode = 5;

    /// <inheritdoc/>
    public string Name => "null";

    /// <inheritdoc/>
    public uint SectorSize => 1;

    /// <inheritdoc/>
    public long SegmentSize => -1;

    /// <summary>
    /// Discards the data and reports success for all <paramref name="length"/> bytes synchronously.
    /// </summary>
    /// <inheritdoc/>
    public void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context)
    {
        ArgumentNullException.ThrowIfNull(callback);
        callback(0, length, context);
    }

    /// <summary>
    /// Reports <see cref="ReadErrorCode"/> with zero bytes read synchronously, leaving the destination untouched.
    /// </summary>
    /// <inheritdoc/>
    public void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context)
    {
        ArgumentNullException.ThrowIfNull(callback);
        callback(ReadErrorCode, 0, context);
    }

    /// <summary>Reports <see cref="ReadErrorCode"/>, leaving the destination untouched: the device holds no data.</summary>
    /// <inheritdoc/>
    public uint Read(ulong sourceAddress, Span<byte> destination) => ReadErrorCode;

    /// <summary>
    /// Does nothing: the device holds no data to release.
    /// </summary>
    /// <inheritdoc/>
    public void TruncateUntilAddress(long address)
    {
    }

    /// <summary>
    /// Returns immediately: every write has already completed by the time it returns.
    /// </summary>
    /// <inheritdoc/>
    public void WaitForPendingWrites()
    {
    }

    /// <summary>
    /// Does nothing: the device owns no resources.
    /// </summary>
    public void Dispose()
    {
    }
}
