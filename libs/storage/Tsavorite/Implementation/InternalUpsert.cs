using System;

namespace Tsavorite;

/// <summary>
/// Upsert: write a key's value blindly. A live record in the mutable region is overwritten in place
/// (InPlaceWriter); a deleted or expired one there is reused if the new value fits; otherwise a new
/// record (InitialWriter) goes to reused space or the tail and is linked by a CAS on the hash entry.
/// A key whose chain goes on on the device (the storage tier) is read back first (the operation reports itself
/// pending, as Read does), so the write knows whether the key existed: for the key count and the Found status.
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    internal Status InternalUpsert<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref TInput input, ref TOutput output, HeldLocks? held,
        PendingRecordRead? disk, KeyCountDelta keys)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        long hash = KeyHash.Hash(key);
        int tag = HashBucketEntry.TagOf(hash);

        int waitsForHead = 0;
        while (true)
        {
            // Located again on every attempt: a resize may have moved the bucket (see HashIndex).
            var bucket = Index.Locate(hash);
            // A bucket the session locked with LockKeys stays latched across retries (see HeldLocks).
            bool latch = held == null || !held.Covers(bucket.Pointer, exclusive: true);
            long* entry = Index.FindOrCreateTag(bucket.Pointer, tag);
            if (latch && !bucket.TryLatchExclusive(Epoch))
                continue;
            OperationOutcome outcome;
            Status status;
            try
            {
                outcome = HashIndex.EntryHoldsTag(entry, tag)
                    ? UpsertLatched(ref functions, key, value, ref input, ref output, entry, tag, held != null, disk, keys, OperationState(), out status)
                    : Retry(out status);
            }
            finally
            {
                if (latch)
                    HashBucket.ReleaseExclusive(bucket.Pointer);
            }
            if (outcome == OperationOutcome.Done)
                return status;
            PauseBeforeRetry(ref waitsForHead);
        }
    }

    private static OperationOutcome Retry(out Status status)
    {
        status = default;
        return OperationOutcome.Retry;
    }

    private OperationOutcome UpsertLatched<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value,
        ref TInput input, ref TOutput output, long* entry, int tag, bool holdsKeyLocks, PendingRecordRead? disk, KeyCountDelta keys, long state, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        long entryAddress = EntryAddressForWrite(entry, tag);
        // Whether the key counts before the write (see KeyCount): that needs its newest record, wherever it is, so a
        // chain that goes on on the device is read back as Read and RMW do.
        if (!TraceBackForWrite(key, entryAddress, disk, out long address, out var record, out bool fromDisk))
            return Done(new Status(Status.Basic.Pending), out status);
        bool counted = address != 0 && !record.Info.Tombstone;
        bool existed = false;
        bool replaceOld = false;
        if (address != 0 && !fromDisk && MayUpdateInPlace(address, record.Info, state))
        {
            existed = !record.Info.Tombstone && !IsExpired(in record);
            if (existed)
            {
                var upsertInfo = new UpsertInfo { Address = address };
                if (functions.InPlaceWriter(ref record, value, ref input, ref output, ref upsertInfo))
                {
                    if (!upsertInfo.SkipAccessUpdate)
                        TouchRecord(ref record);
                    NoteIfExpiring(ref record);
                    status = new Status(Status.Basic.Found, Status.Record.InPlaceUpdated);
                    return OperationOutcome.Done;
                }
                if (upsertInfo.Action == OperationAction.CancelOperation)
                {
                    status = new Status(Status.Basic.Canceled);
                    return OperationOutcome.Done;
                }
            }
            else
            {
                // In-chain revivification: the deleted or expired record of this key takes the new value if it fits.
                var reuseFields = functions.GetUpsertFieldInfo(key, value, ref input);
                Log.PlaceValue(ref reuseFields);
                // A large value's block needs admission (TryAllocateRecord): it takes a new record.
                if (!reuseFields.ValueIsExternal && RecordLayout.AllocatedSize(key.Length, in reuseFields) <= record.AllocatedSize)
                {
                    if (!record.Info.Tombstone)
                        functions.DisposeRecord(ref record, DisposeReason.Expired);
                    record.Reinitialize(in reuseFields, Log);
                    record.Access = NewAccessWord();
                    StampVersion(ref record, state);
                    var upsertInfo = new UpsertInfo { Address = address };
                    if (!functions.InitialWriter(ref record, value, ref input, ref output, ref upsertInfo))
                    {
                        record.Info.Tombstone = true;
                        if (counted)
                            keys.Value--; // the expired record it replaced is gone
                        status = new Status(Status.Basic.Canceled);
                        return OperationOutcome.Done;
                    }
                    if (!counted)
                        keys.Value++;
                    NoteIfExpiring(ref record);
                    functions.PostInitialWriter(ref record, ref input, ref output, ref upsertInfo);
                    status = new Status(Status.Basic.NotFound, Status.Record.Created);
                    if (counted)
                        status = status.WithExpired(); // it reused an expired record, not a deleted one
                    return OperationOutcome.Done;
                }
            }
            // The old record is superseded; if it heads the chain it can be unlinked and its space reused.
            replaceOld = HeadsChainAlone(address, entryAddress, in record);
        }
        else if (address != 0)
        {
            existed = !record.Info.Tombstone && !IsExpired(in record);
        }

        var fields = functions.GetUpsertFieldInfo(key, value, ref input);
        Log.PlaceValue(ref fields);
        int size = RecordLayout.AllocatedSize(key.Length, in fields);
        // A holder of key locks may be what the head mover waits for, so its writes may use the reserve.
        switch (TryAllocateRecord(size, entryAddress, out long newAddress, out int allocated, privileged: fields.MayUseReserve, holdsKeyLocks: holdsKeyLocks,
            largeValueBytes: fields.LargeValueBytes))
        {
            case AllocationStatus.RetryNow:
                return Retry(out status);
            case AllocationStatus.OutOfMemory:
                ReleaseEmptyEntry(entry, tag, entryAddress);
                status = new Status(Status.Basic.OutOfMemory);
                return OperationOutcome.Done;
        }

        var newRecord = Log.GetRecord(newAddress);
        newRecord.Initialize(key, in fields, allocated, replaceOld ? record.Info.PreviousAddress : entryAddress, Log);
        newRecord.Access = existed ? ReplacementAccessWord(record.Access) : NewAccessWord();
        StampVersion(ref newRecord, state);
        var info = new UpsertInfo { Address = newAddress };
        if (!functions.InitialWriter(ref newRecord, value, ref input, ref output, ref info))
        {
            Abandon(newAddress, ref newRecord);
            ReleaseEmptyEntry(entry, tag, entryAddress);
            status = new Status(Status.Basic.Canceled);
            return OperationOutcome.Done;
        }
        if (!TryLink(entry, tag, entryAddress, newAddress, ref newRecord))
            return Retry(out status);
        if (!counted)
            keys.Value++;
        if (counted && !fromDisk)
        {
            bool frozen = CaptureIfFrozen(address, in record, state);
            functions.DisposeRecord(ref record, existed ? DisposeReason.Superseded : DisposeReason.Expired);
            ReleaseSupersededExternal(address, in record, frozen);
        }
        if (replaceOld)
            Abandon(address, ref record);
        NoteIfExpiring(ref newRecord);
        functions.PostInitialWriter(ref newRecord, ref input, ref output, ref info);
        status = new Status(existed ? Status.Basic.Found : Status.Basic.NotFound, Status.Record.Created);
        if (counted && !existed)
            status = status.WithExpired(); // it replaced an expired record
        return OperationOutcome.Done;
    }
}
