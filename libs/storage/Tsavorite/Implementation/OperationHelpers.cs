using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>What an operation's latched step decided.</summary>
internal enum OperationOutcome : byte
{
    /// <summary>The operation finished with the status it produced.</summary>
    Done,

    /// <summary>Start over (after releasing the latch and refreshing the epoch).</summary>
    Retry,
}

/// <summary>Steps shared by the operations: chain traversal, record allocation, linking and freeing.</summary>
public sealed unsafe partial class TsavoriteKV
{
    /// <summary>
    /// Walks the hash chain from <paramref name="address"/> to the newest record whose key equals
    /// <paramref name="key"/>. Returns its address, or 0 when the chain holds no such record in memory.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long TraceBack(ReadOnlySpan<byte> key, long address, out LogRecord record)
    {
        long head = Log.HeadAddress;
        while (address >= head)
        {
            var candidate = Log.GetRecord(address);
            if (candidate.KeyLength == key.Length && candidate.Key.SequenceEqual(key) && !candidate.Info.Abandoned)
            {
                record = candidate;
                return address;
            }
            address = candidate.Info.PreviousAddress;
        }
        // Records below the head address would be read from the device; the head never moves past
        // the begin address until that path exists, so here the chain has simply ended.
        record = default;
        return 0;
    }

    /// <summary>Whether a live record is expired now.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsExpired(in LogRecord record) => record.Info.HasExpiration && record.Expiration <= NowTicks;

    /// <summary>
    /// Bytes to allocate for a new record of <paramref name="fields"/>. The slack a callback asks for
    /// (<see cref="RecordFieldInfo.ExtraValueSpace"/>) is only a hint: it shrinks so that a record whose
    /// fields fit in a page is never refused for its slack.
    /// </summary>
    internal int NewRecordSize(int keyLength, ref RecordFieldInfo fields)
    {
        int size = RecordLayout.AllocatedSize(keyLength, in fields);
        int excess = size - (Log.PageSize - (int)LogAddress.FirstValidAddress);
        if (excess > 0 && fields.ExtraValueSpace > 0)
        {
            fields.ExtraValueSpace = Math.Max(0, fields.ExtraValueSpace - Alignment.RoundUp(excess, 8));
            size = RecordLayout.AllocatedSize(keyLength, in fields);
        }
        return size;
    }

    /// <summary>
    /// Reserves space for a new record: a freed record of fitting size if one is safe to reuse, else
    /// the tail. A key that already exists is only moved to reused space at or above
    /// <paramref name="minAddress"/> (its current record), never below it: a log scan that has not
    /// reached the old record yet must still meet the new one, so cursor-based scans never miss a key
    /// that exists throughout.
    /// </summary>
    internal AllocationStatus TryAllocateRecord(int size, long minAddress, out long address, out int allocatedSize)
    {
        if (FreePool != null && FreePool.TryTake(size, Log.ReadOnlyAddress, minAddress, out address, out allocatedSize))
            return AllocationStatus.Success;
        allocatedSize = size;
        return Log.TryAllocate(size, out address);
    }

    /// <summary>
    /// Gives up a record's space: it is no longer in any chain (or never was). Its sizes stay
    /// readable for scans; if it is still mutable, its space goes to revivification.
    /// </summary>
    internal void Abandon(long address, ref LogRecord record)
    {
        int size = record.AllocatedSize;
        ref var info = ref record.Info;
        info.Valid = false;
        info.Abandoned = true;
        if (FreePool != null && address >= Log.ReadOnlyAddress)
            FreePool.Free(address, size);
    }

    /// <summary>
    /// Makes a fully written record visible by swinging the hash entry to it. On failure the record
    /// is abandoned and the caller retries.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool TryLink(long* entry, int tag, long expectedAddress, long newAddress, ref LogRecord newRecord)
    {
        ref var info = ref newRecord.Info;
        info.Abandoned = false;
        info.Valid = true;
        if (HashIndex.TrySwing(entry, tag, expectedAddress, newAddress))
            return true;
        Abandon(newAddress, ref newRecord);
        return false;
    }

    /// <summary>
    /// Unlinks a deleted record at the head of its chain and frees its space, when no older record of
    /// the same key lies below it (unlinking would otherwise bring that older value back).
    /// </summary>
    internal void TryElideDeleted(ReadOnlySpan<byte> key, long* entry, int tag, long address, ref LogRecord record)
    {
        long previous = record.Info.PreviousAddress;
        if (TraceBack(key, previous, out _) != 0)
            return;
        bool unlinked = previous == 0
            ? HashIndex.TryFree(entry, tag, address)
            : HashIndex.TrySwing(entry, tag, address, previous);
        if (unlinked)
            Abandon(address, ref record);
    }

    /// <summary>
    /// Deletes a found record with the bucket latch held: in place (a tombstone, unlinked when
    /// possible) when the caller found it <paramref name="mutable"/>, or by a tombstone record at
    /// the tail. The caller's view of mutability is used so callbacks and the deletion agree.
    /// </summary>
    internal OperationOutcome DeleteFoundRecord<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, long* entry, int tag,
        long entryAddress, long address, ref LogRecord record, bool mutable, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        if (mutable)
        {
            functions.DisposeRecord(ref record, DisposeReason.Deleted);
            record.Info.Tombstone = true;
            if (address == entryAddress)
                TryElideDeleted(key, entry, tag, address, ref record);
            status = new Status(Status.Basic.NotFound);
            return OperationOutcome.Done;
        }

        var fields = new RecordFieldInfo(0);
        int size = RecordLayout.AllocatedSize(key.Length, in fields);
        switch (TryAllocateRecord(size, 0, out long newAddress, out int allocated))
        {
            case AllocationStatus.RetryNow:
                status = default;
                return OperationOutcome.Retry;
            case AllocationStatus.OutOfMemory:
                status = new Status(Status.Basic.OutOfMemory);
                return OperationOutcome.Done;
        }
        var tombstone = Log.GetRecord(newAddress);
        tombstone.Initialize(key, in fields, allocated, entryAddress);
        tombstone.Info.Tombstone = true;
        if (!TryLink(entry, tag, entryAddress, newAddress, ref tombstone))
        {
            status = default;
            return OperationOutcome.Retry;
        }
        functions.DisposeRecord(ref record, DisposeReason.Deleted);
        status = new Status(Status.Basic.NotFound, Status.Record.Created);
        return OperationOutcome.Done;
    }

    /// <summary>
    /// Frees a hash entry that an operation created for a key it then did not write (absent key,
    /// canceled or out of memory), so failed writes do not use up index entries.
    /// </summary>
    internal static void ReleaseEmptyEntry(long* entry, int tag, long entryAddress)
    {
        if (entryAddress == 0)
            HashIndex.TryFree(entry, tag, 0);
    }
}
