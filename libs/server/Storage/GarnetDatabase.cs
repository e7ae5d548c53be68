using System;
using System.IO;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// One logical database (SELECT n): its store (strings inline, objects by handle) and object table.
/// </summary>
/// <remarks>
/// <para>
/// Invariant: a thread touches the store (index, log pages, object records) only while it is protected on the
/// store's epoch and only after it checked, once protected, that the database is not retired (<see cref="TryEnter"/>).
/// A flush retires the database (<see cref="Retire"/>): it publishes the flag with a full fence, then frees the
/// memory once a scan made after that finds no thread protected on the epoch (<see cref="LightEpoch.AnyThreadProtected"/>).
/// Both sides fence between their write and their read (Dekker): a thread that protected itself before the scan is
/// seen by it, and one that protects itself after reads the flag and leaves. "No thread protected", not "every thread
/// refreshed": a batch refreshes its epoch, and the engine refreshes inside operations, while still using the store.
/// </para>
/// <para>
/// Sessions move to the replacement at their next batch, so an idle session keeps a reference to a retired
/// database; that costs only the managed shells of the store and the epoch's small table (never disposed: a thread
/// may still protect itself on it to find the database retired), since the store's native memory is freed and the
/// object table cleared. The check runs whenever the drain of the store's epoch runs the retirement's action
/// (threads draining as they suspend or refresh), which asks again while some thread is still protected.
/// </para>
/// </remarks>
public sealed class GarnetDatabase
{
    /// <summary>How long FLUSHDB/FLUSHALL SYNC waits for the threads still in a flushed database before it replies
    /// anyway; a batch whose replies block on a client that does not read must not stall another client's flush.</summary>
    private static readonly TimeSpan SyncReleaseWait = TimeSpan.FromSeconds(1);

    private const int Live = 0;
    private const int RetiredForWaiter = 1;
    private const int RetiredInBackground = 2;
    private const int Releasing = 3;

    private int _state;
    private int _freed;
    private readonly Action _tryRelease;
    private ManualResetEventSlim? _releasable;

    internal GarnetDatabase(int index, ServerOptions options, MemoryBudget budget, KeyRemovalHook removals, CheckpointVersion versions, long indexSize = 0)
    {
        Index = index;
        if (options.StorageTier && options.LogDir == null && options.LogTiers is not { Count: > 0 })
            throw new ArgumentException("The storage tier needs a log directory (LogDir or LogTiers).", nameof(options));
        string instance = Guid.NewGuid().ToString("N");
        if (options.StorageTier && options.LogTiers is { Count: > 0 } tiers)
        {
            var devices = new IDevice[tiers.Count];
            var capacities = new long[tiers.Count];
            string directory = "";
            for (int i = 0; i < tiers.Count; i++)
            {
                directory = DatabaseDirectory(tiers[i].Directory, index, instance);
                devices[i] = CreateLogDevice(options, Path.Combine(directory, "hlog"), options.SegmentSize);
                capacities[i] = tiers[i].Capacity;
            }
            LogDevice = new TieredDevice(devices, capacities);
            // The object log's entries are read for any record of the log, so it lives with the tier that keeps all.
            ObjectLogDevice = new LocalFileDevice(Path.Combine(directory, "obj"), deleteOnClose: true);
        }
        else if (options.LogDir != null)
        {
            string directory = DatabaseDirectory(options.LogDir, index, instance);
            LogDevice = CreateLogDevice(options, Path.Combine(directory, "hlog"), options.StorageTier ? options.SegmentSize : LocalFileDevice.DefaultSegmentSize);
            ObjectLogDevice = new LocalFileDevice(Path.Combine(directory, "obj"), deleteOnClose: true);
        }
        MainStore = new TsavoriteKV(new KVSettings
        {
            IndexSize = indexSize > 0 ? indexSize : options.IndexSize,
            IndexMaxSize = options.IndexMaxSize,
            MemorySize = options.MemorySize,
            PageSizeBits = System.Numerics.BitOperations.Log2((ulong)options.PageSize),
            LogDevice = LogDevice,
            ObjectLogDevice = ObjectLogDevice,
            Budget = budget,
            Versions = versions,
            StorageTier = options.StorageTier,
            CopyReadsToTail = options.CopyReadsToTail,
            ReadCache = options.ReadCache,
            ReadCacheMemorySize = options.ReadCacheMemorySize,
            ReadCachePageSizeBits = System.Numerics.BitOperations.Log2((ulong)options.ReadCachePageSize),
        });
        Objects = new ObjectTable(MainStore, options.EncodingThresholds);
        MainStore.Log.ObjectSerializer = new ObjectFlushSerializer(Objects);
        // Heap objects count against the memory budget, and the head of the log releases the ones it drops.
        MainStore.ExternalMemorySize = () => Objects.HeapSize;
        MainStore.EvictionObserver = new DatabaseEvictionObserver(this, removals);
        _tryRelease = TryRelease;
    }

    private static IDevice CreateLogDevice(ServerOptions options, string basePath, long segmentSize)
        => options.LogDeviceFactory?.Invoke(basePath, segmentSize) ?? new LocalFileDevice(basePath, segmentSize, deleteOnClose: true);

