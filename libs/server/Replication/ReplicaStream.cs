using System;
using System.Buffers.Binary;
using System.Diagnostics;
using System.IO;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// A replica's side of the stream its primary sends (on a connection the primary's <see cref="ReplicaSender"/> opened
/// and attached with the link's token): a checkpoint to start from when the primary says so (REPLFULL), then the
/// primary's log entries (REPLAPPEND), each replayed as recovery replays it, in its database, at its clock, with its seed.
/// </summary>
/// <remarks>
/// One session at a time owns the stream (the last to attach); its commands run on that session's thread only, so the
/// offsets need no lock beyond publishing them to INFO. Entries come whole and in order: an offset that is not where the
/// stream stands is refused, and the primary then starts over.
/// <para>
/// With the operation log on, the replica keeps a log of its own as a copy of the stream (<see cref="ReplicaLogMirror"/>),
/// and each of its checkpoints notes where in the stream it stands (<see cref="ReplicaCheckpointState"/>): a replica that
/// restarts recovers as a primary does and then asks to continue from there (<see cref="Restore"/>).
/// </para>
/// </remarks>
internal sealed class ReplicaStream
{
    private readonly StoreWrapper _server;
    private readonly object _lock = new();
    private object? _owner;
    private string? _expectedToken;
    private long _offset;
    private long _skipThroughVersion;
    private long _lastContactTicks;
    private RespServerSession? _replayer;
    private DiscardingSender? _replayerSender;

    // The copy of the stream in this server's own log, or null; the log it knows cannot mirror (a full sync's checkpoint
    // failed, or the log failed) and so does not ask for a full sync about.
    private volatile ReplicaLogMirror? _mirror;
    private OperationLog? _unmirroredLog;

    // Restored from a checkpoint at start: the write commands counted then. A client's write before this server follows
    // its primary again (a standalone server restarts as a primary) makes the restored place in the stream wrong.
    private long _restoredWrites = -1;

    // A full sync being received: the checkpoint goes to a temporary file, loaded once complete.
    private FileStream? _syncFile;
    private string? _syncPath;
    private long _syncOffset;
    private string? _syncReplicationId;
    private volatile bool _syncing;

    public ReplicaStream(StoreWrapper server) => _server = server;

    /// <summary>
    /// Held while an entry is applied and copied to this server's log; a checkpoint takes it to move the version, so each
    /// entry is wholly in one version and the checkpoint holds the stream up to an entry's end.
    /// </summary>
    internal object ApplyLock { get; } = new();

    /// <summary>This server's log's copy of the stream (a replica with the operation log on), or null.</summary>
    internal ReplicaLogMirror? LogMirror => _mirror;

    // Set after each run of entries applied while the log copies them: the link then reports their commit (REPLFACK).
    private readonly AutoResetEvent _applied = new(false);

    /// <summary>Signalled when entries were applied and copied to this server's log.</summary>
    internal WaitHandle AppliedSignal => _applied;

    /// <summary>
    /// The primary's offset up to which this server's own log holds the stream durably (what WAITAOF counts a replica
    /// by), or -1 when its log does not copy the stream.
    /// </summary>
    public long DurableOffset
    {
        get
        {
            var mirror = _mirror;
            if (mirror == null || mirror.Log != _server.OperationLog)
                return -1;
            return Math.Min(mirror.Log.CommittedFileOffset + mirror.Delta, Offset);
        }
    }

    /// <summary>The primary's log offset up to which every entry is applied here.</summary>
    public long Offset => Interlocked.Read(ref _offset);

    /// <summary>The primary's history the data here follows, once synced (null before).</summary>
    public string? ReplicationId { get; private set; }

    /// <summary>Whether a full sync is being received or loaded (master_sync_in_progress).</summary>
    public bool Syncing => _syncing;

    /// <summary>Whether a primary's sender is attached now.</summary>
    public bool Attached => Volatile.Read(ref _owner) != null;

