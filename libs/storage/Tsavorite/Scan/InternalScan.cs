using System;

namespace Tsavorite;

/// <summary>
/// Scan: walk the in-memory log in address order and report each live record. The scan first waits
/// until every operation that started before it has finished (an epoch drain), so every record below
/// the tail it read is fully written; revivification pauses meanwhile so record sizes stay put.
/// </summary>
/// <remarks>
/// The start address may come from outside (a client's cursor), so it need not be a record start:
/// every size read from the log is checked against the end of its page before it is used, and a
/// position whose sizes do not fit skips to the next page. A record is only handed to the callback
/// once the hash chain of its key leads to its address, which only a real record satisfies.
/// With <see cref="ScanFlags.IncludeMovedPastEnd"/>, a record that does not report its key leaves it to a record
/// the scan has yet to meet, never to one it has passed: the scan cannot know how the key stood when it was there.
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    private const int ScanRecordsPerRefresh = 256;

    /// <summary>
    /// Reports live records in [<paramref name="fromAddress"/>, <paramref name="untilAddress"/>) (the
    /// tail when negative), and more as <paramref name="flags"/> asks. Returns the address to resume
    /// from: where the callback stopped, or the end. The caller must be epoch-protected.
    /// </summary>
    internal long InternalScan<TScanFunctions>(ref TScanFunctions functions, long fromAddress, long untilAddress, ScanFlags flags = ScanFlags.None, HeldLocks? held = null)
        where TScanFunctions : IScanFunctions
    {
        bool includeMoved = (flags & ScanFlags.IncludeMovedPastEnd) != 0;
        bool snapshot = (flags & ScanFlags.Snapshot) != 0;
        DeviceScanState? deviceScan = null;
        FreePool?.BeginScan();
        ScanGate.EnterScan(Epoch);
        ScanDepth++;
        try
        {
            long end = Log.TailAddress;
            if (untilAddress >= 0 && untilAddress < end)
                end = untilAddress;
            Epoch.SpinWaitForSafeToReclaim(Epoch.BumpCurrentEpoch() - 1);

            long address = Math.Max(fromAddress, Log.BeginAddress);
            int pageSize = Log.PageSize;
            int sinceRefresh = 0;
            while (address < end)
            {
                // The head may have passed the scan since its last refresh. Without the storage tier what it passed
                // is gone (copied forward to the tail, where the scan still meets it, or dropped); with it, that
                // part of the scan reads the device.
                long head = Log.HeadAddress;
                if (address < head)
                {
                    if (Log.StorageTier && address >= Log.BeginAddress)
                    {
                        address = ScanDevice(ref functions, ref deviceScan, address, Math.Min(head, end), end, flags, held, out bool stopped);
                        if (stopped)
                            return address;
                        continue;
                    }
                    address = head;
                    continue;
                }
                long pageEnd = Log.PageStart(address) + pageSize;
                if (address + RecordLayout.MinRecordSize > pageEnd)
                {
                    address = pageEnd;
                    continue;
                }
                var record = Log.GetRecord(address);
                if (record.Info.IsNull)
                {
                    address = pageEnd; // the unused end of a page
                    continue;
                }
                int room = (int)(pageEnd - address);
                int keyLength = record.KeyLength;
                if ((uint)keyLength > (uint)(room - RecordLayout.KeyOffset))
                {
                    address = pageEnd;
                    continue;
                }
                if (!record.Info.Valid && !(includeMoved && record.Info.Abandoned))
                {
                    // Invalid records are not changed by anyone while the scan runs, so their sizes are stable. This
                    // reads the header unlatched: a record that is being abandoned (which the moved-past-end check must
                    // see) loses its valid bit and gains its abandoned bit in one store (see RecordInfo.MarkAbandoned).
                    int skip = MeasureRecord(in record, keyLength, room);
                    address = skip > 0 ? address + skip : pageEnd;
                    continue;
                }

                if (snapshot && address < _snapshotBoundary && !record.Info.ValueIsObject && !record.Info.ValueIsExternal)
                {
                    // A record of the frozen version below the snapshot's boundary changes no more until the snapshot
                    // ends, and its value is its bytes: no latch is needed to measure or read it (see TsavoriteKV.Snapshot.cs).
                    int frozenSize = MeasureRecord(in record, keyLength, room);
                    if (frozenSize <= 0)
                    {
                        address = pageEnd;
                        continue;
                    }
                    if (!functions.OnRecord(in record, address))
                        return address + frozenSize;
                    address += frozenSize;
                    if (++sinceRefresh == ScanRecordsPerRefresh)
                    {
                        sinceRefresh = 0;
                        Epoch.ProtectAndDrain();
                    }
                    continue;
                }

                var key = new ReadOnlySpan<byte>((byte*)record.PhysicalAddress + RecordLayout.KeyOffset, keyLength);
                long hash = KeyHash.Hash(key);
                int size;
                bool stop = false;
                // Waiting refreshes the epoch; the record stays put meanwhile unless the head passes it (checked
                // under the latch), since reuse is paused.
                var bucket = Index.Locate(hash);
                bool latch = held == null || !held.Covers(bucket.Pointer, exclusive: false);
                // A resize moved the bucket while the latch was awaited: look it up again (see HashIndex).
                while (latch && !bucket.TryLatchShared(Epoch))
                {
                    bucket = Index.Locate(hash);
                    latch = held == null || !held.Covers(bucket.Pointer, exclusive: false);
                }
                try
                {
                    // Waiting refreshed the epoch, so the head may have passed the record meanwhile. The chains are then
                    // followed down to this head, not the current one: the head may pass the record again while it is
                    // reported (its memory stays readable until this thread refreshes), and a chain cut off at a newer
                    // head would not lead to it.
                    long scanHead = Log.HeadAddress;
                    if (address < scanHead)
                        continue;
                    // In-place updates change value lengths under the exclusive latch, so sizes are read under the shared one.
                    size = MeasureRecord(in record, keyLength, room);
                    if (size > 0)
                        stop = !ReportScanned(ref functions, in record, key, hash, bucket.Pointer, address, end, scanHead, flags);
                }
                finally
                {
                    if (latch)
                        HashBucket.ReleaseShared(bucket.Pointer);
                }
                if (size <= 0)
                {
                    address = pageEnd;
                    continue;
                }
                address += size;
                if (stop)
                    return address;
                if (++sinceRefresh == ScanRecordsPerRefresh)
                {
                    sinceRefresh = 0;
                    Epoch.ProtectAndDrain();
                }
            }
            return Math.Max(address, end);
        }
        finally
        {
            ScanDepth--;
            ScanGate.ExitScan();
            FreePool?.EndScan();
            deviceScan?.Dispose();
        }
    }

    /// <summary>
    /// Hands the record at <paramref name="address"/> (or, for a key that moved past the end, its
    /// newest record) to the callback if the flags call for it. Returns false when the callback asks
    /// to stop. The key's bucket latch is held; chains are followed down to <paramref name="head"/>.
    /// </summary>
    private bool ReportScanned<TScanFunctions>(ref TScanFunctions functions, in LogRecord record, ReadOnlySpan<byte> key, long hash, long* bucket,
        long address, long end, long head, ScanFlags flags)
        where TScanFunctions : IScanFunctions
    {
        if ((flags & ScanFlags.Snapshot) != 0)
            return !record.Info.Valid || !InSnapshot(address, record.Info) || functions.OnRecord(in record, address);
        bool includeExpired = (flags & ScanFlags.IncludeExpired) != 0;
        bool live = record.Info.Valid && !record.Info.Tombstone;
        if ((flags & ScanFlags.IncludeMovedPastEnd) == 0)
        {
            if (live && (includeExpired || !IsExpired(in record)) && NewestAddress(key, hash, bucket, head) == address)
                return functions.OnRecord(in record, address);
            return true;
        }

        if (record.Info.Valid && record.Info.Tombstone)
            return true; // the key was deleted here; a later version is a new key
        long newest = NewestAddress(key, hash, bucket, head);
        if (newest == address)
            return live && (includeExpired || !IsExpired(in record)) ? functions.OnRecord(in record, address) : true;
        if (newest < end)
            return true; // the newest version is (or was) in the scanned range and is reported there
        // The key moved past the end. Its newest record below the end, if valid, reports it: that record is no
        // longer the key's newest, so it stays valid and in the chain until the scan meets it. An abandoned copy
        // reports it unless that record still lies ahead. One the scan passed does not count: the key may have
        // been left then to a newer record below the end that the move has since abandoned (this one, perhaps).
        // A key may so be reported twice, and from each of several abandoned copies.
        long newestBelowEnd = NewestBelow(key, newest, end, head);
        if (record.Info.Valid ? newestBelowEnd != address : newestBelowEnd > address)
            return true;
        var latest = Log.GetRecord(newest);
        if (latest.Info.Tombstone || (!includeExpired && IsExpired(in latest)))
            return true;
        return functions.OnRecord(in latest, newest);
    }

    /// <summary>The newest record of <paramref name="key"/> below <paramref name="end"/> in the chain from <paramref name="address"/>, or 0.</summary>
    private long NewestBelow(ReadOnlySpan<byte> key, long address, long end, long head)
    {
        while (address >= end)
            address = TraceBackTo(key, Log.GetRecord(address).Info.PreviousAddress, head);
        return address;
    }

    /// <summary>The address of the newest record of <paramref name="key"/> in memory, or 0 if there is none. The bucket latch is held.</summary>
    private long NewestAddress(ReadOnlySpan<byte> key, long hash, long* bucket, long head)
    {
        long* entry = Index.FindTag(bucket, HashBucketEntry.TagOf(hash));
        return entry == null ? 0 : TraceBackTo(key, new HashBucketEntry(*entry).Address, head);
    }

    /// <summary>
    /// As <see cref="TraceBack(ReadOnlySpan{byte}, long, out LogRecord)"/>, down to a head the scan read earlier: the records
    /// between it and the current head are still readable, since the scanning thread has not refreshed its epoch since.
    /// </summary>
    private long TraceBackTo(ReadOnlySpan<byte> key, long address, long head)
    {
        while (address >= head)
        {
            var candidate = Log.GetRecord(address);
            if (candidate.KeyLength == key.Length && candidate.Key.SequenceEqual(key) && !candidate.Info.Abandoned)
                return address;
            address = candidate.Info.PreviousAddress;
        }
        return 0;
    }

    /// <summary>
    /// The allocated size of a record that may start at <paramref name="record"/>, with
    /// <paramref name="room"/> bytes left in its page; -1 for the unused end of a page or sizes that do not fit.
    /// </summary>
    internal static int MeasureRecordAt(in LogRecord record, int room)
    {
        if (record.Info.IsNull)
            return -1;
        int keyLength = record.KeyLength;
        return (uint)keyLength > (uint)(room - RecordLayout.KeyOffset) ? -1 : MeasureRecord(in record, keyLength, room);
    }

    /// <summary>
    /// The allocated size of the record at <paramref name="record"/> with a key of
    /// <paramref name="keyLength"/> bytes, or -1 if its sizes do not fit in the <paramref name="room"/>
    /// bytes left in its page (the position is not a record start). Reads nothing beyond that room.
    /// </summary>
    private static int MeasureRecord(in LogRecord record, int keyLength, int room)
    {
        byte* start = (byte*)record.PhysicalAddress;
        int valueOffset = RecordLayout.ValueOffset(keyLength);
        if (valueOffset > room)
            return -1;
        int valueLength = *(int*)(start + valueOffset - 4);
        if ((uint)valueLength > (uint)(room - valueOffset))
            return -1;
        var info = record.Info;
        int used = RecordLayout.UsedSize(keyLength, valueLength, info.HasETag, info.HasExpiration);
        if (used > room)
            return -1;
        if (!info.HasFiller)
            return used;
        if (used + sizeof(int) > room)
            return -1;
        int filler = *(int*)(start + used);
        if (filler <= 0 || filler > room - used)
            return -1;
        return used + filler;
    }
}
