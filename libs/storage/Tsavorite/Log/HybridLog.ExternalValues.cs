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
/// those of the whole log when it is disposed (FLUSHDB).
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
    /// holds several records. Without a storage tier only: a flushed page would carry the descriptor, not the bytes.
    /// </summary>
    public long ExternalValueThreshold => StorageTier ? long.MaxValue : _pageSize / 4;

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

    private void Uncount(long capacity)
    {
        Interlocked.Add(ref _externalBytes, -capacity);
        Interlocked.Decrement(ref _externalCount);
    }
}
