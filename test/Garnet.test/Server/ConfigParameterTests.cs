using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>CONFIG over Redis 7.2's parameters: every name and alias, defaults, each kind's checks, immutables, protected configs, atomic SET.</summary>
[TestFixture]
public sealed class ConfigParameterTests : ServerTestBase
{
    /// <summary>Redis 7.2's parameters as CONFIG GET * lists them (a default build: no TLS, no hidden test knobs).</summary>
    private static readonly string[] s_redis72Names =
    [
        "rdbchecksum", "daemonize", "io-threads-do-reads", "always-show-logo", "protected-mode", "rdbcompression", "rdb-del-sync-files",
        "activerehashing", "stop-writes-on-bgsave-error", "set-proc-title", "dynamic-hz", "lazyfree-lazy-eviction", "lazyfree-lazy-expire",
        "lazyfree-lazy-server-del", "lazyfree-lazy-user-del", "lazyfree-lazy-user-flush", "repl-disable-tcp-nodelay", "repl-diskless-sync",
        "aof-rewrite-incremental-fsync", "no-appendfsync-on-rewrite", "cluster-require-full-coverage", "rdb-save-incremental-fsync",
        "aof-load-truncated", "aof-use-rdb-preamble", "aof-timestamp-enabled", "cluster-replica-no-failover", "cluster-slave-no-failover",
        "replica-lazy-flush", "slave-lazy-flush", "replica-serve-stale-data", "slave-serve-stale-data", "replica-read-only", "slave-read-only",
        "replica-ignore-maxmemory", "slave-ignore-maxmemory", "jemalloc-bg-thread", "activedefrag", "syslog-enabled", "cluster-enabled",
        "appendonly", "cluster-allow-reads-when-down", "cluster-allow-pubsubshard-when-down", "crash-log-enabled", "crash-memcheck-enabled",
        "disable-thp", "cluster-allow-replica-migration", "replica-announced", "aof-disable-auto-gc", "replica-ignore-disk-write-errors",
        "aclfile", "unixsocket", "pidfile", "replica-announce-ip", "slave-announce-ip", "masteruser", "cluster-announce-ip", "cluster-config-file",
        "cluster-announce-hostname", "cluster-announce-human-nodename", "syslog-ident", "dbfilename", "appendfilename", "appenddirname",
        "server_cpulist", "bio_cpulist", "aof_rewrite_cpulist", "bgsave_cpulist", "ignore-warnings", "proc-title-template", "bind-source-addr",
        "logfile", "locale-collate", "masterauth", "requirepass", "supervised", "syslog-facility", "repl-diskless-load", "loglevel",
        "maxmemory-policy", "appendfsync", "oom-score-adj", "acl-pubsub-default", "sanitize-dump-payload", "enable-protected-configs",
        "enable-debug-command", "enable-module-command", "cluster-preferred-endpoint-type", "propagation-error-behavior", "shutdown-on-sigint",
        "shutdown-on-sigterm", "databases", "port", "io-threads", "auto-aof-rewrite-percentage", "cluster-replica-validity-factor",
        "cluster-slave-validity-factor", "list-max-listpack-size", "list-max-ziplist-size", "tcp-keepalive", "cluster-migration-barrier",
        "active-defrag-cycle-min", "active-defrag-cycle-max", "active-defrag-threshold-lower", "active-defrag-threshold-upper", "lfu-log-factor",
        "lfu-decay-time", "replica-priority", "slave-priority", "repl-diskless-sync-delay", "maxmemory-samples", "maxmemory-eviction-tenacity",
        "timeout", "replica-announce-port", "slave-announce-port", "tcp-backlog", "cluster-port", "cluster-announce-bus-port", "cluster-announce-port",
        "cluster-announce-tls-port", "repl-timeout", "repl-ping-replica-period", "repl-ping-slave-period", "list-compress-depth",
        "active-expire-effort", "hz", "min-replicas-to-write", "min-slaves-to-write", "min-replicas-max-lag", "min-slaves-max-lag",
        "shutdown-timeout", "repl-diskless-sync-max-replicas", "maxclients", "unixsocketperm", "active-defrag-max-scan-fields", "slowlog-max-len",
        "acllog-max-len", "busy-reply-threshold", "lua-time-limit", "cluster-node-timeout", "slowlog-log-slower-than", "proto-max-bulk-len",
        "stream-node-max-entries", "repl-backlog-size", "maxmemory", "cluster-link-sendbuf-limit", "hash-max-listpack-entries",
        "hash-max-ziplist-entries", "set-max-intset-entries", "set-max-listpack-entries", "set-max-listpack-value", "zset-max-listpack-entries",
        "zset-max-ziplist-entries", "active-defrag-ignore-bytes", "hash-max-listpack-value", "hash-max-ziplist-value", "stream-node-max-bytes",
        "zset-max-listpack-value", "zset-max-ziplist-value", "hll-sparse-max-bytes", "client-query-buffer-limit", "maxmemory-clients",
        "repl-backlog-ttl", "auto-aof-rewrite-min-size", "dir", "save", "client-output-buffer-limit", "oom-score-adj-values", "bind",
        "replicaof", "slaveof",
    ];

