using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// The operation log (AOF): one log of the commands that changed data, for all databases, from which recovery replays
/// them. Sessions append entries to a ring of memory, each reserving its place with one fetch-and-add on the tail and
/// copying its entry in; a writer thread writes the complete entries in order to the files, a flusher thread makes them
/// durable (commit, many sessions' entries with one fsync: group commit) while the writer writes the next ones, and a
/// notifier thread tells the sessions waiting for those commits (they send the replies they held).
/// </summary>
/// <remarks>
/// Invariants: an entry's header word is written last and the ring is zero wherever no complete entry is, so the writer
/// takes exactly the complete entries from where it stopped up to the first incomplete one. <c>_freed</c> (written and
/// zeroed) and <c>_committed</c> (durable) only move forward, committed never past freed; an appender waits until its
/// entry's end is within one ring of <c>_freed</c>. An entry larger than a quarter of the ring leaves only a descriptor in
/// the ring and its bytes beside it, written in its place, so every entry's bytes in the files follow the ring's order.
/// </remarks>
public sealed unsafe partial class OperationLog : IDisposable
{
    /// <summary>Marks a ring descriptor of a large entry in the header word's length (lengths are multiples of 8).</summary>
    private const int LargeEntryFlag = 1;
    private const int DescriptorLength = 16;
    private const int BackgroundWriteMilliseconds = 1000;

    private readonly byte* _ring;
    private readonly long _capacity;
    private readonly long _mask;
    private readonly int _largeEntryThreshold;
    private readonly OperationLogFiles _files;
    private readonly ConcurrentDictionary<long, byte[]> _largeEntries = new();
    private readonly Thread _writer;
    private readonly Thread _notifier;
    private readonly OperationLogFlusher _flusher;
    private readonly object _wakeLock = new();
    private readonly object _notifyLock = new();
    private readonly object _commitLock = new();

    private readonly object _waitersLock = new();
    private List<(long Address, ICommitWaiter Waiter)> _waiters = [];
    private List<(long Address, ICommitWaiter Waiter)> _waitersSpare = [];

    private long _tail;
    private long _freed;
    private long _committed;
    private long _commitRequested;
    // How far the writer asked the flusher to make the log durable (the writer's own).
    private long _submitted;
    private volatile Exception? _flushFailure;
    private long _fileBytes;
    private long _removeBefore;

    // Replication (libs/server/Replication): the file offset up to which the files hold what was appended (readable by a
    // replica's sender), signalled on _writtenLock while followers wait; and where the files a replica still needs begin.
    private long _writtenOut;
    private readonly object _writtenLock = new();
    private volatile int _followers;
    private Func<long>? _keepFrom;

    // The log address past the last write of the keys hashing to each slot, and past the last write of keys not declared
    // (FLUSHALL, scripts): a read of a key waits for these to be durable before its reply goes (see NoteWritten).
    private const int WriteSlotBits = 16;
    private readonly long[] _lastWriteBySlot = new long[1 << WriteSlotBits];
    private long _lastUndeclaredWrite;
    private bool _wakeRequested;
    private bool _notifyRequested;
    private bool _notifierStopping;
    private volatile bool _stopping;
    private volatile bool _writerEnded;
    private volatile Exception? _failure;
    private bool _disposed;

    /// <summary>
    /// Opens the log in <paramref name="files"/>, whose end is where new entries go (recovery has replayed and cut what was
    /// there). <paramref name="memory"/> bytes of ring (a power of two, at least 64 KB); <paramref name="commitFrequencyMs"/>
    /// as <see cref="ServerOptions.AofCommitFrequencyMs"/>.
    /// </summary>
    internal OperationLog(OperationLogFiles files, long memory, int commitFrequencyMs)
    {
        if (memory < (1 << 16) || (memory & (memory - 1)) != 0 || memory > (1L << 30))
            throw new ArgumentOutOfRangeException(nameof(memory), "The operation log's memory must be a power of two from 64 KB to 1 GB.");
        _files = files;
        _capacity = memory;
        _mask = memory - 1;
        _largeEntryThreshold = (int)(memory / 4);
        _commitFrequencyMs = commitFrequencyMs;
        _fileBytes = files.Tail;
        _writtenOut = files.Tail;
        _ring = (byte*)NativeMemory.AlignedAlloc((nuint)memory, 4096);
        NativeMemory.Clear(_ring, (nuint)memory);
        _writer = new Thread(RunWriter) { IsBackground = true, Name = "Garnet operation log" };
        _notifier = new Thread(RunNotifier) { IsBackground = true, Name = "Garnet log commits" };
        _flusher = new OperationLogFlusher(OnDurable, OnFlushFailed, OnSynced);
        _notifier.Start();
        _writer.Start();
    }

