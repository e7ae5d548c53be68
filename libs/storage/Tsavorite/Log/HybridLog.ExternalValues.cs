using System.Threading;

namespace Tsavorite;

/// <summary>
/// The log's side of out-of-line values (<see cref="ExternalValue"/>): which values go out of line, and the bytes
/// and count of those blocks, which count against the memory budget like pages do.
/// </summary>
/// <remarks>
/// A block is counted from its allocation until its record gives it up (<see cref="ReleaseExternal"/>); it is freed
/// after an epoch drain, as a thread that read the descriptor before it was taken (a scan) may still be using it.
/// Blocks of records still holding one when the head passes their page are freed when the page is released, and
/// those of the whole log when it is disposed (FLUSHDB). With the storage tier a flush writes each block to the object
/// log before its page (<see cref="SerializeExternalValue"/>), and a read of the record from the device loads it back
/// (<see cref="LoadExternalValue"/>).
/// </remarks>
public sealed unsafe partial class HybridLog
{
    private long _externalBytes;
    private long _externalCount;

    /// <summary>Bytes of values kept out of line (<see cref="ExternalValue"/>), their blocks' capacity.</summary>
    public long ExternalBytes => Volatile.Read(ref _externalBytes);

    /// <summary>Values kept out of line now.</summary>
    public long ExternalCount => Volatile.Read(ref _externalCount);

    /// <summary>
    /// Values (with their room to grow) larger than this go out of line: a quarter of a page, so that a page still
    /// holds several records. A storage tier without an object log has nowhere to write the blocks: values stay inline there.
    /// </summary>
    public long ExternalValueThreshold => StorageTier && _objectLog == null ? long.MaxValue : _pageSize / 4;

    private long _largeValueDemand;

    /// <summary>
    /// The largest block (with its headroom) a writer waits for room for: the log's page count leaves room for it, so
    /// the head mover passes pages to make it (see HeadMover.LargeValues.cs).
    /// </summary>
    internal long LargeValueDemand => Volatile.Read(ref _largeValueDemand);

    /// <summary>A writer waits for room for <paramref name="bytes"/>: the demand becomes at least that.</summary>
    internal void RaiseLargeValueDemand(long bytes)
    {
        long demand;
        while ((demand = Volatile.Read(ref _largeValueDemand)) < bytes
            && Interlocked.CompareExchange(ref _largeValueDemand, bytes, demand) != demand)
        {
        }
    }

    /// <summary>The writer that waited for <paramref name="bytes"/> is done: the demand goes if it was that writer's.</summary>
    internal void DropLargeValueDemand(long bytes) => Interlocked.CompareExchange(ref _largeValueDemand, 0, bytes);

    /// <summary>Bytes this log may keep in memory: its frames' pages (the budget may allow less).</summary>
    public long MemorySizeBytes => (long)_frameCount << _pageSizeBits;

    /// <summary>Decides whether the record <paramref name="fields"/> describe keeps its value out of line.</summary>
    internal void PlaceValue(ref RecordFieldInfo fields)
        => fields.ValueIsExternal = (long)fields.ValueLength + fields.ExtraValueSpace > ExternalValueThreshold;

    /// <summary>Allocates and counts the block of an out-of-line value of the given length and capacity.</summary>
    internal ExternalValue AllocateExternal(long length, long capacity)
    {
        var value = ExternalValue.Allocate(length, capacity);
        Interlocked.Add(ref _externalBytes, capacity);
        Interlocked.Increment(ref _externalCount);
        return value;
    }

    /// <summary>
    /// Takes <paramref name="record"/>'s out-of-line block, if it holds one, and frees it once no thread can be
    /// reading it; the record reads as an empty value from now on. The caller holds the record's bucket latch
    /// exclusively or owns the record alone.
    /// </summary>
    internal void ReleaseExternal(in LogRecord record)
    {
        if (!record.Info.ValueIsExternal)
            return;
        byte* pointer = ExternalValue.TakePointer(record.ExternalDescriptor, out long capacity);
        if (pointer == null)
            return;
        Uncount(capacity);
        nint block = (nint)pointer;
        _epoch.BumpCurrentEpoch(() => ExternalValue.Free((byte*)block));
    }