    private static Dictionary<string, string> All(RawClient client) => ConfigTests.ConfigGet(client, "*");

    [Test]
    public void GetStarListsEveryRedisParameterOnce()
    {
        using var client = ConnectRaw();
        string reply = client.Execute("CONFIG", "GET", "*");
        var all = All(client);
        Assert.That(all.Keys, Is.SupersetOf(s_redis72Names), "every Redis 7.2 name and alias");
        Assert.That(reply, Does.StartWith($"*{all.Count * 2}\r\n"), "each parameter once");
        Assert.That(all.Count, Is.GreaterThanOrEqualTo(s_redis72Names.Length));
    }

    [Test]
    public void DefaultsAreRedissWhereThisServerHasNoOtherValue()
    {
        using var client = ConnectRaw();
        var all = All(client);
        var expected = new Dictionary<string, string>
        {
            ["daemonize"] = "no",
            ["supervised"] = "no",
            ["loglevel"] = "notice",
            ["syslog-ident"] = "redis",
            ["syslog-facility"] = "local0",
            ["hz"] = "10",
            ["dynamic-hz"] = "yes",
            ["activerehashing"] = "yes",
            ["activedefrag"] = "no",
            ["jemalloc-bg-thread"] = "yes",
            ["active-defrag-ignore-bytes"] = "104857600",
            ["active-defrag-cycle-max"] = "25",
            ["lazyfree-lazy-user-flush"] = "no",
            ["io-threads"] = "1",
            ["tcp-backlog"] = "511",
            ["dbfilename"] = "dump.rdb",
            ["appendfilename"] = "appendonly.aof",
            ["rdbcompression"] = "yes",
            ["auto-aof-rewrite-percentage"] = "100",
            ["auto-aof-rewrite-min-size"] = "67108864",
            ["maxmemory-samples"] = "5",
            ["maxmemory-eviction-tenacity"] = "10",
            ["maxmemory-clients"] = "0",
            ["oom-score-adj"] = "no",
            ["oom-score-adj-values"] = "0 200 800",
            ["shutdown-on-sigterm"] = "default",
            ["shutdown-timeout"] = "10",
            ["acllog-max-len"] = "128",
            ["acl-pubsub-default"] = "resetchannels",
            ["busy-reply-threshold"] = "5000",
            ["lua-time-limit"] = "5000",
            ["hll-sparse-max-bytes"] = "3000",
            ["stream-node-max-bytes"] = "4096",
            ["stream-node-max-entries"] = "100",
            ["list-compress-depth"] = "0",
            ["replicaof"] = "",
            ["slaveof"] = "",
            ["replica-priority"] = "100",
            ["slave-priority"] = "100",
            ["repl-backlog-size"] = "1048576",
            ["repl-backlog-ttl"] = "3600",
            ["repl-timeout"] = "60",
            ["repl-diskless-load"] = "disabled",
            ["cluster-node-timeout"] = "60000", // --cluster-timeout, Garnet's default of 60 s
            ["cluster-config-file"] = "nodes.conf",
            ["cluster-preferred-endpoint-type"] = "ip",
            ["enable-protected-configs"] = "no",
            ["enable-module-command"] = "no",
            ["proc-title-template"] = "{title} {listen-addr} {server-mode}",
            ["unixsocketperm"] = "0",
            ["propagation-error-behavior"] = "ignore",
            ["sanitize-dump-payload"] = "no",
            ["active-expire-effort"] = "1",
        };
        foreach (var (name, value) in expected)
            Assert.That(all[name], Is.EqualTo(value), name);
    }

