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
    internal long TraceBack(ReadOnlySpan<byte> key, long address, out LogRecord record) => TraceBack(key, address, out record, out _);

    /// <summary>
    /// As <see cref="TraceBack(ReadOnlySpan{byte}, long, out LogRecord)"/>; when the key has no record in memory,
    /// <paramref name="onDisk"/> is the address where the chain went below the head and on into the device (with the
    /// storage tier), the place to look next, or 0 when the chain ended.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long TraceBack(ReadOnlySpan<byte> key, long address, out LogRecord record, out long onDisk)
    {
        // Read cache records (only ever at a chain's front) are copies: the chain of record goes on past them.
        if (ReadCacheLog.IsCacheAddress(address))
            address = ReadCache!.SkipPrefix(address);
        long head = Log.HeadAddress;
        while (address >= head)
        {
            var candidate = Log.GetRecord(address);
            if (candidate.KeyLength == key.Length && candidate.Key.SequenceEqual(key) && !candidate.Info.Abandoned)
            {
                record = candidate;
                onDisk = 0;
                return address;
            }
            address = candidate.Info.PreviousAddress;
        }
        // Records below the head address have left memory (chains descend, so nothing older is in memory). Without
        // the storage tier they are gone and the chain has ended; with it, the chain goes on on the device.
        record = default;
        onDisk = address >= LogAddress.FirstValidAddress && Log.StorageTier && address >= Log.BeginAddress ? address : 0;
        return 0;
    }

    /// <summary>
    /// The key's newest record for a write (Upsert, RMW, Delete): in memory, or, when the chain goes on on the device,
    /// the copy <paramref name="disk"/> read back (<paramref name="fromDisk"/>: a read-only source, never changed or
    /// disposed of). <paramref name="address"/> is 0 when the key has no record. False when the device part has not
    /// been read yet: the operation asks for it and reports itself pending.
    /// </summary>
    internal bool TraceBackForWrite(ReadOnlySpan<byte> key, long entryAddress, PendingRecordRead? disk, out long address, out LogRecord record,
        out bool fromDisk)
    {
        address = TraceBack(key, entryAddress, out record, out long onDisk);
        fromDisk = false;
        if (address != 0 || onDisk == 0)
            return true;
        if (!UseDiskRecord(disk, onDisk, out address, out record))
            return false;
        fromDisk = address != 0;
        return true;
    }

    /// <summary>
    /// For an operation whose key's chain left memory at <paramref name="onDisk"/>: the key's newest record on the device,
    /// if <paramref name="disk"/> read that chain back (<paramref name="address"/> 0 when the chain holds none). False
    /// when it has not: the operation asks for it and reports itself pending (see <see cref="PendingRecordRead"/>).
    /// </summary>
    internal static bool UseDiskRecord(PendingRecordRead? disk, long onDisk, out long address, out LogRecord record)
    {
        if (disk == null || !disk.Covers(onDisk))
        {
            disk?.Request(onDisk);
            address = 0;
            record = default;
            return false;
        }
        if (!disk.Found)
        {
            address = 0;
            record = default;
            return true;
        }
        address = disk.FoundAddress;
        record = disk.Record;
        return true;
    }

    /// <summary>Set when this thread's operation was told to wait for the head of the log (read by <see cref="PauseBeforeRetry"/>).</summary>
    [ThreadStatic]
    private static bool WaitingForHead;

    /// <summary>
    /// Between attempts of an operation: refreshes the epoch (its latch is released) and, when it was told to
    /// wait for the head of the log to move, gives the head mover the processor.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void PauseBeforeRetry(ref int waitsForHead)
    {
        Epoch.ProtectAndDrain();
        if (WaitingForHead)
        {
            WaitingForHead = false;
            HybridLog.PauseForHead(waitsForHead++);
        }
    }

    /// <summary>Records one access of a live record (a read, an in-place write, TOUCH) in its access word.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void TouchRecord(ref LogRecord record)
    {
        var budget = Budget;
        if (!budget.TracksFrequency)
        {
            uint touched = RecordAccess.LruClock | RecordAccess.AccessedBit;
            if (record.Access != touched)
                record.Access = touched;
            return;
        }
        record.Access = RecordAccess.Touched(record.Access, true, budget.LfuLogFactor, budget.LfuDecayTime);
    }

    /// <summary>The access word of a record written for a key that had no live record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal uint NewAccessWord() => RecordAccess.ForNewRecord(Budget.TracksFrequency);

    /// <summary>The access word of a record that replaces the live record whose word is <paramref name="previous"/>.</summary>
    internal uint ReplacementAccessWord(uint previous)
    {
        var budget = Budget;
        return RecordAccess.ForReplacement(previous, budget.TracksFrequency, budget.LfuLogFactor, budget.LfuDecayTime);
    }

    /// <summary>Whether a live record is expired now.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsExpired(in LogRecord record) => record.Info.HasExpiration && record.Expiration <= NowUnixMs;

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
    /// the tail. Reused space must lie above <paramref name="chainHeadAddress"/>, the address the key's hash
    /// entry leads to, so hash chains keep descending in address: the head of the log may then pass any
    /// address knowing that nothing a chain reaches from below it is still in memory. It also means a key
    /// never moves below its current record, so a log scan that has not reached the old record yet still
    /// meets the new one, and cursor-based scans never miss a key that exists throughout.
    /// A <paramref name="privileged"/> write may use the budget's reserve page (see <see cref="AllocationClass.Reserve"/>).
    /// When the budget's pages are taken, the operation is told to retry after the head moved, unless it
    /// <paramref name="holdsKeyLocks"/>. A record whose value goes out of line needs room for its
    /// <paramref name="largeValueBytes"/> block first (see HeadMover.LargeValues.cs).
    /// </summary>
    internal AllocationStatus TryAllocateRecord(int size, long chainHeadAddress, out long address, out int allocatedSize, bool privileged = false,
        bool holdsKeyLocks = false, long largeValueBytes = 0)
    {
        if (largeValueBytes > 0)
        {
            var admitted = AdmitLargeValue(largeValueBytes, holdsKeyLocks || InScan);
            if (admitted != AllocationStatus.Success)
            {
                address = 0;
                allocatedSize = 0;
                return admitted;
            }
        }
        if (FreePool != null && FreePool.TryTake(size, Log.ReadOnlyAddress, chainHeadAddress + 1, out address, out allocatedSize))
            return AllocationStatus.Success;
        allocatedSize = size;
        // A thread that scans, or holds key locks, must not wait for the head: the head mover may be waiting for
        // that scan to end or for one of those latches. Its writes may use the reserve, and beyond it they fail.
        bool mustNotWait = holdsKeyLocks || InScan;
        var status = Log.TryAllocate(size, out address, privileged || mustNotWait ? AllocationClass.Reserve : AllocationClass.Writer);
        if (status == AllocationStatus.WaitForHead)
        {
            if (mustNotWait)
                return AllocationStatus.OutOfMemory;
            NoteWriterWaitingForPage();
            WaitingForHead = true;
            return AllocationStatus.RetryNow;
        }
        return status;
    }

    /// <summary>
    /// Gives up a record's space: it is no longer in any chain (or never was). Its sizes stay
    /// readable for scans; if it is still mutable, its space goes to revivification.
    /// </summary>
    internal void Abandon(long address, ref LogRecord record)
    {
        int size = record.AllocatedSize;
        Log.ReleaseExternal(in record);
        record.Info.MarkAbandoned();
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
        newRecord.Info.MarkLinked();
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
        // A chain that goes on on the device may hold an older record of the key there, which must stay shadowed.
        if (TraceBack(key, previous, out _, out long onDisk) != 0 || onDisk != 0)
            return;
        bool unlinked = previous == 0
            ? Index.TryFree(entry, tag, address)
            : HashIndex.TrySwing(entry, tag, address, previous);
        if (unlinked)
            Abandon(address, ref record);
    }

    /// <summary>
    /// Deletes a found record with the bucket latch held: in place (a tombstone, unlinked when
    /// possible) when the caller found it <paramref name="mutable"/>, or by a tombstone record at
    /// the tail (in place after all when not even the reserve page has room). The caller's view of mutability is used so callbacks and the deletion agree.
    /// A record <paramref name="fromDisk"/> is a copy read back from the device: it gets a tombstone at the tail and is not disposed of.
    /// </summary>
    internal OperationOutcome DeleteFoundRecord<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, long* entry, int tag,
        long entryAddress, long address, ref LogRecord record, bool mutable, bool fromDisk, bool holdsKeyLocks, KeyCountDelta keys, long state,
        out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        // The record is present (live or expired, not a tombstone): each way of deleting it takes the key off the count.
        if (mutable)
        {
            functions.DisposeRecord(ref record, DisposeReason.Deleted);
            Log.ReleaseExternal(in record);
            record.Info.Tombstone = true;
            keys.Value--;
            if (HeadsChainAlone(address, entryAddress, in record))
                TryElideDeleted(key, entry, tag, address, ref record);
            status = new Status(Status.Basic.NotFound);
            return OperationOutcome.Done;
        }

        var fields = new RecordFieldInfo(0);
        int size = RecordLayout.AllocatedSize(key.Length, in fields);
        // A tombstone gives space back, so it may use the reserve: deleting keeps working when memory is full.
        switch (TryAllocateRecord(size, entryAddress, out long newAddress, out int allocated, privileged: true, holdsKeyLocks: holdsKeyLocks))
        {
            case AllocationStatus.RetryNow:
                status = default;
                return OperationOutcome.Retry;
            case AllocationStatus.OutOfMemory:
                // With the storage tier a read-only record may already be on the device, whose copy a tombstone made
                // here would not reach; the head always makes room there (nothing is copied), so wait for it, unless
                // key locks forbid waiting.
                if (Log.StorageTier || fromDisk)
                {
                    if (holdsKeyLocks)
                    {
                        status = new Status(Status.Basic.OutOfMemory);
                        return OperationOutcome.Done;
                    }
                    WaitingForHead = true;
                    status = default;
                    return OperationOutcome.Retry;
                }
                // Not even the reserve page has room: the record becomes the tombstone where it is, so deleting keeps
                // working (and giving memory back) however full the log is. This is safe under the exclusive latch:
                // readers take the latch, and the head mover settles a record only under it. A snapshot being taken
                // needs the record as it is, though: the delete then fails for memory like any other write.
                if (FrozenForSnapshot(address, record.Info, state))
                {
                    status = new Status(Status.Basic.OutOfMemory);
                    return OperationOutcome.Done;
                }
                functions.DisposeRecord(ref record, DisposeReason.Deleted);
                Log.ReleaseExternal(in record);
                record.Info.Tombstone = true;
                keys.Value--;
                status = new Status(Status.Basic.NotFound);
                return OperationOutcome.Done;
        }
        var tombstone = Log.GetRecord(newAddress);
        tombstone.Initialize(key, in fields, allocated, entryAddress, Log);
        tombstone.Access = NewAccessWord();
        tombstone.Info.Tombstone = true;
        StampVersion(ref tombstone, state);
        if (!TryLink(entry, tag, entryAddress, newAddress, ref tombstone))
        {
            status = default;
            return OperationOutcome.Retry;
        }
        keys.Value--;
        if (!fromDisk)
        {
            bool frozen = CaptureIfFrozen(address, in record, state);
            functions.DisposeRecord(ref record, DisposeReason.Deleted);
            ReleaseSupersededExternal(address, in record, frozen);
        }
        status = new Status(Status.Basic.NotFound, Status.Record.Created);
        return OperationOutcome.Done;
    }

    /// <summary>
    /// Frees a hash entry that an operation created for a key it then did not write (absent key,
    /// canceled or out of memory), so failed writes do not use up index entries.
    /// </summary>
    internal void ReleaseEmptyEntry(long* entry, int tag, long entryAddress)
    {
        if (entryAddress == 0)
            Index.TryFree(entry, tag, 0);
    }

    /// <summary>
    /// Whether the record at <paramref name="address"/> may be unlinked from its chain to reuse its
    /// space: the hash entry points at it, and no other chain leads to it, which only an index resize
    /// can cause (see <see cref="RecordInfo.SplitShared"/> and <see cref="BucketSplit"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool HeadsChainAlone(long address, long entryAddress, in LogRecord record)
        => address == entryAddress && !record.Info.SplitShared;
}
