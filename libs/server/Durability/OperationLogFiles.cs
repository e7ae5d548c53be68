using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using Microsoft.Win32.SafeHandles;

namespace Garnet.server;

/// <summary>
/// The operation log's files: one byte stream cut into segment files of a fixed size (aof.000000, aof.000001, ...) in one
/// directory, so that a byte's offset in the stream names its file and its place there. Written only at the end, by one
/// thread (the last file's end past the page cache where it can: <see cref="DirectSegmentWriter"/>), the last file synced
/// by another (<see cref="TakeUnsynced"/>); read from the start at recovery. A segment is made durable (fsync) before the
/// stream moves past it.
/// </summary>
/// <remarks>
/// The last file is kept filled with zeros ahead of the stream's end (<see cref="ZeroedAhead"/>): a commit's fdatasync then
/// writes only the entries, not the file's new size in its inode as well, which makes commits about twice as fast on
/// ext4. Recovery finds the end of the entries at the first zero header in the last file (see <see cref="OperationLogRecovery"/>)
/// and cuts the zeros, so <see cref="Tail"/> counts them until then.
/// </remarks>
internal sealed class OperationLogFiles : IDisposable
{
    private const string Prefix = "aof.";

    /// <summary>How far the last file is filled with zeros ahead of the end (each time it is extended).</summary>
    /// <summary>The file in the log's directory that notes its files' size.</summary>
    public const string SegmentSizeFile = "segment-size";

    internal const int ZeroedAhead = 4 << 20;

    private static readonly byte[] s_zeros = new byte[1 << 16];

    private readonly string _directory;
    private readonly long _segmentSize;
    private readonly int _pageSize;
    // Indexed by segment number; the files before the first kept one (removed after a checkpoint) are null.
    private readonly List<FileStream?> _segments = [];
    private int _first;
    private readonly List<int> _unsynced = [];
    private long _tail;
    private long _zeroedUntil;
    // The last file's end is written past the page cache where the file system allows it (see DirectSegmentWriter).
    private DirectSegmentWriter? _direct;
    private int _directSegment = -1;
    private bool _directRefused;

