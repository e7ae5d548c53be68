using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The hybrid record log: fixed-size pages of native memory in a circular buffer of frames,
/// addressed by 48-bit logical addresses. From the oldest to the newest address:
/// <list type="bullet">
/// <item>[BeginAddress, HeadAddress): gone from memory, on the device only (with the storage tier; without it the two are equal),</item>
/// <item>[HeadAddress, ReadOnlyAddress): in memory, read-only: updates copy the record to the tail,</item>
/// <item>[ReadOnlyAddress, TailAddress): in memory, mutable: updates happen in place.</item>
/// </list>
/// Records are allocated at the tail by fetch-and-add. When the tail opens a new page, the
/// read-only boundary follows it at a fixed lag (the mutable fraction of the memory budget); once
/// every thread has seen the new boundary (epoch protection), the pages below it are written to the
/// device (see HybridLog.Flush.cs). The head moves when the pages in memory approach what the memory
/// budget allows: the store's head mover (see Eviction/) empties the oldest page, then
/// <see cref="ShiftHeadAddress"/> passes it and, once no thread can still hold a pointer into it, its
/// frame is cleared for reuse (see HybridLog.Head.cs).
/// </summary>
public sealed unsafe partial class HybridLog : IDisposable
{
    private readonly LightEpoch _epoch;
    private readonly IDevice _device;
    private readonly int _pageSizeBits;
    private readonly int _pageSize;
    private readonly long _pageOffsetMask;
    private readonly int _frameCount;
    private readonly int _frameMask;
    private readonly long* _frames;
    private readonly long* _frameAllocations;
    private readonly double _mutableFraction;
    private readonly object _flushLock = new();
    private readonly List<(long From, long To)> _completedFlushes = new();
    private readonly ObjectLog? _objectLog;
    private readonly Queue<FlushRange> _objectFlushQueue = new();
    private bool _objectFlushRunning;

    // Page number in the high 32 bits, offset within the page in the low 32 bits. The offset may run
    // past the page size while threads race to open the next page.
    private long _tailPageOffset;
    private long _readOnlyAddress;
    private long _safeReadOnlyAddress;
    private long _flushRequestedUntil;
    private long _flushedUntilAddress;
    private long _allocatedFrames;
    private long _flushErrors;
    private bool _disposed;

    /// <param name="settings">Page size, memory budget and mutable fraction.</param>
    /// <param name="epoch">The store's epoch protection, used to move the read-only boundary safely.</param>
    /// <param name="device">Where flushed pages are written.</param>
    internal HybridLog(KVSettings settings, LightEpoch epoch, IDevice device)
    {
        if (settings.PageSizeBits < 12 || settings.PageSizeBits > 30)
            throw new ArgumentOutOfRangeException(nameof(settings), "PageSizeBits must be between 12 (4 KB) and 30 (1 GB).");
        if (settings.MutableFraction <= 0 || settings.MutableFraction > 1)
            throw new ArgumentOutOfRangeException(nameof(settings), "MutableFraction must be in (0, 1].");
        _epoch = epoch;
        _device = device;
        if (settings.ObjectLogDevice != null)
            _objectLog = new ObjectLog(settings.ObjectLogDevice);
        _pageSizeBits = settings.PageSizeBits;
        _pageSize = 1 << _pageSizeBits;
        _pageOffsetMask = _pageSize - 1;

        long frames = Math.Max(2, settings.MemorySize >> _pageSizeBits);
        int frameCount = 1;
        while ((long)frameCount * 2 <= frames && frameCount < (1 << 30))
            frameCount *= 2;
        _frameCount = frameCount;
        _frameMask = frameCount - 1;
        _mutableFraction = settings.MutableFraction;
        StorageTier = settings.StorageTier;
        _frames = (long*)NativeMemory.AllocZeroed((nuint)frameCount, (nuint)sizeof(long));
        _frameAllocations = (long*)NativeMemory.AllocZeroed((nuint)frameCount, (nuint)sizeof(long));

        _beginAddress = LogAddress.FirstValidAddress;
        _headAddress = LogAddress.FirstValidAddress;
        _safeHeadAddress = LogAddress.FirstValidAddress;
        _reusableUntil = LogAddress.FirstValidAddress;
        _readOnlyAddress = LogAddress.FirstValidAddress;
        _safeReadOnlyAddress = LogAddress.FirstValidAddress;
        _flushRequestedUntil = LogAddress.FirstValidAddress;
        _flushedUntilAddress = LogAddress.FirstValidAddress;
        if (!OpenFrame(0))
            throw new OutOfMemoryException("Could not allocate the first log page.");
        _tailPageOffset = LogAddress.FirstValidAddress;
        RefreshLimits();
    }

    /// <summary>Whether pages that leave memory stay readable on the device (see <see cref="KVSettings.StorageTier"/>).</summary>
    public bool StorageTier { get; }

    /// <summary>Bits of the page size.</summary>
    public int PageSizeBits => _pageSizeBits;

