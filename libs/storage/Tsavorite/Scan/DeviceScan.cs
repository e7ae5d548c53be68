using System;
using System.Runtime.InteropServices;

namespace Tsavorite;

/// <summary>
/// The part of a scan below the head of the log, with the storage tier: the device is read in chunks, and a record
/// there is reported when its key's chain, followed through memory and then the device, leads to it.
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    /// <summary>Bytes of the device a scan reads at once; a larger record is read whole.</summary>
    private const int DeviceScanChunk = 64 * 1024;

    /// <summary>What a scan of the device holds between chunks: the chunk and the reader of chains.</summary>
    private sealed class DeviceScanState : IDisposable
    {
        public byte* Chunk;
        public int Capacity;
        public readonly PendingRecordRead Chain = new();

        public void Ensure(int length)
        {
            if (length <= Capacity)
                return;
            if (Chunk != null)
                NativeMemory.AlignedFree(Chunk);
            Capacity = Math.Max(length, DeviceScanChunk);
            Chunk = (byte*)NativeMemory.AlignedAlloc((nuint)Capacity, 4096);
        }

        public void Dispose()
        {
            if (Chunk != null)
                NativeMemory.AlignedFree(Chunk);
            Chunk = null;
            Chain.Dispose();
        }
    }

    /// <summary>
    /// Reports the live records of [<paramref name="address"/>, <paramref name="until"/>), which lie on the device.
    /// Returns where to go on: <paramref name="until"/>, or the address after the record the callback stopped at
    /// (<paramref name="stopped"/>). A device error ends the scan with <see cref="DeviceReadException"/>.
    /// </summary>
    private long ScanDevice<TScanFunctions>(ref TScanFunctions functions, ref DeviceScanState? state, long address, long until, long end, ScanFlags flags,
        HeldLocks? held, out bool stopped)
        where TScanFunctions : IScanFunctions
    {
        stopped = false;
        state ??= new DeviceScanState();
        long sector = Math.Max(1u, Log.Device.SectorSize);
        int sinceRefresh = 0;
        while (address < until)
        {
            // Compaction may have moved the begin address since the last refresh (the files below it go only once
            // this thread has refreshed since).
            address = Math.Max(address, Log.BeginAddress);
            if (address >= until)
                break;
            long pageEnd = Log.PageStart(address) + Log.PageSize;
            if (address + RecordLayout.MinRecordSize > pageEnd)
            {
                address = pageEnd;
                continue;
            }
            // A chunk from the next record on; one that holds not even that record is read again up to the page's end.
            long chunkStart = Alignment.RoundDown(address, sector);
            long chunkEnd = Math.Min(pageEnd, chunkStart + DeviceScanChunk);
            ReadChunk(state, chunkStart, chunkEnd, address);
            long chunkFirst = address;
            while (address < until && address + RecordLayout.MinRecordSize <= chunkEnd)
            {
                var record = new LogRecord(state.Chunk + (address - chunkStart));
                if (record.Info.IsNull)
                {
                    address = pageEnd; // the unused end of a page
                    break;
                }
                int size = MeasureRecordAt(in record, (int)(chunkEnd - address));
                if (size <= 0)
                {
                    if (chunkEnd == pageEnd)
                    {
                        address = pageEnd; // sizes that do not fit the page: not a record start
                        break;
                    }
                    if (address != chunkFirst)
                        break; // the next chunk starts at this record
                    chunkEnd = pageEnd;
                    ReadChunk(state, chunkStart, chunkEnd, address);
                    continue;
                }
                if (record.Info.Valid && !ReportScannedOnDevice(ref functions, state, in record, address, end, flags, held))
                {
                    stopped = true;
                    return address + size;
                }
                address += size;
                if (++sinceRefresh == ScanRecordsPerRefresh)
                {
                    sinceRefresh = 0;
                    Epoch.ProtectAndDrain();
                }
            }
        }
        return address;
    }

    /// <summary>Reads [<paramref name="from"/>, <paramref name="to"/>) of the device into the chunk.</summary>
    private void ReadChunk(DeviceScanState state, long from, long to, long address)
    {
        state.Ensure((int)(to - from));
        uint error;
        using (BlockingReads.Begin())
            error = Log.Device.Read((ulong)from, new Span<byte>(state.Chunk, (int)(to - from)));
        if (error == 0)
            return;
        CountDeviceReadError();
        throw new DeviceReadException(address, error);
    }

    /// <summary>
    /// Hands a record read from the device to the callback if it is its key's newest (found by following the key's
    /// chain under the bucket's shared latch) and live, as <see cref="ScanFlags"/> asks. False when the callback stops.
    /// </summary>
    private bool ReportScannedOnDevice<TScanFunctions>(ref TScanFunctions functions, DeviceScanState state, in LogRecord record, long address, long end,
        ScanFlags flags, HeldLocks? held)
        where TScanFunctions : IScanFunctions
    {
        // The device holds only records written before the snapshot began, which nothing changes.
        if ((flags & ScanFlags.Snapshot) != 0)
            return !InSnapshot(address, record.Info) || ReportSnapshotRecordOnDevice(ref functions, in record, address);
        if (record.Info.Tombstone)
            return true;
        var key = record.Key;
        long hash = KeyHash.Hash(key);
        var bucket = Index.Locate(hash);
        bool latch = held == null || !held.Covers(bucket.Pointer, exclusive: false);
        while (latch && !bucket.TryLatchShared(Epoch))
        {
            bucket = Index.Locate(hash);
            latch = held == null || !held.Covers(bucket.Pointer, exclusive: false);
        }
        try
        {
            long* entry = Index.FindTag(bucket.Pointer, HashBucketEntry.TagOf(hash));
            if (entry == null)
                return true;
            long inMemory = TraceBack(key, new HashBucketEntry(*entry).Address, out var latest, out long onDisk);
            if (inMemory != 0)
            {
                // A newer record in memory: the scan meets it there, unless it moved past the end while the scan ran.
                if ((flags & ScanFlags.IncludeMovedPastEnd) == 0 || inMemory < end || latest.Info.Tombstone)
                    return true;
                bool liveLatest = (flags & ScanFlags.IncludeExpired) != 0 || !IsExpired(in latest);
                return !liveLatest || functions.OnRecord(in latest, inMemory);
            }
            if (onDisk < address)
                return true; // the chain no longer reaches this record
            state.Chain.Request(onDisk);
            uint error = state.Chain.Fetch(Log, key);
            if (error != 0)
            {
                CountDeviceReadError();
                throw new DeviceReadException(onDisk, error);
            }
            if (!state.Chain.Found || state.Chain.FoundAddress != address)
                return true;
            if ((flags & ScanFlags.IncludeExpired) == 0 && IsExpired(in record))
                return true;
            // An out-of-line value's block pointer is stale too: a scan is handed the record without the value.
            if (record.Info.ValueIsExternal)
                ExternalValue.ForgetStalePointer(record.ExternalDescriptor);
            if (record.Info.ValueIsObject)
            {
                // The copy's object reference is stale: a scan is handed the record without its object.
                var copy = record;
                Log.ObjectSerializer?.OnReadBack(ref copy, Log.ObjectLog, load: false);
            }
            return functions.OnRecord(in record, address);
        }
        finally
        {
            if (latch)
                HashBucket.ReleaseShared(bucket.Pointer);
        }
    }

    /// <summary>
    /// Hands a snapshot's record read from the device to the callback with its value: an out-of-line value's block
    /// pointer is stale, so the bytes are read back from the object log into a block of the copy's own for the call.
    /// </summary>
    private bool ReportSnapshotRecordOnDevice<TScanFunctions>(ref TScanFunctions functions, in LogRecord record, long address)
        where TScanFunctions : IScanFunctions
    {
        if (!record.Info.ValueIsExternal)
            return functions.OnRecord(in record, address);
        var copy = record;
        if (record.Info.Tombstone)
        {
            ExternalValue.ForgetStalePointer(copy.ExternalDescriptor);
            return functions.OnRecord(in copy, address);
        }
        if (!Log.LoadExternalValue(ref copy))
        {
            CountDeviceReadError();
            throw new DeviceReadException(address, 0);
        }
        try
        {
            return functions.OnRecord(in copy, address);
        }
        finally
        {
            Log.ReleaseExternal(in copy);
        }
    }
}
