using System;

namespace Tsavorite;

/// <summary>
/// Delete: a live record in the mutable region is marked with a tombstone (after InPlaceDeleter) and,
/// when it heads its chain, unlinked so revivification can reuse its space; a read-only record is
/// shadowed by a tombstone record at the tail.
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    internal Status InternalDelete<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, HeldLocks? held, PendingRecordRead? disk, KeyCountDelta keys)
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
            if (latch && !bucket.TryLatchExclusive(Epoch))
                continue;
            OperationOutcome outcome;
            Status status;
            try
            {
                // Under the exclusive latch no entry of this bucket changes address, so no tentative step is needed.
                long* entry = Index.FindTag(bucket.Pointer, tag);
                outcome = entry == null
                    ? Done(new Status(Status.Basic.NotFound), out status)
                    : DeleteLatched<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, held != null, disk, keys, OperationState(), out status);
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

    private static OperationOutcome Done(Status result, out Status status)
    {
        status = result;
        return OperationOutcome.Done;
    }

    private OperationOutcome DeleteLatched<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, long* entry, int tag, bool holdsKeyLocks,
        PendingRecordRead? disk, KeyCountDelta keys, long state, out Status status)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        long entryAddress = EntryAddressForWrite(entry, tag);
        // Whether the key exists may be on the device: a live record there is shadowed by a tombstone at the tail.
        if (!TraceBackForWrite(key, entryAddress, disk, out long address, out var record, out bool fromDisk))
            return Done(new Status(Status.Basic.Pending), out status);
        if (address == 0 || record.Info.Tombstone)
            return Done(new Status(Status.Basic.NotFound), out status);

        bool expired = IsExpired(in record);
        bool mutable = !fromDisk && MayUpdateInPlace(address, record.Info, state);
        if (mutable)
        {
            var deleteInfo = new DeleteInfo { Address = address };
            if (!functions.InPlaceDeleter(ref record, ref deleteInfo))
                return Done(new Status(Status.Basic.Canceled), out status);
        }
        else
        {
            var deleteInfo = new DeleteInfo { Address = address };
            if (!functions.ShadowDeleter(in record, ref deleteInfo))
                return Done(new Status(Status.Basic.Canceled), out status);
        }

        var outcome = DeleteFoundRecord<TInput, TOutput, TFunctions>(ref functions, key, entry, tag, entryAddress, address, ref record, mutable, fromDisk, holdsKeyLocks,
            keys, state, out var deleteStatus);
        if (outcome == OperationOutcome.Done && !deleteStatus.IsOutOfMemory)
            status = expired ? new Status(Status.Basic.NotFound, Status.Record.Expired) : new Status(Status.Basic.Found);
        else
            status = deleteStatus;
        return outcome;
    }
}
