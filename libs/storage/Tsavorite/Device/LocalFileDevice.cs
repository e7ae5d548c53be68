using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Numerics;
using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace Tsavorite;

/// <summary>
/// A device that stores the log in a sequence of segment files on the local file system.
/// </summary>
/// <remarks>
/// The byte at device address A lives in the file <c>{basePath}.{A / SegmentSize}</c> at offset
/// <c>A % SegmentSize</c>, so truncating the log is deleting whole files. Segment files are opened on
/// first use and kept open until they are truncated or the device is disposed. An I/O that spans a
/// segment boundary is split into one operation per segment, and its callback still runs once, with the
/// total. I/O goes through the operating system's file cache, so <see cref="SectorSize"/> alignment is
/// not enforced here; the log respects it anyway so it can move to an unbuffered device.
/// </remarks>
public sealed class LocalFileDevice : IDevice
{
    /// <summary>
    /// The default segment size, 1 GiB.
    /// </summary>
    public const long DefaultSegmentSize = 1L << 30;

    /// <summary>
    /// The error code a read reports when it starts in a segment file that does not exist (errno ENOENT).
    /// </summary>
    public const uint FileNotFoundErrorCode = 2;

    /// <summary>The error code a read on a disposed device reports (EBADF).</summary>
    public const uint DisposedErrorCode = 9;

    private const uint SectorSizeBytes = 512;

    private readonly string _basePath;
    private readonly long _segmentSize;
    private readonly int _segmentShift;
    private readonly bool _deleteOnClose;
    private readonly bool _preallocate;

    // Handles indexed by segment number. Lookups read the array without locking; opening, closing and
    // growing happen under _handlesLock, which keeps the common path (segment already open) lock-free.
    private volatile SafeFileHandle?[] _handles = new SafeFileHandle?[4];
    private readonly object _handlesLock = new();
    private long _truncatedBelowSegment;
    private volatile bool _disposed;

    // Operations in flight, counted until their callback has returned. Waiters sleep on _idleGate and
    // are woken whenever a counter drops to zero.
    private long _pendingWrites;
    private long _pendingOperations;
    private readonly object _idleGate = new();

    /// <summary>
    /// Creates a device whose segment files are named <paramref name="basePath"/> followed by
    /// <c>.0</c>, <c>.1</c>, and so on. The directory is created if it does not exist; files are not
    /// created until they are first written.
    /// </summary>
    /// <param name="basePath">The path of the segment files, without the segment number.</param>
    /// <param name="segmentSize">The number of bytes in each segment file; a power of two. Defaults to 1 GiB.</param>
    /// <param name="deleteOnClose">Whether <see cref="Dispose"/> deletes all segment files, for scratch logs and tests. Defaults to false.</param>
    /// <param name="preallocate">Whether a new segment file reserves its full size on disk when it is created, trading disk space for less fragmentation. Defaults to false.</param>
    public LocalFileDevice(string basePath, long segmentSize = DefaultSegmentSize, bool deleteOnClose = false, bool preallocate = false)
    {
        ArgumentException.ThrowIfNullOrEmpty(basePath);
        if (segmentSize < SectorSizeBytes || !BitOperations.IsPow2(segmentSize))
        {
            throw new ArgumentOutOfRangeException(nameof(segmentSize), segmentSize, $"The segment size must be a power of two of at least {SectorSizeBytes} bytes.");
        }

        _basePath = Path.GetFullPath(basePath);
        _segmentSize = segmentSize;
        _segmentShift = BitOperations.TrailingZeroCount(segmentSize);
        _deleteOnClose = deleteOnClose;
        _preallocate = preallocate;
        Directory.CreateDirectory(Path.GetDirectoryName(_basePath)!);
    }

    /// <summary>
    /// Gets the full base path of the segment files.
    /// </summary>
    public string Name => _basePath;

    /// <summary>
    /// Gets 512, the sector size of common disks.
    /// </summary>
    public uint SectorSize => SectorSizeBytes;

    /// <inheritdoc/>
    public long SegmentSize => _segmentSize;

    /// <summary>
    /// Gets the path of the file that holds segment <paramref name="segment"/>.
    /// </summary>
    /// <param name="segment">The segment number, that is the device address divided by <see cref="SegmentSize"/>.</param>
    /// <returns>The full path of the segment file.</returns>
    public string GetSegmentPath(long segment) => _basePath + "." + segment.ToString(CultureInfo.InvariantCulture);

