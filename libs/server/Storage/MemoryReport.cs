using System;
using System.Collections.Generic;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The memory figures that INFO memory, MEMORY STATS and MEMORY DOCTOR report, read once per command. The totals are
/// over every store the memory budget counts (flushed databases not yet freed included), with each store's three parts
/// read once, so <see cref="Used"/> is <see cref="MemoryBudget.Used"/> as of the read; the per-database figures are for
/// the databases in use.
/// </summary>
internal sealed class MemoryReport
{
    private MemoryReport(MemoryBudget budget)
    {
        Budget = budget;
        ReclaimedBytes = budget.ReclaimedBytes;
        EvictedRecords = budget.EvictedRecords;
        ExpiredRecords = budget.ExpiredRecords;
    }

    /// <summary>The budget the figures were read from (maxmemory and the policy).</summary>
    public MemoryBudget Budget { get; }

    /// <summary>Every store under the budget, summed.</summary>
    public StoreFigures Total;

    /// <summary>What the budget counts: log pages in memory, hash indexes, objects' heap and large values' blocks (INFO's used_memory).</summary>
    public long Used => Total.LogBytes + Total.IndexBytes + Total.ObjectBytes + Total.LargeValueBytes;

    /// <summary>Bytes of log pages the heads gave back, less what was copied forward (<see cref="MemoryBudget.ReclaimedBytes"/>).</summary>
    public long ReclaimedBytes { get; }

    /// <summary>Live records the eviction policy dropped.</summary>
    public long EvictedRecords { get; }

    /// <summary>Expired records dropped at the head of a log.</summary>
    public long ExpiredRecords { get; }

    /// <summary>The databases in use, by number.</summary>
    public List<(int Index, StoreFigures Figures)> Databases { get; } = new();

    /// <summary>Reads the figures of <paramref name="server"/>'s stores.</summary>
    public static MemoryReport Measure(StoreWrapper server)
    {
        var report = new MemoryReport(server.MemoryBudget);
        foreach (var store in server.MemoryBudget.Stores)
            report.Total.Add(StoreFigures.Of(store));
        for (int i = 0; i < server.DatabaseCount; i++)
        {
            var database = server.PeekDatabase(i);
            if (database != null)
                report.Databases.Add((i, StoreFigures.Of(database.MainStore, database.Objects)));
        }
        return report;
    }
}

/// <summary>One store's memory figures (or a sum of them: addresses are then meaningless and left 0).</summary>
internal struct StoreFigures
{
    public long BeginAddress;
    public long HeadAddress;
    public long ReadOnlyAddress;
    public long TailAddress;

    /// <summary>Bytes of [read-only, tail): records updated in place.</summary>
    public long MutableBytes;

    /// <summary>Bytes of [head, read-only): in memory, updates copy them to the tail.</summary>
    public long ReadOnlyBytes;
    public long PagesInMemory;
    public long LogBytes;
    public long IndexBytes;
    public long Buckets;
    public long MaxBuckets;
    public long OverflowBuckets;
    public long Entries;
    public long Resizes;
    public long PagesEvicted;
    public long RecordsCopiedForward;
    public long PageBytesEvicted;
    public long Objects;
    public long ObjectBytes;

    /// <summary>String values kept out of line, larger than a quarter of a page (see <see cref="Tsavorite.ExternalValue"/>), and their bytes.</summary>
    public long LargeValues;
    public long LargeValueBytes;
    public long FullLogs;
    public long HeadMoverErrors;
    public long FlushErrors;

    /// <summary>Bytes of [begin, head): records only on the device (the storage tier).</summary>
    public long DiskBytes;

    /// <summary>Times an operation read its key's chain back from the device.</summary>
    public long PendingReads;
    public long DeviceReadErrors;
    public long Compactions;
    public long ReadsCopiedToTail;
    public long RecordsCompacted;

    /// <summary>The read cache (--readcache): bytes of its pages, reads it served, reads that went on to the device, copies made, dropped by writes, evicted, given a second chance.</summary>
    public long ReadCacheBytes;
    public long ReadCacheHits;
    public long ReadCacheMisses;
    public long ReadCacheInserts;
    public long ReadCacheInvalidations;
    public long ReadCacheEvictions;
    public long ReadCacheSecondChances;

    /// <summary>Fraction of the index's entries in use (entries / (buckets × 7)).</summary>
    public readonly double IndexFill => Buckets == 0 ? 0 : (double)Entries / (Buckets * TsavoriteKV.EntriesPerBucket);

