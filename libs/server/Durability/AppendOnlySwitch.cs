using System;
using System.IO;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Turns the operation log (AOF) on and off while the server runs (CONFIG SET appendonly), as Redis does. On: the log is
/// opened in the AOF directory and published (<see cref="StoreWrapper.OperationLog"/>); every session logs from its next
/// batch; once all do, a checkpoint (the AOF's base, as Redis's rewrite) holds every write that was not logged, so that it
/// and the log after its version recover everything. Off: null is published and everything logged is committed; once no
/// session logs any more, the log is closed.
/// </summary>
/// <remarks>
/// Invariants: at most one log is open, in the AOF directory (a log still closing is taken back if the AOF is turned on
/// again meanwhile). The base checkpoint moves the version only after every session took the log, and a write reads its
/// version after its session took it, so every write of a version the base lacks is logged. Until the base is complete
/// the AOF directory holds <see cref="BasePendingFile"/>, and recovery refuses a log that lacks the writes before it. The
/// work after CONFIG SET's reply runs on a thread of its own, which takes each session's gate in turn: CONFIG SET runs
/// under its own session's gate and never waits for that thread.
/// </remarks>
internal sealed class AppendOnlySwitch : IDisposable
{
    /// <summary>In the AOF directory while the log lacks the writes made before it was turned on (its base checkpoint is not complete).</summary>
    public const string BasePendingFile = "base-pending";

    private const int RetryMilliseconds = 1000;

    private readonly StoreWrapper _server;
    private readonly object _lock = new();
    // The open log: the published one, or one turned off and still closing.
    private OperationLog? _open;
    private bool _baseNeeded;
    // Moves at every change of what is published: work begun under an older value is done again or dropped.
    private long _changes;
    private Thread? _worker;
    private bool _stopping;
    private volatile bool _basePending;

    public AppendOnlySwitch(StoreWrapper server) => _server = server;

    /// <summary>Whether the AOF is on and its base checkpoint not yet complete (INFO's aof_rewrite_scheduled until it starts).</summary>
    public bool BasePending => _basePending;

    /// <summary>Whether a log is open: on, or turned off and still closing (its files cannot move).</summary>
    public bool LogOpen
    {
        get
        {
            lock (_lock)
                return _open != null;
        }
    }

    /// <summary>The log recovery opened at start (--aof): on, with nothing to catch up.</summary>
    public void Opened(OperationLog log)
    {
        lock (_lock)
        {
            _open = log;
            _server.OperationLog = log;
        }
    }

