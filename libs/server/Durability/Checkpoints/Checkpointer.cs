using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading;
using Garnet.server.Scripting;
using Tsavorite;

namespace Garnet.server;

/// <summary>What asking for a checkpoint did.</summary>
public enum CheckpointStart
{
    /// <summary>It ran (SAVE) or started in the background (BGSAVE).</summary>
    Started,

    /// <summary>One is running already.</summary>
    AlreadyRunning,

    /// <summary>One is running; another starts once it ends (BGSAVE SCHEDULE).</summary>
    Scheduled,

    /// <summary>It ran and failed (SAVE): <see cref="Checkpointer.LastError"/> says why.</summary>
    Failed,
}

/// <summary>
/// Takes the server's checkpoints (SAVE, BGSAVE, BGREWRITEAOF, the periodic ones): every database's state at one
/// version, written to one file without stopping writers (see Tsavorite's TsavoriteKV.Snapshot.cs for the engine's
/// part and <see cref="CheckpointFile"/> for the file), then the operation log before it let go of.
/// </summary>
/// <remarks>
/// The steps, one checkpoint at a time: every database holds its records back and notes its log's tail; the version
/// moves from v to v+1 with freezing set, under the key-lock gate (so no transaction, script or logged write runs across
/// the move); once every operation that may have read v has ended (an epoch drain of each store), the records of v are
/// scanned into the file; freezing ends,
/// the file is fsync'd and renamed into place, the previous checkpoint deleted, and the AOF files wholly before the
/// address noted at the move removed. A checkpoint counts (LASTSAVE) only once renamed.
/// </remarks>
public sealed class Checkpointer
{
    private const int None = 0;
    private const int SaveKind = 1;
    private const int RewriteKind = 2;

    private readonly StoreWrapper _server;
    private readonly object _runLock = new();
    private int _running;
    private int _scheduled;
    private long _startedTicks;
    private volatile bool _stopping;
    private long _lastEndTicks = Stopwatch.GetTimestamp();

    internal Checkpointer(StoreWrapper server)
    {
        _server = server;
        _directory = Path.Combine(server.Options.CheckpointDir ?? server.Options.LogDir ?? ".", CheckpointFile.Folder);
    }

    /// <summary>Where checkpoint files go: <c>checkpoints</c> under the checkpoint directory (else the log directory, else the current one).</summary>
    public string Directory => _directory;

    private volatile string _directory;

    /// <summary>
    /// Takes the next checkpoints in <c>checkpoints</c> under <paramref name="baseDirectory"/> (CONFIG SET dir); one being
    /// taken finishes where it started. Those already in the old directory stay there.
    /// </summary>
    public void MoveTo(string baseDirectory) => _directory = Path.Combine(baseDirectory, CheckpointFile.Folder);

    /// <summary>Whether a checkpoint is being taken for SAVE, BGSAVE or a periodic save (rdb_bgsave_in_progress).</summary>
    public bool SaveInProgress => Volatile.Read(ref _running) == SaveKind;

    /// <summary>Whether a checkpoint is being taken for BGREWRITEAOF (aof_rewrite_in_progress).</summary>
    public bool RewriteInProgress => Volatile.Read(ref _running) == RewriteKind;

    /// <summary>Whether a checkpoint of any kind is being taken.</summary>
    public bool InProgress => Volatile.Read(ref _running) != None;

    /// <summary>Whether a BGREWRITEAOF waits for the running save to end (aof_rewrite_scheduled).</summary>
    public bool RewriteScheduled => Volatile.Read(ref _scheduled) == RewriteKind;

    /// <summary>Whether the last save succeeded (rdb_last_bgsave_status); true before any.</summary>
    public bool LastSaveSucceeded { get; private set; } = true;

    /// <summary>Whether the last BGREWRITEAOF succeeded (aof_last_bgrewrite_status); true before any.</summary>
    public bool LastRewriteSucceeded { get; private set; } = true;

    /// <summary>Why the last checkpoint failed, or null.</summary>
    public string? LastError { get; private set; }

    /// <summary>Seconds the last save took, or -1 before any (rdb_last_bgsave_time_sec).</summary>
    public long LastSaveSeconds { get; private set; } = -1;

    /// <summary>Seconds the last BGREWRITEAOF took, or -1 before any (aof_last_rewrite_time_sec).</summary>
    public long LastRewriteSeconds { get; private set; } = -1;

    /// <summary>Seconds the running checkpoint has taken so far, or -1.</summary>
    public long CurrentSeconds => InProgress ? (long)Stopwatch.GetElapsedTime(Volatile.Read(ref _startedTicks)).TotalSeconds : -1;

