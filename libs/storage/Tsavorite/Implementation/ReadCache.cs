using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The read cache (<see cref="KVSettings.ReadCache"/>): copies of records that reads found on the device, kept in
/// their own memory (<see cref="ReadCacheLog"/>) and linked at the front of their keys' hash chains, so the next
/// reads of a hot key are served from memory without growing the log, as <see cref="KVSettings.CopyReadsToTail"/> would.
/// </summary>
/// <remarks>
/// <para>
/// The invariant: <b>read cache records are only ever at the front of a chain</b> — the hash entry leads to zero or
/// more of them, each for a different key, and the last leads on into the log. Everything else follows from it:
/// <list type="bullet">
/// <item>Reads look through that prefix first (a hit), and otherwise follow the chain as always
/// (<see cref="TraceBack(ReadOnlySpan{byte}, long, out LogRecord, out long)"/> skips the prefix).</item>
/// <item>A record is copied in after a read found it on the device, and linked by a CAS of the hash entry from what
/// that read saw, under the bucket's shared latch: if anything was linked meanwhile, the copy is not.</item>
/// <item>Writers (and whatever else links log records: the head mover, compaction) hold the exclusive latch and first
/// swing the entry past the whole prefix (<see cref="EntryAddressForWrite"/>): the copies are invalidated, and log
/// records never lead into the read cache. Dropping other keys' copies with it costs only a device read later.</item>
/// <item>Emptying a page of the read cache unlinks each record still linked under its bucket's exclusive latch, and
/// an index resize leaves the prefixes behind with the old table (<see cref="BucketSplit"/>).</item>
/// </list>
/// </para>
/// <para>
/// Copies are records like the log's (expiration and ETag included); object values are not cached, since their
/// handles belong to one record. A session holding key locks does not cache either: copying in may have to empty a
/// page, which takes other buckets' latches.
/// </para>
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    private long _readCacheHits;
    private long _readCacheMisses;
    private long _readCacheInserts;
    private long _readCacheInvalidations;

    /// <summary>The read cache's memory; null when the store has none.</summary>
    internal ReadCacheLog? ReadCache { get; }

    /// <summary>Whether the store has a read cache.</summary>
    public bool HasReadCache => ReadCache != null;

    /// <summary>Reads served by a copy in the read cache.</summary>
    public long ReadCacheHits => Volatile.Read(ref _readCacheHits);

    /// <summary>Reads that found their record on the device (so not in the read cache), counted when the read cache has one.</summary>
    public long ReadCacheMisses => Volatile.Read(ref _readCacheMisses);

    /// <summary>Records copied into the read cache.</summary>
    public long ReadCacheInserts => Volatile.Read(ref _readCacheInserts);

    /// <summary>Times a write (or the head mover, or compaction) dropped the read cache records in front of a chain.</summary>
    public long ReadCacheInvalidations => Volatile.Read(ref _readCacheInvalidations);

    /// <summary>Bytes of read cache pages allocated so far; the read cache has its own budget (<see cref="KVSettings.ReadCacheMemorySize"/>), outside <see cref="MemoryBytes"/>.</summary>
    public long ReadCacheMemoryBytes => ReadCache?.MemoryBytes ?? 0;

    /// <summary>
    /// As <see cref="TraceBack(ReadOnlySpan{byte}, long, out LogRecord, out long)"/> for a chain that starts in the
    /// read cache: the key's copy there if it has one (its address has <see cref="LogAddress.ReadCacheBit"/>), else
    /// the key's record in the log past the read cache records.
    /// </summary>
    internal long TraceBackThroughReadCache(ReadOnlySpan<byte> key, long address, out LogRecord record, out long onDisk)
    {
        var cache = ReadCache!;
        while (ReadCacheLog.IsCacheAddress(address))
        {
            var candidate = cache.GetRecord(address);
            if (candidate.KeyLength == key.Length && candidate.Key.SequenceEqual(key) && !candidate.Info.Abandoned)
            {
                record = candidate;
                onDisk = 0;
                return address;
            }
            address = candidate.Info.PreviousAddress;
        }
        return TraceBack(key, address, out record, out onDisk);
    }

    /// <summary>A read served by a read cache copy: counted, and the copy earns its second chance (see ReadCacheEviction).</summary>
    private void NoteReadCacheHit(ref LogRecord record)
    {
        if (record.Access == 0)
            record.Access = RecordAccess.AccessedBit;
        Interlocked.Increment(ref _readCacheHits);
    }

    /// <summary>
    /// The address a write links its new record behind, read with the bucket's exclusive latch held: the entry's,
    /// after dropping the read cache records in front of the chain if there are any (see the type's remarks).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long EntryAddressForWrite(long* entry, int tag)
    {
        long address = new HashBucketEntry(*entry).Address;
        return ReadCacheLog.IsCacheAddress(address) ? DropReadCachePrefix(entry, tag, address) : address;
    }

    private long DropReadCachePrefix(long* entry, int tag, long address)
    {
        long logAddress = ReadCache!.SkipPrefix(address);
        // Under the exclusive latch nothing else swings the entry: copies are linked under the shared latch and
        // unlinked under the exclusive one.
        HashIndex.TrySwing(entry, tag, address, logAddress);
        Interlocked.Increment(ref _readCacheInvalidations);
        return logAddress;
    }

    /// <summary>
    /// Copies <paramref name="source"/>, a record a read just found on the device behind the chain head
    /// <paramref name="entryAddress"/>, into the read cache and links it at the chain's front, unless the chain
    /// changed since (the CAS from <paramref name="entryAddress"/> fails). Called holding no latch. Best effort: when
    /// another thread is copying in, or no page has room yet, the record is not cached.
    /// </summary>
    private void InsertIntoReadCache(long hash, int tag, long entryAddress, in LogRecord source)
    {
        Interlocked.Increment(ref _readCacheMisses);
        // An object's handle and a large value's block belong to one record (the read's copy releases them), and the
        // read cache never gives them back: such records are not cached.
        if (source.Info.ValueIsObject || source.Info.ValueIsExternal || source.Info.Tombstone)
            return;
        var cache = ReadCache!;
        int size = source.UsedSize;
        if (size > cache.PageSize || !Monitor.TryEnter(cache.Gate))
            return;
        try
        {
            if (!TryAllocateInReadCache(size, out long address))
                return;
            var copy = cache.GetRecord(address);
            Buffer.MemoryCopy((void*)source.PhysicalAddress, (void*)copy.PhysicalAddress, size, size);
            ref var info = ref copy.Info;
            info.PreviousAddress = entryAddress;
            info.HasFiller = false;
            info.Sealed = false;
            info.SplitShared = false;
            info.MarkAbandoned(); // until linked: a page being emptied passes over it
            copy.Access = 0;
            LinkReadCacheCopy(hash, tag, entryAddress, address, ref info);
        }
        finally
        {
            Monitor.Exit(cache.Gate);
        }
    }

    private void LinkReadCacheCopy(long hash, int tag, long entryAddress, long address, ref RecordInfo info)
    {
        var bucket = Index.Locate(hash);
        while (!bucket.TryLatchShared(Epoch))
            bucket = Index.Locate(hash);
        try
        {
            long* entry = Index.FindTag(bucket.Pointer, tag);
            info.MarkLinked();
            if (entry != null && HashIndex.TrySwing(entry, tag, entryAddress, address))
            {
                Interlocked.Increment(ref _readCacheInserts);
                return;
            }
            info.MarkAbandoned();
        }
        finally
        {
            HashBucket.ReleaseShared(bucket.Pointer);
        }
    }
}
