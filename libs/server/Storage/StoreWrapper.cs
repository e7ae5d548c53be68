using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// The server's shared state: options, the databases (created on first use), statistics and the
/// client registry. Sessions reach everything through it.
/// </summary>
public sealed class StoreWrapper : IDisposable
{
    private readonly GarnetDatabase?[] _databases;
    private readonly object _databaseLock = new();
    private readonly ActiveExpiration? _activeExpiration;
    private readonly IdleClientTimeout _idleClientTimeout;
    private readonly BlockedClientRedirect _blockedClientRedirect;
    private readonly LogCompactionTask? _compaction;
    private bool _disposed;

    public StoreWrapper(ServerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Databases < 1)
            throw new ArgumentOutOfRangeException(nameof(options), "At least one database is needed.");
        RespServerSession.CheckStartupConfig(options);
        Options = options;
        _databases = new GarnetDatabase?[options.Databases];
        WatchVersions = new WatchVersionTable(options.Databases);
        Monitors = new MonitorFeed(CommandObservers);
        Tracking = new TrackingTable(Clients, CommandObservers);
        MemoryBudget = new Tsavorite.MemoryBudget
        {
            Limit = options.MaxMemory,
            Policy = options.MaxMemoryPolicy,
            LfuLogFactor = options.LfuLogFactor,
            LfuDecayTime = options.LfuDecayTime,
        };
        ClientLimits = new ClientLimits(options);
        ClientEviction = new ClientEviction(Clients, MemoryBudget);
        KeyspaceNotifications = new KeyspaceNotifications(PubSub, options.NotifyKeyspaceEvents);
        KeyRemovals = new KeyRemovalHook(WatchVersions, Tracking, KeyspaceNotifications, Blocking);
        Checkpoints = new Checkpointer(this);
        Replication = new Replication(this);
        AppendOnly = new AppendOnlySwitch(this);
        CheckpointSchedule = new CheckpointSchedule(this);
        _idleClientTimeout = new IdleClientTimeout(this);
        _blockedClientRedirect = new BlockedClientRedirect(this);
        Acl = new AccessControlList(options.Password, options.AclFile, Extensions);
        StartTime = DateTimeOffset.UtcNow;
        LastSaveUnixSeconds = StartTime.ToUnixTimeSeconds();
        if (options.ExpiredKeyDeletionScanFrequencySecs > 0)
        {
            _activeExpiration = new ActiveExpiration(this, TimeSpan.FromSeconds(options.ExpiredKeyDeletionScanFrequencySecs));
            // With the operation log, after its replay (see Recover): the replay decides expirations at the logged clock.
            if (!options.EnableAof)
                _activeExpiration.Start();
        }
        if (options.StorageTier && options.CompactionFrequencySecs > 0 && options.CompactionType != Tsavorite.CompactionType.None)
        {
            _compaction = new LogCompactionTask(this, TimeSpan.FromSeconds(options.CompactionFrequencySecs));
            _compaction.Start();
        }
        RespServerSession.ApplyStartupConfig(this);
    }

    /// <summary>
    /// The operation log (AOF) sessions log to, once <see cref="Recover"/> opened it or CONFIG SET appendonly turned it on;
    /// null when it is off. Each session takes the one published here at its next batch (see <see cref="AppendOnly"/>).
    /// </summary>
    public OperationLog? OperationLog
    {
        get => _operationLog;
        internal set => _operationLog = value;
    }

    private volatile OperationLog? _operationLog;

    /// <summary>Turns the operation log on and off while the server runs (CONFIG SET appendonly).</summary>
    internal AppendOnlySwitch AppendOnly { get; }

    /// <summary>The AOF's directory: AOF under the checkpoint directory, else under the log directory, else the current one.</summary>
    public string AofDirectory => System.IO.Path.Combine(Options.CheckpointDir ?? Options.LogDir ?? ".", "AOF");

    /// <summary>What recovery loaded from the newest checkpoint, or null (none, or recovery not asked for).</summary>
    public CheckpointLoadReport? CheckpointRecovery { get; private set; }

    /// <summary>
    /// Brings the data back when asked (<see cref="ServerOptions.Recover"/>): the newest checkpoint, then the operation log
    /// from the point that checkpoint noted, skipping the entries it already holds; then opens the log for new entries.
    /// Call once, before any client. Returns what the log's replay found, or null if there was nothing to replay.
    /// Throws when the data cannot be used: damaged (with <see cref="ServerOptions.FailOnRecoveryError"/>), or a log
    /// holding entries while recovery was not asked for, which would otherwise be replayed later on top of a different start.
    /// </summary>
    public OperationLogRecoveryReport? Recover()
    {
        if (OperationLog != null)
            return null;
        CheckpointLoadReport? checkpoint = null;
        if (Options.Recover)
        {
            try
            {
                checkpoint = CheckpointLoader.LoadNewest(this, Checkpoints.Directory, Options.FailOnRecoveryError);
            }
            catch (Exception e) when (e is System.IO.IOException or System.IO.InvalidDataException or UnauthorizedAccessException)
            {
                throw new RecoveryException(e.Message, e);
            }
            CheckpointRecovery = checkpoint;
            if (checkpoint != null)
            {
                // Writes from now on are of a version the checkpoint does not hold.
                Versions.Restore(checkpoint.Version + 1);
                Checkpoints.LastVersion = checkpoint.Version;
            }
        }
        if (!Options.EnableAof)
        {
            RestoreReplicaPlace(checkpoint, null);
            return null;
        }
        OperationLogFiles? files = null;
        OperationLogRecoveryReport? report = null;
        try
        {
            files = new OperationLogFiles(AofDirectory, Options.EffectiveAofSegmentSize, Options.AofPageSize);
            string basePending = System.IO.Path.Combine(AofDirectory, AppendOnlySwitch.BasePendingFile);
            if (System.IO.File.Exists(basePending))
            {
                // CONFIG SET appendonly yes turned the log on, and its base checkpoint never completed: the log lacks the
                // writes made before it, which no checkpoint holds.
                if (Options.Recover && files.Tail > files.Start)
                {
                    throw new RecoveryException($"the AOF in {System.IO.Path.GetFullPath(AofDirectory)} was turned on while the server ran (CONFIG SET appendonly yes) "
                        + "and stopped before its base checkpoint was complete, so it lacks the writes made before it: remove the directory to recover from the newest checkpoint alone.");
                }
                if (files.Tail == files.Start)
                {
                    System.IO.File.Delete(basePending);
                    FileSync.SyncDirectory(AofDirectory);
                }
            }
            if (files.Tail > files.Start)
            {
                if (!Options.Recover)
                {
                    throw new RecoveryException($"the AOF in {System.IO.Path.GetFullPath(AofDirectory)} holds {files.Tail - files.Start} bytes of commands: "
                        + "start with --recover to replay them, or remove the directory to start empty.");
                }
                if (checkpoint == null && files.Start > 0)
                {
                    throw new RecoveryException($"the AOF in {System.IO.Path.GetFullPath(AofDirectory)} begins after a checkpoint (its first files were removed), "
                        + $"but {System.IO.Path.GetFullPath(Checkpoints.Directory)} holds no checkpoint: restore the checkpoint, or remove the AOF to start empty.");
                }
                report = OperationLogRecovery.Replay(this, files, files.SegmentSize, Options.FailOnRecoveryError,
                    from: checkpoint?.AofStart ?? 0, skipThroughVersion: checkpoint?.Version ?? 0);
                // New entries are of a version no older than any replayed, so a later recovery keeps their order.
                if (report.LastVersion > Versions.Version)
                    Versions.Restore(report.LastVersion);
            }
            AppendOnly.Opened(new OperationLog(files, Options.AofMemorySize, Options.AofCommitFrequencyMs) { LatencyMonitor = LatencyMonitor });
            RestoreReplicaPlace(checkpoint, report);
        }
        catch (Exception e) when (e is System.IO.IOException or System.IO.InvalidDataException or UnauthorizedAccessException)
        {
            files?.Dispose();
            throw new RecoveryException(e.Message, e);
        }
        catch
        {
            files?.Dispose();
            throw;
        }
        _activeExpiration?.Start();
        return report;
    }

    /// <summary>
    /// A replica's checkpoint recovered: the data stands at a place in its primary's stream, from which the replica asks to
    /// continue when it follows that primary again. With the operation log, the place is where the recovered log ends,
    /// when that log is the stream's copy (<see cref="ReplicaLogMirror"/>); a log holding writes of this server's own
    /// after the checkpoint (a replica promoted since) is not, and the replica then syncs from a checkpoint again.
    /// </summary>
    private void RestoreReplicaPlace(CheckpointLoadReport? checkpoint, OperationLogRecoveryReport? report)
    {
        if (checkpoint?.Replication is not { } state)
            return;
        if (OperationLog is not { } log)
        {
            Replication.Stream.Restore(state, state.Offset, mirror: null);
            return;
        }
        if (report is { LocalEntries: > 0 })
            return;
        if (state.LogDelta != ReplicaCheckpointState.NoLog)
        {
            long offset = log.FileBytes + state.LogDelta;
            if (offset >= state.Offset)
                Replication.Stream.Restore(state, offset, ReplicaLogMirror.Resume(log, state.LogDelta));
        }
        else if (report is not { Entries: > 0 })
        {
            // The log did not copy the stream then and holds nothing after the checkpoint: the copy starts here.
            Replication.Stream.Restore(state, state.Offset, ReplicaLogMirror.StartAt(log, state.Offset));
        }
    }

    /// <summary>Compactions of the log files that failed (the task carried on), or 0 without compaction.</summary>
    public long CompactionFailures => _compaction?.Failures ?? 0;

    /// <summary>The server's options.</summary>
    public ServerOptions Options { get; }

    /// <summary>The host's TCP listeners (CONFIG SET port / bind), once the host started them; null for a server without a host.</summary>
    public IServerListeners? Listeners { get; set; }

    /// <summary>Cluster mode (--cluster), plugged in by the host before the server starts; null for a standalone server.</summary>
    public IClusterProvider? Cluster { get; set; }

    /// <summary>The memory budget every database counts against (maxmemory), with the eviction policy.</summary>
    public Tsavorite.MemoryBudget MemoryBudget { get; }

    /// <summary>The users and their permissions (ACL), and the ACL log.</summary>
    public AccessControlList Acl { get; }

    /// <summary>Counters reported by INFO.</summary>
    public ServerStatistics Statistics { get; } = new();

    /// <summary>SLOWLOG: commands that ran at least slowlog-log-slower-than.</summary>
    public SlowLog SlowLog { get; } = new();

    /// <summary>LATENCY: operations that took at least latency-monitor-threshold milliseconds.</summary>
    public LatencyMonitor LatencyMonitor { get; } = new();

    /// <summary>
    /// Where sessions report each command's run time (the metrics endpoint's latency histograms), or null to measure
    /// nothing. Sessions read it once when they open, so it is set before the server starts listening.
    /// </summary>
    public ICommandLatencyObserver? CommandLatency { get; set; }

    /// <summary>Connected clients (CLIENT LIST, KILL).</summary>
    public ClientRegistry Clients { get; } = new();

    /// <summary>Client-side caching: the tracking clients and the keys they read (Tracking/).</summary>
    public TrackingTable Tracking { get; }

    /// <summary>maxclients, timeout, input and output limits and protected mode, as they are now (CONFIG SET changes them).</summary>
    public ClientLimits ClientLimits { get; }

    /// <summary>Client eviction: disconnects the largest clients when all together hold more than maxmemory-clients.</summary>
    public ClientEviction ClientEviction { get; }

    /// <summary>MIGRATE's open connections to its targets, kept for reuse (Commands/Keyspace/Migrate/).</summary>
    internal MigrateConnectionCache MigrateConnections { get; } = new();

    /// <summary>Slot migrations (MIGRATE ... SLOTS) running or done on this node (cluster mode).</summary>
    public SlotMigrations SlotMigrations { get; } = new();

    /// <summary>Clients waiting in blocking commands (BLPOP, BZPOPMIN...).</summary>
    public BlockingRegistry Blocking { get; } = new();

    /// <summary>CLIENT PAUSE: whether clients' commands wait, and the clients held.</summary>
    public ClientPause ClientPause { get; } = new();

    /// <summary>Versions of keys and databases that WATCH compares (see Transactions/).</summary>
    public WatchVersionTable WatchVersions { get; }

    /// <summary>Whether writes must move <see cref="WatchVersions"/>: only while some session watches (see Transactions/WatchArming.cs).</summary>
    public WatchArming WatchArming { get; } = new();

    /// <summary>Takes checkpoints (SAVE, BGSAVE, BGREWRITEAOF, periodic ones) and reports on them.</summary>
    public Checkpointer Checkpoints { get; }

    /// <summary>This server's replication: its replicas as a primary, or its link to its primary (libs/server/Replication).</summary>
    public Replication Replication { get; }

    /// <summary>The checkpoints nobody asks for: save points, --checkpoint-freq, --aof-size-limit.</summary>
    internal CheckpointSchedule CheckpointSchedule { get; }

    /// <summary>Held while the set of databases changes (creation, flush, SWAPDB); a checkpoint takes the set under it.</summary>
    internal object DatabaseLock => _databaseLock;

    /// <summary>Write commands run since start (rdb_changes_since_last_save counts them since the last checkpoint).</summary>
    public long WriteCommandCount()
    {
        long total = 0;
        foreach (var info in CommandTable.All)
        {
            if ((info.Flags & CommandFlags.Write) != 0)
                total += Statistics.CommandCalls(info.Command);
        }
        return total;
    }

    /// <summary>The checkpoint version every database's writes belong to (see Durability/Checkpoints).</summary>
    public Tsavorite.CheckpointVersion Versions { get; } = new();

    /// <summary>The gate every holder of multi-key locks passes (see Transactions/KeyLockGate.cs).</summary>
    internal KeyLockGate KeyLockGate { get; } = new();

    /// <summary>Registered custom commands and procedures (see Extensions/).</summary>
    public ExtensionRegistry Extensions { get; } = new();

    /// <summary>SCRIPT DEBUG YES sessions running on copies of the data (Scripting/Debugger/DebugFork.cs).</summary>
    public ForkedDebugSessions ForkedDebugSessions { get; } = new();

    /// <summary>Pub/sub channels and patterns and their subscribers.</summary>
    public PubSubBroker PubSub { get; } = new();

    /// <summary>Keyspace notifications (notify-keyspace-events), published through <see cref="PubSub"/>.</summary>
    public KeyspaceNotifications KeyspaceNotifications { get; }

    /// <summary>Signals a key the server removed on its own (expired or evicted) to WATCH, client tracking and keyspace notifications.</summary>
    internal KeyRemovalHook KeyRemovals { get; }

    /// <summary>Sharded pub/sub's channels (SSUBSCRIBE, SPUBLISH): a namespace of their own, delivered as "smessage".</summary>
    public PubSubBroker ShardPubSub { get; } = new(sharded: true);

    /// <summary>The clients in MONITOR mode (libs/server/Monitor).</summary>
    internal MonitorFeed Monitors { get; }

    /// <summary>Whether a MONITOR or tracking client watches the commands that run (one look per command).</summary>
    internal CommandObservers CommandObservers { get; } = new();

    /// <summary>How many clients are in MONITOR mode.</summary>
    public int MonitorCount => Monitors.Count;

    /// <summary>When the server started.</summary>
    public DateTimeOffset StartTime { get; }

    /// <summary>Unix time of the last successful save (LASTSAVE).</summary>
    public long LastSaveUnixSeconds { get; internal set; }

    /// <summary>Whether the active expiration task deletes expired keys (DEBUG SET-ACTIVE-EXPIRE turns it off).</summary>
    public bool ActiveExpirationEnabled { get; set; } = true;

    /// <summary>Number of databases.</summary>
    public int DatabaseCount => _databases.Length;

    /// <summary>Raised when a client asks the server to shut down (SHUTDOWN).</summary>
    public event Action? ShutdownRequested;

    internal void RequestShutdown() => ShutdownRequested?.Invoke();

    /// <summary>Whether the server is stopping: running scripts end at their next hook, so their threads can be joined.</summary>
    public bool Stopping => _stopping;

    private volatile bool _stopping;

    /// <summary>Marks the server as stopping, before its connections close (<see cref="Stopping"/>).</summary>
    public void BeginStop() => _stopping = true;

    /// <summary>
    /// Database <paramref name="index"/>, created on first use. Creation is cheap and a database never written counts
    /// nothing against the memory budget (see <see cref="Tsavorite.TsavoriteKV.IndexBytes"/>).
    /// </summary>
    public GarnetDatabase GetDatabase(int index)
    {
        var database = Volatile.Read(ref _databases[index]);
        if (database != null)
            return database;
        lock (_databaseLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            database = _databases[index];
            if (database == null)
            {
                database = new GarnetDatabase(index, Options, MemoryBudget, KeyRemovals, Versions);
                Volatile.Write(ref _databases[index], database);
            }
            return database;
        }
    }

    /// <summary>
    /// Creates database <paramref name="index"/> (not in use yet) with a hash index sized for <paramref name="keys"/> keys,
    /// within the options' bounds: recovery loads that many, which would otherwise double the index again and again.
    /// </summary>
    internal void CreateDatabaseFor(int index, long keys)
    {
        lock (_databaseLock)
        {
            if (_databases[index] != null)
                return;
            long buckets = (long)(keys / (Tsavorite.TsavoriteKV.EntriesPerBucket * Tsavorite.TsavoriteKV.IndexGrowthFill)) + 1;
            long bytes = (long)System.Numerics.BitOperations.RoundUpToPowerOf2((ulong)buckets) * 64;
            long indexSize = Math.Max(Options.IndexSize, Math.Min(bytes, Options.IndexMaxSize));
            Volatile.Write(ref _databases[index], new GarnetDatabase(index, Options, MemoryBudget, KeyRemovals, Versions, indexSize));
        }
    }

    /// <summary>Database <paramref name="index"/> if it is in use, else null (nothing to report).</summary>
    public GarnetDatabase? PeekDatabase(int index) => Volatile.Read(ref _databases[index]);

    /// <summary>
    /// Empties database <paramref name="index"/>: unlinks it (the next use creates a fresh one) and retires it, so its
    /// memory is freed once no thread is inside (see <see cref="GarnetDatabase"/>). A database never written is left as
    /// it is: there is nothing to free, so the flush costs nothing. Returns the retired database, for a caller that waits
    /// for it to be freed (<paramref name="waiter"/>, FLUSHDB SYNC; see <see cref="GarnetDatabase.WaitUntilFreed"/>).
    /// </summary>
    public GarnetDatabase? FlushDatabase(int index, bool waiter = false)
    {
        GarnetDatabase? old;
        lock (_databaseLock)
        {
            old = _databases[index];
            if (old == null || old.NeverWritten)
                return null;
            Volatile.Write(ref _databases[index], null);
        }
        old.Retire(waiter);
        return waiter ? old : null;
    }

    /// <summary>
    /// Empties every database (see <see cref="FlushDatabase"/>); with <paramref name="wait"/>, returns once the flushed
    /// ones were freed (or a bounded wait passed). The caller must not be protected on any database's epoch.
    /// </summary>
    public void FlushAll(bool wait = false)
    {
        GarnetDatabase?[]? retired = null;
        for (int i = 0; i < _databases.Length; i++)
        {
            var database = FlushDatabase(i, wait);
            if (database == null)
                continue;
            retired ??= new GarnetDatabase?[_databases.Length];
            retired[i] = database;
        }
        if (retired == null)
            return;
        foreach (var database in retired)
            database?.WaitUntilFreed();
    }

    /// <summary>Swaps the contents of two databases (SWAPDB).</summary>
    public void SwapDatabases(int first, int second)
    {
        if (first == second)
            return;
        lock (_databaseLock)
        {
            // A database not in use moves as "not in use"; sessions on either one re-resolve at their next batch.
            var a = _databases[first];
            var b = _databases[second];
            Volatile.Write(ref _databases[first], b);
            Volatile.Write(ref _databases[second], a);
            a?.Index = second;
            b?.Index = first;
        }
    }

    public void Dispose()
    {
        // The task holds databases while it walks them; it must be gone before they are freed, as must a checkpoint.
        CheckpointSchedule.Dispose();
        // Senders read the log and take checkpoints; the link replays into the databases.
        Replication.Dispose();
        // A graceful stop saves when the server saves by itself (save points, --checkpoint-freq), as Redis's does.
        if (Checkpoints.SaveAtStop && CheckpointSchedule.SavesConfigured && !_disposed)
            Checkpoints.SaveWaitingForRunning();
        Checkpoints.Stop();
        _activeExpiration?.Dispose();
        _compaction?.Dispose();
        _idleClientTimeout.Dispose();
        _blockedClientRedirect.Dispose();
        ClientEviction.Dispose();
        ClientPause.Dispose();
        MigrateConnections.Dispose();
        lock (_databaseLock)
        {
            if (_disposed)
                return;
            _disposed = true;
            for (int i = 0; i < _databases.Length; i++)
            {
                _databases[i]?.DisposeAtShutdown();
                _databases[i] = null;
            }
        }
        // After the connections: everything they appended is written and made durable.
        AppendOnly.Dispose();
        Statistics.Dispose();
        WatchArming.Dispose();
    }
}

/// <summary>The server cannot start from its operation log (refused, damaged or unreadable): the start fails with this message.</summary>
public sealed class RecoveryException : Exception
{
    public RecoveryException(string message, Exception? cause = null)
        : base(message, cause)
    {
    }
}