    /// <summary>Milliseconds since the primary last sent anything (entries or a heartbeat); -1 when it never did.</summary>
    public long SilenceMs
    {
        get
        {
            long last = Interlocked.Read(ref _lastContactTicks);
            return last == 0 ? -1 : (long)Stopwatch.GetElapsedTime(last).TotalMilliseconds;
        }
    }

    /// <summary>The link's token: the next sender that attaches must present it (a new link, a new token).</summary>
    public void Expect(string token)
    {
        lock (_lock)
            _expectedToken = token;
    }

    /// <summary>REPLATTACH: <paramref name="session"/> owns the stream when it presents the expected token.</summary>
    public bool Attach(object session, string token)
    {
        lock (_lock)
        {
            if (_expectedToken == null || !CryptographicEquals(_expectedToken, token))
                return false;
            DropRestoredIfWritten();
            _restoredWrites = -1; // following a primary: clients write no more here
            _owner = session;
            Interlocked.Exchange(ref _lastContactTicks, Stopwatch.GetTimestamp());
            return true;
        }
    }

    /// <summary>The stream ends (its session closed, or <paramref name="session"/> null: this server stops replicating).</summary>
    public void Detach(object? session)
    {
        lock (_lock)
        {
            if (session != null && !ReferenceEquals(_owner, session))
                return;
            _owner = null;
            if (session == null)
            {
                // This server stops following that primary: what it holds is its own history from here (a later
                // REPLICAOF starts over from a checkpoint), and its log takes its own writes.
                _expectedToken = null;
                ReplicationId = null;
                _mirror = null;
                _unmirroredLog = null;
                _restoredWrites = -1;
            }
            AbandonSync();
        }
    }

    /// <summary>Whether <paramref name="session"/> owns the stream.</summary>
    public bool IsOwner(object session) => ReferenceEquals(Volatile.Read(ref _owner), session);

    /// <summary>REPLFULL BEGIN: a checkpoint holding the primary's data at <paramref name="offset"/> follows.</summary>
    public void BeginSync(string replicationId, long offset)
    {
        AbandonSync();
        string directory = _server.Checkpoints.Directory;
        Directory.CreateDirectory(directory);
        _syncPath = Path.Combine(directory, "replica-sync" + CheckpointFile.TempSuffix);
        _syncFile = new FileStream(_syncPath, FileMode.Create, FileAccess.Write, FileShare.Read, 1 << 16);
        _syncOffset = offset;
        _syncReplicationId = replicationId;
        _syncing = true;
        Touch();
    }

    /// <summary>REPLFULL DATA: the next bytes of the checkpoint.</summary>
    public string? AddSyncBytes(ReadOnlySpan<byte> bytes)
    {
        if (_syncFile == null)
            return "ERR no full sync in progress";
        _syncFile.Write(bytes);
        Touch();
        return null;
    }

    /// <summary>
    /// REPLFULL END: every database is emptied and the checkpoint loaded; the stream then continues at its offset, with
    /// the entries the checkpoint already holds skipped. With the operation log on, this server then takes a checkpoint
    /// of its own and its log copies the stream from there (<see cref="StartMirror"/>). The caller is protected on no
    /// database's epoch.
    /// </summary>
    public string? EndSync()
    {
        if (_syncFile == null || _syncPath == null)
            return "ERR no full sync in progress";
        long aofStart;
        try
        {
            _syncFile.Dispose();
            _syncFile = null;
            (long version, aofStart) = CheckpointLoader.ReadHeader(_syncPath);
            if (aofStart != _syncOffset)
                return $"ERR the checkpoint starts the log at {aofStart}, not at {_syncOffset}";
            // No checkpoint of this server's is taken while the data is replaced: it would hold part of it.
            lock (ApplyLock)
            {
                _mirror = null;
                _unmirroredLog = null;
                ReplicationId = null;
                _server.FlushAll(wait: true);
                var report = CheckpointLoader.Load(_server, _syncPath, failOnError: true);
                if (report.Damage != null)
                    return "ERR the checkpoint is damaged: " + report.Damage;
                _skipThroughVersion = version;
                Interlocked.Exchange(ref _offset, aofStart);
                ReplicationId = _syncReplicationId;
            }
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            return "ERR loading the primary's checkpoint failed: " + e.Message;
        }
        finally
        {
            AbandonSync();
        }
        Touch();
        StartMirror(aofStart);
        Touch();
        return null;
    }

