using System;

namespace Tsavorite;

/// <summary>
/// Scan: walk the in-memory log in address order and report each live record. The scan first waits
/// until every operation that started before it has finished (an epoch drain), so every record below
/// the tail it read is fully written; revivification pauses meanwhile so record sizes stay put.
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    private const int ScanRecordsPerRefresh = 256;

    /// <summary>
    /// Reports live records in [<paramref name="fromAddress"/>, <paramref name="untilAddress"/>) (the
    /// tail when negative). Returns the address to resume from: where the callback stopped, or the end.
    /// The caller must be epoch-protected.
    /// </summary>
    internal long InternalScan<TScanFunctions>(ref TScanFunctions functions, long fromAddress, long untilAddress)
        where TScanFunctions : IScanFunctions
    {
        FreePool?.BeginScan();
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
                if (!record.Info.Valid)
                {
                    address += record.AllocatedSize;
                    continue;
                }

                long hash = KeyHash.Hash(record.Key);
                long* bucket = Index.BucketOf(hash);
                int size;
                bool stop = false;
                // Waiting refreshes the epoch; the record stays put meanwhile, since reuse is paused and pages stay in memory.
                HashBucket.AcquireShared(bucket, Epoch);
                try
                {
                    size = record.AllocatedSize;
                    if (record.Info.Valid && !record.Info.Tombstone && !IsExpired(in record) && IsNewestVersion(record.Key, hash, bucket, address))
                        stop = !functions.OnRecord(in record, address);
                }
                finally
                {
                    HashBucket.ReleaseShared(bucket);
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
            FreePool?.EndScan();
        }
    }

    private bool IsNewestVersion(ReadOnlySpan<byte> key, long hash, long* bucket, long address)
    {
        long* entry = Index.FindTag(bucket, HashBucketEntry.TagOf(hash));
        return entry != null && TraceBack(key, new HashBucketEntry(*entry).Address, out _) == address;
    }
}
