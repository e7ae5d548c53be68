using System.Collections.Generic;
using Garnet.networking;

namespace Garnet.server;

/// <summary>
/// Settings of a server instance, already validated and in engine units. The host turns command-line
/// and JSON options into this; embedders may fill it directly.
/// </summary>
public sealed class ServerOptions
{
    /// <summary>Address to listen on. Default 127.0.0.1.</summary>
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>TCP port. Default 6379; 0 picks a free port.</summary>
    public int Port { get; set; } = 6379;

    /// <summary>Cluster mode (--cluster): the host plugs a cluster node in (<see cref="StoreWrapper.Cluster"/>).</summary>
    public bool EnableCluster { get; set; }

    /// <summary>With <see cref="EnableCluster"/>, start as a new node: the saved node configuration (nodes.conf) is not read.</summary>
    public bool CleanClusterConfig { get; set; }

    /// <summary>The address this cluster node gives clients and other nodes (--cluster-announce-ip); null for the address a client reached.</summary>
    public string? ClusterAnnounceIp { get; set; }

    /// <summary>The port this cluster node gives clients and other nodes (--cluster-announce-port); 0 for <see cref="Port"/>.</summary>
    public int ClusterAnnouncePort { get; set; }

    /// <summary>Seconds a cluster node may not answer before it is suspected to fail (--cluster-timeout; Redis's cluster-node-timeout in seconds).</summary>
    public int ClusterTimeout { get; set; } = 60;

    /// <summary>The user a cluster node authenticates as on its links to the other nodes (--cluster-username); null for the default user.</summary>
    public string? ClusterUsername { get; set; }

    /// <summary>The password a cluster node authenticates with on its links (--cluster-password); null to send no AUTH.</summary>
    public string? ClusterPassword { get; set; }

    /// <summary>Unix domain socket path to listen on as well, or null.</summary>
    public string? UnixSocketPath { get; set; }

    /// <summary>
    /// Initial bytes of the hash index per database. Default 1 MB (16,384 buckets); the index doubles as
    /// keys are added (once three quarters of its entries are in use), up to <see cref="IndexMaxSize"/>.
    /// </summary>
    public long IndexSize { get; set; } = 1L << 20;

    /// <summary>Bytes the hash index of a database may grow to; at most <see cref="IndexSize"/> keeps it at that size. Default 4 GB.</summary>
    public long IndexMaxSize { get; set; } = 1L << 32;

    /// <summary>Bytes of log memory per database. Default 16 GB (allocated as the log grows).</summary>
    public long MemorySize { get; set; } = 1L << 34;

    /// <summary>Log page size in bytes (a power of two). Default 32 MB; also the largest record.</summary>
    public long PageSize { get; set; } = 1L << 25;

    /// <summary>
    /// Bytes all databases together may hold — log pages in memory, hash indexes and heap objects — as Redis's
    /// maxmemory; 0 leaves each database to <see cref="MemorySize"/>. Default 0.
    /// </summary>
    public long MaxMemory { get; set; }

    /// <summary>What happens to live keys when the memory budget is reached (Redis's maxmemory-policy). Default noeviction.</summary>
    public Tsavorite.EvictionPolicy MaxMemoryPolicy { get; set; } = Tsavorite.EvictionPolicy.NoEviction;

    /// <summary>How slowly LFU counters grow (Redis's lfu-log-factor). Default 10.</summary>
    public int LfuLogFactor { get; set; } = 10;

    /// <summary>Minutes per one-step decay of an LFU counter; 0 never decays (Redis's lfu-decay-time). Default 1.</summary>
    public int LfuDecayTime { get; set; } = 1;

    /// <summary>Number of databases (SELECT 0..n-1). Default 16.</summary>
    public int Databases { get; set; } = 16;

    /// <summary>Directory for the log device files, or null for no log files.</summary>
    public string? LogDir { get; set; }

    /// <summary>
    /// Keep records that leave memory on the log device under <see cref="LogDir"/> and read them back (the storage
    /// tier): nothing is evicted, and the data may exceed the memory budget. Needs <see cref="LogDir"/>.
    /// </summary>
    public bool StorageTier { get; set; }

    /// <summary>
    /// With the storage tier, the log kept in several directories instead of <see cref="LogDir"/>, fastest first (each
    /// write goes to all of them, a read comes from the first that still holds the range); the last keeps everything
    /// and also holds the object log. Null: one device under <see cref="LogDir"/>.
    /// </summary>
    public IReadOnlyList<LogTier>? LogTiers { get; set; }

