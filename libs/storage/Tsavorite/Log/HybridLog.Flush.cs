using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The read-only boundary and page flushing: once every thread has seen a new read-only boundary, the pages
/// below it are written to the device, objects first when the store has an object log.
/// </summary>
public sealed unsafe partial class HybridLog
{
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
        // Out-of-line values go to the object log too, so a log with one always flushes this way.
        if (_objectLog == null)
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
            lock (_objectFlushMarks)
                _objectFlushMarks.Add((range.From, range.To, _objectLog!.TailAddress));
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
            {
                Interlocked.Increment(ref _flushErrors);
                if (StorageTier)
                {
                    // The range must reach the device before the head passes it: write it again, first of the queue.
                    Thread.Sleep(FlushRetryDelayMs);
                    lock (_objectFlushQueue)
                    {
                        var rest = _objectFlushQueue.ToArray();
                        _objectFlushQueue.Clear();
                        _objectFlushQueue.Enqueue(range);
                        foreach (var later in rest)
                            _objectFlushQueue.Enqueue(later);
                    }
                }
            }
            else
            {
                OnFlushCompleted(0, 0, range);
            }
        }
    }

    private static void OnObjectFlushWriteCompleted(uint errorCode, uint numBytes, object? context)
        => ((PendingWrites)context!).Done(errorCode);

    /// <summary>
    /// Hands each valid, live object record of [from, to) to the serializer, and writes each out-of-line value's block
    /// (see <see cref="SerializeExternalValue"/>), epoch-protected so that a block given up meanwhile stays readable.
    /// </summary>
    private void SerializeObjects(long from, long to, ObjectLogWriter writer)
    {
        bool protect = ExternalCount > 0;
        if (protect)
        {
            _epoch.Resume();
            writer.SetProtectingEpoch(_epoch); // let go while the writer's staging buffer goes to the device
        }
        try
        {
            SerializeRecords(from, to, writer);
        }
        finally
        {
            if (protect)
            {
                writer.SetProtectingEpoch(null);
                _epoch.Suspend();
            }
        }
    }

    private void SerializeRecords(long from, long to, ObjectLogWriter writer)
    {
        var serializer = ObjectSerializer;
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
            if (info.ValueIsExternal && info.Valid && !info.Tombstone)
            {
                try
                {
                    SerializeExternalValue(ref record, writer);
                }
                finally
                {
                    writer.CancelEntry();
                }
            }
            else if (serializer != null && info.ValueIsObject && info.Valid && !info.Tombstone)
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
                    if (record.Info.ValueIsExternal)
                        ExternalValue.ForgetStalePointer(record.ExternalDescriptor); // the bytes are in the object log
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

    /// <summary>Milliseconds before a failed flush of a storage tier's range is written again.</summary>
    private const int FlushRetryDelayMs = 100;

    /// <summary>
    /// With the storage tier a range that failed to reach the device is written again after a pause, for as long as
    /// it takes: its pages stay in memory meanwhile (the head does not pass unflushed pages), and every failure is
    /// counted. Without it the range is left unflushed, as the data may go anyway.
    /// </summary>
    private void RetryFlushLater(FlushRange range)
    {
        if (!StorageTier || _disposed)
            return;
        _ = System.Threading.Tasks.Task.Delay(FlushRetryDelayMs).ContinueWith(_ =>
        {
            if (!_disposed)
                WritePages(range.From, range.To, OnFlushCompleted, null);
        }, System.Threading.Tasks.TaskScheduler.Default);
    }

    private void OnFlushCompleted(uint errorCode, uint numBytes, object? context)
    {
        var range = (FlushRange)context!;
        if (errorCode != 0)
        {
            Interlocked.Increment(ref _flushErrors);
            RetryFlushLater(range);
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

}
