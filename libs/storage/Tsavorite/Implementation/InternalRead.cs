using System;

namespace Tsavorite;

/// <summary>Read: find the newest live record of a key and hand it to the Reader callback.</summary>
public sealed unsafe partial class TsavoriteKV
{
    internal Status InternalRead<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, ref TInput input, ref TOutput output, HeldLocks? held = null,
        PendingRecordRead? disk = null)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        long hash = KeyHash.Hash(key);
        int tag = HashBucketEntry.TagOf(hash);

        var bucket = Index.Locate(hash);
        // A bucket the session locked with LockKeys is already latched (see HeldLocks).
        bool latch = held == null || !held.Covers(bucket.Pointer, exclusive: false);
        // A resize moved the bucket while the latch was awaited: look it up again (see HashIndex).
        while (latch && !bucket.TryLatchShared(Epoch))
        {
            bucket = Index.Locate(hash);
            latch = held == null || !held.Covers(bucket.Pointer, exclusive: false);
        }
        try
        {
            long* entry = Index.FindTag(bucket.Pointer, tag);
            if (entry == null)
                return new Status(Status.Basic.NotFound);
            long entryAddress = new HashBucketEntry(*entry).Address;
            long address = TraceBack(key, entryAddress, out var record, out long onDisk);
            bool inMemory = address != 0;
            if (!inMemory && onDisk != 0 && !UseDiskRecord(disk, onDisk, out address, out record))
                return new Status(Status.Basic.Pending);
            if (address == 0 || record.Info.Tombstone)
                return new Status(Status.Basic.NotFound);
            if (IsExpired(in record))
                return new Status(Status.Basic.NotFound, Status.Record.Expired);

            var readInfo = new ReadInfo { Address = address };
            if (functions.Reader(in record, ref input, ref output, ref readInfo))
            {
                if (!readInfo.SkipAccessUpdate && inMemory)
                    TouchRecord(ref record);
                else if (!inMemory && CopyReadsToTail)
                    CopyReadToTail(entry, tag, entryAddress, in record, disk!);
                return new Status(Status.Basic.Found);
            }
            return readInfo.Action == OperationAction.CancelOperation
                ? new Status(Status.Basic.Canceled)
                : new Status(Status.Basic.NotFound);
        }
        finally
        {
            if (latch)
                HashBucket.ReleaseShared(bucket.Pointer);
        }
    }
}
