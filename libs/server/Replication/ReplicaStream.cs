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

    // A full sync being received: the checkpoint goes to a temporary file, loaded once complete.
    private FileStream? _syncFile;
    private string? _syncPath;
    private long _syncOffset;
    private string? _syncReplicationId;
    private volatile bool _syncing;

    public ReplicaStream(StoreWrapper server) => _server = server;

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
                // REPLICAOF starts over from a checkpoint).
                _expectedToken = null;
                ReplicationId = null;
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
    /// the entries the checkpoint already holds skipped. The caller is protected on no database's epoch.
    /// </summary>
    public string? EndSync()
    {
        if (_syncFile == null || _syncPath == null)
            return "ERR no full sync in progress";
        try
        {
            _syncFile.Dispose();
            _syncFile = null;
            var (version, aofStart) = CheckpointLoader.ReadHeader(_syncPath);
            if (aofStart != _syncOffset)
                return $"ERR the checkpoint starts the log at {aofStart}, not at {_syncOffset}";
            _server.FlushAll(wait: true);
            var report = CheckpointLoader.Load(_server, _syncPath, failOnError: true);
            _skipThroughVersion = version;
            Interlocked.Exchange(ref _offset, aofStart);
            ReplicationId = _syncReplicationId;
            Touch();
            return report.Damage == null ? null : "ERR the checkpoint is damaged: " + report.Damage;
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            return "ERR loading the primary's checkpoint failed: " + e.Message;
        }
        finally
        {
            AbandonSync();
        }
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
        }
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
            try
            {
                problem = OperationLogRecovery.ReplayEntry(_server, replayer, body, offset + at, _skipThroughVersion, ref commands, out _, out _);
            }
            catch (InvalidDataException e)
            {
                problem = e.Message;
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