    /// <summary>Where slow commit fsyncs are reported (LATENCY's aof-fsync-always), when set.</summary>
    internal LatencyMonitor? LatencyMonitor { get; set; }

    // Only commits that acknowledged writes wait for count, as Redis counts appendfsync always's fsyncs.
    private void OnSynced(TimeSpan elapsed)
    {
        if (CommitFrequencyMs == 0)
            LatencyMonitor?.AddIfSpike(Garnet.server.LatencyMonitor.AofFsyncEvent, (long)elapsed.TotalMilliseconds);
    }

    /// <summary>0: each commit is asked for (by sessions before they reply); N: every N ms; -1: only on COMMITAOF (the ring is still written out each second).</summary>
    public int CommitFrequencyMs => _commitFrequencyMs;

    private volatile int _commitFrequencyMs;

    /// <summary>
    /// Changes the commit frequency while the log runs (CONFIG SET appendfsync). Everything appended so far is committed,
    /// so no reply held under the old policy waits for a periodic commit the new one no longer makes; sessions take the
    /// new policy at their next batch (<see cref="SessionOperationLog.RefreshPolicy"/>).
    /// </summary>
    public void ChangeCommitFrequency(int commitFrequencyMs)
    {
        _commitFrequencyMs = commitFrequencyMs;
        RequestCommit(Volatile.Read(ref _tail));
        Wake();
    }

    /// <summary>Bytes in the log's files.</summary>
    public long FileBytes => Interlocked.Read(ref _fileBytes);

    /// <summary>The log address past the last entry appended (what <see cref="CommitAll"/> commits).</summary>
    public long Tail => Volatile.Read(ref _tail);

    /// <summary>Bytes appended and not yet durable.</summary>
    public long UncommittedBytes => Volatile.Read(ref _tail) - Volatile.Read(ref _committed);

    /// <summary>Why writing the log failed, or null; after a failure nothing more is written (Redis's MISCONF state).</summary>
    public Exception? Failure => _failure;

    /// <summary>
    /// Notes that a write of the key with <paramref name="keyHash"/> is logged up to <paramref name="address"/>. Called
    /// before the write's key locks are released, so a read that sees its value (it takes the key's latch after) finds
    /// the address here and holds its reply until the write is durable.
    /// </summary>
    public void NoteWritten(long keyHash, long address) => RaiseTo(ref _lastWriteBySlot[keyHash & ((1 << WriteSlotBits) - 1)], address);

    /// <summary>Notes a logged write of keys it did not declare (every read then waits for it).</summary>
    public void NoteUndeclaredWrite(long address) => RaiseTo(ref _lastUndeclaredWrite, address);

    /// <summary>The log address a read of the key with <paramref name="keyHash"/> must see durable before its reply goes.</summary>
    public long DurableBeforeRead(long keyHash)
        => Math.Max(Volatile.Read(ref _lastWriteBySlot[keyHash & ((1 << WriteSlotBits) - 1)]), Volatile.Read(ref _lastUndeclaredWrite));

    private static void RaiseTo(ref long slot, long value)
    {
        long current;
        while ((current = Volatile.Read(ref slot)) < value && Interlocked.CompareExchange(ref slot, value, current) != current)
        {
        }
    }

    /// <summary>Where the log's first kept file begins (the files before were removed after a checkpoint).</summary>
    public long FileStart => _files.Start;

    /// <summary>The file offset up to which the files hold every entry written out (what a replica's sender may read).</summary>
    public long WrittenOut => Interlocked.Read(ref _writtenOut);

