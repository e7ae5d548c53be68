using System;

namespace Garnet.server;

/// <summary>
/// The newest bytes the operation log's writer wrote to its files, kept in memory while replicas follow (Redis's
/// replication backlog), so that a sender that keeps up copies entries from here instead of reading them back from the
/// files (written past the page cache, so each read would go to the device). Written by the log's writer only; read by
/// the senders under the same lock.
/// </summary>
internal sealed class ReplicationBacklog
{
    private readonly object _lock = new();
    private readonly byte[] _bytes;
    private long _start;
    private long _end;

    /// <summary>A backlog of <paramref name="capacity"/> bytes whose next byte is file offset <paramref name="end"/>.</summary>
    public ReplicationBacklog(int capacity, long end)
    {
        _bytes = new byte[capacity];
        _start = end;
        _end = end;
    }

    /// <summary>The writer wrote <paramref name="bytes"/> at file offset <paramref name="offset"/> (after what it wrote before).</summary>
    public void Append(long offset, ReadOnlySpan<byte> bytes)
    {
        lock (_lock)
        {
            if (offset != _end)
            {
                // A gap (the log started its files afresh): what was kept no longer precedes this.
                _start = offset;
                _end = offset;
            }
            if (bytes.Length > _bytes.Length)
            {
                int skip = bytes.Length - _bytes.Length;
                bytes = bytes.Slice(skip);
                _start = _end = offset + skip;
            }
            int at = (int)(_end % _bytes.Length);
            int first = Math.Min(bytes.Length, _bytes.Length - at);
            bytes.Slice(0, first).CopyTo(_bytes.AsSpan(at));
            bytes.Slice(first).CopyTo(_bytes);
            _end += bytes.Length;
            _start = Math.Max(_start, _end - _bytes.Length);
        }
    }

    /// <summary>
    /// Copies the bytes from file offset <paramref name="offset"/> into <paramref name="destination"/> when the backlog
    /// holds all of them; false (nothing copied) when they are older than it keeps or not written yet.
    /// </summary>
    public bool TryRead(long offset, Span<byte> destination)
    {
        lock (_lock)
        {
            if (offset < _start || offset + destination.Length > _end)
                return false;
            int at = (int)(offset % _bytes.Length);
            int first = Math.Min(destination.Length, _bytes.Length - at);
            _bytes.AsSpan(at, first).CopyTo(destination);
            _bytes.AsSpan(0, destination.Length - first).CopyTo(destination.Slice(first));
            return true;
        }
    }
}
