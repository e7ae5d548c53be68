namespace Garnet.test;

/// <summary>What a test fixture's in-process server looks like; small by default so tests are cheap.</summary>
public sealed record TestServerOptions
{
    public long IndexSize { get; init; } = 1L << 20;
    public long IndexMaxSize { get; init; } = 1L << 32;
    public long MemorySize { get; init; } = 1L << 28;
    public long PageSize { get; init; } = 1L << 22;

    /// <summary>Bytes all databases may hold together (Redis's maxmemory); 0 for no limit beyond <see cref="MemorySize"/>.</summary>
    public long MaxMemory { get; init; }
    public int Databases { get; init; } = 16;
    public bool EnableDebugCommand { get; init; } = true;
    public string? Password { get; init; }

    /// <summary>ACL file loaded at start (ACL LOAD, ACL SAVE); the test owns and deletes it.</summary>
    public string? AclFile { get; init; }
    public bool UseLogDirectory { get; init; }

    /// <summary>Keep records that leave memory in the log directory (which it implies) and read them back.</summary>
    public bool StorageTier { get; init; }

    /// <summary>With the storage tier, reads copy what they find on the device to the tail.</summary>
    public bool CopyReadsToTail { get; init; }

    /// <summary>With the storage tier, reads copy what they find on the device into a read cache.</summary>
    public bool ReadCache { get; init; }

    /// <summary>Bytes of the read cache (the server's default when 0).</summary>
    public long ReadCacheMemorySize { get; init; }

    /// <summary>Bytes of a read cache page (the server's default when 0).</summary>
    public long ReadCachePageSize { get; init; }

    /// <summary>
    /// With the storage tier, keep the log in one directory per entry (tier0, tier1, ... under the fixture's directory),
    /// each keeping that many bytes (-1 all; the last must be -1), instead of one log directory.
    /// </summary>
    public long[]? LogTierCapacities { get; init; }

    /// <summary>Makes the log's device (see ServerOptions.LogDeviceFactory); null for local files.</summary>
    public System.Func<string, long, Tsavorite.IDevice>? LogDeviceFactory { get; init; }

    /// <summary>Bytes of each log file with the storage tier.</summary>
    public long SegmentSize { get; init; } = 1L << 30;

    /// <summary>Seconds between compaction checks (0 never), the files kept, and how.</summary>
    public int CompactionFrequencySecs { get; init; }
    public int CompactionMaxSegments { get; init; } = 32;
    public Tsavorite.CompactionType CompactionType { get; init; }
    public long PubSubOutputLimit { get; init; } = 32L << 20;

    /// <summary>Epoll event loops; 0 for one per processor.</summary>
    public int EventLoops { get; init; }

    /// <summary>How plain connections do their I/O.</summary>
    public Garnet.networking.SocketIoModel SocketIo { get; init; } = Garnet.networking.SocketIoModel.Auto;
}
