using System;
using System.Runtime.InteropServices;

namespace Tsavorite;

/// <summary>
/// A session's read of one key's hash chain on the device (the storage tier). An operation whose key has no record
/// in memory while its chain goes on below the head asks for the chain from that address (<see cref="Request"/>) and
/// reports itself pending; the session then reads the chain back (<see cref="Fetch"/>), holding no latch, and runs
/// the operation again. The second run uses what was read only if the chain still leaves memory at the same address:
/// a write of the key meanwhile put a newer record in memory (found first), and a head that moved on changes where
/// the chain leaves memory (read again from there). The last step thus always runs under the bucket's latch against
/// the chain as it is, so a copy-update or a tombstone from an on-disk record is linked exactly as one from memory.
/// </summary>
internal sealed unsafe class PendingRecordRead : IDisposable
{
    /// <summary>Bytes read for a record at first: most records fit, and a larger one is read again whole.</summary>
    private const int FirstReadBytes = 2048;

    private const int BufferAlignment = 4096;

    /// <summary>The error a record that cannot be measured reports (EIO): the device returned something that is no record.</summary>
    internal const uint CorruptRecordErrorCode = 5;

    private byte* _buffer;
    private int _capacity;
    private long _requested;
    private bool _ready;
    private long _foundAddress;
    private int _recordOffset;
    private IObjectSerializer? _loadedBy;
    private HybridLog? _loadedExternalOf;

    /// <summary>The chain address an operation asked for, 0 when none.</summary>
    internal long RequestedAddress => _requested;

    /// <summary>Asks for the chain from <paramref name="address"/>, a device address below the head.</summary>
    internal void Request(long address)
    {
        ReleaseLoaded();
        _requested = address;
        _ready = false;
    }

    /// <summary>Whether the chain from <paramref name="address"/> was read back: use <see cref="Found"/> and <see cref="Record"/>.</summary>
    internal bool Covers(long address) => _ready && address == _requested;

    /// <summary>Whether the chain on the device holds a record of the key.</summary>
    internal bool Found => _foundAddress != 0;

    /// <summary>The address of the key's newest record on the device (valid when <see cref="Found"/>).</summary>
    internal long FoundAddress => _foundAddress;

    /// <summary>A view of the copy of that record (valid when <see cref="Found"/>, until the next request).</summary>
    internal LogRecord Record => new(_buffer + _recordOffset);

    /// <summary>Forgets the request once the operation is done.</summary>
    internal void Clear()
    {
        ReleaseLoaded();
        _requested = 0;
        _ready = false;
        _foundAddress = 0;
    }

    /// <summary>
    /// Follows the chain on the device from the requested address to the newest record of <paramref name="key"/>, or
    /// until it leaves the log (below <see cref="HybridLog.BeginAddress"/>). Returns 0, or the device's error code.
    /// </summary>
    internal uint Fetch(HybridLog log, ReadOnlySpan<byte> key)
    {
        ReleaseLoaded();
        long address = _requested;
        _foundAddress = 0;
        while (address >= LogAddress.FirstValidAddress && address >= log.BeginAddress)
        {
            uint error = ReadRecord(log, address, out int offset);
            if (error != 0)
                return error;
            var record = new LogRecord(_buffer + offset);
            if (record.KeyLength == key.Length && record.Key.SequenceEqual(key) && !record.Info.Abandoned)
            {
                _foundAddress = address;
                _recordOffset = offset;
                if ((record.Info.ValueIsObject && !LoadObject(log, ref record)) || (record.Info.ValueIsExternal && !LoadExternal(log, ref record)))
                {
                    _foundAddress = 0;
                    return CorruptRecordErrorCode;
                }
                break;
            }
            address = record.Info.PreviousAddress;
        }
        _ready = true;
        return 0;
    }

    /// <summary>
    /// Gives the copy of an object record its object, read back from the object log, so that the operation's callbacks
    /// find it as in memory; a deleted record's copy is given none.
    /// </summary>
    private bool LoadObject(HybridLog log, ref LogRecord record)
    {
        var serializer = log.ObjectSerializer;
        if (serializer == null)
            return true;
        bool load = !record.Info.Tombstone;
        if (!serializer.OnReadBack(ref record, log.ObjectLog, load))
            return false;
        if (load)
            _loadedBy = serializer;
        return true;
    }

