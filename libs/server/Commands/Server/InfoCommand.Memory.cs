using System;
using System.Globalization;

namespace Garnet.server;

/// <summary>
/// INFO's Memory section: Redis's fields where they apply, with <c>used_memory</c> what the memory budget counts
/// (log pages in memory, hash indexes, objects' heap), then the engine's own figures: the logs' regions, the hash
/// indexes, what the heads gave back or dropped, and each database's log addresses.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void AppendMemory(InfoBuilder info, ServerRuntimeState state)
    {
        var report = MemoryReport.Measure(_server);
        var total = report.Total;
        long used = report.Used;
        long peak = state.ObserveMemory(used);
        long rss = Environment.WorkingSet;
        long system = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
        var budget = report.Budget;
        info.Section("Memory");
        info.Line("used_memory", used);
        info.Line("used_memory_human", HumanBytes(used));
        info.Line("used_memory_rss", rss);
        info.Line("used_memory_rss_human", HumanBytes(rss));
        info.Line("used_memory_peak", peak);
        info.Line("used_memory_peak_human", HumanBytes(peak));
        info.Line("used_memory_overhead", total.IndexBytes);
        info.Line("used_memory_dataset", total.LogBytes + total.ObjectBytes + total.LargeValueBytes);
        info.Line("used_memory_objects", total.ObjectBytes);
        // Strings larger than a quarter of a page live in their own blocks, outside the log's pages.
        info.Line("used_memory_large_values", total.LargeValueBytes);
        info.Line("large_values", total.LargeValues);
        // The hash indexes of the databases in use: they start small and double as keys are added.
        info.Line("index_memory", total.IndexBytes);
        info.Line("index_buckets", total.Buckets);
        info.Line("index_overflow_buckets", total.OverflowBuckets);
        info.Line("index_entries", total.Entries);
        info.Line("index_fill", total.IndexFill.ToString("F2", CultureInfo.InvariantCulture));
        info.Line("index_resizes", total.Resizes);
        info.Line("total_system_memory", system);
        info.Line("total_system_memory_human", HumanBytes(system));
        info.Line("maxmemory", budget.Limit);
        info.Line("maxmemory_human", HumanBytes(budget.Limit));
        info.Line("maxmemory_policy", EvictionPolicyNames.NameOf(budget.Policy));
        // Every client is a normal one: there are no replicas to hold replication buffers.
        info.Line("mem_clients_slaves", 0);
        info.Line("mem_clients_normal", _server.Clients.Memory());
        info.Line("used_memory_log", total.LogBytes);
        info.Line("log_mutable_bytes", total.MutableBytes);
        info.Line("log_read_only_bytes", total.ReadOnlyBytes);
        info.Line("log_pages_in_memory", total.PagesInMemory);
        info.Line("log_pages_evicted", total.PagesEvicted);
        info.Line("log_records_copied_forward", total.RecordsCopiedForward);
        info.Line("log_bytes_reclaimed", report.ReclaimedBytes);
        info.Line("log_evicted_records", report.EvictedRecords);
        info.Line("log_expired_records", report.ExpiredRecords);
        info.Line("log_full_databases", total.FullLogs);
        // The storage tier: records that left memory stay on the log device and are read back when needed.
        info.Line("storage_tier", _server.Options.StorageTier ? 1 : 0);
        info.Line("log_disk_bytes", total.DiskBytes);
        info.Line("log_pending_reads", total.PendingReads);
        info.Line("log_device_read_errors", total.DeviceReadErrors);
        info.Line("log_reads_copied_to_tail", total.ReadsCopiedToTail);
        // The read cache: copies of records reads found on the device, in memory of their own (--readcache).
        info.Line("read_cache", _server.Options.ReadCache && _server.Options.StorageTier ? 1 : 0);
        info.Line("read_cache_bytes", total.ReadCacheBytes);
        info.Line("read_cache_hits", total.ReadCacheHits);
        info.Line("read_cache_misses", total.ReadCacheMisses);
        info.Line("read_cache_inserts", total.ReadCacheInserts);
        info.Line("read_cache_invalidations", total.ReadCacheInvalidations);
        info.Line("read_cache_evictions", total.ReadCacheEvictions);
        info.Line("read_cache_second_chances", total.ReadCacheSecondChances);
        info.Line("log_device_write_errors", total.FlushErrors);
        info.Line("log_compactions", total.Compactions);
        info.Line("log_records_compacted", total.RecordsCompacted);
        info.Line("log_compaction_failures", _server.CompactionFailures);
        // The managed heap's activity: collections pause the event loops, so a steady workload should not move these.
        info.Line("gc_heap_bytes", GC.GetTotalMemory(false));
        info.Line("gc_allocated_bytes", GC.GetTotalAllocatedBytes());
        info.Line("gc_gen0_collections", GC.CollectionCount(0));
        info.Line("gc_gen1_collections", GC.CollectionCount(1));
        info.Line("gc_gen2_collections", GC.CollectionCount(2));
        info.Line("gc_pause_time_ms", (long)GC.GetTotalPauseDuration().TotalMilliseconds);
        foreach (var (index, database) in report.Databases)
        {
            // Not "log_db0": tools tell whether a node holds keys by looking for "db0:" anywhere in INFO (redis-cli --cluster create).
            info.Line(string.Create(CultureInfo.InvariantCulture, $"db{index}_log"), string.Create(CultureInfo.InvariantCulture,
                $"begin={database.BeginAddress},head={database.HeadAddress},read_only={database.ReadOnlyAddress},tail={database.TailAddress},mutable_bytes={database.MutableBytes},read_only_bytes={database.ReadOnlyBytes},pages={database.PagesInMemory},full={database.FullLogs}"));
        }
    }
}
