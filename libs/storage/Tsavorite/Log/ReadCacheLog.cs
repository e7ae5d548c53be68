using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The memory of the read cache (<see cref="KVSettings.ReadCache"/>): a ring of pages holding copies of records that
/// reads found on the device, with no device behind it. Its addresses carry <see cref="LogAddress.ReadCacheBit"/>
/// and grow like the log's: a record's offset is its page number times the page size plus its place in the page,
/// and page p lives in slot p mod the page count. The oldest page (<see cref="Head"/>) is emptied FIFO to make room
/// (see TsavoriteKV's ReadCacheEviction), and a page's slot is reused only once every thread has refreshed its
/// epoch since the page was emptied, so a thread that reached one of its records before still reads that record.
/// </summary>
/// <remarks>
/// Everything that moves the tail or the head runs under <see cref="Gate"/>, which nobody waits for (it is only
/// ever tried): a record is copied in and linked, or a page emptied, by one thread at a time, and a thread that finds
/// the lock taken simply does not cache what it read. Pages start zeroed, so a zero header ends a page's records.
/// </remarks>
internal sealed unsafe class ReadCacheLog : IDisposable
{
    /// <summary>Fewest pages: one filling, one being emptied, and one waiting for its epoch.</summary>
    public const int MinPageCount = 4;

    private readonly byte*[] _pages;
    private readonly long[] _reusableAfterEpoch;
    private readonly long _slotMask;
    private long _allocatedPages;

    public ReadCacheLog(long memorySize, int pageSizeBits)
    {
        PageSizeBits = pageSizeBits;
        PageSize = 1 << pageSizeBits;
        long pages = Math.Max(MinPageCount, memorySize >> pageSizeBits);
        PageCount = (int)Math.Min(1 << 20, 1L << BitOperations.Log2((ulong)pages));
        _slotMask = PageCount - 1;
        _pages = new byte*[PageCount];
        _reusableAfterEpoch = new long[PageCount];
    }

    /// <summary>Serializes the tail and the head; only ever tried (see the remarks).</summary>
    public readonly object Gate = new();

    public int PageSizeBits { get; }

    public int PageSize { get; }

    /// <summary>Pages in the ring (a power of two).</summary>
    public int PageCount { get; }

    /// <summary>Offset (without the address bit) of the oldest page still holding records.</summary>
    public long Head { get; set; }

    /// <summary>Offset (without the address bit) where the next record goes.</summary>
    public long Tail { get; set; }

    /// <summary>End of the tail page: where the next page starts (0 before the first page is opened).</summary>
    public long TailPageEnd { get; private set; }

    /// <summary>Where emptying the head page got to: its records below this were settled already.</summary>
    public long EvictCursor { get; set; }

    /// <summary>Bytes of pages allocated so far (they are allocated on first use and kept).</summary>
    public long MemoryBytes => Volatile.Read(ref _allocatedPages) * PageSize;

    /// <summary>Whether <paramref name="address"/> is in the read cache.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsCacheAddress(long address) => address >= LogAddress.ReadCacheBit;

    /// <summary>The record at a read cache address (with or without the address bit).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public LogRecord GetRecord(long address)
    {
        long offset = address & (LogAddress.ReadCacheBit - 1);
        return new LogRecord(_pages[(offset >> PageSizeBits) & _slotMask] + (offset & (PageSize - 1)));
    }

    /// <summary>
    /// The first address of a chain below its read cache records: chains hold those only at their front (writers
    /// drop them, see TsavoriteKV.EntryAddressForWrite), so what follows them is the log.
    /// </summary>
    public long SkipPrefix(long address)
    {
        while (IsCacheAddress(address))
            address = GetRecord(address).Info.PreviousAddress;
        return address;
    }

    /// <summary>
    /// Makes the page at <paramref name="pageStart"/> the tail page, zeroed, if its slot's previous page was emptied
    /// long enough ago that no thread can still read it. The caller holds <see cref="Gate"/> and made sure the slot
    /// holds no live page.
    /// </summary>
    public bool TryOpenPage(long pageStart, LightEpoch epoch)
    {
        long slot = (pageStart >> PageSizeBits) & _slotMask;
        if (epoch.SafeToReclaimEpoch < _reusableAfterEpoch[slot])
            return false;
        if (_pages[slot] == null)
        {
            _pages[slot] = (byte*)NativeMemory.AlignedAlloc((nuint)PageSize, 64);
            Interlocked.Increment(ref _allocatedPages);
        }
        NativeMemory.Clear(_pages[slot], (nuint)PageSize);
        Tail = pageStart;
        TailPageEnd = pageStart + PageSize;
        return true;
    }

    /// <summary>
    /// Retires the head page, whose records are no longer in any chain: its slot may be reused once every thread
    /// has passed the epoch this bumps.
    /// </summary>
    public void RetireHeadPage(LightEpoch epoch)
    {
        long slot = (Head >> PageSizeBits) & _slotMask;
        _reusableAfterEpoch[slot] = epoch.BumpCurrentEpoch() - 1;
        Head += PageSize;
        EvictCursor = Head;
    }

    public void Dispose()
    {
        for (int i = 0; i < _pages.Length; i++)
        {
            if (_pages[i] != null)
                NativeMemory.AlignedFree(_pages[i]);
            _pages[i] = null;
        }
    }
}
