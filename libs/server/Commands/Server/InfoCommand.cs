using System;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;

namespace Garnet.server;

/// <summary>
/// INFO [section ...]: "# Section" blocks of "field:value" lines in Redis's format and order. The
/// counters are real; fields for features this server lacks (replicas, AOF, modules) show the
/// values Redis shows when they are off.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    [Flags]
    private enum InfoSections
    {
        None = 0,
        Server = 1 << 0,
        Clients = 1 << 1,
        Memory = 1 << 2,
        Persistence = 1 << 3,
        Stats = 1 << 4,
        Replication = 1 << 5,
        Cpu = 1 << 6,
        Modules = 1 << 7,
        CommandStats = 1 << 8,
        Cluster = 1 << 9,
        Keyspace = 1 << 10,
        ErrorStats = 1 << 11,
        LatencyStats = 1 << 12,
        Default = Server | Clients | Memory | Persistence | Stats | Replication | Cpu | Modules | ErrorStats | Cluster | Keyspace,
        All = Default | CommandStats | LatencyStats,
    }

    private void Info()
    {
        var sections = InfoSections.None;
        if (_argCount == 1)
            sections = InfoSections.Default;
        for (int i = 1; i < _argCount; i++)
            sections |= ParseInfoSection(_args[i]);
        _writer.WriteVerbatim(Encoding.UTF8.GetBytes(BuildInfo(sections)));
    }

    private static InfoSections ParseInfoSection(in ArgSlice name)
    {
        if (name.EqualsUpper("DEFAULT"u8))
            return InfoSections.Default;
        if (name.EqualsUpper("ALL"u8) || name.EqualsUpper("EVERYTHING"u8))
            return InfoSections.All;
        if (name.EqualsUpper("SERVER"u8))
            return InfoSections.Server;
        if (name.EqualsUpper("CLIENTS"u8))
            return InfoSections.Clients;
        if (name.EqualsUpper("MEMORY"u8))
            return InfoSections.Memory;
        if (name.EqualsUpper("PERSISTENCE"u8))
            return InfoSections.Persistence;
        if (name.EqualsUpper("STATS"u8))
            return InfoSections.Stats;
        if (name.EqualsUpper("REPLICATION"u8))
            return InfoSections.Replication;
        if (name.EqualsUpper("CPU"u8))
            return InfoSections.Cpu;
        if (name.EqualsUpper("MODULES"u8))
            return InfoSections.Modules;
        if (name.EqualsUpper("COMMANDSTATS"u8))
            return InfoSections.CommandStats;
        if (name.EqualsUpper("ERRORSTATS"u8))
            return InfoSections.ErrorStats;
        if (name.EqualsUpper("LATENCYSTATS"u8))
            return InfoSections.LatencyStats;
        if (name.EqualsUpper("CLUSTER"u8))
            return InfoSections.Cluster;
        if (name.EqualsUpper("KEYSPACE"u8))
            return InfoSections.Keyspace;
        return InfoSections.None;
    }

    private string BuildInfo(InfoSections sections)
    {
        var info = new InfoBuilder();
        var now = DateTimeOffset.UtcNow;
        var statistics = _server.Statistics;
        var state = ServerRuntimeState.Of(_server);

        if ((sections & InfoSections.Server) != 0)
        {
            long uptime = (long)(now - _server.StartTime).TotalSeconds;
            info.Section("Server");
            info.Line("redis_version", ServerStrings.RedisVersionText);
            info.Line("redis_git_sha1", "00000000");
            info.Line("redis_git_dirty", 0);
            info.Line("redis_build_id", "0");
            info.Line("redis_mode", _cluster != null ? "cluster" : "standalone");
            info.Line("os", RuntimeInformation.OSDescription.Replace('\r', ' ').Replace('\n', ' ') + " " + RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant());
            info.Line("arch_bits", IntPtr.Size * 8);
            info.Line("process_id", Environment.ProcessId);
            info.Line("process_supervised", "no");
            info.Line("run_id", state.RunId);
            info.Line("tcp_port", ConfiguredPort());
            info.Line("server_time_usec", (now.UtcTicks - DateTime.UnixEpoch.Ticks) / 10);
            info.Line("uptime_in_seconds", uptime);
            info.Line("uptime_in_days", uptime / 86400);
            info.Line("lru_clock", now.ToUnixTimeSeconds() & ((1 << 24) - 1));
            info.Line("executable", Environment.ProcessPath ?? "");
            info.Line("config_file", "");
        }

        if ((sections & InfoSections.Clients) != 0)
        {
            info.Section("Clients");
            info.Line("connected_clients", _server.Clients.Count);
            info.Line("cluster_connections", 0);
            info.Line("maxclients", _server.ClientLimits.MaxClients);
            var (largestInput, largestOutput) = _server.Clients.LargestBuffers();
            info.Line("client_recent_max_input_buffer", largestInput);
            info.Line("client_recent_max_output_buffer", largestOutput);
            info.Line("blocked_clients", _server.Blocking.BlockedClients + _server.ClientPause.HeldCount);
            info.Line("tracking_clients", _server.Tracking.ClientCount);
            info.Line("clients_in_timeout_table", 0);
        }

        if ((sections & InfoSections.Memory) != 0)
            AppendMemory(info, state);

        if ((sections & InfoSections.Persistence) != 0)
        {
            info.Section("Persistence");
            var checkpoints = _server.Checkpoints;
            // Recovery ends before the server listens, so no client sees it loading.
            info.Line("loading", 0);
            info.Line("async_loading", 0);
            info.Line("rdb_changes_since_last_save", checkpoints.ChangesSinceLastSave);
            info.Line("rdb_bgsave_in_progress", checkpoints.SaveInProgress ? 1 : 0);
            info.Line("rdb_last_save_time", _server.LastSaveUnixSeconds);
            info.Line("rdb_last_bgsave_status", checkpoints.LastSaveSucceeded ? "ok" : "err");
            info.Line("rdb_last_bgsave_time_sec", checkpoints.LastSaveSeconds);
            info.Line("rdb_current_bgsave_time_sec", checkpoints.SaveInProgress ? checkpoints.CurrentSeconds : -1);
            info.Line("rdb_saves", checkpoints.SavesStarted);
            info.Line("rdb_last_load_keys_loaded", _server.CheckpointRecovery?.Keys ?? 0);
            var log = _server.OperationLog;
            info.Line("aof_enabled", log != null ? 1 : 0);
            info.Line("aof_rewrite_in_progress", checkpoints.RewriteInProgress ? 1 : 0);
            // The base of an AOF turned on by CONFIG SET waits for every session to log (and for a running checkpoint).
            bool baseWaits = _server.AppendOnly.BasePending && !checkpoints.RewriteInProgress;
            info.Line("aof_rewrite_scheduled", checkpoints.RewriteScheduled || baseWaits ? 1 : 0);
            info.Line("aof_last_rewrite_time_sec", checkpoints.LastRewriteSeconds);
            info.Line("aof_current_rewrite_time_sec", checkpoints.RewriteInProgress ? checkpoints.CurrentSeconds : -1);
            info.Line("aof_last_bgrewrite_status", checkpoints.LastRewriteSucceeded ? "ok" : "err");
            info.Line("aof_rewrites", checkpoints.RewritesStarted);
            info.Line("aof_last_write_status", log?.Failure == null ? "ok" : "err");
            if (log != null)
            {
                // As Redis lists them with the AOF on; the log has no base file apart from its one stream of files.
                info.Line("aof_current_size", log.FileBytes - log.FileStart);
                info.Line("aof_base_size", 0);
                info.Line("aof_pending_rewrite", 0);
                info.Line("aof_buffer_length", log.UncommittedBytes);
                info.Line("aof_pending_bio_fsync", 0);
                info.Line("aof_delayed_fsync", 0);
            }
        }

        if ((sections & InfoSections.Stats) != 0)
        {
            info.Section("Stats");
            info.Line("total_connections_received", statistics.ConnectionsReceived);
            info.Line("total_commands_processed", statistics.CommandsProcessed);
            info.Line("rejected_connections", statistics.RejectedConnections);
            info.Line("client_query_buffer_limit_disconnections", statistics.QueryBufferLimitDisconnections);
            info.Line("client_output_buffer_limit_disconnections", _server.ClientLimits.OutputLimitDisconnections);
            info.Line("sync_full", _server.Replication.FullSyncs);
            info.Line("sync_partial_ok", _server.Replication.PartialSyncs);
            info.Line("sync_partial_err", _server.Replication.RefusedPartialSyncs);
            info.Line("expired_keys", statistics.ExpiredKeys + _server.MemoryBudget.ExpiredRecords);
            info.Line("evicted_keys", _server.MemoryBudget.EvictedRecords);
            info.Line("evicted_clients", _server.ClientEviction.Evicted);
            info.Line("keyspace_hits", statistics.KeyspaceHits);
            info.Line("keyspace_misses", statistics.KeyspaceMisses);
            info.Line("pubsub_channels", _server.PubSub.ChannelCount);
            info.Line("pubsub_patterns", _server.PubSub.PatternCount);
            info.Line("pubsubshard_channels", _server.ShardPubSub.ChannelCount);
            info.Line("migrate_cached_sockets", _server.MigrateConnections.Count);
            info.Line("acl_access_denied_auth", statistics.AclDeniedAuth);
            info.Line("acl_access_denied_cmd", statistics.AclDeniedCommand);
            info.Line("acl_access_denied_key", statistics.AclDeniedKey);
            info.Line("acl_access_denied_channel", statistics.AclDeniedChannel);
            info.Line("tracking_total_keys", _server.Tracking.TotalKeys);
            info.Line("tracking_total_items", _server.Tracking.TotalItems);
            info.Line("tracking_total_prefixes", _server.Tracking.TotalPrefixes);
            info.Line("total_error_replies", statistics.Errors.Total);
        }

        if ((sections & InfoSections.Replication) != 0)
        {
            info.Section("Replication");
            WriteReplicationInfo(info); // Replication/RespServerSession.Replication.cs
        }

        if ((sections & InfoSections.Cpu) != 0)
        {
            using var process = Process.GetCurrentProcess();
            info.Section("CPU");
            info.Line("used_cpu_sys", process.PrivilegedProcessorTime.TotalSeconds.ToString("F6", CultureInfo.InvariantCulture));
            info.Line("used_cpu_user", process.UserProcessorTime.TotalSeconds.ToString("F6", CultureInfo.InvariantCulture));
            info.Line("used_cpu_sys_children", "0.000000");
            info.Line("used_cpu_user_children", "0.000000");
        }

        if ((sections & InfoSections.Modules) != 0)
            info.Section("Modules");

        if ((sections & InfoSections.CommandStats) != 0)
        {
            info.Section("Commandstats");
            foreach (var command in CommandTable.All)
            {
                AppendCommandStat(info, statistics, command);
                foreach (var subcommand in SubcommandTable.Of(command.Command))
                    AppendCommandStat(info, statistics, subcommand.Info);
            }
            foreach (var command in _server.Extensions.All)
                AppendCommandStat(info, statistics, command);
        }

        if ((sections & InfoSections.ErrorStats) != 0)
        {
            info.Section("Errorstats");
            AppendErrorStats(info);
        }

        if ((sections & InfoSections.LatencyStats) != 0)
        {
            info.Section("Latencystats");
            AppendLatencyStats(info);
        }

        if ((sections & InfoSections.Cluster) != 0)
        {
            info.Section("Cluster");
            info.Line("cluster_enabled", _cluster != null ? 1 : 0);
            if (_cluster != null)
            {
                // Garnet's slot migrations (MIGRATE ... SLOTS): running, done, failed, and the last failure's error.
                var migrations = _server.SlotMigrations;
                info.Line("slot_migrations_running", migrations.Running);
                info.Line("slot_migrations_succeeded", migrations.Succeeded);
                info.Line("slot_migrations_failed", migrations.Failed);
                info.Line("slot_migration_keys_moved", migrations.KeysMoved);
                info.Line("slot_migration_last_error", migrations.LastError ?? "");
            }
        }

        if ((sections & InfoSections.Keyspace) != 0)
        {
            info.Section("Keyspace");
            AppendKeyspace(info);
        }

        return info.ToString();
    }

    private static void AppendCommandStat(InfoBuilder info, ServerStatistics statistics, RespCommandInfo command)
    {
        var counts = statistics.Counts(command);
        if (counts.Calls == 0 && counts.Failed == 0 && counts.Rejected == 0)
            return;
        long usec = counts.Microseconds;
        double perCall = counts.Calls == 0 ? 0 : (double)usec / counts.Calls;
        info.Line("cmdstat_" + command.LowerName, string.Create(CultureInfo.InvariantCulture,
            $"calls={counts.Calls},usec={usec},usec_per_call={perCall:F2},rejected_calls={counts.Rejected},failed_calls={counts.Failed}"));
    }

    /// <summary>INFO latencystats: latency_percentiles_usec_&lt;command&gt;:p50=..,p99=.. for each command timed, per latency-tracking-info-percentiles.</summary>
    private void AppendLatencyStats(InfoBuilder info)
    {
        var statistics = _server.Statistics;
        var percentiles = statistics.LatencyPercentiles;
        var line = new StringBuilder();
        void Append(RespCommandInfo command)
        {
            long total = statistics.LatencyHistogramOf(command, out var buckets);
            if (total == 0)
                return;
            line.Clear();
            foreach (double percentile in percentiles)
            {
                if (line.Length > 0)
                    line.Append(',');
                line.Append('p').Append(percentile.ToString("0.######", CultureInfo.InvariantCulture)).Append('=')
                    .Append(LatencyHistogram.PercentileMicroseconds(buckets, total, percentile).ToString("F3", CultureInfo.InvariantCulture));
            }
            info.Line("latency_percentiles_usec_" + command.LowerName, line.ToString());
        }
        foreach (var command in CommandTable.All)
        {
            Append(command);
            foreach (var subcommand in SubcommandTable.Of(command.Command))
                Append(subcommand.Info);
        }
        foreach (var command in _server.Extensions.All)
            Append(command);
    }

    /// <summary>INFO errorstats: each error code seen, as Redis lists them.</summary>
    private void AppendErrorStats(InfoBuilder info)
    {
        foreach (var (code, count) in _server.Statistics.Errors.Snapshot())
            info.Line("errorstat_" + code, string.Create(CultureInfo.InvariantCulture, $"count={count}"));
    }

    /// <summary>The TCP port this connection reached, or the configured one (for Unix sockets).</summary>
    private int ListeningPort()
    {
        string local = LocalEndpoint;
        int colon = local.LastIndexOf(':');
        if (colon >= 0 && int.TryParse(local.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out int port))
            return port;
        return _server.Options.Port;
    }

    /// <summary>
    /// "dbN:keys=..,expires=..,avg_ttl=.." for every database holding keys: keys= is the engine's count, expires= and
    /// avg_ttl are counted by scanning the log outside this session's epoch protection (see <see cref="KeyspaceCounts"/>).
    /// </summary>
    private void AppendKeyspace(InfoBuilder info)
    {
        EndBatch();
        try
        {
            for (int i = 0; i < _server.DatabaseCount; i++)
            {
                var counts = KeyspaceCounts.Count(_server, i);
                if (counts.Keys == 0)
                    continue;
                info.Line(string.Create(CultureInfo.InvariantCulture, $"db{i}"), string.Create(CultureInfo.InvariantCulture, $"keys={counts.Keys},expires={counts.Expires},avg_ttl={counts.AverageTtlMilliseconds}"));
            }
        }
        finally
        {
            BeginBatch();
        }
    }

    /// <summary>Redis's human-readable byte counts: "512B", "1.50K", "2.00M"...</summary>
    internal static string HumanBytes(long bytes)
    {
        if (bytes < 1024)
            return bytes.ToString(CultureInfo.InvariantCulture) + "B";
        ReadOnlySpan<char> units = "KMGTP";
        double value = bytes;
        for (int i = 0; i < units.Length; i++)
        {
            value /= 1024;
            if (value < 1024 || i == units.Length - 1)
                return value.ToString("F2", CultureInfo.InvariantCulture) + units[i];
        }
        return bytes.ToString(CultureInfo.InvariantCulture) + "B";
    }

    /// <summary>Accumulates INFO text: sections separated by a blank line, each line ending in CRLF.</summary>
    internal sealed class InfoBuilder
    {
        private readonly StringBuilder _text = new(2048);
        private bool _any;

        public void Section(string title)
        {
            if (_any)
                _text.Append("\r\n");
            _any = true;
            _text.Append("# ").Append(title).Append("\r\n");
        }

        public void Line(string field, string value) => _text.Append(field).Append(':').Append(value).Append("\r\n");

        public void Line(string field, long value) => Line(field, value.ToString(CultureInfo.InvariantCulture));

        public override string ToString() => _text.ToString();
    }
}
