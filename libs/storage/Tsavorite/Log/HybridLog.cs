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
/// <item>[BeginAddress, HeadAddress): on the device only (none yet: see below),</item>
/// <item>[HeadAddress, ReadOnlyAddress): in memory, read-only: updates copy the record to the tail,</item>
/// <item>[ReadOnlyAddress, TailAddress): in memory, mutable: updates happen in place.</item>
/// </list>
/// Records are allocated at the tail by fetch-and-add. When the tail opens a new page, the
/// read-only boundary follows it at a fixed lag (the mutable fraction of the memory budget); once
/// every thread has seen the new boundary (epoch protection), the pages below it are written to the
/// device; when the store has an object log, the objects that live records of the range refer to are
/// serialized into it first (see <see cref="ObjectLog"/>). Reading records back from the device is not built yet, so pages are never evicted: when
/// every frame of the memory budget holds a live page, allocation reports out-of-memory rather than
/// dropping records.
/// </summary>
public sealed unsafe class HybridLog : IDisposable
{
    private readonly LightEpoch _epoch;
    private readonly IDevice _device;
    private readonly int _pageSizeBits;
    private readonly int _pageSize;
    private readonly long _pageOffsetMask;
    private readonly int _frameCount;
    private readonly int _frameMask;
    private readonly long* _frames;
    private readonly int _mutablePages;
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
        _mutablePages = Math.Max(1, (int)(frameCount * settings.MutableFraction));
        _frames = (long*)NativeMemory.AllocZeroed((nuint)frameCount, (nuint)sizeof(long));

