using System.Collections.Generic;
using CommandLine;

namespace Garnet;

/// <summary>
/// The server's command-line options, named as Garnet names them (long option names on the command
/// line, property names in a JSON config file). Values stay text here so that an option that was not
/// given is null, which lets the config file and the command line be layered; <see cref="OptionsParser"/>
/// validates them into <see cref="HostSettings"/>. Defaults are stated in each help text.
/// </summary>
public sealed class Options
{
    [Option("port", HelpText = "TCP port to listen on; 0 picks a free port. (default: 6379)")]
    public string? Port { get; set; }

    [Option("cluster", HelpText = "Run as a Redis Cluster node: keys live in 16384 hash slots, CLUSTER assigns them, and the node's configuration is kept in nodes.conf in --checkpointdir. (default: off)")]
    public bool EnableCluster { get; set; }

    [Option("clean-cluster-config", HelpText = "With --cluster, start as a new node, ignoring a saved nodes.conf (which is then overwritten). (default: off)")]
    public bool CleanClusterConfig { get; set; }

    [Option("cluster-announce-ip", HelpText = "With --cluster, the address this node gives clients (CLUSTER NODES, SLOTS, SHARDS). (default: the address the client reached)")]
    public string? ClusterAnnounceIp { get; set; }

    [Option("cluster-announce-port", HelpText = "With --cluster, the port this node gives clients. (default: the port the client reached)")]
    public string? ClusterAnnouncePort { get; set; }

    [Option("cluster-timeout", HelpText = "With --cluster, seconds a node may not answer before it is suspected to fail (Redis's cluster-node-timeout, in seconds). (default: 60)")]
    public string? ClusterTimeout { get; set; }

    [Option("cluster-username", HelpText = "With --cluster, the user this node authenticates as on its links to other nodes. (default: none: the default user)")]
    public string? ClusterUsername { get; set; }

    [Option("cluster-password", HelpText = "With --cluster, the password this node authenticates with on its links to other nodes. (default: none)")]
    public string? ClusterPassword { get; set; }

    [Option("bind", HelpText = "IP address to listen on; * for any, localhost for loopback. (default: 127.0.0.1)")]
    public string? Address { get; set; }

    [Option('m', "memory", HelpText = "Log memory per database, e.g. 16g; at least two pages. (default: 16g)")]
    public string? MemorySize { get; set; }

    [Option('p', "page", HelpText = "Log page size, a power of two from 4k to 1g; also the largest record. (default: 32m)")]
    public string? PageSize { get; set; }

    [Option('i', "index", HelpText = "Initial hash index size per database (rounded down to a power of two); it doubles as keys are added. (default: 1m)")]
    public string? IndexSize { get; set; }

    [Option("index-max-size", HelpText = "Largest size the hash index of a database grows to (rounded down to a power of two); at most --index keeps it fixed. (default: 4g)")]
    public string? IndexMaxMemorySize { get; set; }

    [Option("databases", HelpText = "Number of databases (SELECT 0..n-1), 1 to 65536. (default: 16)")]
    public string? Databases { get; set; }

    /// <summary>Garnet's name for <see cref="Databases"/>.</summary>
    [Option("max-databases", Hidden = true, HelpText = "Same as --databases.")]
    public string? MaxDatabases { get; set; }

    [Option('l', "logdir", HelpText = "Directory for the log files of the databases: with --storage-tier, where records that leave memory are kept (default: the current directory); without it, where read-only pages are written. (default: none)")]
    public string? LogDir { get; set; }

    [Option("storage-tiers", HelpText = "With --storage-tier, keep the log in several directories instead of --logdir, fastest first: DIR:SIZE,...,DIR. Every write goes to all of them and a read comes from the first that still holds the record; a directory with a SIZE keeps only the newest SIZE bytes of the log (at least two --segment files), the last keeps everything and also holds the object log. (default: none)")]
    public string? StorageTiers { get; set; }

    [Option("segment", HelpText = "Size of each log file with --storage-tier (a power of two, at least one page); compaction deletes whole files. (default: 1g)")]
    public string? SegmentSize { get; set; }

    [Option("compaction-freq", HelpText = "Seconds between looks at the log files with --storage-tier; when there are more than --compaction-max-segments, the oldest are compacted (--compaction-type). 0 never. (default: 0)")]
    public string? CompactionFrequencySecs { get; set; }

    [Option("compaction-max-segments", HelpText = "Log files a database may keep before compaction removes the oldest. (default: 32)")]
    public string? CompactionMaxSegments { get; set; }

    [Option("compaction-type", HelpText = "How compaction keeps the live records of the files it removes: Lookup (each record looked up in the index), Scan (one pass over the newer log finds the rewritten keys), Shift (drop them: for data that may go), None. (default: None)")]
    public string? CompactionType { get; set; }

