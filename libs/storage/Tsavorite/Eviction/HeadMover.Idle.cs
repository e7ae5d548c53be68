using System;

namespace Tsavorite;

/// <summary>
/// Dead space given back while nothing asks for room: keys that expired or were deleted en masse leave pages
/// of dead records that the head would pass only under memory pressure. Redis's used_memory falls as such keys
/// go; here an idle head mover looks at the pages at the head now and then and, while they are mostly dead,
/// empties them (copying the few live records forward, never evicting any) and gives their frames back.
/// </summary>
public sealed unsafe partial class TsavoriteKV
{
    /// <summary>How often an idle head mover looks at the head pages, at first.</summary>
    internal const int IdleCheckMilliseconds = 1000;

    /// <summary>The longest wait between looks when the head pages stay mostly live.</summary>
    private const int MaxIdleCheckMilliseconds = 64_000;

    /// <summary>Head pages judged together, so that a few live pages at the head do not hide dead ones behind.</summary>
    private const int IdleWindowPages = 8;

    /// <summary>Head pages with less than this share of live bytes are emptied when idle.</summary>
    internal const double IdleReclaimLiveShare = 0.25;

    /// <summary>Pages in memory from which the head mover's thread runs, so it can look when idle.</summary>
    internal const int IdleReclaimMinPages = 3;

    private bool _reclaimingIdle;
    private int _idleLookRequested;
    private long _idleLookAt;
    private int _idleBackoffMs = IdleCheckMilliseconds;
    private long _idlePagesReclaimed;

    /// <summary>Pages the idle head mover emptied because they were mostly dead.</summary>
    public long IdlePagesReclaimed => System.Threading.Volatile.Read(ref _idlePagesReclaimed);

    /// <summary>
    /// Makes the head mover look at the head pages now rather than at its next idle look (which may be a minute away
    /// after the pages were mostly live), and empty them if they are mostly dead (MEMORY PURGE). Returns at once; the
    /// head mover does the work. Nothing happens while the log has too few pages in memory to run one.
    /// </summary>
    public void ReclaimDeadPagesSoon()
    {
        if (Log.PagesInMemory < IdleReclaimMinPages)
            return;
        _idleBackoffMs = IdleCheckMilliseconds;
        System.Threading.Volatile.Write(ref _idleLookAt, 0);
        System.Threading.Volatile.Write(ref _idleLookRequested, 1);
        WakeHeadMover();
    }

    /// <summary>
    /// Empties head pages while the window of pages at the head is mostly dead and nothing needs the head to move
    /// for room, up to the tail page (where writes go on). When the window is mostly
    /// live, the next look waits twice as long (up to a minute); reclaiming starts the waits over.
    /// </summary>
    private void ReclaimDeadPages()
    {
        // A scan (or a ScanHold) keeps pages from being settled: measuring them now would be work for nothing.
        if (Environment.TickCount64 < _idleLookAt || ScanGate.ScansActive)
            return;
        _reclaimingIdle = true;
        try
        {
            bool reclaimed = false;
            while (!_moverStopping && !Log.HeadMoveNeeded && !Log.IsFull)
            {
                long headPage = Log.HeadAddress >> Log.PageSizeBits;
                long pages = Math.Min(IdleWindowPages, Log.TailPage - headPage);
                if (pages <= 0 || LiveShareOfPages(headPage, pages) >= IdleReclaimLiveShare)
                    break;
                for (long i = 0; i < pages && !_moverStopping; i++)
                {
                    EvictHeadPage(out bool noRoom, out bool evicted);
                    if (noRoom || !evicted)
                        return;
                    System.Threading.Interlocked.Increment(ref _idlePagesReclaimed);
                }
                reclaimed = true;
            }
            _idleBackoffMs = reclaimed ? IdleCheckMilliseconds : Math.Min(MaxIdleCheckMilliseconds, _idleBackoffMs * 2);
            _idleLookAt = Environment.TickCount64 + _idleBackoffMs;
        }
        finally
        {
            _reclaimingIdle = false;
        }
    }

    /// <summary>
    /// The share of <paramref name="pages"/> pages' bytes from <paramref name="firstPage"/> held by live records, or at
    /// least <see cref="IdleReclaimLiveShare"/> once that much is found live: the pages are then left as they are, and
    /// reading the rest of them (a full look up of every record's key) would be work for nothing.
    /// </summary>
    private double LiveShareOfPages(long firstPage, long pages)
    {
        long live = 0;
        long total = pages << Log.PageSizeBits;
        for (long page = firstPage; page < firstPage + pages; page++)
        {
            live += LiveBytesOfPage(Math.Max(page << Log.PageSizeBits, Log.HeadAddress));
            if (live >= IdleReclaimLiveShare * total)
                break;
        }
        return (double)live / total;
    }

    /// <summary>
    /// The bytes of live records (the newest of their key, not deleted, not expired) on the page from
    /// <paramref name="start"/>. Read without latches: only this thread moves the head, and an estimate is all
    /// that is asked.
    /// </summary>
    private long LiveBytesOfPage(long start)
    {
        long pageEnd = Log.PageStart(start) + Log.PageSize;
        long live = 0;
        Epoch.Resume();
        try
        {
            int sinceRefresh = 0;
            for (long address = start; TryReadRecordOnPage(address, pageEnd, out var record, out int size); address += size)
            {
                if (IsNewestLiveRecord(address, ref record))
                    live += record.UsedSize;
                RefreshNowAndThen(ref sinceRefresh);
                if (_moverStopping)
                    return Log.PageSize;
            }
        }
        finally
        {
            Epoch.Suspend();
        }
        return live;
    }

    private bool IsNewestLiveRecord(long address, ref LogRecord record)
    {
        var info = record.Info;
        if (!info.Valid || info.Abandoned || info.Tombstone || IsExpired(in record))
            return false;
        var key = record.Key;
        long hash = KeyHash.Hash(key);
        long* entry = Index.FindTag(Index.Locate(hash).Pointer, HashBucketEntry.TagOf(hash));
        return entry != null && TraceBack(key, new HashBucketEntry(*entry).Address, out _) == address;
    }
}