    [Test]
    public void SetChangesWhatGetReportsUnderBothNames()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "slave-priority", "7", "HZ", "020", "activedefrag", "YES", "loglevel", "WARNING"), Is.EqualTo("+OK\r\n"));
        var values = ConfigTests.ConfigGet(client, "replica-priority", "slave-priority", "hz", "activedefrag", "loglevel");
        Assert.That(values["replica-priority"], Is.EqualTo("7"));
        Assert.That(values["slave-priority"], Is.EqualTo("7"));
        Assert.That(values["hz"], Is.EqualTo("20"));
        Assert.That(values["activedefrag"], Is.EqualTo("yes"));
        Assert.That(values["loglevel"], Is.EqualTo("warning"));
        Assert.That(client.Execute("CONFIG", "SET", "active-defrag-ignore-bytes", "2mb", "maxmemory-clients", "10%", "oom-score-adj-values", "-10 +20 30"), Is.EqualTo("+OK\r\n"));
        values = ConfigTests.ConfigGet(client, "active-defrag-ignore-bytes", "maxmemory-clients", "oom-score-adj-values");
        Assert.That(values["active-defrag-ignore-bytes"], Is.EqualTo((2L << 20).ToString()));
        Assert.That(values["maxmemory-clients"], Is.EqualTo("10%"));
        Assert.That(values["oom-score-adj-values"], Is.EqualTo("-10 20 30"));
        Assert.That(client.Execute("CONFIG", "SET", "shutdown-on-sigint", "save NOW"), Is.EqualTo("+OK\r\n"));
        Assert.That(ConfigTests.ConfigGet(client, "shutdown-on-sigint")["shutdown-on-sigint"], Is.EqualTo("save now"));
        // busy-reply-threshold is lua-time-limit: scripts' time limit.
        Assert.That(client.Execute("CONFIG", "SET", "busy-reply-threshold", "1234"), Is.EqualTo("+OK\r\n"));
        Assert.That(ConfigTests.ConfigGet(client, "lua-time-limit")["lua-time-limit"], Is.EqualTo("1234"));
    }

    private static string Failed(string name, string reason) => $"-ERR CONFIG SET failed (possibly related to argument '{name}') - {reason}\r\n";

    [Test]
    public void EachKindIsCheckedInRedissWords()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "activerehashing", "maybe"), Is.EqualTo(Failed("activerehashing", "argument must be 'yes' or 'no'")));
        Assert.That(client.Execute("CONFIG", "SET", "hz", "ten"), Is.EqualTo(Failed("hz", "argument couldn't be parsed into an integer")));
        Assert.That(client.Execute("CONFIG", "SET", "active-expire-effort", "11"), Is.EqualTo(Failed("active-expire-effort", "argument must be between 1 and 10 inclusive")));
        Assert.That(client.Execute("CONFIG", "SET", "active-defrag-cycle-min", "0"), Is.EqualTo(Failed("active-defrag-cycle-min", "argument must be between 1 and 99 inclusive")));
        Assert.That(client.Execute("CONFIG", "SET", "repl-backlog-size", "lots"), Is.EqualTo(Failed("repl-backlog-size", "argument must be a memory value")));
        Assert.That(client.Execute("CONFIG", "SET", "loglevel", "loud"), Is.EqualTo(Failed("loglevel", "argument(s) must be one of the following: debug, verbose, notice, warning, nothing")));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "101%"), Is.EqualTo(Failed("maxmemory-clients", "percentage argument must be less or equal to 100")));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "x%"), Is.EqualTo(Failed("maxmemory-clients", "argument must be a memory or percent value")));
        Assert.That(client.Execute("CONFIG", "SET", "oom-score-adj-values", "0 200 3000"), Is.EqualTo(Failed("oom-score-adj-values", "Invalid oom-score-adj-values")));
        Assert.That(client.Execute("CONFIG", "SET", "shutdown-on-sigterm", "later"), Is.EqualTo(Failed("shutdown-on-sigterm", "argument(s) must be one of the following: default, save, nosave, now, force")));
        Assert.That(client.Execute("CONFIG", "SET", "proc-title-template", "{listen-addr}"), Is.EqualTo(Failed("proc-title-template", "template format is invalid or contains unknown variables")));
        Assert.That(client.Execute("CONFIG", "SET", "cluster-announce-hostname", "a_b"), Is.EqualTo(Failed("cluster-announce-hostname", "Hostnames may only contain alphanumeric characters, hyphens or dots")));
        Assert.That(client.Execute("CONFIG", "SET", "lua-time-limit", "-1"), Is.EqualTo(Failed("lua-time-limit", "argument must be between 0 and 9223372036854775807 inclusive")));
        Assert.That(client.Execute("CONFIG", "SET", "hll-sparse-max-bytes", "5000"), Is.EqualTo(Failed("hll-sparse-max-bytes", "this server only supports '3000'")));
        Assert.That(client.Execute("CONFIG", "SET", "hll-sparse-max-bytes", "3000"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "acl-pubsub-default", "allchannels"), Is.EqualTo(Failed("acl-pubsub-default", "this server only supports 'resetchannels'")));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void ImmutableAndProtectedParametersAreRefusedBeforeTheirValues()
    {
        using var client = ConnectRaw();
        foreach (string name in new[] { "daemonize", "io-threads", "tcp-backlog", "replicaof", "slaveof", "aclfile", "cluster-config-file", "enable-protected-configs" })
            Assert.That(client.Execute("CONFIG", "SET", name, "nonsense"), Is.EqualTo(Failed(name, "can't set immutable config")), name);
        // dbfilename is a protected config, refused while enable-protected-configs is no (its default).
        Assert.That(client.Execute("CONFIG", "SET", "dbfilename", "x.rdb"), Is.EqualTo(Failed("dbfilename", "can't set protected config")));
    }

    [Test]
    public void SeveralParametersAreAllOrNothing()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "hz", "50", "slowlog-max-len", "7", "maxmemory-samples", "0"), Is.EqualTo(Failed("maxmemory-samples", "argument must be between 1 and 2147483647 inclusive")));
        var values = ConfigTests.ConfigGet(client, "hz", "slowlog-max-len");
        Assert.That(values["hz"], Is.EqualTo("10"));
        Assert.That(values["slowlog-max-len"], Is.EqualTo("128"));
        // An alias and its primary are one parameter.
        Assert.That(client.Execute("CONFIG", "SET", "replica-priority", "1", "slave-priority", "2"), Is.EqualTo(Failed("slave-priority", "duplicate parameter")));
        Assert.That(client.Execute("CONFIG", "SET", "hz", "50", "databases", "1"), Is.EqualTo(Failed("databases", "can't set immutable config")));
        Assert.That(ConfigTests.ConfigGet(client, "hz")["hz"], Is.EqualTo("10"));
    }

    [Test]
    public void AclLogMaxLenBoundsTheAclLog()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "acllog-max-len", "2"), Is.EqualTo("+OK\r\n"));
        for (int i = 0; i < 4; i++)
            client.Execute("AUTH", "user" + i, "wrong");
        Assert.That(client.Execute("ACL", "LOG"), Does.StartWith("*2\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "acllog-max-len", "0"), Is.EqualTo("+OK\r\n"));
        client.Execute("AUTH", "another", "wrong");
        Assert.That(client.Execute("ACL", "LOG"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void ResetStatResetsWhatRedisResets()
    {
        using var client = ConnectRaw();
        using (var other = ConnectRaw())
            other.Execute("PING");
        client.Execute("GET", "missing");
        client.Execute("NOSUCHCOMMAND");
        client.Execute("SLOWLOG", "RESET");
        Assert.That(client.Execute("CONFIG", "RESETSTAT"), Is.EqualTo("+OK\r\n"));
        var stats = ReplyText.InfoFields(client.Execute("INFO", "stats"));
        Assert.That(stats["total_connections_received"], Is.EqualTo("0"));
        Assert.That(stats["keyspace_misses"], Is.EqualTo("0"));
        Assert.That(stats["total_error_replies"], Is.EqualTo("0"));
        Assert.That(client.Execute("INFO", "errorstats"), Does.Not.Contain("errorstat_ERR"));
    }
}