    /// <summary>
    /// The file offset at which the next entry appended begins, once the writer has written out everything appended so
    /// far (this waits for it). Meaningful only while nobody else appends: a replica mirroring its primary's stream, which
    /// alone appends there (see ReplicaLogMirror).
    /// </summary>
    internal long FileOffsetOfTail()
    {
        long tail = Volatile.Read(ref _tail);
        while (Volatile.Read(ref _freed) < tail)
        {
            ThrowIfFailed();
            if (_writerEnded)
                throw new OperationLogFailedException(new ObjectDisposedException(nameof(OperationLog)));
            Wake();
            Thread.Sleep(1);
        }
        return Interlocked.Read(ref _fileBytes);
    }

    /// <summary>The directory of the log's files and their size (a replica's sender reads them with handles of its own).</summary>
    internal (string Directory, long SegmentSize) FileLayout => (_files.DirectoryPath, _files.SegmentSize);

    /// <summary>
    /// A follower (a replica's sender) starts or stops waiting for entries: while any does, entries are written out to the
    /// files within <see cref="FollowerWriteOutMilliseconds"/> of being appended even when no commit is due, and every
    /// write-out is signalled (<see cref="WaitForWrittenOut"/>).
    /// </summary>
    public void Follow(bool on)
    {
        // The backlog starts where the files end when it is made; bytes written before are read from the files.
        if (on && _backlog == null)
            Interlocked.CompareExchange(ref _backlog, new ReplicationBacklog(BacklogBytes, Interlocked.Read(ref _writtenOut)), null);
        if (on)
            Interlocked.Increment(ref _followers);
        else
            Interlocked.Decrement(ref _followers);
        Wake();
    }

    // The replication backlog's size: a few seconds of writes at full speed.
    private const int BacklogBytes = 64 << 20;

    /// <summary>How soon after being appended an entry reaches the files while followers wait.</summary>
    public const int FollowerWriteOutMilliseconds = 2;

    /// <summary>Waits up to <paramref name="timeoutMs"/> until <see cref="WrittenOut"/> passes <paramref name="offset"/>; returns it.</summary>
    public long WaitForWrittenOut(long offset, int timeoutMs)
    {
        lock (_writtenLock)
        {
            long deadline = Environment.TickCount64 + timeoutMs;
            while (Interlocked.Read(ref _writtenOut) <= offset && !_writerEnded)
            {
                long wait = deadline - Environment.TickCount64;
                if (wait <= 0)
                    break;
                Monitor.Wait(_writtenLock, (int)wait);
            }
            return Interlocked.Read(ref _writtenOut);
        }
    }

    /// <summary>
    /// Where the files that must be kept begin, asked before files are removed after a checkpoint (the replicas' senders:
    /// the oldest offset one of them still has to send); null keeps only what checkpoints need.
    /// </summary>
    internal Func<long>? KeepFrom
    {
        get => Volatile.Read(ref _keepFrom);
        set => Volatile.Write(ref _keepFrom, value);
    }

    /// <summary>
    /// Asks the writer to remove the files wholly before file offset <paramref name="address"/> (a checkpoint holds what
    /// they logged; see <see cref="Checkpointer"/>).
    /// </summary>
    public void RemoveBefore(long address)
    {
        long current;
        do
        {
            current = Volatile.Read(ref _removeBefore);
            if (address <= current)
                return;
        }
        while (Interlocked.CompareExchange(ref _removeBefore, address, current) != current);
        Wake();
    }

    /// <summary>
    /// Appends an entry with <paramref name="body"/> (the layout of <see cref="OperationLogEntry"/> after the header) and
    /// returns the log address just past it, for <see cref="WaitForCommit"/>. Waits while the ring is full.
    /// </summary>
    public long Append(ReadOnlySpan<byte> body)
    {
        ThrowIfFailed();
        int length = OperationLogEntry.EntryLength(body.Length);
        uint checksum = OperationLogEntry.Checksum(body);
        if (length > _largeEntryThreshold)
            return AppendLarge(body, length, checksum);
        long address = Reserve(length);
        CopyIn(address + OperationLogEntry.HeaderSize, body); // the padding is already zero
        Volatile.Write(ref *(long*)(_ring + (address & _mask)), OperationLogEntry.HeaderWord(length, checksum));
        return address + length;
    }

