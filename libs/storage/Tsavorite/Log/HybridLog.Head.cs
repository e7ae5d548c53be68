using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The head of the log and the frames of pages that left memory.
/// </summary>
/// <remarks>
/// <para>
/// Invariant: a frame is reused only after every thread that could hold a pointer into its old page has let
/// go of it. The head mover empties the oldest page (copying live records forward or dropping them, see
/// Eviction/), then <see cref="ShiftHeadAddress"/> raises <see cref="HeadAddress"/> past it and bumps the epoch;
/// operations read the head after their latest refresh and never follow a chain below it, so once the epoch
/// drains (<see cref="SafeHeadAddress"/>) nobody reaches the page, and <see cref="ReleaseFrames"/> clears
/// its frame and publishes it as reusable. Opening a page checks that publication, not the head.
/// </para>
/// <para>
/// The budget keeps <see cref="ReservePages"/> pages that ordinary writers may not take: one for writes that
/// give memory back (tombstones, pops) or must not wait, and one that only the head mover may open, so it always
/// has room to copy the live records of the page it empties (see <see cref="AllocationClass"/>). Writers that find the budget's other
/// pages taken wait for the head mover (<see cref="AllocationStatus.WaitForHead"/>); when it cannot make
/// room (live data fills the budget and the policy may not drop it), the log is marked full and they get
/// out-of-memory at once, until the head mover finds room again, which it tries with a growing back-off.
/// </para>
/// </remarks>
public sealed unsafe partial class HybridLog
{
    /// <summary>Pages ordinary writers may not take: one for reserve-class writes, one for the head mover (see <see cref="AllocationClass"/>).</summary>
    public const int ReservePages = 2;

    private const int FrameAlignment = 4096;
    private const int FirstFullBackoffMs = 50;
    private const int MaxFullBackoffMs = 2000;

    private long _beginAddress;
    private long _headAddress;
    private long _safeHeadAddress;
    private long _reusableUntil;
    private int _full;
    private int _fullBackoffMs = FirstFullBackoffMs;
    private long _fullRetryAt;

    // Where writers' and reserve writes' reservations must end (see AllocationClass), kept from the head and
    // the budget when either moves, so the hot path compares with a field instead of asking the budget.
    private long _writerEnd;
    private long _reserveEnd;

    /// <summary>Called when the head should move; the store wakes its head mover.</summary>
    internal Action? HeadMoveRequested { get; set; }

    /// <summary>Pages the memory budget allows in memory, before this log's own frame count caps it.</summary>
    internal Func<long>? BudgetPageCap { get; set; }

    /// <summary>Every thread has seen a head at least this high: nothing below it is reachable.</summary>
    public long SafeHeadAddress => Volatile.Read(ref _safeHeadAddress);

    /// <summary>Pages this log may keep in memory now: its frame count, or less under the memory budget.</summary>
    public long PageCap
    {
        get
        {
            long cap = _frameCount;
            // Large values' blocks, and the one a writer waits for room for, take their bytes from the log's memory
            // size as well as from the budget.
            long external = ExternalBytes;
            long demand = LargeValueDemand;
            if (external + demand > 0)
                cap = Math.Max(0, MemorySizeBytes - external - demand) >> _pageSizeBits;
            var budget = BudgetPageCap;
            if (budget == null)
                return StorageTier ? Math.Max(Math.Min(_frameCount, MinStorageTierPages), cap) : cap;
            // With the storage tier what is over the budget (heap objects of records in memory, other stores) goes
            // to the device as the head passes pages, down to a few pages that writes always keep.
            long floor = StorageTier ? Math.Min(_frameCount, MinStorageTierPages) : 0;
            long budgetCap = budget();
            if (demand > 0 && budgetCap != long.MaxValue)
                budgetCap = Math.Max(0, budgetCap - (demand >> _pageSizeBits));
            return Math.Max(floor, Math.Min(cap, budgetCap));
        }
    }

    /// <summary>Pages a log with the storage tier may always keep in memory, whatever the budget: the reserve and two more.</summary>
    internal const int MinStorageTierPages = ReservePages + 2;