        BeginAddress = LogAddress.FirstValidAddress;
        HeadAddress = LogAddress.FirstValidAddress;
        _readOnlyAddress = LogAddress.FirstValidAddress;
        _safeReadOnlyAddress = LogAddress.FirstValidAddress;
        _flushRequestedUntil = LogAddress.FirstValidAddress;
        _flushedUntilAddress = LogAddress.FirstValidAddress;
        OpenFrame(0);
        _tailPageOffset = LogAddress.FirstValidAddress;
    }

    /// <summary>Bits of the page size.</summary>
    public int PageSizeBits => _pageSizeBits;

    /// <summary>Bytes per page; the largest record that fits.</summary>
    public int PageSize => _pageSize;

    /// <summary>Frames (pages held in memory) of the memory budget.</summary>
    public int FrameCount => _frameCount;

    /// <summary>Oldest address of the log.</summary>
    public long BeginAddress { get; private set; }

    /// <summary>Oldest address still in memory.</summary>
    public long HeadAddress { get; private set; }

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

    /// <summary>Bytes of page memory currently allocated.</summary>
    public long MemoryInUse => Volatile.Read(ref _allocatedFrames) * _pageSize;

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
    /// </summary>
    internal AllocationStatus TryAllocate(int size, out long address)
    {
        if (size > _pageSize - LogAddress.FirstValidAddress)
            throw new TsavoriteException($"A record of {size} bytes does not fit in a page of {_pageSize} bytes.");

        long local = Interlocked.Add(ref _tailPageOffset, size);
        long page = local >> 32;
        int end = (int)(local & 0xFFFFFFFFL);
        if (end <= _pageSize)
        {
            address = (page << _pageSizeBits) | (long)(end - size);
            return AllocationStatus.Success;
        }

        address = 0;
        if (end - size > _pageSize)
            return AllocationStatus.RetryNow; // another thread crossed the page end first and is opening the next page

        if (!TryOpenPage(page + 1))
        {
            // Let the next allocation cross the end again (and try again) instead of spinning forever.
            Volatile.Write(ref _tailPageOffset, (page << 32) | (long)_pageSize);
            return AllocationStatus.OutOfMemory;
        }

        Volatile.Write(ref _tailPageOffset, ((page + 1) << 32) | (long)size);
        address = (page + 1) << _pageSizeBits;

        long desiredReadOnly = (page + 1 - _mutablePages) << _pageSizeBits;
        if (desiredReadOnly > ReadOnlyAddress)
            ShiftReadOnlyAddress(desiredReadOnly);
        return AllocationStatus.Success;
    }

    /// <summary>Opens page <paramref name="page"/> in its frame, if the frame is free.</summary>
    private bool TryOpenPage(long page)
    {
        if ((page << _pageSizeBits) >= (1L << LogAddress.AddressBits))
            return false;
        // The frame is free only once the page that used it last is below the head (evicted).
        long previousOccupant = page - _frameCount;
        if (previousOccupant >= 0 && (previousOccupant + 1) << _pageSizeBits > HeadAddress)
            return false;
        OpenFrame(page);
        return true;
    }

    private void OpenFrame(long page)
    {
        int frame = (int)(page & _frameMask);
        if (_frames[frame] == 0)
        {
            _frames[frame] = (long)NativeMemory.AlignedAlloc((nuint)_pageSize, 4096);
            Interlocked.Increment(ref _allocatedFrames);
        }
        NativeMemory.Clear((void*)_frames[frame], (nuint)_pageSize);
    }

    /// <summary>
    /// Moves the read-only boundary up to <paramref name="newReadOnlyAddress"/> (never down, never past
    /// the tail). Once every thread has observed it, the pages below it are flushed to the device.
    /// </summary>
    public void ShiftReadOnlyAddress(long newReadOnlyAddress)
    {
        newReadOnlyAddress = Math.Min(newReadOnlyAddress, TailAddress);
        if (!MonotonicUpdate(ref _readOnlyAddress, newReadOnlyAddress))
            return;
        _epoch.BumpCurrentEpoch(() => OnReadOnlyObserved(newReadOnlyAddress));
    }

    /// <summary>Moves the read-only boundary to the tail: every record becomes read-only and is flushed.</summary>
    public void ShiftReadOnlyToTail() => ShiftReadOnlyAddress(TailAddress);

    /// <summary>
    /// Makes every record read-only and waits until the device holds all of them. Returns <see langword="false"/>
    /// if a flush failed (see <see cref="FlushErrors"/>) or <paramref name="timeout"/> passed first. The caller must
    /// not hold epoch protection: the flush starts once every protected thread has moved past the shift.
    /// </summary>
    public bool FlushToTail(TimeSpan timeout)
    {
        long tail = TailAddress;
        long errors = FlushErrors;
        ShiftReadOnlyToTail();
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (FlushedUntilAddress < tail)
        {
            if (FlushErrors != errors || Environment.TickCount64 >= deadline)
                return false;
            Thread.Sleep(1);
        }
        return true;
    }

    private void OnReadOnlyObserved(long readOnlyAddress)
    {
        MonotonicUpdate(ref _safeReadOnlyAddress, readOnlyAddress);
        long from;
        do
        {
            from = Volatile.Read(ref _flushRequestedUntil);
            if (from >= readOnlyAddress)
                return;
        }
        while (Interlocked.CompareExchange(ref _flushRequestedUntil, readOnlyAddress, from) != from);
        Flush(from, readOnlyAddress);
    }

    /// <summary>
    /// Writes [from, to) to the device. With an object log, the range first has its objects serialized,
    /// which runs off the calling thread, one range after another.
    /// </summary>
    private void Flush(long from, long to)
    {
        if (_objectLog == null || ObjectSerializer == null)
        {
            WritePages(from, to, OnFlushCompleted, null);
            return;
        }
        lock (_objectFlushQueue)
        {
            _objectFlushQueue.Enqueue(new FlushRange(from, to));
            if (_objectFlushRunning)
                return;
            _objectFlushRunning = true;
        }
        ThreadPool.UnsafeQueueUserWorkItem(_ => RunObjectFlushes(), null);
    }

    /// <summary>Issues the device writes of [from, to), a page at a time, at device address = logical address.</summary>
    private void WritePages(long from, long to, DeviceIOCompletionCallback callback, PendingWrites? pending)
    {
        uint sector = Math.Max(1u, _device.SectorSize);
        long start = from;
        while (start < to)
        {
            long pageStart = PageStart(start);
            long end = Math.Min(to, pageStart + _pageSize);
            // Sector-align the write; the extra bytes at either end are page bytes too, rewritten later.
            long alignedStart = Alignment.RoundDown(start - pageStart, sector) + pageStart;
            long alignedEnd = Math.Min(pageStart + _pageSize, Alignment.RoundUp(end - pageStart, sector) + pageStart);
            pending?.Add();
            _device.WriteAsync((IntPtr)GetPhysicalAddress(alignedStart), (ulong)alignedStart, (uint)(alignedEnd - alignedStart), callback,
                pending ?? (object)new FlushRange(start, end));
            start = end;
        }
    }

    /// <summary>
    /// Flushes the queued ranges of a store with objects, in order, each completely before the next:
    /// serialize the objects (which notes entry addresses in the records), write the entries, then the
    /// pages. Waiting for each range keeps a later write of a shared sector from being overtaken by an
    /// earlier one that lacks the later range's entry addresses.
    /// </summary>
    private void RunObjectFlushes()
    {
        while (true)
        {
            FlushRange range;
            lock (_objectFlushQueue)
            {
                if (_objectFlushQueue.Count == 0 || _disposed)
                {
                    _objectFlushRunning = false;
                    Monitor.PulseAll(_objectFlushQueue);
                    return;
                }
                range = _objectFlushQueue.Dequeue();
            }
            var pending = new PendingWrites();
            var writer = _objectLog!.BeginFlush();
            try
            {
                SerializeObjects(range.From, range.To, writer);
                pending.Add();
                if (!_objectLog.EndFlush(OnObjectFlushWriteCompleted, pending))
                    pending.Done(0);
                WritePages(range.From, range.To, OnObjectFlushWriteCompleted, pending);
            }
            catch (Exception)
            {
                // A serializer bug must not take the server down from a pool thread: the range stays unflushed.
                pending.Fail();
            }
            pending.Done(0); // the flush thread's own hold
            pending.WaitAll();
            if (pending.Failed)
                Interlocked.Increment(ref _flushErrors);
            else
                OnFlushCompleted(0, 0, range);
        }
    }

    private static void OnObjectFlushWriteCompleted(uint errorCode, uint numBytes, object? context)
        => ((PendingWrites)context!).Done(errorCode);

    /// <summary>Hands each valid, live object record of [from, to) to the serializer.</summary>
    private void SerializeObjects(long from, long to, ObjectLogWriter writer)
    {
        var serializer = ObjectSerializer!;
        long address = from;
        while (address < to)
        {
            long pageEnd = PageStart(address) + _pageSize;
            if (address + RecordLayout.MinRecordSize > pageEnd)
            {
                address = pageEnd;
                continue;
            }
            var record = GetRecord(address);
            int size = TsavoriteKV.MeasureRecordAt(in record, (int)(pageEnd - address));
            if (size <= 0)
            {
                address = pageEnd; // the unused end of a page
                continue;
            }
            var info = record.Info;
            if (info.ValueIsObject && info.Valid && !info.Tombstone)
            {
                try
                {
                    serializer.Serialize(ref record, writer);
                }
                finally
                {
                    writer.CancelEntry(); // a serializer that threw leaves no half entry behind
                }
            }
            address += size;
        }
    }

    /// <summary>Visits one record read back from the device.</summary>
    public delegate void FlushedRecordVisitor(in LogRecord record, long address);

    /// <summary>
    /// Reads the flushed part of [<paramref name="from"/>, <paramref name="until"/>) back from the device,
    /// a page at a time, and hands every record in it to <paramref name="visitor"/>, invalid ones
    /// included (blocking; for recovery and inspection). <paramref name="from"/> must be a record start.
    /// </summary>
    public void ForEachFlushedRecord(long from, long until, FlushedRecordVisitor visitor)
    {
        ArgumentNullException.ThrowIfNull(visitor);
        until = Math.Min(until, FlushedUntilAddress);
        byte* page = (byte*)NativeMemory.AlignedAlloc((nuint)_pageSize, 4096);
        try
        {
            long address = Math.Max(from, LogAddress.FirstValidAddress);
            while (address < until)
            {
                long pageStart = PageStart(address);
                long end = Math.Min(until, pageStart + _pageSize);
                var bytes = new Span<byte>(page + (address - pageStart), (int)(end - address));
                DeviceReads.Read(_device, address, bytes);
                while (address + RecordLayout.MinRecordSize <= end)
                {
                    var record = new LogRecord(page + (address - pageStart));
                    int size = TsavoriteKV.MeasureRecordAt(in record, (int)(end - address));
                    if (size <= 0)
                        break;
                    visitor(in record, address);
                    address += size;
                }
                address = pageStart + _pageSize;
            }
        }
        finally
        {
            NativeMemory.AlignedFree(page);
        }
    }

    /// <summary>Counts the device writes of one object flush and lets the flush thread wait for them.</summary>
    private sealed class PendingWrites
    {
        private int _count = 1; // the flush thread holds one until every write is issued
        private int _failed;
        private readonly ManualResetEventSlim _done = new();

        public bool Failed => Volatile.Read(ref _failed) != 0;

        public void Add() => Interlocked.Increment(ref _count);

        public void Fail() => Volatile.Write(ref _failed, 1);

        public void Done(uint errorCode)
        {
            if (errorCode != 0)
                Volatile.Write(ref _failed, 1);
            if (Interlocked.Decrement(ref _count) == 0)
                _done.Set();
        }

        public void WaitAll()
        {
            _done.Wait();
            _done.Dispose();
        }
    }

    private sealed record FlushRange(long From, long To);

    private void OnFlushCompleted(uint errorCode, uint numBytes, object? context)
    {
        var range = (FlushRange)context!;
        if (errorCode != 0)
        {
            Interlocked.Increment(ref _flushErrors);
            return;
        }
        lock (_flushLock)
        {
            _completedFlushes.Add((range.From, range.To));
            bool advanced = true;
            while (advanced)
            {
                advanced = false;
                for (int i = 0; i < _completedFlushes.Count; i++)
                {
                    if (_completedFlushes[i].From <= _flushedUntilAddress && _completedFlushes[i].To > _flushedUntilAddress)
                    {
                        Volatile.Write(ref _flushedUntilAddress, _completedFlushes[i].To);
                        _completedFlushes.RemoveAt(i);
                        advanced = true;
                        break;
                    }
                }
            }
        }
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
        for (int i = 0; i < _frameCount; i++)
        {
            if (_frames[i] != 0)
                NativeMemory.AlignedFree((void*)_frames[i]);
        }
        NativeMemory.Free(_frames);
    }
}
