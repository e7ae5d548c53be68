using System;

namespace Tsavorite;

/// <summary>
/// RMW (read-modify-write): update a key from its current value. A live record in the mutable
/// region is updated in place (InPlaceUpdater); a read-only one, or one whose update does not fit, is
/// copied to a new record (NeedCopyUpdate, CopyUpdater); an absent, deleted or expired key is created
/// (NeedInitialUpdate, InitialUpdater), reusing its deleted record's space when it fits.
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    internal Status InternalRMW<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, ref TInput input, ref TOutput output, HeldLocks? held, bool onlyIfIndexed,
        PendingRecordRead? disk, KeyCountDelta keys)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        long hash = KeyHash.Hash(key);
        int tag = HashBucketEntry.TagOf(hash);
        // An update that cannot create its key skips a key the index has no entry for, rather than
        // adding an entry only to release it again; it is ordered before a concurrent creation.
        if (onlyIfIndexed && Index.FindTag(Index.Locate(hash).Pointer, tag) == null)
            return new Status(Status.Basic.NotFound);

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
                    ? RMWLatched(ref functions, key, ref input, ref output, entry, tag, held != null, disk, keys, OperationState(), out status)
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

    private OperationOutcome RMWLatched<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key,
        ref TInput input, ref TOutput output, long* entry, int tag, bool holdsKeyLocks, PendingRecordRead? disk, KeyCountDelta keys, long state, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        long entryAddress = EntryAddressForWrite(entry, tag);
        // A record read back from the device is a read-only source: it is never changed or disposed of, only copied.
        if (!TraceBackForWrite(key, entryAddress, disk, out long address, out var record, out bool fromDisk))
            return Done(new Status(Status.Basic.Pending), out status);
        if (address == 0)
            return InitialUpdate(ref functions, key, ref input, ref output, entry, tag, entryAddress, 0, 0, ref record, expired: false, fromDisk, holdsKeyLocks, keys, state, out status);

        bool expired = !record.Info.Tombstone && IsExpired(in record);
        bool live = !record.Info.Tombstone && !expired;
        bool mutable = !fromDisk && MayUpdateInPlace(address, record.Info, state);
        if (!live)
            return InitialUpdate(ref functions, key, ref input, ref output, entry, tag, entryAddress, mutable ? address : 0, address, ref record, expired, fromDisk, holdsKeyLocks, keys, state,
                out status);

        var rmwInfo = new RMWInfo { Address = address };
        if (mutable)
        {
            if (functions.InPlaceUpdater(ref record, ref input, ref output, ref rmwInfo))
            {
                if (rmwInfo.Action == OperationAction.ExpireAndStop)
                    return DeleteByUpdater<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, entryAddress, address, ref record, mutable, fromDisk, holdsKeyLocks, keys, state, out status);
                if (!rmwInfo.SkipAccessUpdate)
                    TouchRecord(ref record);
                NoteIfExpiring(ref record);
                status = new Status(Status.Basic.Found, Status.Record.InPlaceUpdated);
                return OperationOutcome.Done;
            }
        }
        else if (!functions.NeedCopyUpdate(in record, ref input, ref output, ref rmwInfo))
        {
            if (rmwInfo.Action == OperationAction.ExpireAndStop)
                return DeleteByUpdater<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, entryAddress, address, ref record, mutable, fromDisk, holdsKeyLocks, keys, state, out status);
            status = rmwInfo.Action == OperationAction.CancelOperation ? new Status(Status.Basic.Canceled) : new Status(Status.Basic.Found);
            return OperationOutcome.Done;
        }

        switch (rmwInfo.Action)
        {
            case OperationAction.CancelOperation:
                status = new Status(Status.Basic.Canceled);
                return OperationOutcome.Done;
            case OperationAction.ExpireAndStop:
                return DeleteByUpdater<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, entryAddress, address, ref record, mutable, fromDisk, holdsKeyLocks, keys, state, out status);
        }
        return CopyUpdate(ref functions, key, ref input, ref output, entry, tag, entryAddress, address, ref record, mutable, fromDisk, holdsKeyLocks, keys, state, out status);
    }

    /// <summary>An updater asked to delete the record: the key becomes absent and RMW reports not-found.</summary>
    private OperationOutcome DeleteByUpdater<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, long* entry, int tag,
        long entryAddress, long address, ref LogRecord record, bool mutable, bool fromDisk, bool holdsKeyLocks, KeyCountDelta keys, long state, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        var outcome = DeleteFoundRecord<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, entryAddress, address, ref record, mutable, fromDisk, holdsKeyLocks,
            keys, state, out var deleteStatus);
        status = deleteStatus.IsOutOfMemory ? deleteStatus : new Status(Status.Basic.NotFound);
        return outcome;
    }

    /// <summary>Writes the updated copy of a live record to new space and links it in place of the old one.</summary>
    private OperationOutcome CopyUpdate<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key,
        ref TInput input, ref TOutput output, long* entry, int tag, long entryAddress, long address, ref LogRecord source, bool sourceMutable, bool fromDisk,
        bool holdsKeyLocks, KeyCountDelta keys, long state, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        // A mutable source heading the chain is unlinked by the new record and its space reused.
        bool replaceSource = sourceMutable && HeadsChainAlone(address, entryAddress, in source);
        var fields = functions.GetRMWModifiedFieldInfo(in source, ref input);
        Log.PlaceValue(ref fields);
        int size = NewRecordSize(key.Length, ref fields);
        switch (TryAllocateRecord(size, entryAddress, out long newAddress, out int allocated, privileged: fields.MayUseReserve, holdsKeyLocks: holdsKeyLocks,
            largeValueBytes: fields.LargeValueBytes))
        {
            case AllocationStatus.RetryNow:
                return Retry(out status);
            case AllocationStatus.OutOfMemory:
                status = new Status(Status.Basic.OutOfMemory);
                return OperationOutcome.Done;
        }

        var destination = Log.GetRecord(newAddress);
        destination.Initialize(key, in fields, allocated, replaceSource ? source.Info.PreviousAddress : entryAddress, Log);
        destination.Access = ReplacementAccessWord(source.Access);
        StampVersion(ref destination, state);
        // The copy may update the source's object where it is (it takes over its handle): a snapshot needing the source captures it first.
        bool frozen = !fromDisk && CaptureIfFrozen(address, in source, state);
        var rmwInfo = new RMWInfo { Address = newAddress };
        if (!functions.CopyUpdater(in source, ref destination, ref input, ref output, ref rmwInfo))
        {
            Abandon(newAddress, ref destination);
            if (rmwInfo.Action == OperationAction.ExpireAndStop)
                return DeleteByUpdater<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, entryAddress, address, ref source, sourceMutable, fromDisk, holdsKeyLocks,
                    keys, state, out status);
            status = new Status(Status.Basic.Canceled);
            return OperationOutcome.Done;
        }
        if (!TryLink(entry, tag, entryAddress, newAddress, ref destination))
            return Retry(out status);
        NoteIfExpiring(ref destination);
        functions.PostCopyUpdater(in source, ref destination, ref input, ref output, ref rmwInfo);
        ReleaseSupersededExternal(address, in source, frozen); // superseded: its out-of-line value is the old one
        if (replaceSource)
            Abandon(address, ref source);
        status = new Status(Status.Basic.Found, Status.Record.CopyUpdated);
        return OperationOutcome.Done;
    }

    /// <summary>
    /// Creates the key's value with InitialUpdater: in the space of its deleted or expired mutable
    /// record (<paramref name="reusableAddress"/>) if it fits, otherwise in new space.
    /// </summary>
    private OperationOutcome InitialUpdate<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key,
        ref TInput input, ref TOutput output, long* entry, int tag, long entryAddress, long reusableAddress, long recordAddress, ref LogRecord reusable, bool expired, bool fromDisk,
        bool holdsKeyLocks, KeyCountDelta keys, long state, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        var rmwInfo = new RMWInfo { Address = reusableAddress };
        if (!functions.NeedInitialUpdate(key, ref input, ref output, ref rmwInfo))
        {
            status = rmwInfo.Action == OperationAction.CancelOperation
                ? new Status(Status.Basic.Canceled)
                : expired ? new Status(Status.Basic.NotFound, Status.Record.Expired) : new Status(Status.Basic.NotFound);
            ReleaseEmptyEntry(entry, tag, entryAddress);
            return OperationOutcome.Done;
        }

        var fields = functions.GetRMWInitialFieldInfo(key, ref input);
        Log.PlaceValue(ref fields);
        int size = RecordLayout.AllocatedSize(key.Length, in fields);
        // A large value's block needs admission (TryAllocateRecord): it takes a new record.
        if (reusableAddress != 0 && !fields.ValueIsExternal && size <= reusable.AllocatedSize)
        {
            if (expired && !fromDisk)
                functions.DisposeRecord(ref reusable, DisposeReason.Expired);
            reusable.Reinitialize(in fields, Log);
            reusable.Access = NewAccessWord();
            StampVersion(ref reusable, state);
            if (!functions.InitialUpdater(ref reusable, ref input, ref output, ref rmwInfo))
            {
                reusable.Info.Tombstone = true;
                if (expired)
                    keys.Value--; // the expired record it replaced is gone
                status = new Status(Status.Basic.Canceled);
                return OperationOutcome.Done;
            }
            if (!expired)
                keys.Value++;
            NoteIfExpiring(ref reusable);
            functions.PostInitialUpdater(ref reusable, ref input, ref output, ref rmwInfo);
            status = CreatedOver(expired);
            return OperationOutcome.Done;
        }

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

        bool replaceOld = reusableAddress != 0 && HeadsChainAlone(reusableAddress, entryAddress, in reusable);
        var newRecord = Log.GetRecord(newAddress);
        newRecord.Initialize(key, in fields, allocated, replaceOld ? reusable.Info.PreviousAddress : entryAddress, Log);
        newRecord.Access = NewAccessWord();
        StampVersion(ref newRecord, state);
        rmwInfo.Address = newAddress;
        if (!functions.InitialUpdater(ref newRecord, ref input, ref output, ref rmwInfo))
        {
            Abandon(newAddress, ref newRecord);
            ReleaseEmptyEntry(entry, tag, entryAddress);
            status = new Status(Status.Basic.Canceled);
            return OperationOutcome.Done;
        }
        if (!TryLink(entry, tag, entryAddress, newAddress, ref newRecord))
            return Retry(out status);
        // An expired record still counted as a key (see KeyCount); an absent or deleted one did not.
        if (!expired)
            keys.Value++;
        if (expired && !fromDisk)
        {
            bool frozen = CaptureIfFrozen(recordAddress, in reusable, state);
            functions.DisposeRecord(ref reusable, DisposeReason.Expired);
            ReleaseSupersededExternal(recordAddress, in reusable, frozen);
        }
        if (replaceOld)
            Abandon(reusableAddress, ref reusable);
        NoteIfExpiring(ref newRecord);
        functions.PostInitialUpdater(ref newRecord, ref input, ref output, ref rmwInfo);
        status = CreatedOver(expired);
        return OperationOutcome.Done;
    }

    /// <summary>A created record's status; Expired too when it replaced an expired one (the caller may report that key as expired).</summary>
    private static Status CreatedOver(bool expired)
    {
        var created = new Status(Status.Basic.NotFound, Status.Record.Created);
        return expired ? created.WithExpired() : created;
    }
}
