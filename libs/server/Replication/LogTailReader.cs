using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace Garnet.server;

/// <summary>
/// Reads a primary's operation log from its files for one replica, by file offset, with handles of its own (the writer
/// keeps appending and may remove old files meanwhile), and cuts what it reads at an entry's end: a replica is sent whole
/// entries only, so the offset it acknowledges is always an entry's start.
/// </summary>
internal sealed class LogTailReader : IDisposable
{
    private readonly string _directory;
    private readonly long _segmentSize;
    private readonly Dictionary<int, SafeFileHandle> _handles = [];
    // A replica receives each batch into its connection's receive buffer (128 KB by default): batches that fit it are
    // not copied into a grown one (mapped and unmapped each time).
    internal const int BatchBytes = 96 << 10;

    private byte[] _buffer = new byte[BatchBytes];

    private readonly ReplicationBacklog? _backlog;

    public LogTailReader(string directory, long segmentSize, ReplicationBacklog? backlog)
    {
        _directory = directory;
        _segmentSize = segmentSize;
        _backlog = backlog;
    }

    /// <summary>
    /// Reads the whole entries from <paramref name="offset"/> up to at most <paramref name="end"/> (what the files hold),
    /// at most <see cref="BatchBytes"/> at a time (more for one larger entry). Empty when no whole entry is there yet; throws
    /// <see cref="FileNotFoundException"/> when the file holding <paramref name="offset"/> was removed.
    /// </summary>
    public ReadOnlySpan<byte> ReadEntries(long offset, long end)
    {
        int want = (int)Math.Min(BatchBytes, end - offset);
        if (want < OperationLogEntry.HeaderSize)
            return default;
        Read(offset, _buffer.AsSpan(0, want));
        int whole = 0;
        while (whole + OperationLogEntry.HeaderSize <= want)
        {
            long word = BinaryPrimitives.ReadInt64LittleEndian(_buffer.AsSpan(whole));
            int length = OperationLogEntry.LengthOf(word);
            if (word == 0 || length < OperationLogEntry.HeaderSize || (length & 7) != 0)
                throw new InvalidDataException($"The operation log holds no entry at offset {offset + whole}.");
            if (whole + length > want)
            {
                // The first entry is larger than the buffer: read it whole once it is all there.
                if (whole == 0 && offset + length <= end)
                {
                    _buffer = new byte[Math.Max(length, _buffer.Length * 2)];
                    Read(offset, _buffer.AsSpan(0, length));
                    return _buffer.AsSpan(0, length);
                }
                break;
            }
            whole += length;
        }
        return _buffer.AsSpan(0, whole);
    }

    private void Read(long offset, Span<byte> destination)
    {
        // Recent bytes come from memory; older ones from the files.
        if (_backlog != null && _backlog.TryRead(offset, destination))
            return;
        int done = 0;
        while (done < destination.Length)
        {
            long at = offset + done;
            int segment = (int)(at / _segmentSize);
            long within = at % _segmentSize;
            int length = (int)Math.Min(destination.Length - done, _segmentSize - within);
            int read = RandomAccess.Read(Handle(segment), destination.Slice(done, length), within);
            if (read <= 0)
                throw new InvalidDataException($"The operation log ends before offset {at}.");
            done += read;
        }
    }

    private SafeFileHandle Handle(int segment)
    {
        if (_handles.TryGetValue(segment, out var handle))
            return handle;
        // Files behind the one read last are not read again.
        foreach (var (index, old) in _handles)
        {
            if (index < segment)
            {
                old.Dispose();
                _handles.Remove(index);
            }
        }
        handle = File.OpenHandle(Path.Combine(_directory, OperationLogFiles.SegmentName(segment)), FileMode.Open, FileAccess.Read,
            FileShare.ReadWrite | FileShare.Delete);
        _handles[segment] = handle;
        return handle;
    }

    public void Dispose()
    {
        foreach (var handle in _handles.Values)
            handle.Dispose();
        _handles.Clear();
    }
}