    /// <summary>Whether the head mover found no room: writes that need a new page get out-of-memory.</summary>
    public bool IsFull => Volatile.Read(ref _full) != 0;

    /// <summary>Pages ahead of the ordinary writers' limit at which the head starts moving, so writers seldom wait.</summary>
    internal static long LeadPages(long cap) => Math.Max(1, cap / 16);

    /// <summary>
    /// Whether the head should move now: the pages in memory reached the point where the head mover starts
    /// (see <see cref="LeadPages"/>), and the oldest page is not the tail's.
    /// </summary>
    internal bool HeadMoveNeeded
    {
        get
        {
            long cap = PageCap;
            long target = cap - ReservePages - LeadPages(cap);
            return PagesInMemory > Math.Max(1, target) && (HeadAddress >> _pageSizeBits) < TailPage;
        }
    }

    /// <summary>Pages from the head that writers or reserve writes may fill when the budget allows <paramref name="cap"/>.</summary>
    private static long PagesFor(AllocationClass allocationClass, long cap) => allocationClass switch
    {
        // Writers keep at least the page they are in, as a store too small for a reserve did before.
        AllocationClass.Writer => Math.Max(1, cap - ReservePages),
        _ => Math.Max(1, cap - 1),
    };

    /// <summary>The address reservations of <paramref name="allocationClass"/> (not the head mover) must end by.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private long EndFor(AllocationClass allocationClass)
        => allocationClass == AllocationClass.Writer ? Volatile.Read(ref _writerEnd) : Volatile.Read(ref _reserveEnd);

    /// <summary>Recomputes where each class's reservations must end, from the head and the budget's page count.</summary>
    private void RefreshLimits(long cap = -1)
    {
        if (cap < 0)
            cap = PageCap;
        long headPage = HeadAddress >> _pageSizeBits;
        Volatile.Write(ref _writerEnd, (headPage + PagesFor(AllocationClass.Writer, cap)) << _pageSizeBits);
        Volatile.Write(ref _reserveEnd, (headPage + PagesFor(AllocationClass.Reserve, cap)) << _pageSizeBits);
    }

    /// <summary>Whether ordinary writers may open one more page, as far as the budget's page count goes.</summary>
    internal bool WritersMayOpenPage => PagesInMemory < PagesFor(AllocationClass.Writer, PageCap);

    /// <summary>Whether ordinary writers can open a page now.</summary>
    internal bool WritersHaveRoom => PagesInMemory < PageCap - ReservePages;

    /// <summary>
    /// A page could not be opened: out-of-memory if the log is full (waking the head mover now and then to look
    /// again), else a wait for the head mover, which is woken.
    /// </summary>
    private AllocationStatus RefuseOrWait()
    {
        if (IsFull)
        {
            long now = Environment.TickCount64;
            long retryAt = Volatile.Read(ref _fullRetryAt);
            if (now >= retryAt && Interlocked.CompareExchange(ref _fullRetryAt, now + Volatile.Read(ref _fullBackoffMs), retryAt) == retryAt)
                HeadMoveRequested?.Invoke();
            return AllocationStatus.OutOfMemory;
        }
        HeadMoveRequested?.Invoke();
        return AllocationStatus.WaitForHead;
    }

    /// <summary>The head mover could not make room: refuse writes until it can, looking again after a growing back-off.</summary>
    internal void MarkFull()
    {
        int backoff = Volatile.Read(ref _fullBackoffMs);
        Volatile.Write(ref _fullRetryAt, Environment.TickCount64 + backoff);
        Volatile.Write(ref _fullBackoffMs, Math.Min(MaxFullBackoffMs, backoff * 2));
        Volatile.Write(ref _full, 1);
    }

    /// <summary>Room was made (or the budget changed): writers may open pages again.</summary>
    internal void ClearFull()
    {
        Volatile.Write(ref _fullBackoffMs, FirstFullBackoffMs);
        Volatile.Write(ref _full, 0);
    }

