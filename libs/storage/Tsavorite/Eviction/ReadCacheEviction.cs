using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Room in the read cache: records go to the tail page, and when a new page fills the ring the oldest page is emptied,
/// FIFO with a second chance — a copy read since it came in is copied once more to the tail (its access mark cleared)
/// instead of dropped, so a hot set that fits stays while a stream of one-off reads passes through.
/// </summary>
/// <remarks>
/// All of it runs under <see cref="ReadCacheLog.Gate"/>, holding no bucket latch. Emptying a page settles each record
/// still marked linked under its bucket's exclusive latch, taken only if it is free within a few tries (a session
/// holding key locks may keep one for long): a page that cannot be settled now stays, its cursor remembered, and the
/// read that wanted room does not cache. Records found no longer in their chain (dropped by a writer, or left with
/// an old index table) are just passed over.
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    /// <summary>Tries of a bucket's latch before emptying a page is put off.</summary>
    private const int ReadCacheLatchTries = 64;

    private long _readCacheEvictions;
    private long _readCacheSecondChances;

    /// <summary>Copies dropped from the read cache to make room.</summary>
    public long ReadCacheEvictions => Volatile.Read(ref _readCacheEvictions);

    /// <summary>Copies that were read while in the read cache and moved to its tail instead of dropped.</summary>
    public long ReadCacheSecondChances => Volatile.Read(ref _readCacheSecondChances);

    /// <summary>Reserves <paramref name="size"/> bytes at the read cache's tail; the caller holds the lock.</summary>
    private bool TryAllocateInReadCache(int size, out long address)
    {
        var cache = ReadCache!;
        long tail = cache.Tail;
        if (tail + size <= cache.TailPageEnd)
        {
            cache.Tail = tail + size;
            address = tail | LogAddress.ReadCacheBit;
            return true;
        }

        address = 0;
        long next = cache.TailPageEnd;
        // The ring is full: the oldest page must go before its slot takes the next one.
        if (PagesInUse(cache, next) > cache.PageCount && !TryEmptyReadCacheHead())
            return false;
        if (!cache.TryOpenPage(next, Epoch))
            return false;
        cache.Tail = next + size;
        address = next | LogAddress.ReadCacheBit;
        // Now that the ring is full, empty the oldest page while this one has room for its second chances; its slot
        // is then ready (its epoch passed) by the time this page is full.
        if (PagesInUse(cache, next) >= cache.PageCount)
            TryEmptyReadCacheHead();
        return true;
    }

    /// <summary>Pages from the head to the one starting at <paramref name="pageStart"/>, both included.</summary>
    private static long PagesInUse(ReadCacheLog cache, long pageStart) => ((pageStart - cache.Head) / cache.PageSize) + 1;

    /// <summary>Settles every record of the head page and retires it; false when a bucket latch was busy (see the remarks).</summary>
    private bool TryEmptyReadCacheHead()
    {
        var cache = ReadCache!;
        long pageEnd = cache.Head + cache.PageSize;
        long offset = cache.EvictCursor;
        while (offset + sizeof(long) <= pageEnd && offset < cache.Tail)
        {
            var record = cache.GetRecord(offset);
            var info = record.Info;
            if (info.IsNull)
                break;
            int size = record.AllocatedSize;
            if (info.Valid && !info.Abandoned)
            {
                if (!TrySettleReadCacheRecord(offset | LogAddress.ReadCacheBit, ref record))
                {
                    cache.EvictCursor = offset;
                    return false;
                }
            }
            offset += size;
        }
        cache.RetireHeadPage(Epoch);
        return true;
    }

    /// <summary>
    /// Takes a record of the page being emptied out of its chain, under its bucket's exclusive latch: the link to it
    /// (the hash entry or the read cache record before it) skips it, or leads to its second-chance copy instead.
    /// </summary>
    private bool TrySettleReadCacheRecord(long address, ref LogRecord record)
    {
        long hash = KeyHash.Hash(record.Key);
        int tag = HashBucketEntry.TagOf(hash);
        long* bucket = null;
        for (int tries = 0; ; tries++)
        {
            bucket = Index.Locate(hash).Pointer;
            if (HashBucket.TryAcquireExclusive(bucket))
                break;
            if (tries == ReadCacheLatchTries)
                return false;
            Thread.Yield();
        }
        try
        {
            long* entry = Index.FindTag(bucket, tag);
            if (entry != null)
                Unlink(entry, tag, address, ref record);
            record.Info.MarkAbandoned();
            return true;
        }
        finally
        {
            HashBucket.ReleaseExclusive(bucket);
        }
    }

    private void Unlink(long* entry, int tag, long address, ref LogRecord record)
    {
        var cache = ReadCache!;
        LogRecord before = default;
        bool atEntry = true;
        long current = new HashBucketEntry(*entry).Address;
        while (current != address)
        {
            if (!ReadCacheLog.IsCacheAddress(current))
                return; // not in the chain any more
            before = cache.GetRecord(current);
            atEntry = false;
            current = before.Info.PreviousAddress;
        }

        long replacement = record.Info.PreviousAddress;
        if ((record.Access & RecordAccess.AccessedBit) != 0 && TryCopyForSecondChance(ref record, out long copyAddress))
        {
            replacement = copyAddress;
            Interlocked.Increment(ref _readCacheSecondChances);
        }
        else
        {
            Interlocked.Increment(ref _readCacheEvictions);
        }
        if (atEntry)
            HashIndex.TrySwing(entry, tag, address, replacement);
        else
            before.Info.PreviousAddress = replacement; // one store of the header word: readers see either link
    }

    /// <summary>Copies a record to the tail page if it has room (no page is opened while one is being emptied).</summary>
    private bool TryCopyForSecondChance(ref LogRecord record, out long address)
    {
        var cache = ReadCache!;
        int size = record.UsedSize;
        long tail = cache.Tail;
        address = 0;
        if (tail + size > cache.TailPageEnd || cache.TailPageEnd - cache.PageSize == cache.Head)
            return false;
        cache.Tail = tail + size;
        address = tail | LogAddress.ReadCacheBit;
        var copy = cache.GetRecord(address);
        Buffer.MemoryCopy((void*)record.PhysicalAddress, (void*)copy.PhysicalAddress, size, size);
        copy.Access = 0;
        return true;
    }
}