    /// <summary>
    /// Gives the copy of a record with an out-of-line value its bytes, read back from the object log into a block the
    /// copy owns (see <see cref="HybridLog.LoadExternalValue"/>); a deleted record's copy is given none.
    /// </summary>
    private bool LoadExternal(HybridLog log, ref LogRecord record)
    {
        if (record.Info.Tombstone)
        {
            ExternalValue.ForgetStalePointer(record.ExternalDescriptor);
            return true;
        }
        if (!log.LoadExternalValue(ref record))
            return false;
        _loadedExternalOf = log;
        return true;
    }

    /// <summary>The loaded copy's object or out-of-line block now belongs to a record made from the copy: it is not released.</summary>
    internal void HandOverLoaded()
    {
        _loadedBy = null;
        _loadedExternalOf = null;
    }

    /// <summary>Releases the object or block a loaded copy still refers to (an update that took it over left none).</summary>
    private void ReleaseLoaded()
    {
        if (_loadedExternalOf != null)
        {
            var copy = Record;
            _loadedExternalOf.ReleaseExternal(in copy);
            _loadedExternalOf = null;
        }
        if (_loadedBy == null)
            return;
        var record = Record;
        _loadedBy.ReleaseReadBack(ref record);
        _loadedBy = null;
    }

    /// <summary>
    /// Reads the whole record at <paramref name="address"/> into the buffer, at <paramref name="offset"/>: a first
    /// sector-aligned read, and a second one of the record's measured size if it is larger. A record never spans pages.
    /// </summary>
    private uint ReadRecord(HybridLog log, long address, out int offset)
    {
        long sector = Math.Max(1u, log.Device.SectorSize);
        long pageEnd = log.PageStart(address) + log.PageSize;
        long start = Alignment.RoundDown(address, sector);
        offset = (int)(address - start);
        long want = FirstReadBytes;
        while (true)
        {
            long end = Math.Min(pageEnd, Alignment.RoundUp(address + want, sector));
            int length = (int)(end - start);
            EnsureCapacity(length);
            uint error;
            using (BlockingReads.Begin())
                error = log.Device.Read((ulong)start, new Span<byte>(_buffer, length));
            if (error != 0)
                return error;
            int room = (int)(end - address);
            var record = new LogRecord(_buffer + offset);
            if (TsavoriteKV.MeasureRecordAt(in record, room) > 0)
                return 0;
            long needed = LowerBoundOfSize(in record, room);
            if (end >= pageEnd || needed <= room)
                return CorruptRecordErrorCode;
            want = Math.Max(needed, want * 2);
        }
    }

    /// <summary>The least the record can take, from the length fields the first <paramref name="room"/> bytes hold.</summary>
    private static long LowerBoundOfSize(in LogRecord record, int room)
    {
        if (room < RecordLayout.KeyOffset)
            return RecordLayout.MinRecordSize;
        int keyLength = record.KeyLength;
        if (keyLength < 0)
            return 0;
        long valueOffset = RecordLayout.ValueOffset(keyLength);
        if (valueOffset > room)
            return valueOffset + sizeof(long) * 2;
        int valueLength = *(int*)((byte*)record.PhysicalAddress + valueOffset - sizeof(int));
        if (valueLength < 0)
            return 0;
        // The optional fields and the filler length: at most three 8-byte words more.
        return valueOffset + valueLength + sizeof(long) * 3;
    }

    private void EnsureCapacity(int length)
    {
        if (length <= _capacity)
            return;
        if (_buffer != null)
            NativeMemory.AlignedFree(_buffer);
        int capacity = Math.Max(length, FirstReadBytes * 2);
        _buffer = (byte*)NativeMemory.AlignedAlloc((nuint)capacity, BufferAlignment);
        _capacity = capacity;
    }

    /// <summary>Frees the buffer.</summary>
    public void Dispose()
    {
        ReleaseLoaded();
        if (_buffer != null)
            NativeMemory.AlignedFree(_buffer);
        _buffer = null;
        _capacity = 0;
    }
}
