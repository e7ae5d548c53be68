using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Copies of records that reads found on the device, made at the tail so that the next reads of their keys find
/// them in memory (<see cref="KVSettings.CopyReadsToTail"/>).
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    private long _readsCopiedToTail;

    /// <summary>Whether reads copy what they find on the device to the tail.</summary>
    public bool CopyReadsToTail { get; }

    /// <summary>Records reads copied from the device to the tail.</summary>
    public long ReadsCopiedToTail => Volatile.Read(ref _readsCopiedToTail);

    /// <summary>
    /// Links a copy of <paramref name="source"/>, read back from the device, at the head of its chain, which was
    /// <paramref name="entryAddress"/>. The read holds the bucket's latch shared: writers are kept out, and of two
    /// readers copying at once the first to swing the entry wins (the other's copy is abandoned). Best effort: a
    /// read never waits for room, it just does not copy.
    /// </summary>
    private void CopyReadToTail(long* entry, int tag, long entryAddress, in LogRecord source, PendingRecordRead disk)
    {
        int size = source.UsedSize;
        if (Log.TryAllocate(size, out long newAddress, AllocationClass.Writer) != AllocationStatus.Success)
            return;
        var copy = Log.GetRecord(newAddress);
        Buffer.MemoryCopy((void*)source.PhysicalAddress, (void*)copy.PhysicalAddress, size, size);
        ref var info = ref copy.Info;
        info.PreviousAddress = entryAddress;
        info.HasFiller = false;
        info.Sealed = false;
        info.SplitShared = false;
        info.MarkLinked();
        copy.Access = NewAccessWord();
        if (!HashIndex.TrySwing(entry, tag, entryAddress, newAddress))
        {
            info.MarkAbandoned();
            return;
        }
        disk.HandOverLoaded(); // an object's handle now belongs to the copy
        Interlocked.Increment(ref _readsCopiedToTail);
    }
}
