using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Revivification: space of deleted or superseded records in the mutable region, kept in bins by
/// size so that new records of a fitting size reuse it instead of growing the log. A freed record is
/// stamped with the epoch it was freed in and is handed out only once every thread has moved past
/// that epoch, so nobody can still be looking at its old contents. Reuse pauses while a log scan
/// runs, because a scan steps over records by reading their sizes.
/// </summary>
internal sealed class FreeRecordPool
{
    private const int MinBinBits = 4;   // 16-byte records
    private const int BinCount = 16;    // up to 512 KB records
    private const int ProbeLimit = 16;

    private readonly Bin[] _bins = new Bin[BinCount];
    private readonly LightEpoch _epoch;
    private int _activeScans;
    private long _reused;
    private long _freed;

    public FreeRecordPool(LightEpoch epoch, int binCapacity)
    {
        _epoch = epoch;
        for (int i = 0; i < BinCount; i++)
            _bins[i] = new Bin(binCapacity);
    }

    /// <summary>Records handed out for reuse so far.</summary>
    public long ReusedCount => Volatile.Read(ref _reused);

    /// <summary>Records freed into the pool so far.</summary>
    public long FreedCount => Volatile.Read(ref _freed);

    /// <summary>Records waiting in the pool.</summary>
    public int Count
    {
        get
        {
            int total = 0;
            foreach (var bin in _bins)
                total += bin.Count;
            return total;
        }
    }

    /// <summary>Bin b holds records of [2^(b+4), 2^(b+5)) bytes; the last bin holds everything larger.</summary>
    private static int BinOf(int size)
    {
        int bin = 31 - System.Numerics.BitOperations.LeadingZeroCount((uint)size) - MinBinBits;
        return Math.Min(bin, BinCount - 1);
    }

    /// <summary>Adds a freed record of <paramref name="size"/> bytes at <paramref name="address"/>.</summary>
    public void Free(long address, int size)
    {
        int bin = BinOf(size);
        if (bin < 0)
            return;
        long epoch = _epoch.CurrentEpoch;
        if (_bins[bin].TryAdd(address, size, epoch))
        {
            Interlocked.Increment(ref _freed);
            // Move the epoch on so threads that refresh pass the freeing epoch and the record becomes reusable.
            _epoch.BumpCurrentEpoch();
        }
    }

    /// <summary>
    /// Takes a freed record of at least <paramref name="size"/> bytes that is still in the mutable
    /// region (at or above <paramref name="readOnlyAddress"/>), at or above <paramref name="minAddress"/>,
    /// and safe to reuse.
    /// </summary>
    public bool TryTake(int size, long readOnlyAddress, long minAddress, out long address, out int recordSize)
    {
        address = 0;
        recordSize = 0;
        if (Volatile.Read(ref _activeScans) != 0)
            return false;
        int first = Math.Max(0, BinOf(size));
        for (int b = first; b < BinCount && b <= first + 2; b++)
        {
            var bin = _bins[b];
            if (bin.Count == 0)
                continue;
            if (bin.TryTake(size, readOnlyAddress, minAddress, _epoch, out address, out recordSize))
            {
                Interlocked.Increment(ref _reused);
                return true;
            }
        }
        return false;
    }

    /// <summary>Pauses reuse for the duration of a scan.</summary>
    public void BeginScan() => Interlocked.Increment(ref _activeScans);

    /// <summary>Resumes reuse after a scan.</summary>
    public void EndScan() => Interlocked.Decrement(ref _activeScans);

    /// <summary>Forgets every freed record (their space stays unused).</summary>
    public void Clear()
    {
        foreach (var bin in _bins)
            bin.Clear();
    }

    /// <summary>Forgets every freed record and gives back the bins' arrays (the store's memory is being freed).</summary>
    public void Release()
    {
        foreach (var bin in _bins)
            bin.Release();
    }

    /// <summary>
    /// Freed records of one size class. Its arrays are allocated at the first freed record, so a store that
    /// never deletes (or a fresh store after a flush) pays nothing for them.
    /// </summary>
    private sealed class Bin
    {
        private readonly int _capacity;
        private long[] _addresses = [];
        private int[] _sizes = [];
        private long[] _epochs = [];
        private int _count;

        public Bin(int capacity) => _capacity = capacity;

        public int Count => Volatile.Read(ref _count);

        public bool TryAdd(long address, int size, long epoch)
        {
            lock (this)
            {
                if (_addresses.Length == 0 && _capacity > 0)
                {
                    _addresses = new long[_capacity];
                    _sizes = new int[_capacity];
                    _epochs = new long[_capacity];
                }
                if (_count == _addresses.Length)
                    return false;
                _addresses[_count] = address;
                _sizes[_count] = size;
                _epochs[_count] = epoch;
                Volatile.Write(ref _count, _count + 1);
                return true;
            }
        }

        public bool TryTake(int size, long readOnlyAddress, long minAddress, LightEpoch epoch, out long address, out int recordSize)
        {
            lock (this)
            {
                long safe = epoch.SafeToReclaimEpoch;
                bool recomputed = false;
                int probes = 0;
                for (int i = 0; i < _count && probes < ProbeLimit; i++, probes++)
                {
                    if (_addresses[i] < readOnlyAddress)
                    {
                        // Became read-only: it can no longer be overwritten; forget it.
                        RemoveAt(i);
                        i--;
                        continue;
                    }
                    if (_sizes[i] < size || _addresses[i] < minAddress)
                        continue;
                    if (_epochs[i] > safe)
                    {
                        if (recomputed)
                            continue;
                        safe = epoch.ComputeNewSafeToReclaimEpoch();
                        recomputed = true;
                        if (_epochs[i] > safe)
                            continue;
                    }
                    address = _addresses[i];
                    recordSize = _sizes[i];
                    RemoveAt(i);
                    return true;
                }
            }
            address = 0;
            recordSize = 0;
            return false;
        }

        private void RemoveAt(int i)
        {
            int last = _count - 1;
            _addresses[i] = _addresses[last];
            _sizes[i] = _sizes[last];
            _epochs[i] = _epochs[last];
            Volatile.Write(ref _count, last);
        }

        public void Clear()
        {
            lock (this)
                Volatile.Write(ref _count, 0);
        }

        public void Release()
        {
            lock (this)
            {
                Volatile.Write(ref _count, 0);
                _addresses = [];
                _sizes = [];
                _epochs = [];
            }
        }
    }
}