    /// <summary>
    /// Passes the head over everything below <paramref name="newHeadAddress"/>, which the caller has emptied
    /// (and, with a device, flushed). With the storage tier the pages stay readable on the device; without it
    /// what leaves memory leaves the log, so the begin address follows. The frames become reusable after an epoch
    /// drain (<see cref="ReleaseFrames"/>).
    /// </summary>
    internal void ShiftHeadAddress(long newHeadAddress)
    {
        if (!MonotonicUpdate(ref _headAddress, newHeadAddress))
            return;
        if (!StorageTier)
            MonotonicUpdate(ref _beginAddress, newHeadAddress);
        RefreshLimits();
        _epoch.BumpCurrentEpoch(() => MonotonicUpdate(ref _safeHeadAddress, newHeadAddress));
    }

    // Where each flushed range's object log entries start: the object log is truncated along with the log.
    private readonly System.Collections.Generic.List<(long From, long To, long ObjectLogStart)> _objectFlushMarks = new();

    /// <summary>
    /// Moves the begin address up to <paramref name="newBeginAddress"/> (never past the head): the records below it
    /// leave the log. Once no thread can still be reading them (an epoch drain), the device segments that lie
    /// wholly below it are deleted, and the object log entries only they referred to. Returns whether it moved.
    /// </summary>
    public bool ShiftBeginAddress(long newBeginAddress)
    {
        newBeginAddress = Math.Min(newBeginAddress, HeadAddress);
        if (!MonotonicUpdate(ref _beginAddress, newBeginAddress))
            return false;
        _epoch.BumpCurrentEpoch(() => TruncateBelow(newBeginAddress));
        return true;
    }

    private void TruncateBelow(long beginAddress)
    {
        _device.TruncateUntilAddress(beginAddress);
        if (_objectLog == null)
            return;
        long objectLogKeep = -1;
        lock (_objectFlushMarks)
        {
            int passed = 0;
            while (passed < _objectFlushMarks.Count && _objectFlushMarks[passed].To <= beginAddress)
                passed++;
            if (passed > 0)
            {
                objectLogKeep = passed < _objectFlushMarks.Count ? _objectFlushMarks[passed].ObjectLogStart : _objectLog.TailAddress;
                _objectFlushMarks.RemoveRange(0, passed);
            }
        }
        if (objectLogKeep > 0)
            _objectLog.Device.TruncateUntilAddress(objectLogKeep);
    }

    /// <summary>
    /// Clears the frames of the pages below <see cref="SafeHeadAddress"/> and publishes them as reusable. When the
    /// budget allows fewer pages than there are frames, the frames are given back to the system instead: the ring
    /// would reach them again only after pages that fill the budget, so keeping them would hold memory beyond it.
    /// With <paramref name="giveBack"/> (pages emptied because they were dead, not for room) they are given back too.
    /// Called by the head mover only, unprotected or protected: nobody can reach these pages any more.
    /// </summary>
    internal void ReleaseFrames(bool giveBack = false)
    {
        long safe = SafeHeadAddress;
        long from = Volatile.Read(ref _reusableUntil);
        long firstPage = from >> _pageSizeBits;
        long endPage = safe >> _pageSizeBits;
        long cap = PageCap;
        for (long page = firstPage; page < endPage; page++)
        {
            int frame = (int)(page & _frameMask);
            if (_frames[frame] == 0)
                continue;
            if (giveBack || cap < _frameCount)
            {
                NativeMemory.Free((void*)_frameAllocations[frame]);
                _frameAllocations[frame] = 0;
                _frames[frame] = 0;
                Interlocked.Decrement(ref _allocatedFrames);
            }
            else
            {
                NativeMemory.Clear((void*)_frames[frame], (nuint)_pageSize);
            }
        }
        if (endPage > firstPage)
            Volatile.Write(ref _reusableUntil, endPage << _pageSizeBits);
    }

    /// <summary>A writer was told to wait for the head mover: gives it the processor, briefly at first.</summary>
    internal static void PauseForHead(int waits)
    {
        if (waits < 16)
            Thread.Yield();
        else
            Thread.Sleep(1);
    }
}