    /// <summary>
    /// REPLAPPEND: replays the whole entries in <paramref name="entries"/>, which start at the primary's log offset
    /// <paramref name="offset"/> (empty: a heartbeat). Returns null, or the error to reply (nothing after it is applied).
    /// </summary>
    public string? Append(string replicationId, long offset, ReadOnlySpan<byte> entries)
    {
        if (ReplicationId == null || replicationId != ReplicationId)
            return "ERR the stream is of another history: a full sync is needed";
        if (offset != Offset)
            return $"ERR the stream stands at offset {Offset}, not {offset}";
        Touch();
        var replayer = Replayer();
        replayer.BeginReplayRun();
        try
        {
            return ApplyEntries(replayer, offset, entries);
        }
        finally
        {
            replayer.EndReplayRun();
            if (_mirror != null && entries.Length > 0)
                _applied.Set();
        }
    }

    /// <summary>
    /// After a full sync, with the operation log on: this server's log copies the stream from the primary's
    /// <paramref name="offset"/> on, and a checkpoint of the loaded data (as Redis rewrites a replica's AOF after a sync),
    /// taken before any entry is applied, is where its recovery starts. Should that fail, the replica goes on without the
    /// copy; its previous checkpoint and log still recover the place in the stream they held.
    /// </summary>
    private void StartMirror(long offset)
    {
        if (_server.OperationLog is not { } log)
            return;
        try
        {
            _mirror = ReplicaLogMirror.StartAt(log, offset);
        }
        catch (OperationLogFailedException)
        {
            _unmirroredLog = log;
            return;
        }
        if (!_server.Checkpoints.RewriteWaitingForRunning(() => Attached))
        {
            _mirror = null;
            _unmirroredLog = log;
        }
    }

    /// <summary>
    /// Copies an applied entry to this server's log (when it mirrors the stream): null, or the error that ends the stream
    /// because the log no longer copies it (the operation log was turned on meanwhile): the replica then syncs again.
    /// </summary>
    private string? CopyToLog(ReadOnlySpan<byte> body, long version)
    {
        var log = _server.OperationLog;
        var mirror = _mirror;
        if (mirror != null && mirror.Log == log)
        {
            try
            {
                if (mirror.Append(body, version))
                    return null;
            }
            catch (OperationLogFailedException)
            {
                // The log failed (MISCONF): the replica goes on applying the stream without it.
                _mirror = null;
                _unmirroredLog = log;
                return null;
            }
        }
        if (log == null || log == _unmirroredLog)
        {
            _mirror = null; // turned off (CONFIG SET appendonly no): checkpoints alone note the place in the stream
            return null;
        }
        _mirror = null;
        ReplicationId = null;
        return "ERR this replica's operation log does not copy the stream from here: a full sync is needed";
    }

    /// <summary>
    /// For a checkpoint, under <see cref="ApplyLock"/> as it moves the version: where the data stands in the primary's
    /// stream, or null when it follows none (or is being replaced by a full sync).
    /// </summary>
    internal ReplicaCheckpointState? CheckpointState()
    {
        DropRestoredIfWritten();
        if (ReplicationId is not { } id || _syncing)
            return null;
        long delta = _mirror is { } mirror && mirror.Log == _server.OperationLog ? mirror.Delta : ReplicaCheckpointState.NoLog;
        return new ReplicaCheckpointState(id, Offset, _skipThroughVersion, delta);
    }

    /// <summary>
    /// At start, after recovery: the data recovered stands at <paramref name="offset"/> of the history in
    /// <paramref name="state"/>; <paramref name="mirror"/> continues this server's copy of the stream (or null).
    /// A link that asks its primary for the stream asks to continue from there.
    /// </summary>
    internal void Restore(ReplicaCheckpointState state, long offset, ReplicaLogMirror? mirror)
    {
        lock (_lock)
        {
            ReplicationId = state.ReplicationId;
            Interlocked.Exchange(ref _offset, offset);
            _skipThroughVersion = state.SkipThroughVersion;
            _mirror = mirror;
            _restoredWrites = _server.WriteCommandCount();
        }
    }

