using System;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The Tsavorite key-value store: a latch-free hash index over a hybrid record log. Keys and values
/// are byte spans; what the operations do with them is defined by the caller's
/// <see cref="ISessionFunctions{TInput, TOutput}"/>, reached through sessions.
/// </summary>
public sealed unsafe partial class TsavoriteKV : IDisposable
{
    internal readonly HashIndex Index;
    internal readonly FreeRecordPool? FreePool;
    private readonly bool _ownsDevice;
    private int _memoryFreed;

    /// <summary>Creates a store; the settings' log device, if any, stays owned by the caller.</summary>
    public TsavoriteKV(KVSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        Epoch = new LightEpoch();
        Versions = settings.Versions ?? new CheckpointVersion();
        var device = settings.LogDevice;
        if (device == null)
        {
            device = new NullDevice();
            _ownsDevice = true;
        }
        Log = new HybridLog(settings, Epoch, device);
        Index = new HashIndex(settings.IndexSize, settings.IndexMaxSize, Log, Epoch);
        if (settings.EnableRevivification)
            FreePool = new FreeRecordPool(Epoch, settings.RevivificationBinCapacity);
        Budget = settings.Budget ?? new MemoryBudget();
        if (settings.ReadCache && settings.StorageTier)
        {
            ReadCache = new ReadCacheLog(settings.ReadCacheMemorySize, settings.ReadCachePageSizeBits);
            Index.ReadCache = ReadCache;
        }
        CopyReadsToTail = settings.CopyReadsToTail && settings.StorageTier && ReadCache == null;
        Log.HeadMoveRequested = RequestHeadMove;
        Log.BudgetPageCap = () => Budget.PageCapFor(this);
        Budget.Register(this);
    }

    /// <summary>The memory budget the store counts against, and its eviction policy.</summary>
    public MemoryBudget Budget { get; }

    /// <summary>
    /// Bytes held outside the log on the store's behalf (its user's heap objects), counted against the budget.
    /// Read whenever the budget is computed, so it must be cheap.
    /// </summary>
    public Func<long>? ExternalMemorySize { get; set; }

    /// <summary>Bytes the store holds against its budget: log pages in memory, the index and <see cref="ExternalMemorySize"/>.</summary>
    public long MemoryBytes => Log.InMemoryBytes + Log.ExternalBytes + IndexBytes + (ExternalMemorySize?.Invoke() ?? 0);

    /// <summary>Grows the hash index ahead for about <paramref name="keys"/> keys in all (see <see cref="HashIndex.ExpectEntries"/>).</summary>
    public void ExpectKeys(long keys) => Index.ExpectEntries(keys);

    /// <summary>
    /// Asks the processor to start loading the hash bucket of <paramref name="key"/>. A caller that knows its next keys
    /// (a batch of them) calls it a few keys ahead of operating on them: in a large index every bucket is a cache miss,
    /// and the loads then overlap instead of each operation waiting for its own. Only a hint: it reads nothing, so it
    /// needs no epoch protection (a table being retired is still mapped, and a prefetch never faults).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void PrefetchBucket(ReadOnlySpan<byte> key)
    {
        if (Sse.IsSupported)
            Sse.Prefetch0(Index.Table.BucketOf(KeyHash.Hash(key)));
    }

    /// <summary>
    /// Bytes of the hash index that count against the budget: primary buckets (of both tables during a resize) and
    /// overflow buckets; none while the log was never written. Buckets are allocated zeroed on demand, so until the
    /// first record only the few that reads latch are backed by memory; a store that was never written (a database
    /// only selected, or just flushed) costs nothing.
    /// </summary>
    public long IndexBytes => Log.NeverWritten ? 0 : Index.MemoryBytes;

    /// <summary>Bytes of the hash index as allocated, whether or not the store was written (see <see cref="IndexBytes"/>).</summary>
    public long IndexAllocatedBytes => Index.MemoryBytes;

    /// <summary>The record log.</summary>
    public HybridLog Log { get; }

    /// <summary>The store's epoch protection.</summary>
    public LightEpoch Epoch { get; }

    /// <summary>Number of primary hash buckets (during a resize, of the table being split).</summary>
    public long IndexBucketCount => Index.BucketCount;

    /// <summary>Most primary hash buckets the index may grow to.</summary>
    public long IndexMaxBucketCount => Index.MaxBucketCount;

    /// <summary>Number of overflow hash buckets in use.</summary>
    public long OverflowBucketCount => Index.OverflowBucketCount;

    /// <summary>Hash entries in use: one per key, or per group of keys sharing a bucket and a 14-bit tag.</summary>
    public long IndexEntryCount => Index.EntryCount;

    /// <summary>Entries per hash bucket: the index's capacity is buckets × this.</summary>
    public const int EntriesPerBucket = HashBucket.EntryCount;

    /// <summary>Fraction of the index's entries in use at which it doubles (unless at its largest size).</summary>
    public const double IndexGrowthFill = HashIndex.GrowthFill;

    /// <summary>Fraction of the index's entries in use (entries / (buckets × 7)); the index doubles past <see cref="HashIndex.GrowthFill"/>.</summary>
    public double IndexFill => (double)Index.EntryCount / (Index.BucketCount * HashBucket.EntryCount);

    /// <summary>Times the hash index doubled.</summary>
    public long IndexResizeCount => Index.ResizeCount;

    /// <summary>Records reused by revivification so far.</summary>
    public long RevivifiedRecordCount => FreePool?.ReusedCount ?? 0;

    /// <summary>Freed records waiting for reuse.</summary>
    public int FreeRecordCount => FreePool?.Count ?? 0;

    /// <summary>Opens a session: the handle through which one thread at a time runs operations.</summary>
    public ClientSession<TInput, TOutput, TFunctions> NewSession<TInput, TOutput, TFunctions>(TFunctions functions)
        where TFunctions : ISessionFunctions<TInput, TOutput>
        => new(this, functions);

    /// <summary>The current time in the unit of record expirations (Unix milliseconds).</summary>
    internal static long NowUnixMs => OperationClock.NowUnixMs;

    /// <summary>Frees the index, the log memory and the epoch; sessions must be disposed first.</summary>
    public void Dispose()
    {
        FreeMemory();
        Epoch.Dispose();
    }

    /// <summary>
    /// Frees everything but the epoch — the index, the log's pages, the freed-record bins — stops the store's threads
    /// and leaves the budget. For a store retired while threads may still protect themselves on its epoch, find it
    /// retired and leave without touching anything else: the epoch's small table is freed by its finalizer once
    /// nothing refers to the store. The caller makes sure no thread is inside the store
    /// (<see cref="LightEpoch.AnyThreadProtected"/> after its retirement was published).
    /// </summary>
    public void FreeMemory()
    {
        if (Interlocked.Exchange(ref _memoryFreed, 1) != 0)
            return;
        StopHeadMover();
        Budget.Unregister(this);
        // The index before the log: its resize thread reads the log.
        Index.Dispose();
        Log.Dispose();
        ReadCache?.Dispose();
        if (_ownsDevice)
            Log.Device.Dispose();
        FreePool?.Release();
    }
}
