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

    [Option('l', "logdir", HelpText = "Directory for the log files of the databases. (default: none, the log stays in memory)")]
    public string? LogDir { get; set; }

    [Option('c', "checkpointdir", HelpText = "Directory for checkpoints. (default: none)")]
    public string? CheckpointDir { get; set; }

    [Option("config-import-path", HelpText = "JSON file of options, keyed by long option name or Garnet property name; the command line overrides it.")]
    public string? ConfigImportPath { get; set; }

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

    [Option("extension-dir", HelpText = "Directories (comma-separated) from which REGISTERCS and MODULE LOADCS may load extension assemblies; loading is refused elsewhere and off when unset.")]
    public string? ExtensionDir { get; set; }

    /// <summary>Positional arguments, which the server does not take; any is an error.</summary>
    [Value(0, Hidden = true)]
    public IEnumerable<string>? UnexpectedArguments { get; set; }
}
