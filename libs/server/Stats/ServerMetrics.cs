using System;
using System.Diagnostics;
using System.Globalization;

namespace Garnet.server;

/// <summary>
/// INFO's numeric fields as metrics, read when they are asked for (a scrape), not kept up to date on the command
/// path. The names follow INFO's field names (<c>connected_clients</c>, <c>total_commands_processed_total</c>,
/// <c>used_memory_bytes</c>), with the unit and, for counters, <c>_total</c> added; fields that are text (versions,
/// ids, policy names) or fixed for this server (replication, cluster, modules) are left out.
/// </summary>
public static class ServerMetrics
{
    /// <summary>Reads <paramref name="server"/>'s figures into <paramref name="writer"/>. Runs outside any session (not epoch-protected).</summary>
    public static void Collect(StoreWrapper server, IServerMetricsWriter writer)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(writer);
        CollectServerAndClients(server, writer);
        CollectMemory(server, writer);
        CollectPersistence(server, writer);
        CollectStats(server, writer);
        CollectCommandCalls(server, writer);
        CollectKeyspace(server, writer);
    }

    private static void CollectServerAndClients(StoreWrapper server, IServerMetricsWriter writer)
    {
        writer.Gauge("uptime_seconds", "Seconds since the server started (INFO uptime_in_seconds).", (DateTimeOffset.UtcNow - server.StartTime).TotalSeconds);
        writer.Gauge("connected_clients", "Clients connected now.", server.Clients.Count);
        writer.Gauge("maxclients", "Most clients that may be connected at once.", server.ClientLimits.MaxClients);
        writer.Gauge("blocked_clients", "Clients waiting in a blocking command.", server.Blocking.BlockedClients);
        var (largestInput, largestOutput) = server.Clients.LargestBuffers();
        writer.Gauge("client_recent_max_input_buffer_bytes", "Largest input buffer of any client now.", largestInput);
        writer.Gauge("client_recent_max_output_buffer_bytes", "Most unread reply bytes of any client now.", largestOutput);
        using var process = Process.GetCurrentProcess();
        writer.Counter("used_cpu_sys_seconds_total", "CPU time the server spent in the kernel.", process.PrivilegedProcessorTime.TotalSeconds);
        writer.Counter("used_cpu_user_seconds_total", "CPU time the server spent in user mode.", process.UserProcessorTime.TotalSeconds);
    }

    /// <summary>INFO memory and MEMORY STATS: what the budget counts, the logs' regions, the hash indexes, and the managed heap.</summary>
    private static void CollectMemory(StoreWrapper server, IServerMetricsWriter writer)
    {
        var report = MemoryReport.Measure(server);
        var total = report.Total;
        long used = report.Used;
        writer.Gauge("used_memory_bytes", "What the memory budget counts: log pages in memory, hash indexes and objects' heap.", used);
        writer.Gauge("used_memory_peak_bytes", "Highest used_memory seen.", ServerRuntimeState.Of(server).ObserveMemory(used));
        writer.Gauge("used_memory_rss_bytes", "The process's working set.", Environment.WorkingSet);
        writer.Gauge("used_memory_objects_bytes", "Heap bytes of the objects (lists, hashes, sets...) the databases hold.", total.ObjectBytes);
        writer.Gauge("used_memory_log_bytes", "Bytes of log pages in memory.", total.LogBytes);
        writer.Gauge("maxmemory_bytes", "The memory budget (0: no limit beyond the log size).", report.Budget.Limit);
        writer.Gauge("total_system_memory_bytes", "Memory available to the process.", GC.GetGCMemoryInfo().TotalAvailableMemoryBytes);

        writer.Gauge("index_memory_bytes", "Bytes of the databases' hash indexes.", total.IndexBytes);
        writer.Gauge("index_buckets", "Buckets of the hash indexes.", total.Buckets);
        writer.Gauge("index_overflow_buckets", "Overflow buckets chained to the hash indexes' buckets.", total.OverflowBuckets);
        writer.Gauge("index_entries", "Entries in use in the hash indexes.", total.Entries);
        writer.Gauge("index_fill_ratio", "Fraction of the hash indexes' entries in use.", total.IndexFill);
        writer.Counter("index_resizes_total", "Times a hash index doubled.", total.Resizes);

        writer.Gauge("log_mutable_bytes", "Bytes of the logs' mutable regions (records updated in place).", total.MutableBytes);
        writer.Gauge("log_read_only_bytes", "Bytes of the logs' read-only regions in memory (updates copy records to the tail).", total.ReadOnlyBytes);
        writer.Gauge("log_pages_in_memory", "Log pages in memory.", total.PagesInMemory);
        writer.Gauge("log_full_databases", "Databases whose log is full.", total.FullLogs);
        writer.Counter("log_pages_evicted_total", "Log pages the heads moved past.", total.PagesEvicted);
        writer.Counter("log_records_copied_forward_total", "Records copied to the tail as the heads moved.", total.RecordsCopiedForward);
        writer.Counter("log_bytes_reclaimed_total", "Bytes of log pages the heads gave back, less what was copied forward.", report.ReclaimedBytes);
        writer.Counter("log_evicted_records_total", "Live records the eviction policy dropped.", report.EvictedRecords);
        writer.Counter("log_expired_records_total", "Expired records dropped at the head of a log.", report.ExpiredRecords);
        foreach (var (index, database) in report.Databases)
        {
            string db = index.ToString(CultureInfo.InvariantCulture);
            writer.Gauge("log_begin_address", "Begin address of a database's log.", database.BeginAddress, "db", db);
            writer.Gauge("log_head_address", "Head address of a database's log (below it, records are not in memory).", database.HeadAddress, "db", db);
            writer.Gauge("log_read_only_address", "Read-only address of a database's log (below it, updates copy records).", database.ReadOnlyAddress, "db", db);
            writer.Gauge("log_tail_address", "Tail address of a database's log.", database.TailAddress, "db", db);
            writer.Gauge("log_database_pages_in_memory", "Log pages in memory of a database.", database.PagesInMemory, "db", db);
        }

        writer.Gauge("gc_heap_bytes", "Bytes of the managed heap in use.", GC.GetTotalMemory(false));
        writer.Counter("gc_allocated_bytes_total", "Bytes allocated on the managed heap.", GC.GetTotalAllocatedBytes());
        for (int generation = 0; generation <= 2; generation++)
            writer.Counter("gc_collections_total", "Garbage collections, by generation.", GC.CollectionCount(generation), "generation", generation.ToString(CultureInfo.InvariantCulture));
        writer.Counter("gc_pause_seconds_total", "Time the garbage collector paused the process.", GC.GetTotalPauseDuration().TotalSeconds);
    }

    /// <summary>
    /// INFO persistence: saves run in the foreground and there is no AOF or background loading, so INFO's other
    /// persistence fields are fixed (0, "ok") and only the time of the last save varies.
    /// </summary>
    private static void CollectPersistence(StoreWrapper server, IServerMetricsWriter writer)
        => writer.Gauge("rdb_last_save_timestamp_seconds", "Unix time of the last successful save (the start time if none).", server.LastSaveUnixSeconds);

    private static void CollectStats(StoreWrapper server, IServerMetricsWriter writer)
    {
        var statistics = server.Statistics;
        writer.Counter("total_connections_received_total", "Connections accepted.", statistics.ConnectionsReceived);
        writer.Counter("total_commands_processed_total", "Commands run.", statistics.CommandsProcessed);
        writer.Counter("rejected_connections_total", "Connections refused (maxclients).", statistics.RejectedConnections);
        writer.Counter("client_query_buffer_limit_disconnections_total", "Clients closed for passing client-query-buffer-limit.", statistics.QueryBufferLimitDisconnections);
        writer.Counter("client_output_buffer_limit_disconnections_total", "Clients closed for passing client-output-buffer-limit.", server.ClientLimits.OutputLimitDisconnections);
        writer.Counter("expired_keys_total", "Keys deleted because they expired.", statistics.ExpiredKeys + server.MemoryBudget.ExpiredRecords);
        writer.Counter("evicted_keys_total", "Keys the eviction policy dropped (maxmemory).", server.MemoryBudget.EvictedRecords);
        writer.Counter("evicted_clients_total", "Clients disconnected by client eviction (maxmemory-clients).", server.ClientEviction.Evicted);
        writer.Counter("keyspace_hits_total", "Key lookups that found the key.", statistics.KeyspaceHits);
        writer.Counter("keyspace_misses_total", "Key lookups that did not find the key.", statistics.KeyspaceMisses);
        writer.Gauge("pubsub_channels", "Channels with subscribers.", server.PubSub.ChannelCount);
        writer.Gauge("pubsub_patterns", "Patterns with subscribers.", server.PubSub.PatternCount);
        writer.Counter("acl_access_denied_auth_total", "Failed authentications.", statistics.AclDeniedAuth);
        writer.Counter("acl_access_denied_cmd_total", "Commands refused by ACL.", statistics.AclDeniedCommand);
        writer.Counter("acl_access_denied_key_total", "Commands refused by ACL for a key.", statistics.AclDeniedKey);
        writer.Counter("acl_access_denied_channel_total", "Commands refused by ACL for a channel.", statistics.AclDeniedChannel);
    }

    /// <summary>INFO commandstats' calls, for the commands called at least once.</summary>
    private static void CollectCommandCalls(StoreWrapper server, IServerMetricsWriter writer)
    {
        const string Name = "commands_calls_total";
        const string Help = "Calls of a command, counting those run by EXEC and by scripts (INFO commandstats).";
        foreach (var command in CommandTable.All)
        {
            long calls = server.Statistics.CommandCalls(command.Command);
            if (calls > 0)
                writer.Counter(Name, Help, calls, "command", command.LowerName);
        }
        foreach (var command in server.Extensions.All)
        {
            long calls = server.Statistics.CommandCalls(command.Command);
            if (calls > 0)
                writer.Counter(Name, Help, calls, "command", command.LowerName);
        }
    }

    /// <summary>INFO keyspace: each database holding keys (see <see cref="KeyspaceCounts"/>).</summary>
    private static void CollectKeyspace(StoreWrapper server, IServerMetricsWriter writer)
    {
        for (int i = 0; i < server.DatabaseCount; i++)
        {
            var counts = KeyspaceCounts.Count(server, i);
            if (counts.Keys == 0)
                continue;
            string db = i.ToString(CultureInfo.InvariantCulture);
            writer.Gauge("keyspace_keys", "Live keys of a database.", counts.Keys, "db", db);
            writer.Gauge("keyspace_expires", "Keys of a database with an expiration.", counts.Expires, "db", db);
            writer.Gauge("keyspace_avg_ttl_seconds", "Average remaining time to live of a database's keys that expire.", counts.AverageTtlMilliseconds / 1000.0, "db", db);
        }
    }
}
