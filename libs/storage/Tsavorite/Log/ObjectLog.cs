using System;
using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The second log of a store whose records refer to heap objects: when a page range is flushed, the
/// objects its live records refer to are serialized into entries appended here, and each record notes
/// its entry's address, so the flushed page plus this log hold the whole data. Flushes are sequential,
/// so appends need no synchronization; each flush's entries start on a sector boundary.
/// </summary>
public sealed unsafe class ObjectLog : IDisposable
{
    private readonly IDevice _device;
    private readonly ObjectLogWriter _writer;
    private readonly long _sectorSize;
    private long _tailAddress;

    internal ObjectLog(IDevice device)
    {
        _device = device;
        _writer = new ObjectLogWriter(device);
        _sectorSize = Math.Max(1u, device.SectorSize);
        // Address 0 stays unused so that a zero in a record means "no entry".
        _tailAddress = Math.Max(_sectorSize, 8);
    }

    /// <summary>The device the entries are written to.</summary>
    public IDevice Device => _device;

    /// <summary>The address the next flush's entries start at.</summary>
    public long TailAddress => Volatile.Read(ref _tailAddress);

    /// <summary>Starts a flush: the serializer appends the range's entries to the returned writer.</summary>
    internal ObjectLogWriter BeginFlush()
    {
        _writer.Reset(_tailAddress);
        return _writer;
    }

    /// <summary>
    /// Writes the entries not yet on the device since <see cref="BeginFlush"/>, if any, and advances the tail past
    /// them. Returns false when there is nothing left to write (no callback will run).
    /// </summary>
    internal bool EndFlush(DeviceIOCompletionCallback callback, object? context)
    {
        if (_writer.IsEmpty(_tailAddress))
            return false;
        var (buffer, address, length) = _writer.TakeRest();
        Volatile.Write(ref _tailAddress, address + length);
        if (length == 0)
            return false;
        // The staging buffer is not touched again before the next flush, which starts after this write completed.
        _device.WriteAsync(buffer, (ulong)address, (uint)length, callback, context);
        return true;
    }

    /// <summary>Frees the writer's staging buffer; no flush may be running.</summary>
    public void Dispose() => _writer.Dispose();

    /// <summary>Reads back the bytes of the entry at <paramref name="address"/> (blocking; for recovery and inspection).</summary>
    public byte[] ReadEntry(long address)
    {
        if (address < _sectorSize || address >= TailAddress)
            throw new ArgumentOutOfRangeException(nameof(address), address, "No object log entry starts there.");
        Span<byte> header = stackalloc byte[sizeof(int)];
        DeviceReads.Read(_device, address, header);
        int length = BinaryPrimitives.ReadInt32LittleEndian(header);
        if (length < 0 || address + sizeof(int) + length > TailAddress)
            throw new TsavoriteException($"The object log entry at {address} has an invalid length {length}.");
        var bytes = new byte[length];
        DeviceReads.Read(_device, address + sizeof(int), bytes);
        return bytes;
    }

    /// <summary>The length of the entry at <paramref name="address"/> (blocking), or -1 when no valid entry starts there.</summary>
    internal int ReadEntryLength(long address)
    {
        if (address < _sectorSize || address >= TailAddress)
            return -1;
        Span<byte> header = stackalloc byte[sizeof(int)];
        DeviceReads.Read(_device, address, header);
        int length = BinaryPrimitives.ReadInt32LittleEndian(header);
        return length < 0 || address + sizeof(int) + length > TailAddress ? -1 : length;
    }

    /// <summary>Reads the bytes of the entry at <paramref name="address"/>, of <see cref="ReadEntryLength"/> bytes, into <paramref name="destination"/> (blocking).</summary>
    internal void ReadEntryBytes(long address, Span<byte> destination) => DeviceReads.Read(_device, address + sizeof(int), destination);
}