    /// <summary>
    /// Frees the blocks records of [<paramref name="from"/>, <paramref name="to"/>) still hold, at once: no thread
    /// reaches those records any more (the head has passed them, or the log is being disposed).
    /// </summary>
    internal void FreeExternalValues(long from, long to)
    {
        if (ExternalCount == 0)
            return;
        long address = from;
        while (address < to)
        {
            long pageEnd = PageStart(address) + _pageSize;
            if (address + RecordLayout.MinRecordSize > pageEnd)
            {
                address = pageEnd;
                continue;
            }
            var record = GetRecord(address);
            int size = TsavoriteKV.MeasureRecordAt(in record, (int)(pageEnd - address));
            if (size <= 0)
            {
                address = pageEnd; // the unused end of a page
                continue;
            }
            if (record.Info.ValueIsExternal)
            {
                byte* pointer = ExternalValue.TakePointer(record.ExternalDescriptor, out long capacity);
                if (pointer != null)
                {
                    Uncount(capacity);
                    ExternalValue.Free(pointer);
                }
            }
            address += size;
        }
    }

    /// <summary>
    /// Ends the tail page early: the rest of it becomes one abandoned record, so the next write opens a new page and
    /// the head may pass this one (with the storage tier, sending the blocks its records hold to the device). A page of
    /// small descriptors of large values would otherwise hardly ever fill. Returns whether a page was ended. The caller
    /// is epoch-protected.
    /// </summary>
    internal bool TryEndTailPage()
    {
        long tail = TailAddress;
        long pageStart = PageStart(tail);
        long rest = pageStart + _pageSize - tail;
        if (tail == pageStart)
            return false;
        // The rest of the page, then a small record that opens the next page (a page ends when a write crosses it).
        // Another writer may cross first: the records then lie on the next page, as abandoned.
        if (rest >= RecordLayout.MinRecordSize && !TryPlaceFiller((int)rest))
            return false;
        return TryPlaceFiller(RecordLayout.MinRecordSize);
    }

    private bool TryPlaceFiller(int size)
    {
        if (TryAllocate(size, out long address, AllocationClass.HeadMover) != AllocationStatus.Success)
            return false;
        var filler = GetRecord(address);
        filler.Initialize([], new RecordFieldInfo(0), size, 0);
        filler.Info.MarkAbandoned();
        return true;
    }

    /// <summary>
    /// Writes the block of the out-of-line value of <paramref name="record"/>, a record of a range being flushed, as an
    /// entry of the object log and notes the entry in its descriptor, which the page written next carries to the
    /// device. The bytes go from the block to the writer's staging buffer a part at a time, the caller's epoch
    /// protection held during each copy (a block given up meanwhile is not freed under it) and let go while a full
    /// staging buffer is written, after which the block is looked up again.
    /// </summary>
    private static void SerializeExternalValue(ref LogRecord record, ObjectLogWriter writer)
    {
        var descriptor = record.ExternalDescriptor;
        long length = descriptor->Length;
        long address = writer.BeginEntry();
        long copied = 0;
        while (copied < length)
        {
            int room = writer.EnsureRoom();
            byte* pointer = (byte*)Volatile.Read(ref *(nint*)&descriptor->Pointer);
            if (pointer == null)
            {
                writer.CancelEntry(); // given up (superseded or deleted): nothing reads it from the device
                return;
            }
            int count = (int)System.Math.Min(room, length - copied);
            writer.CopyIn(pointer + copied, count);
            copied += count;
        }
        if (Volatile.Read(ref *(nint*)&descriptor->Pointer) == 0)
        {
            writer.CancelEntry();
            return;
        }
        writer.EndEntry();
        descriptor->DeviceAddress = address;
    }

    /// <summary>
    /// Gives a copy of a record read back from the device its out-of-line value: a new, counted block filled from the
    /// object log entry its descriptor names. The copy owns the block; <see cref="ReleaseExternal"/> gives it up.
    /// Returns false when the entry cannot be read.
    /// </summary>
    internal bool LoadExternalValue(ref LogRecord copy)
    {
        var descriptor = copy.ExternalDescriptor;
        long address = descriptor->DeviceAddress;
        ExternalValue.ForgetStalePointer(descriptor);
        if (_objectLog == null || address == 0)
            return false;
        int length = _objectLog.ReadEntryLength(address);
        if (length < 0)
            return false;
        var loaded = AllocateExternal(length, length);
        loaded.DeviceAddress = address;
        *descriptor = loaded;
        try
        {
            _objectLog.ReadEntryBytes(address, new System.Span<byte>(loaded.Pointer, length));
        }
        catch (TsavoriteException)
        {
            ReleaseExternal(in copy);
            return false;
        }
        return true;
    }

    private void Uncount(long capacity)
    {
        Interlocked.Add(ref _externalBytes, -capacity);
        Interlocked.Decrement(ref _externalCount);
    }
}
