using System;
using System.Buffers.Binary;
using System.IO;

namespace Tsavorite;

/// <summary>
/// Collects the object log entries of one flushed range: each entry is a 4-byte length followed by
/// the bytes an <see cref="IObjectSerializer"/> writes to <see cref="Stream"/> between
/// <see cref="BeginEntry"/> and <see cref="EndEntry"/>. The entries reach the device together, before
/// the range's pages are reported flushed.
/// </summary>
public sealed class ObjectLogWriter
{
    private readonly MemoryStream _buffer = new();
    private long _baseAddress;
    private long _entryStart = -1;

    /// <summary>Where an entry's bytes are written.</summary>
    public Stream Stream => _buffer;

    /// <summary>Starts an entry and returns its object log address (never 0).</summary>
    public long BeginEntry()
    {
        if (_entryStart >= 0)
            throw new InvalidOperationException("The previous object log entry was not ended.");
        _entryStart = _buffer.Position;
        Span<byte> placeholder = stackalloc byte[sizeof(int)];
        _buffer.Write(placeholder);
        return _baseAddress + _entryStart;
    }

    /// <summary>Makes room for <paramref name="bytes"/> more at once, so a large entry does not grow the buffer by doublings.</summary>
    internal void Reserve(long bytes)
    {
        long needed = _buffer.Length + bytes;
        if (needed > _buffer.Capacity)
            _buffer.Capacity = checked((int)needed);
    }

    /// <summary>Ends the entry begun last, recording its length.</summary>
    public void EndEntry()
    {
        if (_entryStart < 0)
            throw new InvalidOperationException("No object log entry was begun.");
        long length = _buffer.Position - _entryStart - sizeof(int);
        if (length > int.MaxValue)
            throw new TsavoriteException("An object serializes to more than 2 GB.");
        BinaryPrimitives.WriteInt32LittleEndian(_buffer.GetBuffer().AsSpan((int)_entryStart, sizeof(int)), (int)length);
        _entryStart = -1;
    }

    /// <summary>Abandons the entry begun last (the object could not be written), keeping the earlier ones.</summary>
    public void CancelEntry()
    {
        if (_entryStart < 0)
            return;
        _buffer.SetLength(_entryStart);
        _entryStart = -1;
    }

    /// <summary>Starts collecting the entries of a range that will be written at <paramref name="baseAddress"/>.</summary>
    internal void Reset(long baseAddress)
    {
        _buffer.SetLength(0);
        _baseAddress = baseAddress;
        _entryStart = -1;
    }

    /// <summary>
    /// Forgets the collected entries once they were copied for writing, and gives back a buffer grown past a few
    /// megabytes (a flush of large values), so it is not held until the next flush.
    /// </summary>
    internal void Trim()
    {
        _buffer.SetLength(0);
        if (_buffer.Capacity > MaxRetainedBytes)
            _buffer.Capacity = 0;
    }

    private const int MaxRetainedBytes = 4 << 20;

    /// <summary>The collected entries.</summary>
    internal ReadOnlySpan<byte> Written => _buffer.GetBuffer().AsSpan(0, (int)_buffer.Length);
}