    private long AppendLarge(ReadOnlySpan<byte> body, int length, uint checksum)
    {
        var bytes = new byte[length];
        MemoryMarshal.Write(bytes, OperationLogEntry.HeaderWord(length, checksum));
        body.CopyTo(bytes.AsSpan(OperationLogEntry.HeaderSize));
        long address = Reserve(DescriptorLength);
        _largeEntries[address] = bytes;
        *(long*)(_ring + ((address + 8) & _mask)) = length;
        Volatile.Write(ref *(long*)(_ring + (address & _mask)), OperationLogEntry.HeaderWord(DescriptorLength | LargeEntryFlag, 0));
        return address + DescriptorLength;
    }

    private long Reserve(int length)
    {
        long address = Interlocked.Add(ref _tail, length) - length;
        long needed = address + length - _capacity;
        if (Volatile.Read(ref _freed) < needed)
            WaitForSpace(needed);
        return address;
    }

    private void WaitForSpace(long needed)
    {
        var spinner = new SpinWait();
        while (Volatile.Read(ref _freed) < needed)
        {
            ThrowIfFailed();
            if (_writerEnded)
                throw new OperationLogFailedException(new ObjectDisposedException(nameof(OperationLog)));
            Wake();
            spinner.SpinOnce();
        }
    }

    private void CopyIn(long address, ReadOnlySpan<byte> bytes)
    {
        long offset = address & _mask;
        int first = (int)Math.Min(bytes.Length, _capacity - offset);
        bytes.Slice(0, first).CopyTo(new Span<byte>(_ring + offset, first));
        if (first < bytes.Length)
            bytes.Slice(first).CopyTo(new Span<byte>(_ring, bytes.Length - first));
    }

    /// <summary>Whether everything up to <paramref name="address"/> is durable.</summary>
    public bool IsCommitted(long address) => Volatile.Read(ref _committed) >= address && !IsAbandoned(address);

    /// <summary>
    /// Waits until everything up to <paramref name="address"/> is durable, asking the writer for a commit when
    /// <paramref name="request"/> (else the next periodic one is awaited), or until <paramref name="deadline"/>
    /// (<see cref="Environment.TickCount64"/>; 0: none) passes. False if writing the log failed or the time ran out: in
    /// cluster mode a commit also waits for the replicas in sync and the write lease, which may not come back soon.
    /// </summary>
    public bool WaitForCommit(long address, bool request = true, long deadline = 0)
    {
        if (Volatile.Read(ref _committed) >= address)
            return true;
        if (request || CommitFrequencyMs <= 0)
            RequestCommit(address);
        lock (_commitLock)
        {
            while (Volatile.Read(ref _committed) < address && !IsAbandoned(address) && _failure == null && !_writerEnded)
            {
                if (deadline == 0)
                {
                    Monitor.Wait(_commitLock);
                    continue;
                }
                long left = deadline - Environment.TickCount64;
                if (left <= 0)
                    break;
                Monitor.Wait(_commitLock, (int)Math.Min(left, int.MaxValue));
            }
        }
        return IsCommitted(address);
    }

    /// <summary>Asks the writer to make everything up to <paramref name="address"/> durable, without waiting for it.</summary>
    public void RequestCommit(long address)
    {
        long asked;
        while ((asked = Volatile.Read(ref _commitRequested)) < address)
        {
            if (Interlocked.CompareExchange(ref _commitRequested, address, asked) == asked)
            {
                Wake();
                return;
            }
        }
    }