    /// <summary>Seconds since the last checkpoint ended (or the server started).</summary>
    public long SecondsSinceLastEnd => (long)Stopwatch.GetElapsedTime(Interlocked.Read(ref _lastEndTicks)).TotalSeconds;

    /// <summary>Saves started since start, failed ones too (rdb_saves).</summary>
    public long SavesStarted => Volatile.Read(ref _savesStarted);
    private long _savesStarted;

    /// <summary>BGREWRITEAOFs started since start (aof_rewrites).</summary>
    public long RewritesStarted => Volatile.Read(ref _rewritesStarted);
    private long _rewritesStarted;

    /// <summary>The version the last completed checkpoint holds (0 before any).</summary>
    public long LastVersion { get; internal set; }

    /// <summary>Write commands run when the last checkpoint began (for rdb_changes_since_last_save).</summary>
    internal long WritesAtLastSave { get; set; }

    /// <summary>Write commands since the last checkpoint began (rdb_changes_since_last_save; Redis counts changed keys and elements).</summary>
    public long ChangesSinceLastSave => Math.Max(0, _server.WriteCommandCount() - WritesAtLastSave);

    /// <summary>
    /// For the server's stop: a running checkpoint is abandoned (its temporary file removed, the previous one kept) and
    /// waited for, and no other starts; the databases can then be freed.
    /// </summary>
    public void Stop()
    {
        _stopping = true;
        lock (_runLock)
        {
        }
    }

    /// <summary>Whether stopping the server saves when saves are configured (false once SHUTDOWN saved or said NOSAVE).</summary>
    public bool SaveAtStop { get; set; } = true;

    /// <summary>SAVE, after a checkpoint already running ends (SHUTDOWN, a stop): true when it succeeded.</summary>
    public bool SaveWaitingForRunning()
    {
        while (true)
        {
            switch (Save())
            {
                case CheckpointStart.Started:
                    return true;
                case CheckpointStart.Failed:
                    return false;
                default:
                    if (_stopping)
                        return false;
                    Thread.Sleep(10);
                    break;
            }
        }
    }

    /// <summary>
    /// A BGREWRITEAOF on the calling thread once no checkpoint runs (the base of an AOF turned on by CONFIG SET appendonly):
    /// true when it succeeded; false when it failed, the server stops or <paramref name="stillWanted"/> says no more.
    /// </summary>
    internal bool RewriteWaitingForRunning(Func<bool> stillWanted)
    {
        while (true)
        {
            if (_stopping || !stillWanted())
                return false;
            if (Interlocked.CompareExchange(ref _running, RewriteKind, None) == None)
                break;
            Thread.Sleep(10);
        }
        bool succeeded = Run(RewriteKind);
        // A BGSAVE SCHEDULE asked for meanwhile starts now, as it would after a background one.
        int next = Interlocked.Exchange(ref _scheduled, None);
        if (next != None && Interlocked.CompareExchange(ref _running, next, None) == None)
            StartThread(next);
        return succeeded;
    }

    /// <summary>Whether the server is stopping: a checkpoint being written gives up.</summary>
    internal bool Stopping => _stopping;

    /// <summary>Takes a checkpoint on the calling thread (SAVE).</summary>
    public CheckpointStart Save()
    {
        if (Interlocked.CompareExchange(ref _running, SaveKind, None) != None)
            return CheckpointStart.AlreadyRunning;
        return Run(SaveKind) ? CheckpointStart.Started : CheckpointStart.Failed;
    }

    /// <summary>
    /// Starts a checkpoint on a thread of its own (BGSAVE). With <paramref name="schedule"/>, when a BGREWRITEAOF is running,
    /// it is taken once that one ends, as Redis's BGSAVE SCHEDULE.
    /// </summary>
    public CheckpointStart SaveInBackground(bool schedule = false) => StartInBackground(SaveKind, schedule);

    /// <summary>
    /// BGREWRITEAOF: a checkpoint, after which the AOF files it makes unneeded are removed (the log is rewritten as the
    /// checkpoint plus what follows it). Scheduled after a running save.
    /// </summary>
    public CheckpointStart RewriteAofInBackground() => StartInBackground(RewriteKind, schedule: true);

    private CheckpointStart StartInBackground(int kind, bool schedule)
    {
        while (true)
        {
            int running = Interlocked.CompareExchange(ref _running, kind, None);
            if (running == None)
            {
                StartThread(kind);
                return CheckpointStart.Started;
            }
            if (running == kind || !schedule)
                return CheckpointStart.AlreadyRunning;
            Volatile.Write(ref _scheduled, kind);
            // The running one may have ended before it could see the request: then start it here.
            if (Volatile.Read(ref _running) != None)
                return CheckpointStart.Scheduled;
            if (Interlocked.CompareExchange(ref _scheduled, None, kind) != kind)
                return CheckpointStart.Scheduled; // the ending one took it
        }
    }

