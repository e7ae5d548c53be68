using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Overflow buckets for hash buckets whose seven entries are taken. Buckets are numbered from 1 (0
/// means "no overflow bucket") and allocated from native chunks that are never moved, so a bucket
/// number stays valid for the life of the index. Buckets given back (lost link races, and the
/// overflow buckets of a table a resize retired) are handed out again.
/// </summary>
internal sealed unsafe class OverflowBucketPool : IDisposable
{
    private const int ChunkBits = 10;
    private const int ChunkSize = 1 << ChunkBits;

    private readonly object _growLock = new();
    private readonly object _freeLock = new();
    private long*[] _chunks = new long*[16];
    private long _next;
    private long _freeCount;
    private long[] _free = new long[16];

    /// <summary>Number of overflow buckets handed out and not returned.</summary>
    public long Count => Volatile.Read(ref _next) - Volatile.Read(ref _freeCount);

    /// <summary>Returns the memory of overflow bucket <paramref name="number"/>.</summary>
    public long* Get(long number)
    {
        long index = number - 1;
        return Volatile.Read(ref _chunks)[index >> ChunkBits] + ((index & (ChunkSize - 1)) * (HashBucket.Size / sizeof(long)));
    }

    /// <summary>Takes a zeroed overflow bucket and returns its number.</summary>
    public long Allocate()
    {
        if (Volatile.Read(ref _freeCount) > 0)
        {
            lock (_freeLock)
            {
                if (_freeCount > 0)
                {
                    long reused = _free[--_freeCount];
                    new Span<byte>(Get(reused), HashBucket.Size).Clear();
                    return reused;
                }
            }
        }

        long index = Interlocked.Increment(ref _next) - 1;
        long chunk = index >> ChunkBits;
        if (chunk >= Volatile.Read(ref _chunks).Length || Volatile.Read(ref _chunks)[chunk] == null)
            EnsureChunk(chunk);
        return index + 1;
    }

    /// <summary>
    /// Gives back a bucket no thread can reach: one that lost the race to be linked, or one of a
    /// retired table once every thread has refreshed its epoch since the retirement.
    /// </summary>
    public void Free(long number)
    {
        lock (_freeLock)
        {
            if (_freeCount == _free.Length)
                Array.Resize(ref _free, _free.Length * 2);
            _free[_freeCount] = number;
            Volatile.Write(ref _freeCount, _freeCount + 1);
        }
    }

    private void EnsureChunk(long chunk)
    {
        lock (_growLock)
        {
            var chunks = _chunks;
            if (chunk >= chunks.Length)
            {
                var grown = new long*[Math.Max(chunks.Length * 2, chunk + 1)];
                Array.Copy(chunks, grown, chunks.Length);
                chunks = grown;
            }
            if (chunks[chunk] == null)
            {
                var memory = (long*)NativeMemory.AlignedAlloc((nuint)(ChunkSize * HashBucket.Size), HashBucket.Size);
                NativeMemory.Clear(memory, (nuint)(ChunkSize * HashBucket.Size));
                chunks[chunk] = memory;
            }
            Volatile.Write(ref _chunks, chunks);
        }
    }

    public void Dispose()
    {
        lock (_growLock)
        {
            for (int i = 0; i < _chunks.Length; i++)
            {
                if (_chunks[i] != null)
                {
                    NativeMemory.AlignedFree(_chunks[i]);
                    _chunks[i] = null;
                }
            }
        }
    }
}