    [Option("copy-reads-to-tail", HelpText = "With --storage-tier, a record a read finds on disk is copied to the tail of the log, so the next reads of its key are served from memory. (default: off)")]
    public bool CopyReadsToTail { get; set; }

    [Option("readcache", HelpText = "With --storage-tier, records reads find on disk are copied into a read cache in memory between the index and the log (evicted FIFO with a second chance for records read meanwhile), so the next reads of their keys are served from memory; writes of a key drop its copy. Overrides --copy-reads-to-tail. (default: off)")]
    public bool EnableReadCache { get; set; }

    [Option("readcache-memory", HelpText = "Bytes of the read cache with --readcache, allocated page by page as it fills (at least four --readcache-page pages). (default: 1g)")]
    public string? ReadCacheMemorySize { get; set; }

    [Option("readcache-page", HelpText = "Size of a read cache page with --readcache (a power of two, 4k to 1g); larger records are not cached. (default: 4m, as Garnet)")]
    public string? ReadCachePageSize { get; set; }

    [Option("storage-tier", HelpText = "Keep records that leave memory in log files under --logdir and read them back when needed, so the data can exceed --memory; nothing is evicted. (default: off, the log is a cache of what fits in memory)")]
    public bool EnableStorageTier { get; set; }

    [Option('c', "checkpointdir", HelpText = "Directory for checkpoints and, in its AOF subdirectory, the operation log of --aof. (default: none: --logdir, else the current directory)")]
    public string? CheckpointDir { get; set; }

    /// <summary>Redis's name for <see cref="EnableAOF"/>: yes or no.</summary>
    [Option("appendonly", Hidden = true, HelpText = "Same as --aof, as yes or no.")]
    public string? AppendOnly { get; set; }

    /// <summary>Redis's name for <see cref="CommitFrequencyMs"/>: always (0), everysec (1000) or no (-1).</summary>
    [Option("appendfsync", Hidden = true, HelpText = "Redis's fsync policy: always (--aof-commit-freq 0), everysec (1000) or no (-1).")]
    public string? AppendFsync { get; set; }

    [Option("aof", HelpText = "Log every write command (the append-only file, AOF) in the AOF subdirectory of --checkpointdir, so --recover can bring the data back after a restart or crash. (default: off)")]
    public bool EnableAOF { get; set; }

    /// <summary>Redis's name for <see cref="CheckpointDir"/>.</summary>
    [Option("dir", Hidden = true, HelpText = "Same as --checkpointdir.")]
    public string? Dir { get; set; }

    [Option("aof-commit-freq", HelpText = "When the AOF is made durable (fsync): 0 before the replies of each network batch with writes are sent (commit-before-ack; concurrent batches share one fsync), N every N milliseconds in the background, -1 only on COMMITAOF (the log is still written to its files every second). (default: 0)")]
    public string? CommitFrequencyMs { get; set; }

    [Option("aof-commit-wait", HelpText = "With --aof-commit-freq N > 0, replies to writes also wait for the next periodic commit. (default: off)")]
    public bool WaitForCommit { get; set; }

    [Option("aof-memory", HelpText = "Memory buffering AOF entries until they are written, rounded down to a power of two (64k to 1g); writers wait while it is full, and an entry over a quarter of it is written from its own copy. (default: 64m)")]
    public string? AofMemorySize { get; set; }

    [Option("aof-page-size", HelpText = "The unit in which the AOF is written to its files, rounded down to a power of two (4k to --aof-memory): the largest single write, and the buffer that gathers entries for it where writes bypass the page cache. (default: 4m)")]
    public string? AofPageSize { get; set; }

    [Option("aof-segment-size", HelpText = "Size of each AOF file: the unit in which files are created and, after a checkpoint, removed. (default: 1g)")]
    public string? AofSegmentSize { get; set; }

    [Option("aof-size-limit", HelpText = "AOF size (what is kept since the last checkpoint) past which a checkpoint is taken and the AOF files before it removed, checked every second; the files are then at most a quarter of it. (default: none)")]
    public string? AofSizeLimit { get; set; }

    [Option("checkpoint-freq", HelpText = "Seconds between the end of one background checkpoint and the start of the next; 0 disables periodic checkpoints. Stopping the server then saves too. (default: 0)")]
    public string? CheckpointFrequencySecs { get; set; }

    [Option("save", HelpText = "Redis's save points, \"<seconds> <changes> ...\": a background checkpoint once both have passed since the last; \"\" for none. Stopping the server then saves too. (default: none)")]
    public string? Save { get; set; }

    [Option("recover", HelpText = "At start, replay the AOF (with --aof) to bring the data back. Without it, a server with --aof refuses to start over an AOF that holds commands. (default: off)")]
    public bool Recover { get; set; }