    /// <summary>
    /// appendonly yes: opens the log (its files continue in a new file past any already there, which it removes) and
    /// publishes it; the sessions' switch and the base checkpoint follow in the background. Throws IOException or
    /// UnauthorizedAccessException when the files cannot be made.
    /// </summary>
    public void TurnOn()
    {
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_stopping, this);
            if (_server.OperationLog != null)
                return;
            var options = _server.Options;
            string directory = _server.AofDirectory;
            if (_open == null)
            {
                var files = new OperationLogFiles(directory, options.EffectiveAofSegmentSize, options.AofPageSize);
                try
                {
                    MarkBasePending(directory);
                    // What the files held is older than the writes made while the log was off: the base checkpoint holds it.
                    files.StartAfresh();
                    _open = new OperationLog(files, options.AofMemorySize, options.AofCommitFrequencyMs) { LatencyMonitor = _server.LatencyMonitor };
                }
                catch
                {
                    files.Dispose();
                    throw;
                }
            }
            else
            {
                MarkBasePending(directory);
            }
            options.EnableAof = true;
            _server.OperationLog = _open;
            _changes++;
            _baseNeeded = true;
            _basePending = true;
            StartWorker();
        }
    }

    /// <summary>
    /// appendonly no: sessions stop logging at their next batch; everything logged so far is made durable before this
    /// returns, and the log is closed in the background once no session logs any more.
    /// </summary>
    public void TurnOff()
    {
        lock (_lock)
        {
            var log = _server.OperationLog;
            if (log == null)
                return;
            _server.Options.EnableAof = false;
            _server.OperationLog = null;
            _changes++;
            _basePending = false;
            // As Redis's stopAppendOnly fsyncs before it replies (a failed log has told its waiters already); under the
            // lock, so the worker cannot close the log meanwhile.
            log.CommitAll();
            StartWorker();
        }
    }

    private void StartWorker()
    {
        if (_worker != null)
            return;
        _worker = new Thread(RunWorker) { IsBackground = true, Name = "Garnet appendonly switch" };
        _worker.Start();
    }

    private void RunWorker()
    {
        while (true)
        {
            OperationLog? closing = null;
            long changes;
            lock (_lock)
            {
                changes = _changes;
                if (_stopping || (_server.OperationLog == null && _open == null) || (_server.OperationLog != null && !_baseNeeded))
                {
                    _worker = null;
                    return;
                }
                if (_server.OperationLog == null)
                    closing = _open;
            }
            try
            {
                if (closing != null)
                    Close(closing, changes);
                else
                    MakeBase(changes);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The directory could not be synced or the marker removed: the step is taken again.
                Thread.Sleep(RetryMilliseconds);
            }
        }
    }

    /// <summary>Closes the log once no session logs to it (one with replies held for its commit keeps it until they went).</summary>
    private void Close(OperationLog log, long changes)
    {
        if (!SwitchSessions(changes))
            return;
        lock (_lock)
        {
            if (_changes != changes)
                return;
            _open = null;
            // Under the lock: a TurnOn meanwhile would open the same files.
            log.Dispose();
        }
    }

    /// <summary>
    /// Once every session logs, a checkpoint of kind BGREWRITEAOF: it holds every write not logged. Tried again while it
    /// fails and the AOF stays on.
    /// </summary>
    private void MakeBase(long changes)
    {
        if (!SwitchSessions(changes))
            return;
        bool made = _server.Checkpoints.RewriteWaitingForRunning(() => Unchanged(changes));
        lock (_lock)
        {
            if (made && _changes == changes)
            {
                File.Delete(Path.Combine(_server.AofDirectory, BasePendingFile));
                FileSync.SyncDirectory(_server.AofDirectory);
                _baseNeeded = false;
                _basePending = false;
                return;
            }
        }
        // A failed checkpoint (aof_last_bgrewrite_status err) is retried, as Redis retries the rewrite the AOF waits for.
        for (int waited = 0; waited < RetryMilliseconds && Unchanged(changes) && !made; waited += 50)
            Thread.Sleep(50);
    }

    private bool Unchanged(long changes)
    {
        lock (_lock)
            return _changes == changes && !_stopping;
    }

    /// <summary>
    /// Has every client session take the published log (under its gate, so between its batches, or while it is blocked);
    /// false when what is published changed meanwhile or the server stops.
    /// </summary>
    private bool SwitchSessions(long changes)
    {
        var pending = _server.Clients.Snapshot();
        while (true)
        {
            for (int i = pending.Count - 1; i >= 0; i--)
            {
                if (pending[i].FollowPublishedLog())
                    pending.RemoveAt(i);
            }
            if (pending.Count == 0)
                return Unchanged(changes);
            if (!Unchanged(changes))
                return false;
            // Sessions whose replies wait for a commit switch once it is made.
            Thread.Sleep(5);
        }
    }

    private static void MarkBasePending(string directory)
    {
        Directory.CreateDirectory(directory);
        string path = Path.Combine(directory, BasePendingFile);
        if (File.Exists(path))
            return;
        using (var marker = new FileStream(path, FileMode.CreateNew, FileAccess.Write))
            marker.Flush(flushToDisk: true);
        FileSync.SyncDirectory(directory);
    }

    /// <summary>Stops the background work and closes the open log (after the connections: what they logged is committed).</summary>
    public void Dispose()
    {
        Thread? worker;
        lock (_lock)
        {
            _stopping = true;
            worker = _worker;
        }
        worker?.Join();
        lock (_lock)
        {
            _open?.Dispose();
            _open = null;
            _server.OperationLog = null;
        }
    }
}
