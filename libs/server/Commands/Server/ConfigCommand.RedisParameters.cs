using System;
using System.Globalization;

namespace Garnet.server;

/// <summary>
/// The rest of Redis 7.2's CONFIG parameters, under Redis's names, aliases, defaults and checks. Most tune parts of
/// Redis this server does not have (active defragmentation, lazy freeing, replication, cluster gossip, the RDB
/// file): their values live in <see cref="RedisOnlySettings"/>, are reported and rewritten, and change nothing else
/// (website/docs/compatibility.md lists them and why). Those whose behaviour exists here at one size only are
/// <see cref="ConfigKind.Fixed"/> at Redis's default; the few with a counterpart are wired to it.
/// Redis's hidden test knobs (key-load-delay, rdb-key-save-delay, watchdog-period, use-exit-on-panic,
/// loading-process-events-interval-bytes) and the TLS parameters of a TLS build are left out, as in a default Redis build.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private const ConfigKind Mutable = ConfigKind.Mutable;
    private const ConfigKind Immutable = ConfigKind.Immutable;

    private static ConfigParameter[] s_redisOnlyConfigParameters =>
    [
        // General and process.
        .. Flag("daemonize", null, "no", Immutable),
        .. Choice("supervised", "no", Immutable, "upstart", "systemd", "auto", "no"),
        .. Text("pidfile", null, "", Immutable),
        .. Choice("loglevel", "notice", Mutable, "debug", "verbose", "notice", "warning", "nothing"),
        .. Text("logfile", null, "", Immutable),
        .. Flag("syslog-enabled", null, "no", Immutable),
        .. Text("syslog-ident", null, "redis", Immutable),
        .. Choice("syslog-facility", "local0", Immutable, "user", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"),
        .. Flag("always-show-logo", null, "no", Immutable),
        .. Flag("set-proc-title", null, "yes", Immutable),
        .. Text("proc-title-template", null, "{title} {listen-addr} {server-mode}", Mutable, ProcTitleTemplateError),
        .. Text("locale-collate", null, "", Mutable),
        .. Text("ignore-warnings", null, "", Mutable),
        .. Flag("crash-log-enabled", null, "yes"),
        .. Flag("crash-memcheck-enabled", null, "yes"),
        .. Flag("disable-thp", null, "yes", Immutable),
        .. Text("server_cpulist", null, "", Immutable),
        .. Text("bio_cpulist", null, "", Immutable),
        .. Text("aof_rewrite_cpulist", null, "", Immutable),
        .. Text("bgsave_cpulist", null, "", Immutable),
        .. Choice("oom-score-adj", "no", Mutable, "no", "yes", "relative", "absolute"),
        .. Text("oom-score-adj-values", null, "0 200 800", Mutable, OomScoreAdjValuesError, NormalizeIntegers),
        .. Number("hz", null, "10", 0, int.MaxValue),
        .. Flag("dynamic-hz", null, "yes"),
        .. Number("active-expire-effort", null, "1", 1, 10),
        .. Flag("activerehashing", null, "yes"),
        .. Flags("shutdown-on-sigint"),
        .. Flags("shutdown-on-sigterm"),
        .. Number("shutdown-timeout", null, "10", 0, int.MaxValue),
        .. Choice("enable-protected-configs", "no", Immutable, "no", "yes", "local"),
        .. Choice("enable-module-command", "no", Immutable, "no", "yes", "local"),
        .. Choice("sanitize-dump-payload", "no", Mutable, "no", "yes", "clients"),
        .. Choice("propagation-error-behavior", "ignore", Mutable, "ignore", "panic", "panic-on-replicas"),

        // Network.
        .. Text("unixsocketperm", null, "0", Immutable),
        .. Text("bind-source-addr", null, "", Mutable),
        new("tcp-backlog", Immutable, static s => s._server.Options.TcpBacklog.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.Options.TcpBacklog = int.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, int.MaxValue),
        .. Number("io-threads", null, "1", 1, 128, Immutable),
        .. Flag("io-threads-do-reads", null, "no", Immutable),

        // Security: the ACL log's length is the ACL log's; aclfile is --acl-file.
        new("aclfile", Immutable, static s => s._server.Options.AclFile ?? ""),
        new("acllog-max-len", Mutable, static s => s._server.Acl.Log.MaxLength.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.Acl.Log.MaxLength = long.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, long.MaxValue),
        // New users start with resetchannels here, as in Redis 7's default.
        new("acl-pubsub-default", ConfigKind.Fixed, static _ => "resetchannels", check: static (_, value) => ChoiceError(["allchannels", "resetchannels"])(value)),

        // Snapshots: checkpoints here are directories under --checkpointdir, not one RDB file.
        .. Text("dbfilename", null, "dump.rdb", Mutable, static value => FileNameError("dbfilename", value), isProtected: true),
        .. Flag("rdbcompression", null, "yes"),
        .. Flag("rdbchecksum", null, "yes", Immutable),
        .. Flag("rdb-del-sync-files", null, "no"),
        .. Flag("rdb-save-incremental-fsync", null, "yes"),
        .. Flag("stop-writes-on-bgsave-error", null, "yes"),

        // Append-only file: the operation log has its own file layout and needs no rewriting.
        .. Text("appendfilename", null, "appendonly.aof", Immutable, static value => FileNameError("appendfilename", value)),
        .. Flag("no-appendfsync-on-rewrite", null, "no"),
        .. Number("auto-aof-rewrite-percentage", null, "100", 0, int.MaxValue),
        .. Memory("auto-aof-rewrite-min-size", "67108864", 0, long.MaxValue),
        .. Flag("aof-load-truncated", null, "yes"),
        .. Flag("aof-use-rdb-preamble", null, "yes"),
        .. Flag("aof-timestamp-enabled", null, "no"),
        .. Flag("aof-rewrite-incremental-fsync", null, "yes"),
        .. Flag("aof-disable-auto-gc", null, "no"),

        // Memory: eviction moves the head of each log (Tsavorite), it does not sample keys; memory is the .NET heap's.
        // (maxmemory-clients is client eviction's, in ConfigCommand.cs.)
        .. Number("maxmemory-samples", null, "5", 1, int.MaxValue),
        .. Number("maxmemory-eviction-tenacity", null, "10", 0, 100),
        .. Flag("lazyfree-lazy-eviction", null, "no"),
        .. Flag("lazyfree-lazy-expire", null, "no"),
        .. Flag("lazyfree-lazy-server-del", null, "no"),
        .. Flag("lazyfree-lazy-user-del", null, "no"),
        .. Flag("lazyfree-lazy-user-flush", null, "no"),
        .. Flag("jemalloc-bg-thread", null, "yes"),
        .. Flag("activedefrag", null, "no"),
        .. Memory("active-defrag-ignore-bytes", "104857600", 1, long.MaxValue),
        .. Number("active-defrag-threshold-lower", null, "10", 0, 1000),
        .. Number("active-defrag-threshold-upper", null, "100", 0, 1000),
        .. Number("active-defrag-cycle-min", null, "1", 1, 99),
        .. Number("active-defrag-cycle-max", null, "25", 1, 99),
        .. Number("active-defrag-max-scan-fields", null, "1000", 1, long.MaxValue),

        // Encodings whose sizes are fixed here at Redis's defaults (lists are not compressed).
        new("hll-sparse-max-bytes", ConfigKind.Fixed, static _ => HyperLogLog.SparseMaxBytes.ToString(CultureInfo.InvariantCulture), value: ConfigValue.Memory, min: 0, max: long.MaxValue),
        new("stream-node-max-bytes", ConfigKind.Fixed, static _ => StreamNode.MaxBytes.ToString(CultureInfo.InvariantCulture), value: ConfigValue.Memory, min: 0, max: long.MaxValue),
        new("stream-node-max-entries", ConfigKind.Fixed, static _ => StreamNode.MaxEntries.ToString(CultureInfo.InvariantCulture), value: ConfigValue.Integer, min: 0, max: long.MaxValue),
        new("list-compress-depth", ConfigKind.Fixed, static _ => "0", value: ConfigValue.Integer, min: 0, max: int.MaxValue),

        // Replication: this server has no replicas and is no replica.
        .. Text("replicaof", "slaveof", "", Immutable),
        .. Text("masterauth", null, "", Mutable),
        .. Text("masteruser", null, "", Mutable),
        .. Flag("replica-serve-stale-data", "slave-serve-stale-data", "yes"),
        .. Flag("replica-ignore-maxmemory", "slave-ignore-maxmemory", "yes"),
        .. Flag("replica-lazy-flush", "slave-lazy-flush", "no"),
        .. Flag("replica-announced", null, "yes"),
        .. Flag("replica-ignore-disk-write-errors", null, "no"),
        .. Text("replica-announce-ip", "slave-announce-ip", "", Mutable),
        .. Number("replica-announce-port", "slave-announce-port", "0", 0, 65535),
        .. Number("replica-priority", "slave-priority", "100", 0, int.MaxValue),
        .. Flag("repl-diskless-sync", null, "yes"),
        .. Number("repl-diskless-sync-delay", null, "5", 0, int.MaxValue),
        .. Number("repl-diskless-sync-max-replicas", null, "0", 0, int.MaxValue),
        .. Choice("repl-diskless-load", "disabled", Mutable, "disabled", "on-empty-db", "swapdb"),
        .. Flag("repl-disable-tcp-nodelay", null, "no"),
        .. Number("repl-ping-replica-period", "repl-ping-slave-period", "10", 1, int.MaxValue),
        .. Number("repl-timeout", null, "60", 1, int.MaxValue),
        .. Memory("repl-backlog-size", "1048576", 1, long.MaxValue),
        .. Number("repl-backlog-ttl", null, "3600", 0, long.MaxValue),
        .. Number("min-replicas-to-write", "min-slaves-to-write", "0", 0, int.MaxValue),
        .. Number("min-replicas-max-lag", "min-slaves-max-lag", "10", 0, int.MaxValue),

        // Cluster: Redis's cluster parameters, reported; cluster mode takes Garnet's options (--cluster, --cluster-announce-ip ...).
        .. Text("cluster-config-file", null, "nodes.conf", Immutable),
        .. Number("cluster-port", null, "0", 0, 65535, Immutable),
        .. Number("cluster-replica-validity-factor", "cluster-slave-validity-factor", "10", 0, int.MaxValue),
        .. Number("cluster-migration-barrier", null, "1", 0, int.MaxValue),
        .. Flag("cluster-allow-replica-migration", null, "yes"),
        .. Flag("cluster-require-full-coverage", null, "yes"),
        .. Flag("cluster-replica-no-failover", "cluster-slave-no-failover", "no"),
        .. Flag("cluster-allow-reads-when-down", null, "no"),
        .. Flag("cluster-allow-pubsubshard-when-down", null, "yes"),
        .. Memory("cluster-link-sendbuf-limit", "0", 0, long.MaxValue),
        .. Text("cluster-announce-ip", null, "", Mutable),
        .. Text("cluster-announce-hostname", null, "", Mutable, HostnameError),
        .. Text("cluster-announce-human-nodename", null, "", Mutable),
        .. Number("cluster-announce-port", null, "0", 0, 65535),
        .. Number("cluster-announce-bus-port", null, "0", 0, 65535),
        .. Number("cluster-announce-tls-port", null, "0", 0, 65535),
        .. Choice("cluster-preferred-endpoint-type", "ip", Mutable, "ip", "hostname", "unknown-endpoint"),
    ];

    private static ConfigParameter[] Flag(string name, string? alias, string defaultValue, ConfigKind kind = ConfigKind.Mutable)
        => RedisOnly(name, alias, kind, ConfigValue.YesNo, defaultValue);

    private static ConfigParameter[] Number(string name, string? alias, string defaultValue, long min, long max, ConfigKind kind = ConfigKind.Mutable)
        => RedisOnly(name, alias, kind, ConfigValue.Integer, defaultValue, min, max);

    private static ConfigParameter[] Memory(string name, string defaultValue, long min, long max)
        => RedisOnly(name, null, ConfigKind.Mutable, ConfigValue.Memory, defaultValue, min, max);

    private static ConfigParameter[] Text(string name, string? alias, string defaultValue, ConfigKind kind, Func<string, string?>? check = null, Func<string, string>? normalize = null, bool isProtected = false)
        => RedisOnly(name, alias, kind, ConfigValue.Text, defaultValue, check: check, normalize: normalize, isProtected: isProtected);

    private static ConfigParameter[] Choice(string name, string defaultValue, ConfigKind kind, params string[] choices)
        => RedisOnly(name, null, kind, ConfigValue.Text, defaultValue, check: ChoiceError(choices), normalize: static value => value.ToLowerInvariant());

    /// <summary>shutdown-on-sigint/sigterm: any of Redis's shutdown flags, several at once.</summary>
    private static ConfigParameter[] Flags(string name)
        => RedisOnly(name, null, ConfigKind.Mutable, ConfigValue.Text, "default", check: static value =>
        {
            string[] words = value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (words.Length == 0)
                return "argument(s) must be one of the following: default, save, nosave, now, force";
            foreach (string word in words)
            {
                if (ChoiceError(["default", "save", "nosave", "now", "force"])(word) is { } error)
                    return error;
            }
            return null;
        }, normalize: static value => string.Join(' ', value.ToLowerInvariant().Split(' ', StringSplitOptions.RemoveEmptyEntries)));

    /// <summary>A parameter, and its alias if Redis has one, whose value lives in <see cref="RedisOnlySettings"/>.</summary>
    private static ConfigParameter[] RedisOnly(string name, string? alias, ConfigKind kind, ConfigValue syntax, string defaultValue,
        long min = long.MinValue, long max = long.MaxValue, Func<string, string?>? check = null, Func<string, string>? normalize = null, bool isProtected = false)
    {
        string Get(RespServerSession session) => RedisOnlySettings.Of(session._server).Get(name, defaultValue);
        // An immutable parameter is set once, from the configuration the server starts with.
        void Set(StoreWrapper server, string value) => RedisOnlySettings.Of(server).Set(name, normalize != null ? normalize(value) : Normalize(syntax, value));
        Func<RespServerSession?, string, string?>? checkValue = check == null ? null : (_, value) => check(value);
        var parameter = new ConfigParameter(name, kind, Get, Set, syntax, min, max, checkValue) { Protected = isProtected };
        return alias == null ? [parameter] : [parameter, new ConfigParameter(alias, kind, Get, Set, syntax, min, max, checkValue) { AliasOf = name, Protected = isProtected }];
    }

    /// <summary>
    /// Whether this client may set a protected parameter (dbfilename): enable-protected-configs yes, or local and the
    /// client on loopback or the Unix socket, as Redis decides.
    /// </summary>
    private bool ProtectedConfigAllowed()
    {
        switch (RedisOnlySettings.Of(_server).Get("enable-protected-configs", "no"))
        {
            case "yes":
                return true;
            case "local":
                string remote = RemoteEndpoint;
                return !System.Net.IPEndPoint.TryParse(remote, out var endpoint) || System.Net.IPAddress.IsLoopback(endpoint.Address);
            default:
                return false;
        }
    }

    /// <summary>The value as CONFIG GET reports it: numbers without leading zeros or units, yes/no in lower case.</summary>
    private static string Normalize(ConfigValue syntax, string value) => syntax switch
    {
        ConfigValue.YesNo => value.ToLowerInvariant(),
        ConfigValue.Integer or ConfigValue.NonNegativeInteger => long.Parse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        ConfigValue.Memory => ParseMemoryValue(value).ToString(CultureInfo.InvariantCulture),
        _ => value,
    };

    private static Func<string, string?> ChoiceError(string[] choices) => value =>
    {
        foreach (string choice in choices)
        {
            if (value.Equals(choice, StringComparison.OrdinalIgnoreCase))
                return null;
        }
        return "argument(s) must be one of the following: " + string.Join(", ", choices);
    };

    /// <summary>dbfilename and appendfilename name a file in dir, never a path (Redis's check).</summary>
    private static string? FileNameError(string name, string value)
        => value.Contains('/') || value.Contains('\\') ? $"{name} can't be a path, just a filename" : null;

    /// <summary>maxmemory-clients: a memory value, or a percentage of maxmemory up to 100%.</summary>
    private static string? MemoryOrPercentError(string value)
    {
        if (value.EndsWith('%'))
        {
            if (!long.TryParse(value.AsSpan(0, value.Length - 1), NumberStyles.None, CultureInfo.InvariantCulture, out long percent))
                return "argument must be a memory or percent value";
            return percent > 100 ? "percentage argument must be less or equal to 100" : null;
        }
        return TryParseMemoryValue(value, out long bytes) && bytes >= 0 ? null : "argument must be a memory or percent value";
    }

    private static string NormalizeMemoryOrPercent(string value)
        => value.EndsWith('%')
            ? long.Parse(value.AsSpan(0, value.Length - 1), NumberStyles.None, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture) + "%"
            : ParseMemoryValue(value).ToString(CultureInfo.InvariantCulture);

    /// <summary>oom-score-adj-values: three scores (replica, master, background child) from -2000 to 2000.</summary>
    private static string? OomScoreAdjValuesError(string value)
    {
        string[] words = value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (words.Length != 3)
            return "wrong number of arguments";
        foreach (string word in words)
        {
            if (!int.TryParse(word, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int score) || score < -2000 || score > 2000)
                return "Invalid oom-score-adj-values";
        }
        return null;
    }

    private static string NormalizeIntegers(string value)
    {
        string[] words = value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        for (int i = 0; i < words.Length; i++)
            words[i] = int.Parse(words[i], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture);
        return string.Join(' ', words);
    }

    /// <summary>proc-title-template: Redis's variables in braces, {title} among them.</summary>
    private static string? ProcTitleTemplateError(string value)
    {
        const string Invalid = "template format is invalid or contains unknown variables";
        bool hasTitle = false;
        int i = 0;
        while (i < value.Length)
        {
            int open = value.IndexOf('{', i);
            int close = value.IndexOf('}', i);
            if (open < 0)
                return close < 0 && hasTitle ? null : Invalid;
            if (close < open)
                return Invalid;
            string variable = value.Substring(open + 1, close - open - 1);
            switch (variable)
            {
                case "title":
                    hasTitle = true;
                    break;
                case "listen-addr" or "server-mode" or "port" or "tls-port" or "unixsocket" or "config-file":
                    break;
                default:
                    return Invalid;
            }
            i = close + 1;
        }
        return hasTitle ? null : Invalid;
    }

    /// <summary>cluster-announce-hostname: letters, digits, hyphens and dots, as Redis checks it.</summary>
    private static string? HostnameError(string value)
    {
        if (value.Length >= 256)
            return "Hostnames must be less than 256 characters";
        foreach (char c in value)
        {
            if (!char.IsAsciiLetterOrDigit(c) && c != '-' && c != '.')
                return "Hostnames may only contain alphanumeric characters, hyphens or dots";
        }
        return null;
    }
}