    /// <summary>
    /// Tells <paramref name="waiter"/> on the log's notifier thread once everything up to <paramref name="address"/> is durable
    /// (or writing failed: see <see cref="Failure"/>), asking for that commit when <paramref name="request"/>; false, and
    /// nothing registered, when the log failed or stopped already. The caller
    /// goes on meanwhile: a session keeps its replies and sends them from the notification, so an event loop never waits
    /// for a commit and each fsync covers what every connection appended while the previous one ran (group commit).
    /// </summary>
    public bool OnCommitted(long address, ICommitWaiter waiter, bool request)
    {
        lock (_waitersLock)
        {
            // The writer notifies every waiter as it fails or stops, under this lock after setting the flag: a later one
            // would never be told, so it is refused (the caller then finds the commit failed).
            if (_failure != null || _writerEnded || IsAbandoned(address))
                return false;
            _waiters.Add((address, waiter));
            if (_waiters.Count >= _pruneWaitersAt)
                PruneAbandonedWaiters();
        }
        // A waiter that counted on periodic commits after the policy changed to none (or to asked-for ones) asks too.
        if (request || CommitFrequencyMs <= 0)
            RequestCommit(address);
        // A commit between the caller's look and the registration has passed the waiter by: the notifier looks at the
        // waiters again. (A failure tells every waiter as the writer ends.)
        if (Volatile.Read(ref _committed) >= address)
            RequestNotify();
        return true;
    }

    /// <summary>Number of waiters registered for commits that have not come (waiting WAITAOF/COMMITAOF, held replies).</summary>
    public int CommitWaiters
    {
        get
        {
            lock (_waitersLock)
                return _waiters.Count;
        }
    }

    /// <summary>
    /// While commits are held for long (a primary that lost its lease and was not demoted), clients that wait and leave
    /// would grow the list without bound: past a size that doubles with what stays, the abandoned are dropped (called
    /// under the lock, amortized over the registrations since the last pass).
    /// </summary>
    private void PruneAbandonedWaiters()
    {
        _waiters.RemoveAll(static entry => entry.Waiter.Abandoned);
        _pruneWaitersAt = Math.Max(MinPruneWaiters, 2 * _waiters.Count);
    }

    private const int MinPruneWaiters = 1024;
    private int _pruneWaitersAt = MinPruneWaiters;

    /// <summary>Notifies the waiters whose addresses are durable now (all of them after a failure or at the end).</summary>
    private void NotifyWaiters(bool all)
    {
        List<(long Address, ICommitWaiter Waiter)> waiters;
        lock (_waitersLock)
        {
            if (_waiters.Count == 0)
                return;
            waiters = _waiters;
            _waiters = _waitersSpare;
            _waitersSpare = waiters;
        }
        long committed = Volatile.Read(ref _committed);
        List<(long, ICommitWaiter)>? later = null;
        foreach (var (address, waiter) in waiters)
        {
            if (all || address <= committed || IsAbandoned(address))
                waiter.OnCommitted();
            else
                (later ??= []).Add((address, waiter));
        }
        waiters.Clear();
        if (later != null)
        {
            lock (_waitersLock)
                _waiters.AddRange(later);
        }
    }

    /// <summary>Commits everything appended so far (COMMITAOF, shutdown); false if writing the log failed.</summary>
    public bool CommitAll() => WaitForCommit(Volatile.Read(ref _tail));

    private void Wake()
    {
        lock (_wakeLock)
        {
            _wakeRequested = true;
            Monitor.Pulse(_wakeLock);
        }
    }