    /// <inheritdoc/>
    /// <remarks>
    /// If the write fails part-way, the callback reports a non-zero error code and the number of bytes
    /// written before the failure.
    /// </remarks>
    public unsafe void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context)
    {
        ValidateRequest(source, nameof(source), destinationAddress, length, callback);
        var memory = new NativeMemoryManager((byte*)source, (int)length).Memory;
        BeginOperation(isWrite: true);
        RunWrite(memory, (long)destinationAddress, callback, context);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// A read that reaches the end of the written data fills the rest of the destination with zeros and
    /// reports the bytes actually read. A read that starts in a segment file that does not exist (never
    /// written, or truncated) fails with the operating system's "file not found" code.
    /// </remarks>
    public unsafe void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context)
    {
        ValidateRequest(destination, nameof(destination), sourceAddress, length, callback);
        var memory = new NativeMemoryManager((byte*)destination, (int)length).Memory;
        BeginOperation(isWrite: false);
        RunRead(memory, (long)sourceAddress, callback, context);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// As <see cref="ReadAsync"/>: the end of the written data reads as zeros, a segment that does not exist fails
    /// with <see cref="FileNotFoundErrorCode"/>.
    /// </remarks>
    public uint Read(ulong sourceAddress, Span<byte> destination)
    {
        if (_disposed)
            return DisposedErrorCode;
        if (sourceAddress > (ulong)(long.MaxValue - destination.Length))
            throw new ArgumentOutOfRangeException(nameof(sourceAddress), sourceAddress, "The read would extend past the largest device address.");
        long address = (long)sourceAddress;
        BeginOperation(isWrite: false);
        try
        {
            int read = 0;
            while (read < destination.Length)
            {
                long segment = (address + read) >> _segmentShift;
                int chunkEnd = read + (int)Math.Min(destination.Length - read, _segmentSize - ((address + read) & (_segmentSize - 1)));
                SafeFileHandle? handle = GetHandle(segment, create: false);
                if (handle is null)
                {
                    if (read == 0)
                        return FileNotFoundErrorCode;
                    destination[read..].Clear();
                    return 0;
                }
                while (read < chunkEnd)
                {
                    int n = RandomAccess.Read(handle, destination[read..chunkEnd], (address + read) & (_segmentSize - 1));
                    if (n == 0)
                        break;
                    read += n;
                }
                if (read < chunkEnd)
                {
                    destination[read..].Clear();
                    return 0;
                }
            }
            return 0;
        }
        catch (Exception e)
        {
            return ToErrorCode(e);
        }
        finally
        {
            EndOperation(isWrite: false);
        }
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Segment files left by an earlier process with the same base path are deleted too. No I/O may be
    /// in flight on the deleted segments.
    /// </remarks>
    public void TruncateUntilAddress(long address)
    {
        // Segment s ends at (s + 1) * SegmentSize, which is at most address exactly when s < address / SegmentSize.
        long limit = address >> _segmentShift;
        lock (_handlesLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (limit <= _truncatedBelowSegment)
            {
                return;
            }

            SafeFileHandle?[] handles = _handles;
            long closeUntil = Math.Min(limit, handles.Length);
            for (long segment = _truncatedBelowSegment; segment < closeUntil; segment++)
            {
                Interlocked.Exchange(ref handles[segment], null)?.Dispose();
            }

            DeleteSegmentFiles(limit);
            _truncatedBelowSegment = limit;
        }
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Under a steady stream of new writes this may wait for those as well; it is meant for shutdown and
    /// tests, not for the flush path.
    /// </remarks>
    public void WaitForPendingWrites() => WaitUntilZero(ref _pendingWrites);

    /// <summary>
    /// Waits for all reads and writes in flight, closes the segment files, and deletes them if the device
    /// was created with deleteOnClose.
    /// </summary>
    public void Dispose()
    {
        lock (_handlesLock)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
        }

        WaitUntilZero(ref _pendingOperations);

        lock (_handlesLock)
        {
            SafeFileHandle?[] handles = _handles;
            _handles = [];
            for (int i = 0; i < handles.Length; i++)
            {
                handles[i]?.Dispose();
            }

            if (_deleteOnClose)
            {
                DeleteSegmentFiles(long.MaxValue);
            }
        }
    }

    // Every argument is checked before the operation is counted as pending, so a rejected call cannot
    // leave WaitForPendingWrites or Dispose waiting for a callback that will never run.
    private void ValidateRequest(IntPtr memory, string memoryParamName, ulong address, uint length, DeviceIOCompletionCallback callback)
    {
        ArgumentNullException.ThrowIfNull(callback);
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (length > int.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(length), length, "A single I/O cannot exceed 2 GiB.");
        }

        if (address > (ulong)(long.MaxValue - length))
        {
            throw new ArgumentOutOfRangeException(nameof(address), address, "The I/O would extend past the largest device address.");
        }

        if (memory == IntPtr.Zero && length != 0)
        {
            throw new ArgumentNullException(memoryParamName);
        }
    }

    // async void on purpose: every I/O failure is caught and reported through the callback, so the only
    // exception that can escape is one thrown by the callback itself. Surfacing that as an unhandled
    // exception is deliberate; swallowing it in an unobserved task would hide a bug and could leave the
    // log waiting forever for a flush that never finished.
    private async void RunWrite(Memory<byte> source, long address, DeviceIOCompletionCallback callback, object? context)
    {
        uint errorCode = 0;
        int written = 0;
        try
        {
            while (written < source.Length)
            {
                long offset = (address + written) & (_segmentSize - 1);
                int chunk = (int)Math.Min(source.Length - written, _segmentSize - offset);
                SafeFileHandle handle = GetHandle((address + written) >> _segmentShift, create: true) ?? throw new UnreachableException();
                await RandomAccess.WriteAsync(handle, source.Slice(written, chunk), offset).ConfigureAwait(false);
                written += chunk;
            }
        }
        catch (Exception e)
        {
            // Any failure, including a handle closed by truncation or disposal, must reach the caller
            // through the callback: it is the only completion signal the log waits for.
            errorCode = ToErrorCode(e);
        }

        try
        {
            callback(errorCode, (uint)written, context);
        }
        finally
        {
            EndOperation(isWrite: true);
        }
    }

    // async void for the same reason as RunWrite.
    private async void RunRead(Memory<byte> destination, long address, DeviceIOCompletionCallback callback, object? context)
    {
        uint errorCode = 0;
        int read = 0;
        try
        {
            while (read < destination.Length)
            {
                long segment = (address + read) >> _segmentShift;
                int chunkEnd = read + (int)Math.Min(destination.Length - read, _segmentSize - ((address + read) & (_segmentSize - 1)));
                SafeFileHandle? handle = GetHandle(segment, create: false);
                if (handle is null)
                {
                    if (read == 0)
                    {
                        errorCode = FileNotFoundErrorCode;
                        break;
                    }

                    // The data ended exactly at a segment boundary: treat it like any other end of file.
                    destination.Span[read..].Clear();
                    break;
                }

                while (read < chunkEnd)
                {
                    // File reads may return fewer bytes than asked for; zero means end of file.
                    long offset = (address + read) & (_segmentSize - 1);
                    int n = await RandomAccess.ReadAsync(handle, destination[read..chunkEnd], offset).ConfigureAwait(false);
                    if (n == 0)
                    {
                        break;
                    }

                    read += n;
                }

                if (read < chunkEnd)
                {
                    // Nothing was ever written past this point, so the rest reads as zeros.
                    destination.Span[read..].Clear();
                    break;
                }
            }
        }
        catch (Exception e)
        {
            // See RunWrite: the callback is the only channel for failures.
            errorCode = ToErrorCode(e);
        }

        try
        {
            callback(errorCode, (uint)read, context);
        }
        finally
        {
            EndOperation(isWrite: false);
        }
    }

    /// <summary>
    /// Returns the open handle of a segment file, opening the file on first use. Returns null when
    /// <paramref name="create"/> is false and the file does not exist.
    /// </summary>
    private SafeFileHandle? GetHandle(long segment, bool create)
    {
        SafeFileHandle?[] handles = _handles;
        if (segment < handles.Length && Volatile.Read(ref handles[segment]) is { } handle)
        {
            return handle;
        }

        return OpenSegment(segment, create);
    }

    private SafeFileHandle? OpenSegment(long segment, bool create)
    {
        lock (_handlesLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            SafeFileHandle?[] handles = _handles;
            if (segment < handles.Length && handles[segment] is { } existing)
            {
                return existing;
            }

            if (segment >= Array.MaxLength)
            {
                throw new IOException($"Segment {segment} is beyond the number of segments this device supports.");
            }

            SafeFileHandle handle;
            try
            {
                handle = OpenSegmentFile(GetSegmentPath(segment), create);
            }
            catch (FileNotFoundException) when (!create)
            {
                return null;
            }

            if (segment >= handles.Length)
            {
                var grown = new SafeFileHandle?[Math.Max(segment + 1, Math.Min((long)handles.Length * 2, Array.MaxLength))];
                Array.Copy(handles, grown, handles.Length);
                grown[segment] = handle;
                _handles = grown;
            }
            else
            {
                Volatile.Write(ref handles[segment], handle);
            }

            return handle;
        }
    }

    private SafeFileHandle OpenSegmentFile(string path, bool create)
    {
        if (create && _preallocate && !File.Exists(path))
        {
            try
            {
                // The runtime accepts a preallocation size only for a file it creates; the reservation
                // does not change the file's length, so reads past the written data still see its end.
                return OpenFile(path, FileMode.CreateNew, _segmentSize);
            }
            catch (IOException) when (File.Exists(path))
            {
                // Created by someone else in the meantime: use it as it is.
            }
        }

        return OpenFile(path, create ? FileMode.OpenOrCreate : FileMode.Open, preallocationSize: 0);
    }

    // Asynchronous so RandomAccess can use overlapped I/O where the platform offers it; FileShare.Delete
    // so that truncation and cleanup are not blocked by another reader of the file.
    private static SafeFileHandle OpenFile(string path, FileMode mode, long preallocationSize)
        => File.OpenHandle(path, mode, FileAccess.ReadWrite, FileShare.Read | FileShare.Delete, FileOptions.Asynchronous, preallocationSize);

    /// <summary>
    /// Deletes the segment files of this device whose number is below <paramref name="limit"/>. The
    /// directory is scanned rather than the open handles so that files left by an earlier process go too.
    /// </summary>
    private void DeleteSegmentFiles(long limit)
    {
        string directory = Path.GetDirectoryName(_basePath)!;
        string prefix = Path.GetFileName(_basePath) + ".";
        if (!Directory.Exists(directory))
        {
            return;
        }

        foreach (string path in Directory.GetFiles(directory, prefix + "*"))
        {
            string suffix = Path.GetFileName(path)[prefix.Length..];
            if (long.TryParse(suffix, NumberStyles.None, CultureInfo.InvariantCulture, out long segment)
                && segment < limit
                && path == GetSegmentPath(segment))
            {
                File.Delete(path);
            }
        }
    }

    private void BeginOperation(bool isWrite)
    {
        Interlocked.Increment(ref _pendingOperations);
        if (isWrite)
        {
            Interlocked.Increment(ref _pendingWrites);
        }
    }

    private void EndOperation(bool isWrite)
    {
        bool reachedZero = isWrite && Interlocked.Decrement(ref _pendingWrites) == 0;
        reachedZero |= Interlocked.Decrement(ref _pendingOperations) == 0;
        if (reachedZero)
        {
            // Taking the lock before pulsing closes the gap between a waiter's check and its wait.
            lock (_idleGate)
            {
                Monitor.PulseAll(_idleGate);
            }
        }
    }

    private void WaitUntilZero(ref long counter)
    {
        if (Volatile.Read(ref counter) == 0)
        {
            return;
        }

        lock (_idleGate)
        {
            while (Volatile.Read(ref counter) != 0)
            {
                Monitor.Wait(_idleGate);
            }
        }
    }

    /// <summary>
    /// Maps an exception to a non-zero errno-like code. IOException carries the OS error in the low
    /// 16 bits of its HResult (errno on Unix, a Win32 code on Windows); anything else becomes 1.
    /// </summary>
    private static uint ToErrorCode(Exception e)
    {
        uint code = (uint)e.HResult & 0xFFFF;
        return code == 0 ? 1 : code;
    }
}