    /// <summary>
    /// Opens the files in <paramref name="directory"/> (made if missing); the stream's end is their total length until
    /// <see cref="Truncate"/>. Writes are of at most <paramref name="pageSize"/> bytes (a power of two from 4 KB;
    /// <see cref="ServerOptions.AofPageSize"/>).
    /// </summary>
    public OperationLogFiles(string directory, long segmentSize, long pageSize)
    {
        if (pageSize < 4096 || pageSize > (1L << 30) || (pageSize & (pageSize - 1)) != 0)
            throw new ArgumentOutOfRangeException(nameof(pageSize), "The operation log's page size must be a power of two from 4 KB to 1 GB.");
        _directory = directory;
        _segmentSize = segmentSize;
        _pageSize = (int)pageSize;
        Directory.CreateDirectory(directory);
        var indexes = new List<int>();
        foreach (var path in Directory.EnumerateFiles(directory, Prefix + "*"))
        {
            if (int.TryParse(Path.GetFileName(path).AsSpan(Prefix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out int index))
                indexes.Add(index);
        }
        indexes.Sort();
        // The files before the first were removed once a checkpoint held what they logged.
        _first = indexes.Count > 0 ? indexes[0] : 0;
        for (int i = 0; i < indexes.Count; i++)
        {
            if (indexes[i] != _first + i)
                throw new InvalidDataException($"The operation log in {directory} lacks its file {SegmentName(_first + i)} (found {SegmentName(indexes[i])}).");
        }
        for (int i = 0; i < _first; i++)
            _segments.Add(null);
        for (int i = 0; i < indexes.Count; i++)
            _segments.Add(OpenSegment(_first + i));
        // Files written with another size (the option changed since) keep theirs, which the directory notes: file offsets,
        // which checkpoints record, depend on it.
        string sizePath = Path.Combine(directory, SegmentSizeFile);
        if (File.Exists(sizePath))
        {
            if (!long.TryParse(File.ReadAllText(sizePath).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out long noted) || noted <= 0)
                throw new InvalidDataException($"The operation log's {SegmentSizeFile} in {directory} does not hold a file size.");
            _segmentSize = noted;
        }
        else
        {
            using (var note = new FileStream(sizePath, FileMode.CreateNew, FileAccess.Write))
            {
                note.Write(System.Text.Encoding.ASCII.GetBytes(_segmentSize.ToString(CultureInfo.InvariantCulture)));
                note.Flush(flushToDisk: true);
            }
            FileSync.SyncDirectory(directory);
        }
        if (_segments.Count > 0)
        {
            for (int i = _first; i < _segments.Count - 1; i++)
            {
                if (_segments[i]!.Length != _segmentSize)
                    throw new InvalidDataException($"The operation log file {SegmentName(i)} in {directory} is {_segments[i]!.Length} bytes; every file but the last must be {_segmentSize}.");
            }
            _tail = ((long)(_segments.Count - 1) * _segmentSize) + _segments[^1]!.Length;
        }
        _zeroedUntil = _tail;
    }

    /// <summary>Bytes in the stream.</summary>
    public long Tail => _tail;

    /// <summary>The size of each file (the last one's at most).</summary>
    public long SegmentSize => _segmentSize;

    /// <summary>Where the stream's first kept file begins: what lies before was removed (see <see cref="RemoveBefore"/>).</summary>
    public long Start => (long)_first * _segmentSize;

    /// <summary>
    /// Removes the files that lie wholly before <paramref name="address"/> (a checkpoint holds what they logged), never
    /// the last one; returns how many. The directory is made durable so a crash does not bring them back.
    /// </summary>
    public int RemoveBefore(long address)
    {
        int removed = 0;
        while (_first < _segments.Count - 1 && (long)(_first + 1) * _segmentSize <= address)
        {
            _unsynced.Remove(_first);
            _segments[_first]!.Dispose();
            _segments[_first] = null;
            File.Delete(Path.Combine(_directory, SegmentName(_first)));
            _first++;
            removed++;
        }
        if (removed > 0)
            FileSync.SyncDirectory(_directory);
        return removed;
    }

    /// <summary>
    /// Removes every file and continues the stream at the start of a new one past them (the log turned on while the server
    /// runs: what the files held is older than writes made while it was off, and their end may still be zeros after a crash).
    /// </summary>
    public void StartAfresh()
    {
        CloseDirect();
        int next = _segments.Count;
        for (int i = _first; i < _segments.Count; i++)
        {
            _segments[i]!.Dispose();
            _segments[i] = null;
            File.Delete(Path.Combine(_directory, SegmentName(i)));
        }
        _unsynced.Clear();
        _first = next;
        _segments.Add(OpenSegment(next));
        _tail = (long)next * _segmentSize;
        _zeroedUntil = _tail;
        FileSync.SyncDirectory(_directory);
    }

    /// <summary>The directory of the files.</summary>
    public string DirectoryPath => _directory;

    /// <summary>Reads up to <paramref name="buffer"/>'s length from <paramref name="offset"/>; fewer only at the end of the stream.</summary>
    public int Read(long offset, Span<byte> buffer)
    {
        int done = 0;
        while (done < buffer.Length && offset + done < _tail)
        {
            long at = offset + done;
            int segment = (int)(at / _segmentSize);
            long within = at % _segmentSize;
            int want = (int)Math.Min(buffer.Length - done, Math.Min(_segmentSize - within, _tail - at));
            int got = RandomAccess.Read(Handle(segment), buffer.Slice(done, want), within);
            if (got <= 0)
                break;
            done += got;
        }
        return done;
    }

    /// <summary>Cuts the stream to <paramref name="length"/> bytes (a torn end found at recovery), made durable at once.</summary>
    public void Truncate(long length)
    {
        if (length > _tail)
            throw new ArgumentOutOfRangeException(nameof(length));
        int keep = length == 0 ? 0 : (int)((length - 1) / _segmentSize) + 1;
        if (keep < _first)
            throw new ArgumentOutOfRangeException(nameof(length), "The log cannot be cut before its first kept file.");
        CloseDirect();
        for (int i = _segments.Count - 1; i >= keep; i--)
        {
            _segments[i]!.Dispose();
            File.Delete(Path.Combine(_directory, SegmentName(i)));
            _segments.RemoveAt(i);
            _unsynced.Remove(i);
        }
        if (keep > 0)
        {
            var last = _segments[keep - 1]!;
            last.SetLength(length - ((long)(keep - 1) * _segmentSize));
            last.Flush(flushToDisk: true);
        }
        _tail = length;
        _zeroedUntil = length;
    }

    /// <summary>Appends <paramref name="bytes"/> at the end of the stream (not yet durable: see <see cref="Sync"/>).</summary>
    public void Append(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            int segment = (int)(_tail / _segmentSize);
            long within = _tail % _segmentSize;
            if (segment == _segments.Count)
            {
                // The previous file is complete: durable before the stream goes on in the next one, even when a commit
                // handed its sync to the flusher (TakeUnsynced) and it may not have run yet: entries of the next file
                // must never be on the device while the end of this one may not be.
                if (segment > 0)
                    SyncSegment(segment - 1, always: true);
                _segments.Add(OpenSegment(segment));
                // The new file's name is durable before anything in it is counted as committed.
                FileSync.SyncDirectory(_directory);
            }
            int length = (int)Math.Min(Math.Min(bytes.Length, _segmentSize - within), _pageSize);
            var direct = DirectFor(segment);
            if (_tail + length > _zeroedUntil)
                ZeroAhead(segment, _tail + length, direct);
            if (direct != null)
                direct.Append(bytes.Slice(0, length));
            else
                RandomAccess.Write(Handle(segment), bytes.Slice(0, length), within);
            if (!_unsynced.Contains(segment))
                _unsynced.Add(segment);
            _tail += length;
            bytes = bytes.Slice(length);
        }
    }