    /// <summary>Bytes per page; the largest record that fits.</summary>
    public int PageSize => _pageSize;

    /// <summary>Frames (pages held in memory) of the memory budget.</summary>
    public int FrameCount => _frameCount;

    /// <summary>Oldest address of the log.</summary>
    public long BeginAddress => Volatile.Read(ref _beginAddress);

    /// <summary>Oldest address still in memory: operations stop following hash chains below it.</summary>
    public long HeadAddress => Volatile.Read(ref _headAddress);

    /// <summary>Records below this address are read-only: updates copy them to the tail.</summary>
    public long ReadOnlyAddress => Volatile.Read(ref _readOnlyAddress);

    /// <summary>Every thread has seen a read-only boundary at least this high; pages below it can be flushed.</summary>
    public long SafeReadOnlyAddress => Volatile.Read(ref _safeReadOnlyAddress);

    /// <summary>Everything below this address has been written to the device.</summary>
    public long FlushedUntilAddress => Volatile.Read(ref _flushedUntilAddress);

    /// <summary>Number of device writes that failed.</summary>
    public long FlushErrors => Volatile.Read(ref _flushErrors);

    /// <summary>The next address to be allocated.</summary>
    public long TailAddress
    {
        get
        {
            long local = Volatile.Read(ref _tailPageOffset);
            // The offset can equal the page size (the page is full), so it is added, not or-ed in.
            long offset = Math.Min(local & 0xFFFFFFFFL, _pageSize);
            return ((local >> 32) << _pageSizeBits) + offset;
        }
    }

    /// <summary>Bytes of page memory currently allocated (frames, whether or not they hold a page now).</summary>
    public long MemoryInUse => Volatile.Read(ref _allocatedFrames) * _pageSize;

    /// <summary>Pages between the head and the tail, the tail's included.</summary>
    public long PagesInMemory => TailPage - (HeadAddress >> _pageSizeBits) + 1;

    /// <summary>The page holding the last allocated byte: a full page stays the tail until the next one opens.</summary>
    internal long TailPage => (TailAddress - 1) >> _pageSizeBits;

    /// <summary>
    /// Bytes of the pages between the head and the tail: what the log holds against the memory budget. None before
    /// the first record: the first page is allocated zeroed on demand, so the operating system gives it memory
    /// only as records fill it, and a log never written costs nothing.
    /// </summary>
    public long InMemoryBytes => NeverWritten ? 0 : PagesInMemory << _pageSizeBits;

    /// <summary>Whether no record was ever allocated (the tail is still at the first address).</summary>
    public bool NeverWritten => Volatile.Read(ref _tailPageOffset) == LogAddress.FirstValidAddress;

    /// <summary>The log that flushed object records' objects are serialized to, if the store has one.</summary>
    public ObjectLog? ObjectLog => _objectLog;

    /// <summary>
    /// Serializes the objects of flushed object records into <see cref="ObjectLog"/>. Set it before the
    /// first page is flushed; without it (or without an object log) object records are flushed as they are.
    /// </summary>
    public IObjectSerializer? ObjectSerializer { get; set; }

    /// <summary>The device flushed pages are written to.</summary>
    public IDevice Device => _device;

    /// <summary>Translates a logical address of an in-memory record to its memory address.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long GetPhysicalAddress(long logicalAddress)
        => _frames[(logicalAddress >> _pageSizeBits) & _frameMask] + (logicalAddress & _pageOffsetMask);

    /// <summary>The record at <paramref name="logicalAddress"/>, which must be in memory.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public LogRecord GetRecord(long logicalAddress) => new(GetPhysicalAddress(logicalAddress));

    /// <summary>Start address of the page holding <paramref name="logicalAddress"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long PageStart(long logicalAddress) => logicalAddress & ~_pageOffsetMask;

    /// <summary>
    /// Reserves <paramref name="size"/> bytes at the tail. The caller must be epoch-protected. A
    /// record never spans pages: the thread whose reservation crosses the end of the page opens the
    /// next one; the rest of the old page stays zero, which a scan reads as the end of the page.
    /// How far into the budget the reservation may reach depends on <paramref name="allocationClass"/>; the
    /// limit is checked before the tail moves, so no class ever fills space meant for a higher one (the tail
    /// page included) and a refused reservation leaves nothing behind.
    /// </summary>
    internal AllocationStatus TryAllocate(int size, out long address, AllocationClass allocationClass = AllocationClass.Writer)
    {
        if (size > _pageSize - LogAddress.FirstValidAddress)
            throw new TsavoriteException($"A record of {size} bytes does not fit in a page of {_pageSize} bytes.");

        address = 0;
        if (allocationClass != AllocationClass.HeadMover && TailAddress + size > EndFor(allocationClass))
        {
            // The limits follow the head and the budget; look again before refusing.
            RefreshLimits();
            if (TailAddress + size > EndFor(allocationClass))
                return RefuseOrWait();
        }

        long local = Interlocked.Add(ref _tailPageOffset, size);
        long page = local >> 32;
        int end = (int)(local & 0xFFFFFFFFL);
        if (end <= _pageSize)
        {
            address = (page << _pageSizeBits) | (long)(end - size);
            return AllocationStatus.Success;
        }

        if (end - size > _pageSize)
            return AllocationStatus.RetryNow; // another thread crossed the page end first and is opening the next page

        var opened = TryOpenPage(page + 1, allocationClass, out long cap);
        if (opened != AllocationStatus.Success)
        {
            // Let the next allocation cross the end again (and try again) instead of spinning forever.
            Volatile.Write(ref _tailPageOffset, (page << 32) | (long)_pageSize);
            return opened;
        }

        Volatile.Write(ref _tailPageOffset, ((page + 1) << 32) | (long)size);
        address = (page + 1) << _pageSizeBits;

        long mutablePages = Math.Max(1, (long)(Math.Min(cap, _frameCount) * _mutableFraction));
        long desiredReadOnly = (page + 1 - mutablePages) << _pageSizeBits;
        if (desiredReadOnly > ReadOnlyAddress)
            ShiftReadOnlyAddress(desiredReadOnly);
        return AllocationStatus.Success;
    }