    [Option("fail-on-recovery-error", HelpText = "true: a damaged AOF (other than an entry left incomplete by a crash at its very end, which is cut off) stops the start with an error; false: recovery keeps what comes before the damage and cuts the rest. (default: true)")]
    public string? FailOnRecoveryError { get; set; }

    [Option("config-import-path", HelpText = "Configuration file: a JSON object of options (keyed by long option name, Garnet property name or Redis parameter name), or a Redis-style redis.conf of \"name value\" lines (also accepted as the first argument, as redis-server takes it). The command line overrides it; CONFIG REWRITE writes back to it.")]
    public string? ConfigImportPath { get; set; }

    /// <summary>
    /// CONFIG parameters by Redis name that no option above holds (slowlog-max-len, hz, activedefrag ...), from the
    /// config file or the command line (--hz 20), set at start as CONFIG SET would.
    /// </summary>
    public Dictionary<string, string> ConfigParameters { get; } = new(System.StringComparer.OrdinalIgnoreCase);

    [Option("logger-level", HelpText = "Log level: Trace, Debug, Information, Warning, Error, Critical or None. (default: Information)")]
    public string? LogLevel { get; set; }

    [Option('q', "quiet", HelpText = "Do not print the startup line.")]
    public bool QuietMode { get; set; }

    [Option("minthreads", HelpText = "Minimum worker and I/O threads of the thread pool; 0 keeps the runtime's default. (default: 0)")]
    public string? ThreadPoolMinThreads { get; set; }

    [Option("maxthreads", HelpText = "Maximum worker and I/O threads of the thread pool; 0 keeps the runtime's default. (default: 0)")]
    public string? ThreadPoolMaxThreads { get; set; }

    [Option("unixsocket", HelpText = "Unix domain socket path to listen on as well. (default: none)")]
    public string? UnixSocketPath { get; set; }

    [Option("password", HelpText = "Password clients must AUTH with. (default: none)")]
    public string? Password { get; set; }

    /// <summary>Redis's name for <see cref="Password"/>.</summary>
    [Option("requirepass", Hidden = true, HelpText = "Same as --password.")]
    public string? RequirePass { get; set; }

    [Option("auth", HelpText = "Authentication mode: NoAuth (any client, unless --password is given), Password (clients AUTH with --password), or ACL (users from --acl-file; --password is the default user's if the file does not define it). Aad is not supported. (default: NoAuth)")]
    public string? AuthenticationMode { get; set; }

    [Option("acl-file", HelpText = "ACL file of Redis-format \"user <name> <rules...>\" lines, loaded at start and by ACL LOAD, written by ACL SAVE. (default: none)")]
    public string? AclFile { get; set; }

    /// <summary>Redis's name for <see cref="AclFile"/>.</summary>
    [Option("aclfile", Hidden = true, HelpText = "Same as --acl-file.")]
    public string? RedisAclFile { get; set; }

    [Option("enable-debug-command", HelpText = "Allow the DEBUG command (risky: it can stall the server): no, yes, or local (only when listening on loopback). (default: no)")]
    public string? EnableDebugCommand { get; set; }

    [Option("expired-key-deletion-scan-freq", HelpText = "Seconds between scans that delete expired keys; 0 or -1 disables them. (default: 1)")]
    public string? ExpiredKeyDeletionScanFrequencySecs { get; set; }

    [Option("network-buffer", HelpText = "Initial receive buffer per connection, 1k to 1g; it grows for larger requests. (default: 128k)")]
    public string? NetworkBufferSize { get; set; }

    [Option("socket-io", HelpText = "How plain connections do their I/O: auto (epoll on Linux, else async sockets), epoll, or async. (default: auto)")]
    public string? SocketIo { get; set; }

    [Option("event-loops", HelpText = "Epoll event-loop threads serving the connections; 0 for one per processor. (default: 0)")]
    public string? EventLoops { get; set; }

    [Option("busy-poll", HelpText = "Microseconds an event loop keeps polling for new requests, instead of sleeping, after its last ones (saves waking it for each request); 0 to always sleep, at most 1000000. (default: 50)")]
    public string? BusyPoll { get; set; }

    [Option("warm-up", HelpText = "Milliseconds the server may spend before it listens running representative traffic through a throwaway in-memory server, so the first clients get optimized code; it stops sooner once nothing new is compiled. 0 turns it off, at most 60000. (default: 1500)")]
    public string? WarmUp { get; set; }

    [Option("tls", HelpText = "Serve every connection over TLS, with the certificate of --cert-file-name. (default: off)")]
    public bool EnableTls { get; set; }

    [Option("cert-file-name", HelpText = "The server certificate for --tls: a .pfx file, or a PEM file with the certificate and its private key.")]
    public string? CertFileName { get; set; }

    [Option("cert-password", HelpText = "Password of the --cert-file-name file (.pfx, or an encrypted PEM key). (default: none)")]
    public string? CertPassword { get; set; }

