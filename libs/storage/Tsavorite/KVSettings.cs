namespace Tsavorite;

/// <summary>Configuration of a <see cref="TsavoriteKV"/> store.</summary>
public sealed class KVSettings
{
    /// <summary>
    /// Initial bytes of the hash index (64 bytes per bucket, rounded down to a power of two). Default 1 MB;
    /// the index doubles as keys are added, up to <see cref="IndexMaxSize"/>.
    /// </summary>
    public long IndexSize { get; set; } = 1L << 20;

    /// <summary>
    /// Bytes the hash index may grow to (rounded down to a power of two). The index doubles, while operations
    /// go on, once three quarters of its entries are in use. At most <see cref="IndexSize"/> (e.g. 0) keeps
    /// it at that size. Default 4 GB.
    /// </summary>
    public long IndexMaxSize { get; set; } = 1L << 32;

    /// <summary>Log page size as a power of two. Default 25 (32 MB). Records larger than a page cannot be stored.</summary>
    public int PageSizeBits { get; set; } = 25;

    /// <summary>Bytes of log memory (rounded down to a power-of-two number of pages, at least two). Default 16 GB, allocated page by page as the log grows.</summary>
    public long MemorySize { get; set; } = 1L << 34;

    /// <summary>Fraction of the in-memory pages that stays mutable (updated in place). Default 0.9.</summary>
    public double MutableFraction { get; set; } = 0.9;

    /// <summary>Where pages are written when they become read-only. Default: a <see cref="NullDevice"/> (nothing is written).</summary>
    public IDevice? LogDevice { get; set; }

    /// <summary>
    /// Where the objects of flushed object records are serialized (see <see cref="ObjectLog"/>), together
    /// with <see cref="HybridLog.ObjectSerializer"/>. Default: none (object records are flushed as they are).
    /// </summary>
    public IDevice? ObjectLogDevice { get; set; }

    /// <summary>
    /// Keep every record: pages that leave memory stay on <see cref="LogDevice"/> and operations read records back
    /// from it (the storage tier), instead of the head of the log dropping what it passes. Needs a log device that
    /// keeps what it is given. Default off: the log is a cache of what fits in memory.
    /// </summary>
    public bool StorageTier { get; set; }

    /// <summary>
    /// With the storage tier, a record a read found on the device is copied to the tail of the log, so the next reads
    /// of its key find it in memory (Garnet's CopyReadsToTail). Default off.
    /// </summary>
    public bool CopyReadsToTail { get; set; }

    /// <summary>
    /// With the storage tier, a record a read found on the device is copied into the read cache, a memory of its own
    /// between the index and the log, so the next reads of its key find it there; writes of the key drop the copy, and
    /// the read cache makes room FIFO with a second chance for copies read meanwhile (Garnet's --readcache). Takes
    /// precedence over <see cref="CopyReadsToTail"/>. Default off.
    /// </summary>
    public bool ReadCache { get; set; }

    /// <summary>Bytes of the read cache (rounded down to a power-of-two number of pages, at least four). Default 1 GB, allocated page by page as it fills.</summary>
    public long ReadCacheMemorySize { get; set; } = 1L << 30;

    /// <summary>Read cache page size as a power of two. Default 25 (32 MB). Records larger than a page are not cached.</summary>
    public int ReadCachePageSizeBits { get; set; } = 25;

    /// <summary>Reuse the space of deleted and expired records in the mutable region. Default on.</summary>
    public bool EnableRevivification { get; set; } = true;

    /// <summary>
    /// The memory budget this store shares with others (a server's databases) and its eviction policy. Default:
    /// a budget of the store's own, with no limit beyond <see cref="MemorySize"/> and no eviction.
    /// </summary>
    public MemoryBudget? Budget { get; set; }

    /// <summary>Freed records each revivification bin remembers; beyond that, freed space is left unused. Default 1024.</summary>
    public int RevivificationBinCapacity { get; set; } = 1024;

    /// <summary>
    /// The checkpoint version this store's writes share with others (a server's databases, which a checkpoint moves
    /// to the next version together). Default: a version of the store's own.
    /// </summary>
    public CheckpointVersion? Versions { get; set; }
}
