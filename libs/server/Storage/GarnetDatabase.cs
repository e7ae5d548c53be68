using System;
using System.IO;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// One logical database (SELECT n): its store (strings inline, objects by handle) and object table. A flushed or swapped-out database is retired:
/// sessions move to the replacement at their next batch, and the retired one is disposed when the
/// last session using it lets go.
/// </summary>
public sealed class GarnetDatabase
{
    private int _users;
    private int _retired;
    private int _disposed;

    internal GarnetDatabase(int index, ServerOptions options, MemoryBudget budget, WatchVersionTable watchVersions)
    {
        Index = index;
        if (options.LogDir != null)
        {
            string directory = Path.Combine(options.LogDir, $"db{index}", Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(directory);
            LogDevice = new LocalFileDevice(Path.Combine(directory, "hlog"), deleteOnClose: true);
            ObjectLogDevice = new LocalFileDevice(Path.Combine(directory, "obj"), deleteOnClose: true);
        }
        MainStore = new TsavoriteKV(new KVSettings
        {
            IndexSize = options.IndexSize,
            IndexMaxSize = options.IndexMaxSize,
            MemorySize = options.MemorySize,
            PageSizeBits = System.Numerics.BitOperations.Log2((ulong)options.PageSize),
            LogDevice = LogDevice,
            ObjectLogDevice = ObjectLogDevice,
            Budget = budget,
        });
        Objects = new ObjectTable(MainStore);
        MainStore.Log.ObjectSerializer = new ObjectFlushSerializer(Objects);
        // Heap objects count against the memory budget, and the head of the log releases the ones it drops.
        MainStore.ExternalMemorySize = () => Objects.HeapSize;
        MainStore.EvictionObserver = new DatabaseEvictionObserver(Objects, watchVersions);
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

    /// <summary>Whether this database was replaced (FLUSHDB, SWAPDB).</summary>
    public bool Retired => Volatile.Read(ref _retired) != 0;

    /// <summary>A session starts using the database.</summary>
    internal void AddUser() => Interlocked.Increment(ref _users);

    /// <summary>A session stops using the database; the last one out of a retired database disposes it.</summary>
    internal void RemoveUser()
    {
        if (Interlocked.Decrement(ref _users) == 0 && Retired)
            DisposeOnce();
    }

    /// <summary>Marks the database replaced; disposes it now if nobody uses it.</summary>
    internal void Retire()
    {
        Volatile.Write(ref _retired, 1);
        if (Volatile.Read(ref _users) == 0)
            DisposeOnce();
    }

    private void DisposeOnce()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        MainStore.Dispose();
        LogDevice?.Dispose();
        ObjectLogDevice?.Dispose();
    }

    /// <summary>Disposes the database at server shutdown.</summary>
    internal void DisposeAtShutdown() => DisposeOnce();
}