    [Option("client-certificate-required", HelpText = "With --tls, require clients to present a certificate the system trusts. (default: off)")]
    public bool ClientCertificateRequired { get; set; }

    [Option("cert-refresh-freq", HelpText = "Seconds between looks at --cert-file-name; a changed file is loaded and used for new connections. 0 never. (default: 0)")]
    public string? CertRefreshFrequency { get; set; }

    [Option("maxclients", HelpText = "Most clients connected at once; more get -ERR max number of clients reached. Lowered at start to what the descriptor limit (ulimit -n) allows. (default: 10000)")]
    public string? MaxClients { get; set; }

    [Option("timeout", HelpText = "Seconds a client may stay idle before it is closed; 0 never. (default: 0)")]
    public string? Timeout { get; set; }

    [Option("tcp-keepalive", HelpText = "Seconds of idleness before TCP keepalive probes a connection; 0 off. (default: 300)")]
    public string? TcpKeepAlive { get; set; }

    [Option("client-output-buffer-limit", HelpText = "Unread reply bytes a client may leave per class, as Redis: groups of 'class hard soft seconds' (class normal, replica or pubsub), e.g. 'normal 64mb 32mb 10'. (default: normal 0 0 0 replica 256mb 64mb 60 pubsub 32mb 8mb 60)")]
    public string? ClientOutputBufferLimit { get; set; }

    [Option("client-query-buffer-limit", HelpText = "Most bytes of one client's unparsed input; past it the client is closed. (default: 1gb)")]
    public string? ClientQueryBufferLimit { get; set; }

    [Option("proto-max-bulk-len", HelpText = "Longest bulk string a client may send, 1mb to 1gb. (default: 512mb)")]
    public string? ProtoMaxBulkLength { get; set; }

    [Option("protected-mode", HelpText = "yes: while the default user has no password, refuse clients from other hosts (as Redis); no: serve them. (default: yes)")]
    public string? ProtectedMode { get; set; }

    [Option("pubsub-output-limit", HelpText = "Most bytes of published messages a subscriber may have waiting before it is disconnected, like Redis's client-output-buffer-limit pubsub hard limit; 0 for none. (default: 32m)")]
    public string? PubSubOutputLimit { get; set; }

    [Option("maxmemory", HelpText = "Bytes all databases together may hold (log pages in memory, indexes, objects), as Redis's maxmemory; 0 for no limit beyond --memory. Without --page, the page size follows it (a thirty-second, at most 32m). (default: 0)")]
    public string? MaxMemory { get; set; }

    [Option("maxmemory-policy", HelpText = "What happens to live keys when maxmemory is reached: noeviction, allkeys-lru, allkeys-lfu, allkeys-random, volatile-lru, volatile-lfu, volatile-random or volatile-ttl. (default: noeviction)")]
    public string? MaxMemoryPolicy { get; set; }

    [Option("lfu-log-factor", HelpText = "How slowly the LFU access counters grow, as Redis's lfu-log-factor. (default: 10)")]
    public string? LfuLogFactor { get; set; }

    [Option("lfu-decay-time", HelpText = "Minutes per one-step decay of an LFU access counter; 0 never decays. (default: 1)")]
    public string? LfuDecayTime { get; set; }

    [Option("lua-time-limit", HelpText = "Milliseconds a Lua script runs before other clients get -BUSY and SCRIPT KILL can stop it; 0 never. (default: 5000)")]
    public string? LuaTimeLimit { get; set; }

    [Option("notify-keyspace-events", HelpText = "Which keyspace events are published on __keyspace@<db>__ and __keyevent@<db>__ channels, as Redis's notify-keyspace-events: K, E and classes from g$lshzxetdmn (A for g$lshzxetd); empty turns them off. (default: \"\")")]
    public string? NotifyKeyspaceEvents { get; set; }

    /// <summary>Redis's name for <see cref="LuaTimeLimit"/>.</summary>
    [Option("busy-reply-threshold", Hidden = true, HelpText = "Same as --lua-time-limit.")]
    public string? BusyReplyThreshold { get; set; }

    [Option("metrics-port", HelpText = "TCP port serving Prometheus metrics over HTTP at /metrics, on the --bind address (without authentication: anyone who can reach it reads INFO's figures); 0 for none. (default: 0)")]
    public string? MetricsPort { get; set; }

    [Option("extension-dir", HelpText = "Directories (comma-separated) from which REGISTERCS and MODULE LOADCS may load extension assemblies; loading is refused elsewhere and off when unset.")]
    public string? ExtensionDir { get; set; }

    /// <summary>Positional arguments, which the server does not take; any is an error.</summary>
    [Value(0, Hidden = true)]
    public IEnumerable<string>? UnexpectedArguments { get; set; }
}