    private void StartThread(int kind)
    {
        var thread = new Thread(() =>
        {
            Run(kind);
            int next = Interlocked.Exchange(ref _scheduled, None);
            if (next != None && Interlocked.CompareExchange(ref _running, next, None) == None)
                StartThread(next);
        })
        { IsBackground = true, Name = "Garnet checkpoint" };
        thread.Start();
    }

    /// <summary>Takes the checkpoint; the caller set <see cref="_running"/> to <paramref name="kind"/>, which this clears.</summary>
    private bool Run(int kind)
    {
        Volatile.Write(ref _startedTicks, Stopwatch.GetTimestamp());
        Interlocked.Increment(ref kind == SaveKind ? ref _savesStarted : ref _rewritesStarted);
        bool succeeded = false;
        try
        {
            lock (_runLock)
            {
                if (_stopping)
                    throw new OperationCanceledException("the server is stopping");
                long version = TakeCheckpoint();
                LastVersion = version;
                LastError = null;
                _server.LastSaveUnixSeconds = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
                succeeded = true;
                return true;
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // Any failure (the disk, a device read of the storage tier, a fault of this class) fails this checkpoint only;
            // the previous one stays, and so does the log it needs.
            LastError = e.Message;
            return false;
        }
        finally
        {
            long seconds = (long)Stopwatch.GetElapsedTime(Volatile.Read(ref _startedTicks)).TotalSeconds;
            if (kind == SaveKind)
            {
                LastSaveSucceeded = succeeded;
                LastSaveSeconds = seconds;
            }
            else
            {
                LastRewriteSucceeded = succeeded;
                LastRewriteSeconds = seconds;
            }
            Interlocked.Exchange(ref _lastEndTicks, Stopwatch.GetTimestamp());
            Volatile.Write(ref _running, None);
        }
    }

    /// <summary>Takes a checkpoint and returns the version it holds.</summary>
    private long TakeCheckpoint()
    {
        string directory = _directory;
        System.IO.Directory.CreateDirectory(directory);
        var versions = _server.Versions;
        long writesAtStart = _server.WriteCommandCount();
        var snapshots = new List<DatabaseSnapshot>();
        var held = new List<GarnetDatabase>();
        long frozen;
        long aofStart;
        bool frozenPublished = false;
        // A replica applies its primary's entries one at a time under this lock: the version moves between two of them, so
        // the checkpoint holds the stream up to an offset it notes (and the replica's mirrored log continues from there).
        var stream = _server.Replication.Stream;
        ReplicaCheckpointState? replication;
        bool applyLocked = false;
        try
        {
            // Taken first, holding nothing: the replica's applier may wait for anything while it holds the lock.
            Monitor.Enter(stream.ApplyLock, ref applyLocked);
            // What may wait (a compaction, a page being settled) is held first, protected on no store and blocking no one.
            HoldDatabases(held);
            // The move to the next version happens with no multi-key unit (transaction, script, logged write) running, so
            // each is wholly in one version, and with the set of databases fixed (a flush, SWAPDB or MOVE is wholly before
            // or after it). Plain single-key writes go on: each reads the version under its latch.
            _server.KeyLockGate.EnterExclusive(null);
            try
            {
                lock (_server.DatabaseLock)
                {
                    HoldDatabases(held);
                    for (int i = 0; i < _server.DatabaseCount; i++)
                    {
                        var database = _server.PeekDatabase(i);
                        if (database == null)
                            continue;
                        var snapshot = new DatabaseSnapshot(database, i, this);
                        database.MainStore.BeginSnapshot(snapshot);
                        held.Remove(database);
                        snapshots.Add(snapshot);
                    }
                    // Entries appended from here on may be of the new version; recovery replays from here, skipping the old one's.
                    aofStart = _server.OperationLog?.FileBytes ?? 0;
                    frozen = versions.Version;
                    replication = stream.CheckpointState();
                    versions.Publish(frozen + 1, freezing: true);
                    frozenPublished = true;
                }
            }
            finally
            {
                _server.KeyLockGate.ExitExclusive();
                // Databases held but flushed before the move are not part of it.
                foreach (var database in held)
                    database.MainStore.EndSnapshot();
                held.Clear();
            }
            Monitor.Exit(stream.ApplyLock);
            applyLocked = false;
            WaitForOldVersion(snapshots);

            string temp = Path.Combine(directory, CheckpointFile.NameOf(frozen) + CheckpointFile.TempSuffix);
            long records = 0;
            using (var file = new CheckpointBlockWriter(temp))
            {
                var first = file.Reserve(CheckpointFile.FirstPayloadSize);
                CheckpointFile.WriteFirst(first, frozen, aofStart, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(), snapshots.Count);
                file.EndBlock();
                // Libraries are server-wide; taken once no write of the old version runs (a later one's FUNCTION LOAD,
                // replayed again from the log, then finds its library there already).
                var libraries = ScriptingState.Of(_server).Functions.Current.Libraries;
                if (libraries.Length > 0)
                {
                    byte[] payload = FunctionDumpPayload.Write(libraries);
                    file.BeginItem(5 + payload.Length);
                    file.WriteByte(CheckpointFile.KindFunctions);
                    file.WriteBytes(payload);
                }
                if (replication != null)
                {
                    byte[] payload = replication.Serialize();
                    file.BeginItem(5 + payload.Length);
                    file.WriteByte(CheckpointFile.KindReplication);
                    file.WriteBytes(payload);
                }
                foreach (var snapshot in snapshots)
                {
                    snapshot.RefreshOthers = () => RefreshAll(snapshots);
                    snapshot.Write(file, frozen);
                    records += snapshot.Records;
                }
                // Everything of the old version is read: writes may update its records in place again.
                versions.Publish(frozen + 1, freezing: false);
                frozenPublished = false;
                EndSnapshots(snapshots);
                file.BeginItem(9);
                file.WriteByte(CheckpointFile.KindEnd);
                file.WriteInt64(records);
                file.Complete();
            }
            string final = Path.Combine(directory, CheckpointFile.NameOf(frozen));
            File.Move(temp, final, overwrite: true);
            FileSync.SyncDirectory(directory);
            WritesAtLastSave = writesAtStart;
            DeleteOlder(directory, frozen);
            _server.OperationLog?.RemoveBefore(aofStart);
            return frozen;
        }
        finally
        {
            if (applyLocked)
                Monitor.Exit(stream.ApplyLock);
            if (frozenPublished)
                versions.Publish(versions.Version, freezing: false);
            EndSnapshots(snapshots);
            foreach (var database in held)
                database.MainStore.EndSnapshot();
            DeleteTemporaryFiles(directory);
        }
    }

    /// <summary>Holds (see Tsavorite's HoldForSnapshot) every database in use not yet in <paramref name="held"/>.</summary>
    private void HoldDatabases(List<GarnetDatabase> held)
    {
        for (int i = 0; i < _server.DatabaseCount; i++)
        {
            var database = _server.PeekDatabase(i);
            if (database == null || held.Contains(database))
                continue;
            database.MainStore.HoldForSnapshot();
            held.Add(database);
        }
    }

    /// <summary>
    /// Refreshes this thread's protection on every database of the snapshot (called as the scan goes), so one database's
    /// scan does not hold back the others' epochs.
    /// </summary>
    internal void RefreshAll(List<DatabaseSnapshot> snapshots)
    {
        foreach (var snapshot in snapshots)
            snapshot.Database.MainStore.RefreshEpoch();
    }

    /// <summary>Waits until nothing writes in the frozen version any more, refreshing this thread's epochs meanwhile.</summary>
    private void WaitForOldVersion(List<DatabaseSnapshot> snapshots)
    {
        int pending = snapshots.Count;
        foreach (var snapshot in snapshots)
            snapshot.Database.MainStore.RequestDrain(() => Interlocked.Decrement(ref pending));
        var spin = new SpinWait();
        while (Volatile.Read(ref pending) != 0)
        {
            foreach (var snapshot in snapshots)
                snapshot.Database.MainStore.RefreshEpoch();
            spin.SpinOnce(sleep1Threshold: 20);
        }
    }

    private static void EndSnapshots(List<DatabaseSnapshot> snapshots)
    {
        foreach (var snapshot in snapshots)
            snapshot.Database.MainStore.EndSnapshot();
        snapshots.Clear();
    }

    /// <summary>Deletes the checkpoints older than <paramref name="version"/>, now that it is complete.</summary>
    private static void DeleteOlder(string directory, long version)
    {
        foreach (var (older, path) in CheckpointFile.List(directory))
        {
            if (older < version)
                File.Delete(path);
        }
    }

    private static void DeleteTemporaryFiles(string directory)
    {
        try
        {
            foreach (var path in System.IO.Directory.EnumerateFiles(directory, "*" + CheckpointFile.TempSuffix))
                File.Delete(path);
        }
        catch (IOException)
        {
            // Left for the next checkpoint to remove; a temporary file is never read.
        }
    }
}