    /// <summary>
    /// Makes the device of a database's log (each tier's, with <see cref="LogTiers"/>) from its base path and segment
    /// size, for embedders that keep the log elsewhere than in local files or watch its I/O; the device is disposed with
    /// the database. Null: a <see cref="Tsavorite.LocalFileDevice"/> that deletes its files on close.
    /// </summary>
    public System.Func<string, long, Tsavorite.IDevice>? LogDeviceFactory { get; set; }

    /// <summary>With the storage tier, reads copy what they find on the device to the tail of the log. Default off.</summary>
    public bool CopyReadsToTail { get; set; }

    /// <summary>
    /// With the storage tier, records reads find on the device are copied into a read cache of
    /// <see cref="ReadCacheMemorySize"/> bytes between the index and the log (instead of <see cref="CopyReadsToTail"/>,
    /// which it overrides), so a hot set is served from memory without growing the log. Default off.
    /// </summary>
    public bool ReadCache { get; set; }

    /// <summary>Bytes of the read cache, allocated page by page as it fills. Default 1 GB.</summary>
    public long ReadCacheMemorySize { get; set; } = 1L << 30;

    /// <summary>Bytes of a read cache page (a power of two); larger records are not cached. Default 4 MB, as Garnet.</summary>
    public long ReadCachePageSize { get; set; } = 1L << 22;

    /// <summary>Bytes of each log file with the storage tier (a power of two). Default 1 GB.</summary>
    public long SegmentSize { get; set; } = 1L << 30;

    /// <summary>Seconds between compaction checks with the storage tier; 0 never. Default 0.</summary>
    public int CompactionFrequencySecs { get; set; }

    /// <summary>Log files a database keeps before compaction removes the oldest. Default 32.</summary>
    public int CompactionMaxSegments { get; set; } = 32;

    /// <summary>How compaction keeps the live records of the files it removes. Default none.</summary>
    public Tsavorite.CompactionType CompactionType { get; set; } = Tsavorite.CompactionType.None;

    /// <summary>Directory for checkpoints and the operation log (its AOF subdirectory), or null (then <see cref="LogDir"/>, else the current directory).</summary>
    public string? CheckpointDir { get; set; }

    /// <summary>Log write commands to the operation log (AOF) so <see cref="Recover"/> can replay them. Default off.</summary>
    public bool EnableAof { get; set; }

    /// <summary>
    /// When the operation log is made durable: 0 before each network batch's replies to writes are sent (commit-before-ack,
    /// with group commit), N every N ms in the background, -1 only on COMMITAOF. Default 0.
    /// </summary>
    public int AofCommitFrequencyMs { get; set; }

    /// <summary>At a commit frequency N > 0, replies to writes wait for the next periodic commit. Default off.</summary>
    public bool AofCommitWait { get; set; }

    /// <summary>Bytes of memory buffering operation log entries until written (a power of two, 64 KB to 1 GB). Default 64 MB.</summary>
    public long AofMemorySize { get; set; } = 1L << 26;

    /// <summary>
    /// The unit in which the operation log is written to its files (a power of two, 4 KB to <see cref="AofMemorySize"/>):
    /// the largest single write, and the buffer gathering entries for it where writes bypass the page cache. Default 4 MB.
    /// </summary>
    public long AofPageSize { get; set; } = 1L << 22;

    /// <summary>Size of each operation log file. Default 1 GB.</summary>
    public long AofSegmentSize { get; set; } = 1L << 30;

    /// <summary>
    /// AOF bytes (those kept since the last checkpoint) past which a checkpoint is taken and the files before it removed;
    /// 0 for no limit. The files are then at most a quarter of it (see <see cref="EffectiveAofSegmentSize"/>). Default 0.
    /// </summary>
    public long AofSizeLimit { get; set; }

    /// <summary>The AOF file size in use: <see cref="AofSegmentSize"/>, lowered to a power of two no larger than a quarter of <see cref="AofSizeLimit"/> (at least 1 MB).</summary>
    public long EffectiveAofSegmentSize => AofSizeLimit <= 0
        ? AofSegmentSize
        : System.Math.Min(AofSegmentSize, System.Math.Max(1L << 20, 1L << (63 - System.Numerics.BitOperations.LeadingZeroCount((ulong)System.Math.Max(1, AofSizeLimit / 4)))));

    /// <summary>Seconds between the end of a checkpoint and the start of the next (periodic checkpoints); 0 for none. Default 0.</summary>
    public int CheckpointFrequencySecs { get; set; }

    /// <summary>Redis's save points: a background save once both the seconds and the changes have passed since the last. Default none.</summary>
    public System.Collections.Generic.List<SavePoint>? SavePoints { get; set; }

    /// <summary>Replay the operation log at start (<see cref="StoreWrapper.Recover"/>). Default off.</summary>
    public bool Recover { get; set; }