    private void RunWriter()
    {
        int frequency = CommitFrequencyMs;
        long nextTimed = NextTimedPass(Environment.TickCount64);
        while (true)
        {
            if (frequency != CommitFrequencyMs)
            {
                frequency = CommitFrequencyMs;
                nextTimed = NextTimedPass(Environment.TickCount64);
            }
            lock (_wakeLock)
            {
                // While followers wait, what is appended goes out within a few milliseconds (a pass without a commit).
                long writeOutBy = long.MaxValue;
                while (!_wakeRequested && !_stopping)
                {
                    long waitStart = Environment.TickCount64;
                    if (_followers > 0 && writeOutBy == long.MaxValue && Volatile.Read(ref _tail) > Volatile.Read(ref _freed))
                        writeOutBy = waitStart + FollowerWriteOutMilliseconds;
                    long wait = Math.Min(nextTimed, writeOutBy) - waitStart;
                    if (wait <= 0)
                        break;
                    Monitor.Wait(_wakeLock, (int)Math.Min(wait, _followers > 0 ? FollowerWriteOutMilliseconds : int.MaxValue));
                }
                _wakeRequested = false;
            }
            long now = Environment.TickCount64;
            bool timed = now >= nextTimed;
            if (timed)
                nextTimed = NextTimedPass(now);
            bool stopping = _stopping;
            bool commit = stopping || Volatile.Read(ref _commitRequested) > _submitted || (timed && CommitFrequencyMs > 0);
            try
            {
                if (_flushFailure is { } flushFailure)
                    throw flushFailure;
                long removeBefore = Volatile.Read(ref _removeBefore);
                if (KeepFrom is { } keepFrom)
                    removeBefore = Math.Min(removeBefore, keepFrom());
                if (removeBefore > _files.Start)
                {
                    // A flush may be syncing one of those files.
                    _flusher.WaitIdle();
                    _files.RemoveBefore(removeBefore);
                }
                bool progressed = WritePass(commit);
                // An entry being copied in holds back the ones after it: look again (shortly, if nothing moved) for whoever
                // waits — its writer's own request may be older than the wake, and nobody else may wake this thread.
                if (Volatile.Read(ref _commitRequested) > Volatile.Read(ref _freed))
                {
                    if (!progressed)
                        Thread.Yield();
                    lock (_wakeLock)
                        _wakeRequested = true;
                }
            }
            catch (Exception e)
            {
                // Any failure (an I/O error, or a fault of this class) stops the log, never the server: writes get MISCONF.
                _failure = e;
                lock (_commitLock)
                    Monitor.PulseAll(_commitLock);
                EndWriter();
                return;
            }
            if (stopping && Volatile.Read(ref _freed) >= Volatile.Read(ref _tail))
            {
                EndWriter();
                return;
            }
        }
    }

    /// <summary>
    /// The writer thread ends: no more waiters are taken, nor commits awaited, and the notifier tells all of them and
    /// ends too.
    /// </summary>
    private void EndWriter()
    {
        // What was written is made durable first (unless flushing failed), and reported so.
        _flusher.Dispose();
        _failure ??= _flushFailure;
        lock (_waitersLock)
            _writerEnded = true;
        lock (_writtenLock)
            Monitor.PulseAll(_writtenLock);
        lock (_commitLock)
            Monitor.PulseAll(_commitLock);
        lock (_notifyLock)
        {
            _notifierStopping = true;
            Monitor.Pulse(_notifyLock);
        }
        _notifier.Join();
    }

    /// <summary>The flusher made everything up to <paramref name="end"/> durable: waiters are told.</summary>
    private void OnDurable(long end)
    {
        Volatile.Write(ref _durableHere, end);
        AdvanceCommitted();
    }

    /// <summary>Makes <paramref name="end"/> the committed address when it is further; waiters are told.</summary>
    private void PublishCommitted(long end)
    {
        if (end > Volatile.Read(ref _committed))
        {
            lock (_commitLock)
            {
                if (end > Volatile.Read(ref _committed))
                    Volatile.Write(ref _committed, end);
                Monitor.PulseAll(_commitLock);
            }
        }
        RequestNotify();
    }

    private void OnFlushFailed(Exception failure)
    {
        _flushFailure = failure;
        Wake();
    }

    private void RequestNotify()
    {
        lock (_notifyLock)
        {
            if (_notifyRequested)
                return;
            _notifyRequested = true;
            Monitor.Pulse(_notifyLock);
        }
    }

    /// <summary>
    /// Tells the waiters whose entries are durable, on a thread of its own: sending their held replies takes about as
    /// long as an fsync, and meanwhile the writer already writes and syncs what was appended since (the device works
    /// while this thread uses the CPU), instead of one after the other.
    /// </summary>
    private void RunNotifier()
    {
        while (true)
        {
            bool stopping;
            lock (_notifyLock)
            {
                while (!_notifyRequested && !_notifierStopping)
                    Monitor.Wait(_notifyLock);
                _notifyRequested = false;
                stopping = _notifierStopping;
            }
            if (stopping)
            {
                NotifyWaiters(all: true);
                return;
            }
            NotifyWaiters(all: false);
        }
    }

    private long NextTimedPass(long now) => CommitFrequencyMs switch
    {
        > 0 => now + CommitFrequencyMs,
        < 0 => now + BackgroundWriteMilliseconds,
        _ => long.MaxValue,
    };

