using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// The heap objects of one database, addressed by the 32-bit handles their log records hold. Slots
/// live in fixed-size chunks that never move, so a lookup is two array reads without a lock; handles
/// are recycled through a free list when the engine disposes a record. The table also sums the
/// objects' heap sizes for INFO memory, MEMORY USAGE and the memory budget.
/// </summary>
public sealed class ObjectTable
{
    private const int ChunkBits = 14;
    private const int ChunkSize = 1 << ChunkBits;
    private const int ChunkMask = ChunkSize - 1;

    // Chunks are allocated as handles reach them, so a database that holds no object costs no chunk.
    private GarnetObject?[][] _chunks = [];
    private readonly object _allocationLock = new();
    private int[] _free = [];
    private int _freeCount;
    private int _next = 1; // handle 0 is never used, so a zeroed record value is not a valid handle
    private long _heapSize;
    private long _count;
    private readonly Tsavorite.TsavoriteKV? _store;

    /// <summary>
    /// A table whose objects count against <paramref name="store"/>'s memory budget (none: no budget) and whose
    /// writes decide encodings by <paramref name="thresholds"/> (Redis's defaults if none).
    /// </summary>
    public ObjectTable(Tsavorite.TsavoriteKV? store = null, EncodingThresholds? thresholds = null)
    {
        _store = store;
        Thresholds = thresholds ?? EncodingThresholds.Defaults;
    }

    /// <summary>The server's encoding thresholds, which object commands run on this table's objects apply.</summary>
    public EncodingThresholds Thresholds { get; }

    /// <summary>Whether the memory budget refuses commands that grow data (-OOM): see <see cref="Tsavorite.TsavoriteKV.OverBudget"/>.</summary>
    public bool OverBudget => _store != null && _store.OverBudget;

    /// <summary>Sum of the live objects' <see cref="GarnetObject.HeapSize"/>.</summary>
    public long HeapSize => Volatile.Read(ref _heapSize);

    /// <summary>Number of live objects.</summary>
    public long Count => Volatile.Read(ref _count);

    /// <summary>Stores <paramref name="obj"/> and returns its new handle.</summary>
    public int Add(GarnetObject obj)
    {
        int handle;
        lock (_allocationLock)
        {
            if (_freeCount > 0)
            {
                handle = _free[--_freeCount];
            }
            else
            {
                handle = _next++;
                int chunk = handle >> ChunkBits;
                if (chunk == _chunks.Length)
                {
                    var grown = new GarnetObject?[chunk + 1][];
                    Array.Copy(_chunks, grown, _chunks.Length);
                    grown[chunk] = new GarnetObject?[ChunkSize];
                    Volatile.Write(ref _chunks, grown);
                }
            }
            Volatile.Write(ref _chunks[handle >> ChunkBits][handle & ChunkMask], obj);
        }
        Interlocked.Add(ref _heapSize, obj.HeapSize);
        Interlocked.Increment(ref _count);
        return handle;
    }

    /// <summary>The object of <paramref name="handle"/>.</summary>
    public GarnetObject Get(int handle)
        => Volatile.Read(ref _chunks)[handle >> ChunkBits][handle & ChunkMask]
            ?? throw new InvalidOperationException($"Object handle {handle} is not in use.");

    /// <summary>Puts <paramref name="obj"/> in place of the object of <paramref name="handle"/>.</summary>
    public void Replace(int handle, GarnetObject obj)
    {
        ref var slot = ref Volatile.Read(ref _chunks)[handle >> ChunkBits][handle & ChunkMask];
        long old = slot?.HeapSize ?? 0;
        slot = obj;
        Interlocked.Add(ref _heapSize, obj.HeapSize - old);
    }

    /// <summary>Accounts for an object of the table growing or shrinking by <paramref name="delta"/> bytes.</summary>
    public void AddHeapSize(long delta)
    {
        if (delta != 0)
            Interlocked.Add(ref _heapSize, delta);
    }

    /// <summary>
    /// Drops the object <paramref name="record"/> refers to, if it holds one (the engine's DisposeRecord
    /// callbacks). The record lets go of the handle first, so a flush that reads it afterwards skips it
    /// instead of finding the handle recycled for another object.
    /// </summary>
    public void Release(in Tsavorite.LogRecord record)
    {
        if (!record.Info.ValueIsObject)
            return;
        int handle = ObjectRecord.Detach(in record);
        if (handle != 0)
            Free(handle);
    }

    /// <summary>The object of <paramref name="handle"/>, or null if the handle is not in use (a flush racing a release).</summary>
    public GarnetObject? TryGet(int handle)
    {
        var chunks = Volatile.Read(ref _chunks);
        int chunk = handle >> ChunkBits;
        return handle <= 0 || chunk >= chunks.Length ? null : Volatile.Read(ref chunks[chunk][handle & ChunkMask]);
    }

    /// <summary>
    /// Drops every object at once (the database was flushed and no thread can reach its records any more): the
    /// objects become garbage even while idle sessions still refer to this table.
    /// </summary>
    public void Clear()
    {
        lock (_allocationLock)
        {
            Volatile.Write(ref _chunks, []);
            _free = [];
            _freeCount = 0;
            _next = 1;
            Volatile.Write(ref _heapSize, 0);
            Volatile.Write(ref _count, 0);
        }
    }

    /// <summary>Drops the object of <paramref name="handle"/> and recycles the handle.</summary>
    public void Free(int handle)
    {
        lock (_allocationLock)
        {
            ref var slot = ref _chunks[handle >> ChunkBits][handle & ChunkMask];
            var obj = slot;
            if (obj == null)
                return;
            slot = null;
            if (_freeCount == _free.Length)
                Array.Resize(ref _free, Math.Max(256, _free.Length * 2));
            _free[_freeCount++] = handle;
            Interlocked.Add(ref _heapSize, -obj.HeapSize);
            Interlocked.Decrement(ref _count);
        }
    }
}
