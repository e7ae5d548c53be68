using System;
using System.Runtime.CompilerServices;

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
        Status status;
        long cacheBehind;
        try
        {
            status = ReadLatched(ref functions, key, tag, bucket.Pointer, ref input, ref output, held, disk, out cacheBehind);
        }
        finally
        {
            if (latch)
                HashBucket.ReleaseShared(bucket.Pointer);
        }
        // Copied into the read cache only now: making room there takes other buckets' latches.
        if (cacheBehind != 0)
            InsertIntoReadCache(hash, tag, cacheBehind, disk!.Record);
        return status;
    }

    /// <summary>
    /// The read with the bucket latched. <paramref name="cacheBehind"/> is the chain head behind which the record
    /// read from the device is to be copied into the read cache, or 0. Inlined into every read, so it holds only the
    /// common case, a chain of main-log records that reaches the key in memory; the read cache and the device are
    /// <see cref="ReadLatchedBeyondMemory"/>'s, which keeps this one small enough for the JIT to keep in registers.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Status ReadLatched<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, int tag, long* bucket, ref TInput input,
        ref TOutput output, HeldLocks? held, PendingRecordRead? disk, out long cacheBehind)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        cacheBehind = 0;
        long* entry = Index.FindTag(bucket, tag);
        if (entry == null)
            return new Status(Status.Basic.NotFound);
        long entryAddress = new HashBucketEntry(*entry).Address;
        if (!ReadCacheLog.IsCacheAddress(entryAddress))
        {
            long address = TraceBack(key, entryAddress, out var record, out long onDisk);
            if (address != 0)
            {
                if (record.Info.Tombstone)
                    return new Status(Status.Basic.NotFound);
                if (IsExpired(in record))
                    return new Status(Status.Basic.NotFound, Status.Record.Expired);
                var readInfo = new ReadInfo { Address = address };
                if (functions.Reader(in record, ref input, ref output, ref readInfo))
                {
                    if (!readInfo.SkipAccessUpdate)
                        TouchRecord(ref record);
                    return new Status(Status.Basic.Found);
                }
                return readInfo.Action == OperationAction.CancelOperation
                    ? new Status(Status.Basic.Canceled)
                    : new Status(Status.Basic.NotFound);
            }
            if (onDisk == 0)
                return new Status(Status.Basic.NotFound);
        }
        return ReadLatchedBeyondMemory(ref functions, key, tag, entry, entryAddress, ref input, ref output, held, disk, out cacheBehind);
    }

    /// <summary>
    /// <see cref="ReadLatched"/> for a chain that starts in the read cache or goes on on the device: the read-cache hit,
    /// the record read back (pending until it is), and where that copy goes (the tail or the read cache).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private Status ReadLatchedBeyondMemory<TInput, TOutput, TFunctions>(ref TFunctions functions, ReadOnlySpan<byte> key, int tag, long* entry,
        long entryAddress, ref TInput input, ref TOutput output, HeldLocks? held, PendingRecordRead? disk, out long cacheBehind)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        cacheBehind = 0;
        long onDisk;
        LogRecord record;
        long address = ReadCacheLog.IsCacheAddress(entryAddress)
            ? TraceBackThroughReadCache(key, entryAddress, out record, out onDisk)
            : TraceBack(key, entryAddress, out record, out onDisk);
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
            if (inMemory)
            {
                if (ReadCacheLog.IsCacheAddress(address))
                    NoteReadCacheHit(ref record);
                else if (!readInfo.SkipAccessUpdate)
                    TouchRecord(ref record);
            }
            else if (CopyReadsToTail)
            {
                CopyReadToTail(entry, tag, entryAddress, in record, disk!);
            }
            else if (ReadCache != null && held == null)
            {
                cacheBehind = entryAddress;
            }
            return new Status(Status.Basic.Found);
        }
        return readInfo.Action == OperationAction.CancelOperation
            ? new Status(Status.Basic.Canceled)
            : new Status(Status.Basic.NotFound);
    }
}