    /// <summary>The history and offset to ask the primary for (null: none, a full sync).</summary>
    internal (string? ReplicationId, long Offset) Held()
    {
        lock (_lock)
        {
            DropRestoredIfWritten();
            return (ReplicationId, ReplicationId == null ? -1 : Offset);
        }
    }

    // A client wrote since the place in the stream was restored: the data is no longer the stream's.
    private void DropRestoredIfWritten()
    {
        long restored = Interlocked.Read(ref _restoredWrites);
        if (restored < 0 || _server.WriteCommandCount() == restored)
            return;
        Interlocked.Exchange(ref _restoredWrites, -1);
        ReplicationId = null;
        _mirror = null;
    }

    private string? ApplyEntries(RespServerSession replayer, long offset, ReadOnlySpan<byte> entries)
    {
        long at = 0;
        long commands = 0;
        while (at < entries.Length)
        {
            if (entries.Length - at < OperationLogEntry.HeaderSize)
                return "ERR an incomplete entry";
            long word = BinaryPrimitives.ReadInt64LittleEndian(entries.Slice((int)at));
            int length = OperationLogEntry.LengthOf(word);
            if (length < OperationLogEntry.HeaderSize + OperationLogEntry.BodyHeaderSize || (length & 7) != 0 || length > entries.Length - at)
                return $"ERR an entry of impossible length {length} at offset {offset + at}";
            var body = entries.Slice((int)at + OperationLogEntry.HeaderSize, length - OperationLogEntry.HeaderSize);
            if (OperationLogEntry.Checksum(body) != OperationLogEntry.ChecksumOf(word))
                return $"ERR the entry at offset {offset + at} does not match its checksum";
            string? problem;
            // A checkpoint moving the version waits for the lock with nothing held; this thread, held up by it, first
            // leaves its batch (the checkpoint then waits for every thread inside the databases to move on).
            if (!Monitor.TryEnter(ApplyLock))
            {
                replayer.SuspendReplayBatch();
                Monitor.Enter(ApplyLock);
            }
            try
            {
                long version = _server.Versions.Version;
                problem = OperationLogRecovery.ReplayEntry(_server, replayer, body, offset + at, _skipThroughVersion, ref commands, out _, out bool skipped);
                // An entry the checkpoint the stream started from holds is copied too (offsets stay the primary's), at
                // version 0, which every recovery skips.
                if (problem == null && CopyToLog(body, skipped ? 0 : version) is { } mirrorError)
                    return mirrorError;
            }
            catch (InvalidDataException e)
            {
                problem = e.Message;
            }
            finally
            {
                Monitor.Exit(ApplyLock);
            }
            if (problem != null)
                return $"ERR {problem} at offset {offset + at}";
            at += length;
            Interlocked.Exchange(ref _offset, offset + at);
        }
        return null;
    }

    private RespServerSession Replayer()
    {
        if (_replayer == null)
        {
            _replayerSender = new DiscardingSender();
            _replayer = new RespServerSession(_server, _replayerSender, replaying: true, listed: false);
        }
        return _replayer;
    }

    private void Touch() => Interlocked.Exchange(ref _lastContactTicks, Stopwatch.GetTimestamp());

    private void AbandonSync()
    {
        _syncing = false;
        _syncFile?.Dispose();
        _syncFile = null;
        if (_syncPath != null)
        {
            try
            {
                File.Delete(_syncPath);
            }
            catch (IOException)
            {
                // Left behind: the next full sync writes over it.
            }
            _syncPath = null;
        }
    }

    private static bool CryptographicEquals(string expected, string given)
        => System.Security.Cryptography.CryptographicOperations.FixedTimeEquals(
            System.Text.Encoding.ASCII.GetBytes(expected), System.Text.Encoding.ASCII.GetBytes(given));
}