    /// <summary>
    /// Opens page <paramref name="page"/> in its frame if <paramref name="allocationClass"/> may have one more page
    /// in memory and the frame's previous page has left memory. Asks for the head to move as the budget's limit
    /// comes near, so that writers rarely find it reached. <paramref name="cap"/> is the budget's page count.
    /// </summary>
    private AllocationStatus TryOpenPage(long page, AllocationClass allocationClass, out long cap)
    {
        cap = PageCap;
        if ((page << _pageSizeBits) >= (1L << LogAddress.AddressBits))
            return AllocationStatus.OutOfMemory;
        long pagesAfter = page - (HeadAddress >> _pageSizeBits) + 1;
        // From a few pages on, the head mover's thread runs, so it can give back dead pages when idle too.
        if (pagesAfter >= PagesFor(AllocationClass.Writer, cap) - LeadPages(cap) || pagesAfter == TsavoriteKV.IdleReclaimMinPages)
            HeadMoveRequested?.Invoke();
        // The head mover is bound by the frames alone: a page it opens is paid back when the head passes the page
        // it is emptying, and a budget that shrank under the log (the index or another store grew) is what the head
        // mover brings the log back within.
        if (pagesAfter > (allocationClass == AllocationClass.HeadMover ? _frameCount : PagesFor(allocationClass, cap)))
            return RefuseOrWait();
        // The frame is free only once the page that used it last has left memory and its frame was cleared.
        long previousOccupant = page - _frameCount;
        if (previousOccupant >= 0 && (previousOccupant + 1) << _pageSizeBits > Volatile.Read(ref _reusableUntil))
            return RefuseOrWait();
        if (!OpenFrame(page))
            return AllocationStatus.OutOfMemory;
        RefreshLimits(cap);
        return AllocationStatus.Success;
    }

    /// <summary>
    /// Opens <paramref name="page"/>'s frame. A frame never used before is allocated zeroed (lazily, by the
    /// operating system, so a page costs memory only as it fills); a reused one was cleared when its previous
    /// page left memory. Returns false if the memory cannot be had.
    /// </summary>
    private bool OpenFrame(long page)
    {
        int frame = (int)(page & _frameMask);
        if (_frames[frame] != 0)
            return true;
        // calloc hands back fresh zero pages for large sizes without touching them; the extra bytes align the
        // frame to 4 KB for devices that write whole sectors.
        void* raw = NativeMemory.AllocZeroed((nuint)_pageSize + FrameAlignment);
        if (raw == null)
            return false;
        _frameAllocations[frame] = (long)raw;
        _frames[frame] = Alignment.RoundUp((long)raw, FrameAlignment);
        Interlocked.Increment(ref _allocatedFrames);
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool MonotonicUpdate(ref long variable, long newValue)
    {
        while (true)
        {
            long current = Volatile.Read(ref variable);
            if (current >= newValue)
                return false;
            if (Interlocked.CompareExchange(ref variable, newValue, current) == current)
                return true;
        }
    }

    /// <summary>Waits for the device writes issued so far and frees the page memory.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        lock (_objectFlushQueue)
        {
            // Ranges not yet started are dropped; the one being written finishes before the frames are freed.
            _disposed = true;
            while (_objectFlushRunning)
                Monitor.Wait(_objectFlushQueue);
        }
        _device.WaitForPendingWrites();
        _objectLog?.Device.WaitForPendingWrites();
        _objectLog?.Dispose();
        if (!NeverWritten)
            FreeExternalValues(HeadAddress, TailAddress);
        for (int i = 0; i < _frameCount; i++)
        {
            if (_frameAllocations[i] != 0)
                NativeMemory.Free((void*)_frameAllocations[i]);
        }
        NativeMemory.Free(_frames);
        NativeMemory.Free(_frameAllocations);
    }
}