    /// <summary>A damaged operation log (other than a torn last entry) stops the start instead of being cut. Default on.</summary>
    public bool FailOnRecoveryError { get; set; } = true;

    /// <summary>Allow the DEBUG command (risky: it can stall the server). Default off.</summary>
    public bool EnableDebugCommand { get; set; }

    /// <summary>Interval of the active expiration task in seconds; 0 disables it. Default 1.</summary>
    public int ExpiredKeyDeletionScanFrequencySecs { get; set; } = 1;

    /// <summary>Password clients must AUTH with (the default user's), or null for none.</summary>
    public string? Password { get; set; }

    /// <summary>ACL file of "user name rules..." lines, loaded at start and by ACL LOAD, written by ACL SAVE; null for none.</summary>
    public string? AclFile { get; set; }

    /// <summary>How plain connections do their I/O. Default: epoll event loops on Linux, async sockets elsewhere.</summary>
    public SocketIoModel SocketIo { get; set; } = SocketIoModel.Auto;

    /// <summary>Epoll event-loop threads; 0 for one per processor the process may run on. Default 0.</summary>
    public int EventLoops { get; set; }

    /// <summary>
    /// Microseconds an epoll event loop keeps polling instead of sleeping after its last events; 0 to always sleep.
    /// Default 50 (see <see cref="NetworkServerOptions.BusyPoll"/>).
    /// </summary>
    public int BusyPollMicroseconds { get; set; } = (int)NetworkServerOptions.DefaultBusyPoll.TotalMicroseconds;

    /// <summary>
    /// TLS for every connection (the server certificate, or a callback choosing it per handshake, which is how a
    /// renewed certificate is picked up); null for plain connections. Default null.
    /// </summary>
    public System.Net.Security.SslServerAuthenticationOptions? TlsOptions { get; set; }

    /// <summary>Initial network receive buffer per connection. Default 128 KB.</summary>
    public int NetworkBufferSize { get; set; } = 1 << 17;

    /// <summary>
    /// Most clients connected at once (Redis's maxclients); past it a client gets "-ERR max number of clients reached".
    /// At start it is lowered to what the process's descriptor limit allows, as Redis does. Default 10000.
    /// </summary>
    public int MaxClients { get; set; } = 10000;

    /// <summary>Seconds a client may stay idle before it is closed; 0 never (Redis's timeout). Default 0.</summary>
    public int TimeoutSeconds { get; set; }

    /// <summary>Seconds between TCP keepalive probes of idle connections; 0 off (Redis's tcp-keepalive). Default 300.</summary>
    public int TcpKeepAliveSeconds { get; set; } = 300;

    /// <summary>Most bytes of one client's input waiting to be parsed (Redis's client-query-buffer-limit). Default 1 GB.</summary>
    public long ClientQueryBufferLimit { get; set; } = 1L << 30;

    /// <summary>Longest bulk string a client may send (Redis's proto-max-bulk-len). Default 512 MB.</summary>
    public long ProtoMaxBulkLength { get; set; } = 512L << 20;

    /// <summary>
    /// Refuse clients from other hosts while the default user has no password (Redis's protected-mode). Default on;
    /// it matters only when listening beyond loopback.
    /// </summary>
    public bool ProtectedMode { get; set; } = true;

    /// <summary>Output limit of normal clients (client-output-buffer-limit normal). Default none, as Redis.</summary>
    public OutputLimit NormalOutputLimit { get; set; } = OutputLimit.None;

    /// <summary>Output limit of replicas (client-output-buffer-limit replica). Default 256 MB hard, 64 MB for 60 s, as Redis.</summary>
    public OutputLimit ReplicaOutputLimit { get; set; } = new(256L << 20, 64L << 20, 60);

    /// <summary>
    /// Output limit of clients subscribed to channels or patterns (client-output-buffer-limit pubsub): published
    /// messages waiting to be sent count too. Default 32 MB hard, 8 MB for 60 s, as Redis.
    /// </summary>
    public OutputLimit PubSubOutputLimit { get; set; } = new(32L << 20, 8L << 20, 60);

    /// <summary>
    /// Milliseconds a Lua script may run before other clients get -BUSY and SCRIPT KILL may stop it
    /// (Redis's lua-time-limit); 0 or less never times out. Default 5000.
    /// </summary>
    public long LuaTimeLimitMilliseconds { get; set; } = 5000;

    /// <summary>
    /// The keyspace events published at start (Redis's notify-keyspace-events; CONFIG SET changes them at runtime).
    /// Default none: notifications off.
    /// </summary>
    public KeyspaceEventClasses NotifyKeyspaceEvents { get; set; }