    /// <summary>A directory of its own for this database's files under <paramref name="root"/>, created.</summary>
    private static string DatabaseDirectory(string root, int index, string instance)
    {
        string directory = Path.Combine(root, $"db{index}", instance);
        Directory.CreateDirectory(directory);
        return directory;
    }

    /// <summary>The heap objects (lists, hashes, sets, sorted sets) that the store's object records refer to.</summary>
    public ObjectTable Objects { get; }

    /// <summary>The database number.</summary>
    public int Index { get; internal set; }

    /// <summary>The string store.</summary>
    public TsavoriteKV MainStore { get; }

    /// <summary>The device the store's log flushes to, if log files are enabled.</summary>
    internal IDevice? LogDevice { get; }

    /// <summary>The device flushed records' objects are serialized to, if log files are enabled.</summary>
    internal IDevice? ObjectLogDevice { get; }

    /// <summary>Whether this database was flushed: it is being or has been freed, and nothing may enter it.</summary>
    public bool Retired => Volatile.Read(ref _state) != Live;

    /// <summary>Whether the store's memory was given back (after a flush, once no thread was inside).</summary>
    public bool Freed => Volatile.Read(ref _freed) != 0;

    /// <summary>Whether nothing was ever written: flushing it has nothing to free, and it counts nothing against the budget.</summary>
    internal bool NeverWritten => MainStore.Log.NeverWritten;

    /// <summary>
    /// Protects the calling thread on the store's epoch through <paramref name="session"/> (for a batch of
    /// operations), then checks that the database is not retired; if it is, unprotects and returns false, and the
    /// caller looks the database up again. The protection's announcement is a full fence, so the check cannot be
    /// answered from before it (see the invariant above).
    /// </summary>
    internal bool TryEnter<TInput, TOutput, TFunctions>(ClientSession<TInput, TOutput, TFunctions> session)
        where TFunctions : ISessionFunctions<TInput, TOutput>
    {
        session.BeginUnsafe();
        if (Volatile.Read(ref _state) == Live)
            return true;
        session.EndUnsafe();
        return false;
    }

    /// <summary>
    /// Retires the database (the caller unlinked it from the server first): no thread enters it from now on, and its
    /// memory is freed as soon as no thread is inside. <paramref name="waiter"/>: the caller will call
    /// <see cref="WaitUntilFreed"/> and free the memory on its own thread (FLUSHDB SYNC); otherwise it is freed in the
    /// background (ASYNC). The caller must not be protected on the store's epoch, or it would wait for itself.
    /// </summary>
    internal void Retire(bool waiter)
    {
        if (waiter)
            _releasable = new ManualResetEventSlim(false);
        if (Interlocked.CompareExchange(ref _state, waiter ? RetiredForWaiter : RetiredInBackground, Live) != Live)
            return;
        // Runs at once when no thread is protected; otherwise when the protected ones have moved on.
        MainStore.Epoch.BumpCurrentEpoch(_tryRelease);
    }

    /// <summary>
    /// Waits (a bounded time, <see cref="SyncReleaseWait"/>) until no thread is inside the retired database and frees
    /// its memory on this thread. If the time runs out, the memory is freed in the background when the last thread leaves.
    /// </summary>
    internal void WaitUntilFreed()
    {
        var releasable = _releasable;
        if (releasable == null)
            return;
        if (!releasable.Wait(SyncReleaseWait)
            && Interlocked.CompareExchange(ref _state, RetiredInBackground, RetiredForWaiter) == RetiredForWaiter)
            return; // handed over to the background; the epoch action will queue it
        // The action moved the state to Releasing for this waiter (before or just after the wait timed out).
        releasable.Wait();
        FreeMemory();
    }

    /// <summary>The retirement's epoch action: frees the memory if no thread is protected on the store, else asks again.</summary>
    private void TryRelease()
    {
        if (MainStore.Epoch.AnyThreadProtected())
        {
            // A protected thread drains again when it suspends or refreshes, so the question comes back.
            MainStore.Epoch.BumpCurrentEpoch(_tryRelease);
            return;
        }
        if (Interlocked.CompareExchange(ref _state, Releasing, RetiredForWaiter) == RetiredForWaiter)
        {
            _releasable!.Set();
            return;
        }
        // Never on the draining thread: it may be the store's own head mover, which freeing joins.
        if (Interlocked.CompareExchange(ref _state, Releasing, RetiredInBackground) == RetiredInBackground)
            ThreadPool.UnsafeQueueUserWorkItem(static database => database.FreeMemory(), this, preferLocal: false);
    }

    /// <summary>Gives back the store's native memory and drops its objects; no thread may be inside.</summary>
    private void FreeMemory()
    {
        if (Interlocked.Exchange(ref _freed, 1) != 0)
            return;
        // The budget lets go of the store first, so used_memory never counts a half-freed one.
        MainStore.FreeMemory();
        Objects.Clear();
        LogDevice?.Dispose();
        ObjectLogDevice?.Dispose();
        // The event is left to the collector: the thread that set it may still be inside Set.
    }

    /// <summary>Disposes the database at server shutdown (no session is left).</summary>
    internal void DisposeAtShutdown()
    {
        if (Interlocked.Exchange(ref _freed, 1) != 0)
            return;
        MainStore.Dispose();
        LogDevice?.Dispose();
        ObjectLogDevice?.Dispose();
    }
}