    /// <summary>
    /// The direct writer of <paramref name="segment"/> (the last file), opened at the stream's end if need be; null when
    /// writes go through the page cache.
    /// </summary>
    private DirectSegmentWriter? DirectFor(int segment)
    {
        if (_directSegment == segment)
            return _direct;
        CloseDirect();
        // Direct writes go in whole aligned blocks, which a file size of another multiple would split.
        if (_directRefused || _segmentSize % FileSync.DirectIoAlignment != 0)
            return null;
        long segmentStart = (long)segment * _segmentSize;
        int capacity = (int)Math.Min(_pageSize, _segmentSize);
        _direct = DirectSegmentWriter.TryOpen(Path.Combine(_directory, SegmentName(segment)), _tail - segmentStart, capacity);
        if (_direct == null)
        {
            _directRefused = true;
            return null;
        }
        _directSegment = segment;
        return _direct;
    }

    private void CloseDirect()
    {
        if (_direct == null)
            return;
        try
        {
            _direct.Flush();
        }
        finally
        {
            _direct.Dispose();
            _direct = null;
            _directSegment = -1;
        }
    }

    /// <summary>Writes to the files what <see cref="Append"/> gathered (not yet durable: see <see cref="Sync"/>).</summary>
    public void WriteOut() => _direct?.Flush();

    /// <summary>Fills <paramref name="segment"/> with zeros from where it ends to <see cref="ZeroedAhead"/> past <paramref name="needed"/> (within the file).</summary>
    private void ZeroAhead(int segment, long needed, DirectSegmentWriter? direct)
    {
        long segmentStart = (long)segment * _segmentSize;
        long from = Math.Max(_zeroedUntil, Math.Max(_tail, segmentStart));
        long to = Math.Min(segmentStart + _segmentSize, needed + ZeroedAhead);
        if (direct != null)
        {
            // From the block after the one the end is in: that one is written, zero-padded, with the entries.
            direct.WriteZeros(from - segmentStart, to - segmentStart);
            _zeroedUntil = to;
            return;
        }
        var handle = Handle(segment);
        while (from < to)
        {
            int length = (int)Math.Min(s_zeros.Length, to - from);
            RandomAccess.Write(handle, s_zeros.AsSpan(0, length), from - segmentStart);
            from += length;
        }
        _zeroedUntil = to;
    }

    /// <summary>Makes everything appended so far durable (fsync).</summary>
    public void Sync()
    {
        WriteOut();
        for (int i = 0; i < _unsynced.Count; i++)
            FileSync.DataSync(_segments[_unsynced[i]]!);
        _unsynced.Clear();
    }

    /// <summary>
    /// Writes out what <see cref="Append"/> gathered and returns the file written since the last sync, for the caller to
    /// sync (on another thread: see <see cref="OperationLogFlusher"/>); null if there is none.
    /// </summary>
    public FileStream? TakeUnsynced()
    {
        WriteOut();
        if (_unsynced.Count == 0)
            return null;
        // The files the stream moved past are synced as it does (see Append): only the last one is normally here.
        int last = _unsynced[^1];
        for (int i = 0; i < _unsynced.Count - 1; i++)
            FileSync.DataSync(_segments[_unsynced[i]]!);
        _unsynced.Clear();
        return _segments[last];
    }

    private void SyncSegment(int segment, bool always = false)
    {
        if (_directSegment == segment)
            CloseDirect();
        if (_unsynced.Remove(segment) || always)
            FileSync.DataSync(_segments[segment]!);
    }

    private SafeFileHandle Handle(int segment) => (_segments[segment] ?? throw new InvalidDataException($"The operation log file {SegmentName(segment)} was removed.")).SafeFileHandle;

    private FileStream OpenSegment(int index)
        => new(Path.Combine(_directory, SegmentName(index)), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);

    /// <summary>The name of file <paramref name="index"/> of the stream (file offset index × segment size).</summary>
    internal static string SegmentName(int index) => Prefix + index.ToString("D6", CultureInfo.InvariantCulture);

    public void Dispose()
    {
        try
        {
            CloseDirect();
        }
        catch (IOException)
        {
            // Writing failed already (the log reported it); the files are closed all the same.
        }
        // A clean close leaves no zeros past the entries.
        if (_zeroedUntil > _tail && _segments.Count > 0)
        {
            try
            {
                Truncate(_tail);
            }
            catch (IOException)
            {
                // Recovery finds the end at the zeros all the same.
            }
        }
        foreach (var segment in _segments)
            segment?.Dispose();
        _segments.Clear();
    }
}