    /// <summary>
    /// Directories from which REGISTERCS and MODULE LOADCS may load extension assemblies; a path
    /// outside all of them is refused. Empty (the default) turns runtime loading off.
    /// </summary>
    public string[] ExtensionDirectories { get; set; } = [];

    /// <summary>
    /// The thresholds that decide the encoding OBJECT ENCODING reports (Redis's <c>*-max-listpack-*</c>
    /// parameters, Redis's defaults); CONFIG SET changes this instance while the server runs.
    /// </summary>
    public EncodingThresholds EncodingThresholds { get; set; } = new();

    /// <summary>
    /// The configuration file the server started from (a JSON file of options, or a Redis-style redis.conf), which
    /// CONFIG REWRITE rewrites; null when there is none, and CONFIG REWRITE then fails as Redis does.
    /// </summary>
    public string? ConfigFile { get; set; }

    /// <summary>
    /// CONFIG parameters to set at start, by Redis name (e.g. "slowlog-max-len" → "256", "hz" → "20"), checked and
    /// applied as CONFIG SET would; immutable parameters this server only reports (daemonize, io-threads ...) may be
    /// given here too. Applied when the server is created; a bad one throws there.
    /// </summary>
    public Dictionary<string, string> ConfigParameters { get; set; } = new(System.StringComparer.OrdinalIgnoreCase);

    /// <summary>Length of the queue of connections not yet accepted (Redis's tcp-backlog). Default 511, as Redis.</summary>
    public int TcpBacklog { get; set; } = 511;

    /// <summary>
    /// Milliseconds <c>GarnetServer.Start</c> may spend, before it listens, sending representative traffic through a
    /// throwaway server of these options, so that the runtime has compiled the hot paths to optimized code before the
    /// first client arrives (it stops sooner once nothing new is compiled). 0 (the default for an embedded server)
    /// skips it; the executable's default is 1500 (--warm-up).
    /// </summary>
    public int WarmUpMilliseconds { get; set; }
    /// <summary>
    /// The options of the throwaway server the start-up warm-up sends its traffic to: these values (so commands take the
    /// paths they will take here: encodings, keyspace events, eviction policy), but on a free loopback port, in memory,
    /// open to the default user, with no operation log, cluster, TLS, files or background work of its own.
    /// </summary>
    public ServerOptions ForWarmUp()
    {
        var warm = ForDebugFork();
        warm.LogDir = null;
        warm.StorageTier = false;
        warm.Address = "127.0.0.1";
        warm.Port = 0;
        warm.UnixSocketPath = null;
        warm.EnableCluster = false;
        warm.TlsOptions = null;
        warm.Password = null;
        warm.Databases = 1;
        warm.IndexSize = System.Math.Min(IndexSize, 1L << 20);
        warm.MemorySize = System.Math.Min(MemorySize, 1L << 26);
        warm.PageSize = System.Math.Min(PageSize, 1L << 20);
        warm.MaxMemory = 0;
        warm.MaxClients = 64;
        warm.WarmUpMilliseconds = 0;
        return warm;
    }

    /// <summary>
    /// The options of a server forked for a SCRIPT DEBUG YES session (Scripting/Debugger/DebugFork.cs): these values,
    /// but doing nothing by itself — no operation log, checkpoints, save points, active expiration, idle timeout, ACL
    /// file or start-up parameters — so the copy can touch nothing of the server's. With a storage tier, the copy has
    /// one of its own in a new directory under the server's first log directory (the caller deletes it); else it is in
    /// memory only.
    /// </summary>
    internal ServerOptions ForDebugFork()
    {
        var fork = (ServerOptions)MemberwiseClone();
        fork.LogDir = StorageTier
            ? System.IO.Path.Combine(LogTiers is { Count: > 0 } tiers ? tiers[0].Directory : LogDir!, "debug-fork-" + System.Guid.NewGuid().ToString("N"))
            : null;
        fork.LogTiers = null;
        fork.LogDeviceFactory = null;
        fork.CopyReadsToTail = false;
        fork.ReadCache = false;
        fork.CompactionFrequencySecs = 0;
        fork.CheckpointDir = null;
        fork.EnableAof = false;
        fork.AofSizeLimit = 0;
        fork.CheckpointFrequencySecs = 0;
        fork.SavePoints = null;
        fork.Recover = false;
        fork.ExpiredKeyDeletionScanFrequencySecs = 0;
        fork.AclFile = null;
        fork.TimeoutSeconds = 0;
        fork.ExtensionDirectories = [];
        fork.ConfigFile = null;
        fork.ConfigParameters = new(System.StringComparer.OrdinalIgnoreCase);
        return fork;
    }
}