    /// <summary>Writes the complete entries after <c>_freed</c>, then commits if asked; returns whether anything was written.</summary>
    private bool WritePass(bool commit)
    {
        long start = Volatile.Read(ref _freed);
        // At most one lap of the ring: past it the slots hold the same lap's entries again (a full ring ends exactly there,
        // while an appender waits for room beyond it).
        long limit = Math.Min(Volatile.Read(ref _tail), start + _capacity);
        long end = start;
        while (end < limit)
        {
            long word = Volatile.Read(ref *(long*)(_ring + (end & _mask)));
            if (word == 0)
                break;
            end += OperationLogEntry.LengthOf(word) & ~LargeEntryFlag;
        }

        long piece = start;
        for (long at = start; at < end;)
        {
            int length = OperationLogEntry.LengthOf(*(long*)(_ring + (at & _mask)));
            if ((length & LargeEntryFlag) == 0)
            {
                at += length;
                continue;
            }
            WriteRing(piece, at);
            if (!_largeEntries.TryRemove(at, out var bytes))
                throw new InvalidOperationException("A large operation log entry went missing.");
            WriteToFiles(bytes);
            at += length & ~LargeEntryFlag;
            piece = at;
        }
        WriteRing(piece, end);
        Interlocked.Exchange(ref _fileBytes, _files.Tail);

        var written = commit ? _files.TakeUnsynced() : null;
        if (!commit)
            _files.WriteOut();
        if (end > start)
            PublishWrittenOut(_files.Tail);
        Zero(start, end);
        Volatile.Write(ref _freed, end);
        if (commit)
        {
            // The flusher makes it durable while this thread writes what comes next.
            _submitted = end;
            NoteCommitPoint(end, _files.Tail);
            _flusher.Submit(written, end);
        }
        return end > start;
    }

    private void PublishWrittenOut(long fileOffset)
    {
        Interlocked.Exchange(ref _writtenOut, fileOffset);
        if (_followers > 0)
        {
            lock (_writtenLock)
                Monitor.PulseAll(_writtenLock);
        }
    }

    private void WriteRing(long from, long to)
    {
        while (from < to)
        {
            long offset = from & _mask;
            int length = (int)Math.Min(to - from, _capacity - offset);
            WriteToFiles(new ReadOnlySpan<byte>(_ring + offset, length));
            from += length;
        }
    }

    // The newest bytes written, kept in memory for replicas' senders once the first follower came (see Follow).
    private volatile ReplicationBacklog? _backlog;

    /// <summary>The in-memory copy of the newest bytes written (null until a replica first followed this log).</summary>
    internal ReplicationBacklog? Backlog => _backlog;

    private void WriteToFiles(ReadOnlySpan<byte> bytes)
    {
        _backlog?.Append(_files.Tail, bytes);
        _files.Append(bytes);
    }

    private void Zero(long from, long to)
    {
        while (from < to)
        {
            long offset = from & _mask;
            int length = (int)Math.Min(to - from, _capacity - offset);
            new Span<byte>(_ring + offset, length).Clear();
            from += length;
        }
    }

    private void ThrowIfFailed()
    {
        if (_failure is { } failure)
            throw new OperationLogFailedException(failure);
    }

    /// <summary>Writes and commits everything appended, stops the writer and closes the files.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _stopping = true;
        Wake();
        _writer.Join();
        _notifier.Join();
        _files.Dispose();
        NativeMemory.AlignedFree(_ring);
    }
}

/// <summary>Writing the operation log failed: writes are refused, as Redis refuses them after an AOF write error.</summary>
public sealed class OperationLogFailedException : Exception
{
    public OperationLogFailedException(Exception cause)
        : base("Errors writing to the AOF file: " + cause.Message, cause)
    {
    }
}

/// <summary>Something told once writes it appended to the operation log are durable (see <see cref="OperationLog.OnCommitted"/>).</summary>
public interface ICommitWaiter
{
    /// <summary>Runs on the log's notifier thread: what was waited for is durable, or writing failed. Must not wait for long.</summary>
    void OnCommitted();

    /// <summary>
    /// Whether nobody needs the notification any more (its client left, or its wait ended otherwise): the log may drop
    /// the waiter unnotified. Read under the log's lock, from any thread; must be cheap.
    /// </summary>
    bool Abandoned => false;
}