    public static StoreFigures Of(TsavoriteKV store, ObjectTable? objects = null)
    {
        var log = store.Log;
        long begin = log.BeginAddress;
        long head = log.HeadAddress;
        long readOnly = Math.Max(head, log.ReadOnlyAddress);
        long tail = Math.Max(readOnly, log.TailAddress);
        long pagesEvicted = store.PagesEvicted;
        return new StoreFigures
        {
            BeginAddress = begin,
            HeadAddress = head,
            ReadOnlyAddress = readOnly,
            TailAddress = tail,
            MutableBytes = tail - readOnly,
            ReadOnlyBytes = readOnly - head,
            PagesInMemory = log.NeverWritten ? 0 : log.PagesInMemory,
            LogBytes = log.InMemoryBytes,
            IndexBytes = store.IndexBytes,
            Buckets = store.IndexBucketCount,
            MaxBuckets = store.IndexMaxBucketCount,
            OverflowBuckets = store.OverflowBucketCount,
            Entries = store.IndexEntryCount,
            Resizes = store.IndexResizeCount,
            PagesEvicted = pagesEvicted,
            RecordsCopiedForward = store.RecordsCopiedForward,
            PageBytesEvicted = pagesEvicted << log.PageSizeBits,
            Objects = objects?.Count ?? 0,
            ObjectBytes = store.ExternalMemorySize?.Invoke() ?? 0,
            LargeValues = log.ExternalCount,
            LargeValueBytes = log.ExternalBytes,
            FullLogs = log.IsFull ? 1 : 0,
            HeadMoverErrors = store.HeadMoverErrors,
            FlushErrors = log.FlushErrors,
            DiskBytes = head - begin,
            PendingReads = store.PendingReads,
            DeviceReadErrors = store.DeviceReadErrors,
            Compactions = store.Compactions,
            ReadsCopiedToTail = store.ReadsCopiedToTail,
            RecordsCompacted = store.RecordsCompacted,
            ReadCacheBytes = store.ReadCacheMemoryBytes,
            ReadCacheHits = store.ReadCacheHits,
            ReadCacheMisses = store.ReadCacheMisses,
            ReadCacheInserts = store.ReadCacheInserts,
            ReadCacheInvalidations = store.ReadCacheInvalidations,
            ReadCacheEvictions = store.ReadCacheEvictions,
            ReadCacheSecondChances = store.ReadCacheSecondChances,
        };
    }

    /// <summary>Adds <paramref name="other"/>'s sizes and counts (not its addresses).</summary>
    public void Add(in StoreFigures other)
    {
        MutableBytes += other.MutableBytes;
        ReadOnlyBytes += other.ReadOnlyBytes;
        PagesInMemory += other.PagesInMemory;
        LogBytes += other.LogBytes;
        IndexBytes += other.IndexBytes;
        Buckets += other.Buckets;
        MaxBuckets += other.MaxBuckets;
        OverflowBuckets += other.OverflowBuckets;
        Entries += other.Entries;
        Resizes += other.Resizes;
        PagesEvicted += other.PagesEvicted;
        RecordsCopiedForward += other.RecordsCopiedForward;
        PageBytesEvicted += other.PageBytesEvicted;
        Objects += other.Objects;
        ObjectBytes += other.ObjectBytes;
        LargeValues += other.LargeValues;
        LargeValueBytes += other.LargeValueBytes;
        FullLogs += other.FullLogs;
        HeadMoverErrors += other.HeadMoverErrors;
        FlushErrors += other.FlushErrors;
        DiskBytes += other.DiskBytes;
        PendingReads += other.PendingReads;
        DeviceReadErrors += other.DeviceReadErrors;
        Compactions += other.Compactions;
        ReadsCopiedToTail += other.ReadsCopiedToTail;
        RecordsCompacted += other.RecordsCompacted;
        ReadCacheBytes += other.ReadCacheBytes;
        ReadCacheHits += other.ReadCacheHits;
        ReadCacheMisses += other.ReadCacheMisses;
        ReadCacheInserts += other.ReadCacheInserts;
        ReadCacheInvalidations += other.ReadCacheInvalidations;
        ReadCacheEvictions += other.ReadCacheEvictions;
        ReadCacheSecondChances += other.ReadCacheSecondChances;
    }
}
