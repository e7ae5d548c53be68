using System;

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
    private bool _disposed;

    /// <summary>Creates a store; the settings' log device, if any, stays owned by the caller.</summary>
    public TsavoriteKV(KVSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        Epoch = new LightEpoch();
        var device = settings.LogDevice;
        if (device == null)
        {
            device = new NullDevice();
            _ownsDevice = true;
        }
        Index = new HashIndex(settings.IndexSize);
        Log = new HybridLog(settings, Epoch, device);
        if (settings.EnableRevivification)
            FreePool = new FreeRecordPool(Epoch, settings.RevivificationBinCapacity);
        Budget = settings.Budget ?? new MemoryBudget();
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
    public long MemoryBytes => Log.InMemoryBytes + IndexBytes + (ExternalMemorySize?.Invoke() ?? 0);

    /// <summary>Bytes of the hash index: primary and overflow buckets.</summary>
    public long IndexBytes => (Index.BucketCount + Index.OverflowBucketCount) * HashBucket.Size;

    /// <summary>The record log.</summary>
    public HybridLog Log { get; }

    /// <summary>The store's epoch protection.</summary>
    public LightEpoch Epoch { get; }

    /// <summary>Number of primary hash buckets.</summary>
    public long IndexBucketCount => Index.BucketCount;

    /// <summary>Number of overflow hash buckets in use.</summary>
    public long OverflowBucketCount => Index.OverflowBucketCount;

    /// <summary>Records reused by revivification so far.</summary>
    public long RevivifiedRecordCount => FreePool?.ReusedCount ?? 0;

    /// <summary>Freed records waiting for reuse.</summary>
    public int FreeRecordCount => FreePool?.Count ?? 0;

    /// <summary>Opens a session: the handle through which one thread at a time runs operations.</summary>
    public ClientSession<TInput, TOutput, TFunctions> NewSession<TInput, TOutput, TFunctions>(TFunctions functions)
        where TFunctions : ISessionFunctions<TInput, TOutput>
        => new(this, functions);

    /// <summary>The current time in the units of record expirations (UTC ticks).</summary>
    internal static long NowTicks => DateTime.UtcNow.Ticks;

    /// <summary>Frees the index and the log memory; sessions must be disposed first.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        StopHeadMover();
        Budget.Unregister(this);
        Log.Dispose();
        Index.Dispose();
        if (_ownsDevice)
            Log.Device.Dispose();
        Epoch.Dispose();
    }
}
