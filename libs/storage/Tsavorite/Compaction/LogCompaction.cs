using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Compaction of a log with the storage tier: the live records of its oldest part, on the device, are copied to the
/// tail, then the begin address moves past that part and its segment files are deleted. Overwrites of a fixed live
/// set thus keep the files bounded.
/// </summary>
/// <remarks>
/// A record is live when its key's chain, followed through memory and then the device, leads to it. Each copy is
/// linked under the bucket's exclusive latch after checking that, so a write of the key meanwhile wins (its record
/// is newer and found first), and readers see the old record or the copy. Copies are made with scans kept out (as
/// the head mover does), so a scan never meets a key both before and after it moved. Deleted records are left behind:
/// everything older than them is in the compacted part too. A key whose newest record is dropped with the range
/// (expired, or any with <see cref="CompactionType.Shift"/>) gets a tombstone at the tail first, under the same latch,
/// and leaves the key count (see <see cref="KeyCount"/>): a write of the key racing with the compaction then finds it
/// absent, as it will be once the begin address moves, and counts it again.
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    private readonly object _compactionLock = new();
    private long _recordsCompacted;
    private long _compactions;
    private long _keysDroppedByCompaction;

    /// <summary>Live records compaction copied to the tail so far.</summary>
    public long RecordsCompacted => Volatile.Read(ref _recordsCompacted);

    /// <summary>Keys compaction deleted because their newest record was dropped with its range (expired, or by Shift).</summary>
    public long KeysDroppedByCompaction => Volatile.Read(ref _keysDroppedByCompaction);

    /// <summary>Compactions that moved the begin address.</summary>
    public long Compactions => Volatile.Read(ref _compactions);

    /// <summary>
    /// Removes [<see cref="HybridLog.BeginAddress"/>, <paramref name="untilAddress"/>) from the log (at most up to the
    /// head: only what is on the device alone), keeping its live records by copying them to the tail as
    /// <paramref name="type"/> says. Returns the new begin address. Runs on the calling thread, protected on the
    /// store's epoch throughout (the caller may already be, e.g. to keep the store from being freed), refreshing as it
    /// goes; one compaction at a time. <paramref name="shouldStop"/>, asked between records, abandons it. A device error
    /// ends it with <see cref="DeviceReadException"/>. Either way the begin address stays where it was.
    /// </summary>
    public long Compact(long untilAddress, CompactionType type, Func<bool>? shouldStop = null)
    {
        if (!Log.StorageTier)
            throw new InvalidOperationException("Only a log with the storage tier is compacted.");
        lock (_compactionLock)
        {
            long begin = Log.BeginAddress;
            untilAddress = Math.Min(untilAddress, Log.PageStart(Log.HeadAddress));
            if (type == CompactionType.None || untilAddress <= begin)
                return begin;
            bool protect = !Epoch.ThisInstanceProtected();
            if (protect)
                Epoch.Resume();
            try
            {
                if (!CopyLiveRecords(begin, untilAddress, type, shouldStop))
                    return Log.BeginAddress;
            }
            finally
            {
                if (protect)
                    Epoch.Suspend();
            }
            if (Log.ShiftBeginAddress(untilAddress))
                Interlocked.Increment(ref _compactions);
            return Log.BeginAddress;
        }
    }

    /// <summary>
    /// Copies the live records of [<paramref name="from"/>, <paramref name="until"/>) to the tail, or with
    /// <see cref="CompactionType.Shift"/> deletes their keys; false if stopped.
    /// </summary>
    private bool CopyLiveRecords(long from, long until, CompactionType type, Func<bool>? shouldStop)
    {
        using var chain = new PendingRecordRead();
        using var walker = new DeviceRecordWalker(Log);
        HashSet<string>? rewritten = type == CompactionType.Scan ? KeysWrittenSince(until) : null;
        var copier = new CompactionCopier(this, chain, rewritten, type == CompactionType.Shift, shouldStop);
        return walker.ForEach(from, until, ref copier);
    }

    /// <summary>
    /// The keys of every record in [<paramref name="since"/>, tail), read from the device and then memory (Scan
    /// compaction): a record of the compacted part whose key is among them was written again, and is not looked up.
    /// Only a filter: every record that is copied is checked to be its key's newest first.
    /// </summary>
    private HashSet<string> KeysWrittenSince(long since)
    {
        var keys = new HashSet<string>(StringComparer.Ordinal);
        var collector = new KeyCollector(this, keys);
        long head = Log.HeadAddress;
        using (var walker = new DeviceRecordWalker(Log))
            walker.ForEach(since, head, ref collector);
        {
            long tail = Log.TailAddress;
            for (long address = Math.Max(since, Log.HeadAddress); address < tail;)
            {
                long pageEnd = Log.PageStart(address) + Log.PageSize;
                if (!TryReadRecordOnPage(address, pageEnd, out var record, out int size))
                {
                    address = pageEnd;
                    continue;
                }
                collector.OnRecord(in record, address);
                address += size;
                // The head passed the walk: keys it missed are only a filter's misses (each copy is checked anyway).
                if (address < Log.HeadAddress)
                    break;
            }
        }
        return keys;
    }

    /// <summary>A record's key as a map key (Latin-1 keeps every byte).</summary>
    private static string KeyText(ReadOnlySpan<byte> key) => System.Text.Encoding.Latin1.GetString(key);

    /// <summary>Visits records read from the device.</summary>
    private interface IRecordVisitor
    {
        /// <summary>Called for each record with a valid header; false stops the walk.</summary>
        bool OnRecord(in LogRecord record, long address);
    }

    private struct KeyCollector(TsavoriteKV store, HashSet<string> keys) : IRecordVisitor
    {
        private int _sinceRefresh;

        public bool OnRecord(in LogRecord record, long address)
        {
            if (++_sinceRefresh == ScanRecordsPerRefresh)
            {
                _sinceRefresh = 0;
                store.Epoch.ProtectAndDrain();
            }
            if (record.Info.Valid)
                keys.Add(KeyText(record.Key));
            return true;
        }
    }

    /// <summary>
    /// Copies one record of the compacted part to the tail if it is its key's newest and live; deletes the key when
    /// that record is expired, or when everything in the part is dropped (<paramref name="dropAll"/>).
    /// </summary>
    private struct CompactionCopier(TsavoriteKV store, PendingRecordRead chain, HashSet<string>? rewritten, bool dropAll, Func<bool>? shouldStop) : IRecordVisitor
    {
        private int _sinceRefresh;

        public bool OnRecord(in LogRecord record, long address)
        {
            if (++_sinceRefresh == ScanRecordsPerRefresh)
            {
                _sinceRefresh = 0;
                store.Epoch.ProtectAndDrain();
                if (shouldStop != null && shouldStop())
                    return false;
            }
            var info = record.Info;
            if (!info.Valid || info.Abandoned || info.Tombstone)
                return true;
            if (rewritten != null && rewritten.Contains(KeyText(record.Key)))
                return true;
            store.CopyIfLive(in record, address, chain, drop: dropAll || IsExpired(in record));
            return true;
        }
    }

    /// <summary>
    /// Copies the record at device address <paramref name="address"/> (a copy of it is <paramref name="record"/>) to
    /// the tail if its key's chain leads to it, under the bucket's exclusive latch, with scans kept out; or, to
    /// <paramref name="drop"/> it, links a tombstone in its place. The caller is protected.
    /// </summary>
    private void CopyIfLive(in LogRecord record, long address, PendingRecordRead chain, bool drop)
    {
        var key = record.Key;
        long hash = KeyHash.Hash(key);
        int tag = HashBucketEntry.TagOf(hash);
        int waits = 0;
        while (true)
        {
            // Waits refresh the epoch: a scan starting meanwhile waits for every protected thread to move on.
            while (!ScanGate.TryEnterSettling())
            {
                Epoch.ProtectAndDrain();
                HybridLog.PauseForHead(waits++);
            }
            bool retry;
            try
            {
                retry = TryCopyIfLive(key, hash, tag, address, chain, drop);
            }
            finally
            {
                ScanGate.ExitSettling();
            }
            if (!retry)
                return;
            Epoch.ProtectAndDrain();
            HybridLog.PauseForHead(waits++);
        }
    }

    /// <summary>One attempt of <see cref="CopyIfLive"/>; true when it must be tried again (no room in the log yet).</summary>
    private bool TryCopyIfLive(ReadOnlySpan<byte> key, long hash, int tag, long address, PendingRecordRead chain, bool drop)
    {
        var bucket = Index.Locate(hash);
        while (!bucket.TryLatchExclusive(Epoch))
            bucket = Index.Locate(hash);
        try
        {
            long* entry = Index.FindTag(bucket.Pointer, tag);
            if (entry == null)
                return false;
            long entryAddress = EntryAddressForWrite(entry, tag);
            if (TraceBack(key, entryAddress, out _, out long onDisk) != 0 || onDisk < address)
                return false; // a newer record in memory, or the chain no longer reaches this one
            // Read the chain back (this also gives an object record's copy its object).
            chain.Request(onDisk);
            uint error = chain.Fetch(Log, key);
            if (error != 0)
            {
                chain.Clear();
                CountDeviceReadError();
                throw new DeviceReadException(onDisk, error);
            }
            if (!chain.Found || chain.FoundAddress != address)
            {
                chain.Clear();
                return false;
            }
            if (drop)
            {
                chain.Clear();
                return !TryLinkCompactionTombstone(key, entry, tag, entryAddress);
            }
            var source = chain.Record;
            int size = source.UsedSize;
            var status = Log.TryAllocate(size, out long newAddress, AllocationClass.Reserve);
            if (status != AllocationStatus.Success)
            {
                // No room at the tail yet: the head mover makes it (with the storage tier it always can). The record
                // must not be skipped, or it would go with its segment.
                chain.Clear();
                return true;
            }
            var copy = Log.GetRecord(newAddress);
            Buffer.MemoryCopy((void*)source.PhysicalAddress, (void*)copy.PhysicalAddress, size, size);
            ref var copyInfo = ref copy.Info;
            copyInfo.PreviousAddress = entryAddress;
            copyInfo.HasFiller = false;
            copyInfo.Sealed = false;
            copyInfo.SplitShared = false;
            copyInfo.MarkLinked();
            if (!HashIndex.TrySwing(entry, tag, entryAddress, newAddress))
            {
                copyInfo.MarkAbandoned();
                chain.Clear();
                return true;
            }
            chain.HandOverLoaded(); // an object's handle now belongs to the copy
            chain.Clear();
            Interlocked.Increment(ref _recordsCompacted);
            return false;
        }
        finally
        {
            HashBucket.ReleaseExclusive(bucket.Pointer);
        }
    }

    /// <summary>
    /// Deletes a key whose newest record compaction drops: a tombstone at the tail over its chain, with the bucket's
    /// exclusive latch held by the caller. False when there is no room yet (the head mover makes it).
    /// </summary>
    private bool TryLinkCompactionTombstone(ReadOnlySpan<byte> key, long* entry, int tag, long entryAddress)
    {
        var fields = new RecordFieldInfo(0);
        int size = RecordLayout.AllocatedSize(key.Length, in fields);
        if (Log.TryAllocate(size, out long newAddress, AllocationClass.Reserve) != AllocationStatus.Success)
            return false;
        var tombstone = Log.GetRecord(newAddress);
        tombstone.Initialize(key, in fields, size, entryAddress);
        tombstone.Access = NewAccessWord();
        tombstone.Info.Tombstone = true;
        if (!TryLink(entry, tag, entryAddress, newAddress, ref tombstone))
            return false;
        CountKeysInBackground(-1);
        Interlocked.Increment(ref _keysDroppedByCompaction);
        return true;
    }

    /// <summary>Reads the records of a device range in chunks and hands each to a visitor.</summary>
    private sealed class DeviceRecordWalker(HybridLog log) : IDisposable
    {
        private const int Chunk = 256 * 1024;
        private byte* _buffer;
        private int _capacity;

        /// <summary>Visits the records of [<paramref name="from"/>, <paramref name="until"/>); false if the visitor stopped the walk.</summary>
        public bool ForEach<TVisitor>(long from, long until, ref TVisitor visitor)
            where TVisitor : IRecordVisitor
        {
            long sector = Math.Max(1u, log.Device.SectorSize);
            long address = Math.Max(from, LogAddress.FirstValidAddress);
            while (address < until)
            {
                long pageEnd = log.PageStart(address) + log.PageSize;
                if (address + RecordLayout.MinRecordSize > pageEnd)
                {
                    address = pageEnd;
                    continue;
                }
                long chunkStart = Alignment.RoundDown(address, sector);
                long chunkEnd = Math.Min(pageEnd, chunkStart + Chunk);
                Read(chunkStart, chunkEnd, address);
                long first = address;
                while (address < until && address + RecordLayout.MinRecordSize <= chunkEnd)
                {
                    var record = new LogRecord(_buffer + (address - chunkStart));
                    if (record.Info.IsNull)
                    {
                        address = pageEnd;
                        break;
                    }
                    int size = MeasureRecordAt(in record, (int)(chunkEnd - address));
                    if (size <= 0)
                    {
                        if (chunkEnd == pageEnd)
                        {
                            address = pageEnd;
                            break;
                        }
                        if (address != first)
                            break;
                        chunkEnd = pageEnd;
                        Read(chunkStart, chunkEnd, address);
                        continue;
                    }
                    if (!visitor.OnRecord(in record, address))
                        return false;
                    address += size;
                }
            }
            return true;
        }

        private void Read(long from, long to, long address)
        {
            int length = (int)(to - from);
            if (length > _capacity)
            {
                if (_buffer != null)
                    NativeMemory.AlignedFree(_buffer);
                _capacity = Math.Max(length, Chunk);
                _buffer = (byte*)NativeMemory.AlignedAlloc((nuint)_capacity, 4096);
            }
            uint error = log.Device.Read((ulong)from, new Span<byte>(_buffer, length));
            if (error != 0)
                throw new DeviceReadException(address, error);
        }

        public void Dispose()
        {
            if (_buffer != null)
                NativeMemory.AlignedFree(_buffer);
            _buffer = null;
        }
    }
}
