using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The head mover: a store's background thread that moves the head of its log when the pages in memory
/// approach what the memory budget allows. It empties the oldest page record by record — dead records
/// (superseded, deleted, abandoned) are left behind, expired ones dropped, live ones copied to the tail or
/// dropped as the eviction policy decides — then passes the head over the page and reuses its frame.
/// </summary>
/// <remarks>
/// <para>
/// Invariants. (1) Before it reads a page, the page is read-only and every thread has seen that
/// (<see cref="HybridLog.SafeReadOnlyAddress"/>), so no in-place update or reuse of freed space changes it, and
/// it has reached the device if there is one (the storage tier's step: a page leaves memory only once written).
/// (2) Each record is settled under its bucket's exclusive latch: it is live only if its key's chain leads to
/// it, and a copy is linked at the head of the chain before the latch is released, so readers see the old
/// record or the copy, never neither. (3) A dropped record is marked a tombstone before the latch is released:
/// until the head passes it, a chain may still lead to it, and it must read as deleted, not as a value whose
/// object was released. (4) Hash chains descend in address (new records go to the tail, reused space only
/// above the chain's head), so nothing a chain leads to from a page that left memory is still in memory.
/// </para>
/// <para>
/// The head mover never waits for a latch: a transaction may hold it while it waits for room in the log. It
/// tries the latch, refreshing its epoch in between; the holder, whose writes are of the reserve class, uses the
/// reserve page meanwhile (the head mover's own page is beyond it, see <see cref="AllocationClass"/>). When copying a memory's worth of records frees less than a page, live data fills
/// the budget: an evicting policy withdraws second chances, and otherwise the log is marked full.
/// </para>
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    private const int RecordsPerMoverRefresh = 256;

    private readonly object _moverLock = new();
    internal readonly ScanGate ScanGate = new();

    /// <summary>How many scans this thread is inside: its writes then never wait for the head (see <see cref="ScanGate"/>).</summary>
    [ThreadStatic]
    private static int ScanDepth;

    /// <summary>Whether the calling thread is inside a scan of some store.</summary>
    internal static bool InScan => ScanDepth != 0;
    private readonly AutoResetEvent _moverWake = new(false);
    private Thread? _mover;
    private volatile bool _moverStopping;
    private long _moverErrors;
    private long _windowCopiedBytes;
    private long _windowEvictedPages;
    private long _stalledAtTail = -1;
    private bool _secondChancesWithdrawn;
    private readonly EvictionPressure _pressure = new();
    private double _lfuThreshold = RecordAccess.LfuInitialCounter;
    private double _writtenTtlMean = double.NaN;

    /// <summary>Writes with an expiration until this thread samples the next one (volatile-ttl).</summary>
    [ThreadStatic]
    private static int TtlSampleCountdown;
    private long _pagesEvicted;
    private long _recordsCopied;

    /// <summary>Told about live and expired records the head mover drops (see <see cref="IEvictionObserver"/>).</summary>
    public IEvictionObserver? EvictionObserver { get; set; }

    /// <summary>Pages the head has passed so far.</summary>
    public long PagesEvicted => Volatile.Read(ref _pagesEvicted);

    /// <summary>Live records the head mover copied to the tail so far.</summary>
    public long RecordsCopiedForward => Volatile.Read(ref _recordsCopied);

    /// <summary>Unexpected errors in the head mover (each marks the log full rather than ending the process).</summary>
    public long HeadMoverErrors => Volatile.Read(ref _moverErrors);

    /// <summary>
    /// Whether writes that may grow data should be refused for memory (Redis's deny-oom check): the log is full,
    /// or the budget's limit is exceeded and this log could not make room even if it gave back every page it may
    /// (what is over the limit is held elsewhere: heap objects, indexes, other databases). Over the limit
    /// otherwise, it asks the head to move, which brings the budget back under it.
    /// </summary>
    public bool OverBudget
    {
        get
        {
            if (Log.IsFull)
                return true;
            if (!Budget.OverLimit)
                return false;
            RequestHeadMove();
            // With the storage tier nothing is refused: the head passes pages down to a floor (see
            // HybridLog.MinStorageTierPages), sending their objects to the device, and brings the memory back.
            if (Log.StorageTier)
                return false;
            // Large values over the limit are what an evicting policy drops first (see HeadMover.LargeValues.cs).
            if (Log.ExternalCount > 0 && Budget.Policy.Evicts())
                return false;
            return Log.PageCap <= HybridLog.ReservePages;
        }
    }

    /// <summary>
    /// Asks for the head to move. When this log has too little in memory to make room, the store holding the
    /// most pages under the same budget is asked too.
    /// </summary>
    internal void RequestHeadMove()
    {
        WakeHeadMover();
        if (Budget.Limit > 0 && Log.PagesInMemory <= HybridLog.ReservePages + 1)
            Budget.RequestReclaimElsewhere(this);
    }

    /// <summary>Wakes the head mover, starting its thread the first time.</summary>
    internal void WakeHeadMover()
    {
        if (_moverStopping)
            return;
        if (_mover == null)
        {
            lock (_moverLock)
            {
                if (_mover == null && !_moverStopping)
                {
                    _mover = new Thread(HeadMoverLoop) { IsBackground = true, Name = "Tsavorite head mover" };
                    _mover.Start();
                }
            }
        }
        _moverWake.Set();
    }

    /// <summary>Stops the head mover thread (before the log is freed).</summary>
    private void StopHeadMover()
    {
        Thread? mover;
        lock (_moverLock)
        {
            _moverStopping = true;
            mover = _mover;
        }
        if (mover != null)
        {
            _moverWake.Set();
            mover.Join();
        }
        _moverWake.Dispose();
    }

    private void HeadMoverLoop()
    {
        while (true)
        {
            bool woken = _moverWake.WaitOne(IdleCheckMilliseconds);
            if (_moverStopping)
                return;
            try
            {
                if (woken)
                {
                    MoveHeadWhileNeeded();
                    MakeRoomForLargeValues();
                }
                if (!woken || Interlocked.Exchange(ref _idleLookRequested, 0) != 0)
                    ReclaimDeadPages();
            }
            catch (Exception)
            {
                // A bug here must not end the process; writers get out-of-memory instead of waiting forever.
                Interlocked.Increment(ref _moverErrors);
                Log.MarkFull();
            }
            finally
            {
                // Writers waiting for room for a large value count rounds (see HeadMover.LargeValues.cs).
                Interlocked.Increment(ref _moverRounds);
            }
        }
    }

    /// <summary>
    /// Empties pages while the head should move. Progress is judged over a window of a memory's worth of
    /// copying: a window that freed less than a page means live data fills the budget. A full log is cleared
    /// only by a window that frees a page, so writers are not let in and out by crumbs of page-end space.
    /// </summary>
    private void MoveHeadWhileNeeded()
    {
        ResetWindow();
        while (!_moverStopping && (Log.HeadMoveNeeded || Log.IsFull))
        {
            // A stall while writers still had room is not retried until they run out of it or the tail moves on.
            if (_stalledAtTail >= 0 && Log.WritersHaveRoom && Log.TailAddress - _stalledAtTail < Log.PageSize)
                return;
            _stalledAtTail = -1;

            long copied = EvictHeadPage(out bool noRoom, out bool evicted);
            if (noRoom)
            {
                // Even the reserve could not take the page's live records: a policy that may drop them drops
                // them now; otherwise live data fills the budget.
                if (Budget.Policy.Evicts() && !_secondChancesWithdrawn)
                {
                    _secondChancesWithdrawn = true;
                    continue;
                }
                _secondChancesWithdrawn = false;
                Log.MarkFull();
                return;
            }
            if (!evicted)
                return; // only the tail page is left, or the store is stopping
            _windowEvictedPages++;
            _windowCopiedBytes += copied;
            long net = (_windowEvictedPages << Log.PageSizeBits) - _windowCopiedBytes;
            if (net >= Log.PageSize && Log.IsFull && Log.WritersHaveRoom)
            {
                Log.ClearFull();
                ResetWindow();
                continue;
            }

            long window = Math.Max(1, Log.PageCap - HybridLog.ReservePages) << Log.PageSizeBits;
            if (_windowCopiedBytes < window)
                continue;
            ResetWindow();
            // Room made while writers were not refused: keep going while the head should move. A full log that a
            // memory's worth of copying did not open to writers (checked after every page above) stays full: what
            // was freed is less than writers need, and copying on would only go round the log again.
            if (net >= Log.PageSize && !Log.IsFull)
            {
                _secondChancesWithdrawn = false;
                continue;
            }
            // A memory's worth of copying made too little room: live data fills the budget.
            if (Budget.Policy.Evicts() && !_secondChancesWithdrawn)
            {
                _secondChancesWithdrawn = true;
                continue;
            }
            _secondChancesWithdrawn = false;
            if (!Log.IsFull && Log.WritersHaveRoom)
            {
                _stalledAtTail = Log.TailAddress;
                return;
            }
            Log.MarkFull();
            return;
        }
    }

    private void ResetWindow()
    {
        _windowCopiedBytes = 0;
        _windowEvictedPages = 0;
    }

    /// <summary>
    /// Empties the oldest page and passes the head over it (<paramref name="evicted"/>). Returns the bytes copied
    /// forward; <paramref name="noRoom"/> when even the head mover's page could not take a live record (the head stays).
    /// </summary>
    private long EvictHeadPage(out bool noRoom, out bool evicted)
    {
        noRoom = false;
        evicted = false;
        long head = Log.HeadAddress;
        long pageEnd = Log.PageStart(head) + Log.PageSize;
        if ((head >> Log.PageSizeBits) >= Log.TailPage)
            return 0;

        Log.ShiftReadOnlyAddress(pageEnd);
        if (!WaitUntil(static (log, end) => log.SafeReadOnlyAddress >= end, pageEnd))
            return 0;
        // A page whose device copy failed is passed anyway without the storage tier (its data may go); with it, the
        // flush is retried until it succeeds and the head waits for it.
        long flushErrors = Log.StorageTier ? -1 : Log.FlushErrors;
        if (!WaitUntil(static (log, end) => log.FlushedUntilAddress >= end, pageEnd, flushErrors))
            return 0;

        long copied = 0;
        long live = 0;
        // With the storage tier records stay where they are, on the device: nothing to settle, and no scan to wait for.
        if (!Log.StorageTier && !SettlePage(head, pageEnd, ref copied, ref live, out noRoom))
            return copied;

        Log.ShiftHeadAddress(pageEnd);
        if (!WaitUntil(static (log, end) => log.SafeHeadAddress >= end, pageEnd))
            return copied;
        if (Log.StorageTier)
            ReleasePagedOutObjects(head, pageEnd);
        // Without the storage tier these are dropped records' blocks (copies took theirs along); with it, the blocks
        // of records whose page was written, their bytes in the object log.
        Log.FreeExternalValues(head, pageEnd);
        Log.ReleaseFrames(giveBack: _reclaimingIdle);
        evicted = true;
        Interlocked.Increment(ref _pagesEvicted);
        Budget.CountReclaimed(Log.PageSize - copied);
        _pressure.OnPagePassed(live, Log.PageSize);
        return copied;
    }

    /// <summary>
    /// Settles every record of [<paramref name="head"/>, <paramref name="pageEnd"/>) (see <see cref="SettleRecord"/>),
    /// with scans kept out. False when the page could not be emptied: no room for a copy (<paramref name="noRoom"/>),
    /// or the store is stopping.
    /// </summary>
    private bool SettlePage(long head, long pageEnd, ref long copied, ref long live, out bool noRoom)
    {
        noRoom = false;
        int scanWaits = 0;
        while (!ScanGate.TryEnterSettling())
        {
            if (_moverStopping)
                return false;
            HybridLog.PauseForHead(scanWaits++);
        }
        Epoch.Resume();
        try
        {
            int sinceRefresh = 0;
            for (long address = head; TryReadRecordOnPage(address, pageEnd, out var record, out int size); address += size)
            {
                if (!SettleRecord(address, ref record, ref copied, ref live))
                {
                    noRoom = true;
                    return false;
                }
                RefreshNowAndThen(ref sinceRefresh);
                if (_moverStopping)
                    return false;
            }
        }
        finally
        {
            Epoch.Suspend();
            ScanGate.ExitSettling();
        }
        return true;
    }

    /// <summary>
    /// With the storage tier: tells the observer about each valid object record of [<paramref name="from"/>,
    /// <paramref name="pageEnd"/>), which the head has passed and no thread can reach, so that it releases the heap
    /// objects, which are in the object log now. The frames are still in memory until this thread releases them.
    /// </summary>
    private void ReleasePagedOutObjects(long from, long pageEnd)
    {
        var observer = EvictionObserver;
        if (observer == null)
            return;
        for (long address = from; TryReadRecordOnPage(address, pageEnd, out var record, out int size); address += size)
        {
            var info = record.Info;
            if (info.Valid && info.ValueIsObject && !info.Tombstone)
                observer.OnPagedOut(ref record);
        }
    }

    /// <summary>
    /// The record at <paramref name="address"/> of the page ending at <paramref name="pageEnd"/> and its allocated
    /// size; false at the unused end of the page. The caller is epoch-protected.
    /// </summary>
    private bool TryReadRecordOnPage(long address, long pageEnd, out LogRecord record, out int size)
    {
        record = default;
        size = 0;
        if (address + RecordLayout.MinRecordSize > pageEnd)
            return false;
        record = Log.GetRecord(address);
        size = MeasureRecordAt(in record, (int)(pageEnd - address));
        return size > 0;
    }

    /// <summary>Refreshes the epoch every <see cref="RecordsPerMoverRefresh"/> records, so a page walk never holds the log back.</summary>
    private void RefreshNowAndThen(ref int sinceRefresh)
    {
        if (++sinceRefresh == RecordsPerMoverRefresh)
        {
            sinceRefresh = 0;
            Epoch.ProtectAndDrain();
        }
    }

    /// <summary>
    /// Waits, unprotected, until <paramref name="condition"/> holds for the log; false if the store is stopping.
    /// With <paramref name="flushErrors"/> given, a new flush error also ends the wait: the page's device copy is
    /// lost either way, and holding the head would stop every writer.
    /// </summary>
    private bool WaitUntil(Func<HybridLog, long, bool> condition, long argument, long flushErrors = -1)
    {
        int waits = 0;
        while (!condition(Log, argument))
        {
            if (_moverStopping)
                return false;
            if (flushErrors >= 0 && Log.FlushErrors != flushErrors)
                return true;
            HybridLog.PauseForHead(waits++);
        }
        return true;
    }

    /// <summary>
    /// Settles one record of the page being emptied under its bucket's exclusive latch: leaves it if dead, drops
    /// it if deleted, expired or chosen by the policy, else copies it to the tail. <paramref name="live"/> adds the
    /// bytes of live records (copied or dropped by the policy). False when no page could take the copy.
    /// </summary>
    private bool SettleRecord(long address, ref LogRecord record, ref long copied, ref long live)
    {
        var info = record.Info;
        if (!info.Valid || info.Abandoned)
            return true;
        var key = record.Key;
        long hash = KeyHash.Hash(key);
        int tag = HashBucketEntry.TagOf(hash);
        while (true)
        {
            int waits = 0;
            long* bucket = Index.Locate(hash).Pointer;
            while (!HashBucket.TryAcquireExclusive(bucket))
            {
                if (_moverStopping)
                    return true;
                Epoch.ProtectAndDrain();
                HybridLog.PauseForHead(waits++);
                // An index resize may have moved the bucket, and its old table may go after the refresh.
                bucket = Index.Locate(hash).Pointer;
            }
            try
            {
                long* entry = Index.FindTag(bucket, tag);
                if (entry == null)
                    return true;
                long entryAddress = EntryAddressForWrite(entry, tag);
                if (TraceBack(key, entryAddress, out _) != address)
                    return true; // superseded: dead
                if (record.Info.Tombstone)
                {
                    UnlinkDropped(entry, tag, entryAddress, address);
                    return true;
                }
                if (IsExpired(in record))
                {
                    Drop(entry, tag, entryAddress, address, ref record, DisposeReason.Expired);
                    return true;
                }
                // Nothing is evicted from a log with a storage tier.
                if (!Log.StorageTier && ShouldEvict(ref record))
                {
                    live += record.UsedSize;
                    Drop(entry, tag, entryAddress, address, ref record, DisposeReason.Evicted);
                    return true;
                }
                switch (CopyForward(entry, tag, entryAddress, ref record, out long consumed))
                {
                    case AllocationStatus.Success:
                        copied += consumed;
                        live += record.UsedSize;
                        return true;
                    case AllocationStatus.RetryNow:
                        break;
                    default:
                        return false;
                }
            }
            finally
            {
                HashBucket.ReleaseExclusive(bucket);
            }
            Epoch.ProtectAndDrain();
        }
    }

    /// <summary>Drops a live or expired record: its user releases what it refers to, and it reads as deleted from now on.</summary>
    private void Drop(long* entry, int tag, long entryAddress, long address, ref LogRecord record, DisposeReason reason)
    {
        EvictionObserver?.OnDropped(ref record, reason);
        if (reason == DisposeReason.Evicted)
            Budget.CountEvicted();
        else
            Budget.CountExpired();
        record.Info.Tombstone = true;
        CountKeysInBackground(-1); // the key's newest record: it is gone (see KeyCount)
        UnlinkDropped(entry, tag, entryAddress, address);
    }

    /// <summary>
    /// Frees the hash entry when it leads straight to the dropped record: everything older in its chain is on
    /// this page or already gone (chains descend), so the chain is empty once the head passes (without the storage tier).
    /// </summary>
    private void UnlinkDropped(long* entry, int tag, long entryAddress, long address)
    {
        // With the storage tier the chain goes on on the device, with other keys' records: the entry stays.
        if (entryAddress == address && !Log.StorageTier)
            Index.TryFree(entry, tag, address);
    }

    /// <summary>
    /// Copies a live record to the tail, without its slack, and links the copy at the head of its chain.
    /// <paramref name="consumed"/> is the log space the copy took: its size, and the end of the tail page it
    /// left unused if it had to open the next one. That end is lost as surely as the copy's own bytes, so the
    /// head mover counts both against what it frees; counting the page ends it leaves behind as freed space would
    /// make a log full of records near half a page look as if every round of copying made room.
    /// </summary>
    private AllocationStatus CopyForward(long* entry, int tag, long entryAddress, ref LogRecord record, out long consumed)
    {
        int size = record.UsedSize;
        consumed = size;
        long tailBefore = Log.TailAddress;
        var status = Log.TryAllocate(size, out long newAddress, AllocationClass.HeadMover);
        if (status != AllocationStatus.Success)
            return status;
        long pageBefore = Log.PageStart(tailBefore);
        if (Log.PageStart(newAddress) > pageBefore && tailBefore > pageBefore)
            consumed += pageBefore + Log.PageSize - tailBefore;
        var copy = Log.GetRecord(newAddress);
        Buffer.MemoryCopy((void*)record.PhysicalAddress, (void*)copy.PhysicalAddress, size, size);
        ref var info = ref copy.Info;
        info.PreviousAddress = entryAddress;
        info.HasFiller = false;
        info.Sealed = false;
        // The copy heads its chain alone, whatever an index resize made of the original (see BucketSplit).
        info.SplitShared = false;
        info.MarkLinked();
        copy.Access &= ~RecordAccess.AccessedBit; // moving spends the second chance
        if (!HashIndex.TrySwing(entry, tag, entryAddress, newAddress))
        {
            // Cannot happen under the exclusive latch; if it did, the copy must not be mistaken for a record.
            info.MarkAbandoned();
            return AllocationStatus.RetryNow;
        }
        // The copy owns the out-of-line value now (its descriptor was copied): the original must not free it.
        if (record.Info.ValueIsExternal)
            *record.ExternalDescriptor = default;
        Interlocked.Increment(ref _recordsCopied);
        return AllocationStatus.Success;
    }

    /// <summary>
    /// Samples one write in sixteen with an expiration into the mean time to live that volatile-ttl compares with
    /// (a racy update of a double: a lost sample is of no consequence).
    /// </summary>
    internal void SampleWrittenTtl(ref LogRecord record)
    {
        if (--TtlSampleCountdown > 0)
            return;
        TtlSampleCountdown = 16;
        double remaining = record.Expiration - NowUnixMs;
        double mean = Volatile.Read(ref _writtenTtlMean);
        Volatile.Write(ref _writtenTtlMean, double.IsNaN(mean) ? remaining : mean + ((remaining - mean) / 64));
    }

    /// <summary>
    /// Whether the policy drops this live record rather than copy it forward (see <see cref="EvictionPolicy"/>): only
    /// while the live data fills the pages the head passes (<see cref="EvictionPressure"/>), or when copying could
    /// not make room (second chances withdrawn).
    /// </summary>
    private bool ShouldEvict(ref LogRecord record)
    {
        var policy = Budget.Policy;
        if (policy == EvictionPolicy.NoEviction)
            return false;
        if (!policy.EvictsAnyKey() && !record.Info.HasExpiration)
            return false;
        if (_reclaimingIdle)
            return false; // nothing needs room: dead space is all that is given back
        if (_secondChancesWithdrawn)
            return true;
        if (!_pressure.Evicting)
            return false;
        switch (policy)
        {
            case EvictionPolicy.AllKeysLru:
            case EvictionPolicy.VolatileLru:
                return (record.Access & RecordAccess.AccessedBit) == 0;
            case EvictionPolicy.AllKeysLfu:
            case EvictionPolicy.VolatileLfu:
                {
                    // At or below the running mean of the counters seen here (ties drop, so equal counters make progress).
                    int counter = RecordAccess.DecayedCounter(record.Access, Budget.LfuDecayTime);
                    bool drop = counter <= _lfuThreshold + 0.5;
                    _lfuThreshold += (counter - _lfuThreshold) / 64;
                    return drop;
                }
            case EvictionPolicy.VolatileTtl:
                {
                    // At or below the mean time to live of what is being written, within a second or a hundredth: the
                    // head sees only the oldest records, whose times to live say nothing of the nearer ones behind them.
                    double remaining = record.Expiration - NowUnixMs;
                    double mean = Volatile.Read(ref _writtenTtlMean);
                    return remaining <= ((double.IsNaN(mean) ? remaining : mean) * 1.01) + 1000; // a second, in the unit of expirations (ms)
                }
            default:
                return true; // the random policies
        }
    }
}
