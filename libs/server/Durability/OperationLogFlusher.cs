using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Makes what the operation log's writer wrote durable (fdatasync), on a thread of its own, so that the writer writes the
/// next commit's entries while the device flushes the previous ones: a commit costs the device a write and then a cache
/// flush, and with the two overlapped from one commit to the next, commits follow each other about twice as often.
/// </summary>
/// <remarks>
/// Flushes run one at a time and in order, so what they report durable only grows. A flush asked for while one runs
/// waits, merged with any others asked for meanwhile (it covers them all).
/// </remarks>
internal sealed class OperationLogFlusher : IDisposable
{
    private readonly object _lock = new();
    private readonly Thread _thread;
    private readonly Action<long> _durable;
    private readonly Action<Exception> _failed;

    private readonly List<FileStream> _pendingFiles = [];
    private readonly List<FileStream> _flushingFiles = [];
    private long _pendingEnd;
    private bool _pending;
    private bool _busy;
    private bool _stopping;
    private bool _ended;

    // Told how long each flush's fsyncs took (the latency monitor's aof-fsync-always).
    private readonly Action<TimeSpan>? _synced;

    /// <summary>
    /// <paramref name="durable"/> is told, on the flusher's thread, the log address up to which everything is durable
    /// after each flush; <paramref name="failed"/> why a flush failed (nothing more is flushed after).
    /// </summary>
    public OperationLogFlusher(Action<long> durable, Action<Exception> failed, Action<TimeSpan>? synced = null)
    {
        _synced = synced;
        _durable = durable;
        _failed = failed;
        _thread = new Thread(Run) { IsBackground = true, Name = "Garnet log flush" };
        _thread.Start();
    }

    /// <summary>
    /// Asks for <paramref name="file"/> (null if nothing was written since the last flush) to be made durable, and then
    /// for everything up to <paramref name="end"/> to be reported durable. From the writer's thread, after its writes.
    /// </summary>
    public void Submit(FileStream? file, long end)
    {
        lock (_lock)
        {
            if (_ended)
                return;
            if (file != null && !_pendingFiles.Contains(file))
                _pendingFiles.Add(file);
            _pendingEnd = Math.Max(_pendingEnd, end);
            _pending = true;
            Monitor.PulseAll(_lock);
        }
    }

    /// <summary>Waits until every flush asked for has ended (before a file it may sync is closed).</summary>
    public void WaitIdle()
    {
        lock (_lock)
        {
            while ((_pending || _busy) && !_ended)
                Monitor.Wait(_lock);
        }
    }

    private void Run()
    {
        while (true)
        {
            long end;
            lock (_lock)
            {
                while (!_pending && !_stopping)
                    Monitor.Wait(_lock);
                if (!_pending)
                {
                    _ended = true;
                    Monitor.PulseAll(_lock);
                    return;
                }
                _flushingFiles.AddRange(_pendingFiles);
                _pendingFiles.Clear();
                end = _pendingEnd;
                _pending = false;
                _busy = true;
            }
            try
            {
                long started = System.Diagnostics.Stopwatch.GetTimestamp();
                foreach (var file in _flushingFiles)
                    FileSync.DataSync(file);
                if (_flushingFiles.Count > 0)
                    _synced?.Invoke(System.Diagnostics.Stopwatch.GetElapsedTime(started));
            }
            catch (Exception e)
            {
                lock (_lock)
                {
                    _ended = true;
                    _busy = false;
                    _pending = false;
                    _pendingFiles.Clear();
                    Monitor.PulseAll(_lock);
                }
                _flushingFiles.Clear();
                _failed(e);
                return;
            }
            _flushingFiles.Clear();
            _durable(end);
            lock (_lock)
            {
                _busy = false;
                Monitor.PulseAll(_lock);
            }
        }
    }

    /// <summary>Ends the thread once the flushes asked for are done.</summary>
    public void Dispose()
    {
        lock (_lock)
        {
            _stopping = true;
            Monitor.PulseAll(_lock);
        }
        _thread.Join();
    }
}
