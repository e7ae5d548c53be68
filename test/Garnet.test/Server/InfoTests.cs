using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>INFO: sections, format and counters.</summary>
[TestFixture]
public sealed class InfoTests : ServerTestBase
{
    private static readonly string[] DefaultSections = ["Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU", "Modules", "Errorstats", "Cluster", "Keyspace"];

    private static Dictionary<string, string> Fields(RawClient client, params string[] sections)
        => ReplyText.InfoFields(client.Execute(["INFO", .. sections]));

    [Test]
    public void DefaultSectionsInRedisOrder()
    {
        using var client = ConnectRaw();
        Assert.That(ReplyText.InfoSections(client.Execute("INFO")), Is.EqualTo(DefaultSections));
        Assert.That(ReplyText.InfoSections(client.Execute("INFO", "default")), Is.EqualTo(DefaultSections));
    }

    [Test]
    public void AllAndEverythingAddCommandStats()
    {
        using var client = ConnectRaw();
        var expected = new[] { "Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU", "Modules", "Commandstats", "Errorstats", "Latencystats", "Cluster", "Keyspace" };
        Assert.That(ReplyText.InfoSections(client.Execute("INFO", "all")), Is.EqualTo(expected));
        Assert.That(ReplyText.InfoSections(client.Execute("INFO", "EVERYTHING")), Is.EqualTo(expected));
    }

    [Test]
    public void ChosenSectionsComeInServerOrderAndUnknownOnesAreIgnored()
    {
        using var client = ConnectRaw();
        Assert.That(ReplyText.InfoSections(client.Execute("INFO", "keyspace", "SERVER", "nonsense")), Is.EqualTo(new[] { "Server", "Keyspace" }));
        Assert.That(client.Execute("INFO", "nonsense"), Is.EqualTo("$0\r\n\r\n"));
    }

    [Test]
    public void FormatIsHeaderLinesAndBlankLineBetweenSections()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("INFO", "cluster"), Is.EqualTo("$30\r\n# Cluster\r\ncluster_enabled:0\r\n\r\n"));
        string text = ReplyText.Payload(client.Execute("INFO", "clients", "cluster"));
        Assert.That(text, Does.StartWith("# Clients\r\nconnected_clients:1\r\n"));
        Assert.That(text, Does.Contain("\r\n\r\n# Cluster\r\ncluster_enabled:0\r\n"));
        Assert.That(text, Does.EndWith("\r\n"));
        Assert.That(text, Does.Not.EndWith("\r\n\r\n"));
    }

    [Test]
    public void ServerSection()
    {
        using var client = ConnectRaw();
        var fields = Fields(client, "server");
        Assert.That(fields["redis_version"], Is.EqualTo("7.2.5"));
        Assert.That(fields["redis_mode"], Is.EqualTo("standalone"));
        Assert.That(fields["tcp_port"], Is.EqualTo(Port.ToString()));
        Assert.That(fields["run_id"], Does.Match("^[0-9a-f]{40}$"));
        Assert.That(long.Parse(fields["uptime_in_seconds"]), Is.GreaterThanOrEqualTo(0));
        Assert.That(fields["process_id"], Is.EqualTo(System.Environment.ProcessId.ToString()));
        Assert.That(Fields(client, "server")["run_id"], Is.EqualTo(fields["run_id"]), "the run id is stable");
    }

    [Test]
    public void ClientsCountsConnections()
    {
        using var client = ConnectRaw();
        Assert.That(Fields(client, "clients")["connected_clients"], Is.EqualTo("1"));
        using var other = ConnectRaw();
        other.Execute("PING");
        Assert.That(Fields(client, "clients")["connected_clients"], Is.EqualTo("2"));
    }

    [Test]
    public void StatsCountConnectionsAndCommands()
    {
        using var client = ConnectRaw();
        var before = Fields(client, "stats");
        for (int i = 0; i < 10; i++)
            client.Execute("PING");
        using (var other = ConnectRaw())
            other.Execute("PING");
        var after = Fields(client, "stats");

        Assert.That(long.Parse(after["total_commands_processed"]) - long.Parse(before["total_commands_processed"]), Is.GreaterThanOrEqualTo(12));
        Assert.That(long.Parse(after["total_connections_received"]) - long.Parse(before["total_connections_received"]), Is.EqualTo(1));
    }

    [Test]
    public void StatsCountKeyspaceHitsAndMisses()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "present", "v");
        var before = Fields(client, "stats");
        client.Execute("GET", "present");
        client.Execute("GET", "present");
        client.Execute("GET", "absent");
        var after = Fields(client, "stats");

        Assert.That(long.Parse(after["keyspace_hits"]) - long.Parse(before["keyspace_hits"]), Is.EqualTo(2));
        Assert.That(long.Parse(after["keyspace_misses"]) - long.Parse(before["keyspace_misses"]), Is.EqualTo(1));
    }

    [Test]
    public void CommandStatsCountCallsPerCommand()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        client.Execute("GET", "k");
        client.Execute("GET", "k");
        client.Execute("ECHO", "x");
        client.Execute("DEBUG", "SLEEP", "0.05");
        var fields = Fields(client, "commandstats");
        Assert.That(fields["cmdstat_get"], Does.Match(@"^calls=2,usec=\d+,usec_per_call=\d+\.\d\d,rejected_calls=0,failed_calls=0$"));
        Assert.That(fields["cmdstat_set"], Does.StartWith("calls=1,"));
        Assert.That(fields["cmdstat_echo"], Does.StartWith("calls=1,"));
        Assert.That(fields.ContainsKey("cmdstat_lcs"), Is.False);
        // The time is measured: a command that sleeps 50 ms has spent at least that.
        var debug = CommandStat(fields["cmdstat_debug"]);
        Assert.That(debug["usec"], Is.GreaterThanOrEqualTo(50_000));
        Assert.That(debug["usec_per_call"], Is.EqualTo(debug["usec"]));
    }

    private static Dictionary<string, long> CommandStat(string value)
        => value.Split(',').Select(p => p.Split('=')).ToDictionary(p => p[0], p => (long)double.Parse(p[1], System.Globalization.CultureInfo.InvariantCulture));

    [Test]
    public void FailedAndRejectedCallsAndErrorStatsAreCountedAsRedisCountsThem()
    {
        using var client = ConnectRaw();
        client.Execute("LPUSH", "list", "a");
        Assert.That(client.Execute("GET", "list"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("GET"), Does.StartWith("-ERR wrong number"));
        Assert.That(client.Execute("GET", "a", "b"), Does.StartWith("-ERR wrong number"));
        Assert.That(client.Execute("NOSUCHCOMMAND"), Does.StartWith("-ERR unknown command"));
        Assert.That(client.Execute("INCR", "list"), Does.StartWith("-WRONGTYPE"));
        // Inside EXEC, a failing command fails and EXEC does not.
        client.Execute("SET", "s", "x");
        client.Execute("MULTI");
        client.Execute("INCR", "s");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n-ERR value is not an integer or out of range\r\n"));

        var stats = Fields(client, "commandstats");
        Assert.That(CommandStat(stats["cmdstat_get"])["failed_calls"], Is.EqualTo(1));
        Assert.That(CommandStat(stats["cmdstat_get"])["rejected_calls"], Is.EqualTo(2));
        Assert.That(CommandStat(stats["cmdstat_get"])["calls"], Is.EqualTo(1));
        Assert.That(CommandStat(stats["cmdstat_incr"])["failed_calls"], Is.EqualTo(2));
        Assert.That(CommandStat(stats["cmdstat_exec"])["failed_calls"], Is.EqualTo(0));
        Assert.That(CommandStat(stats["cmdstat_lpush"])["failed_calls"], Is.EqualTo(0));

        var errors = Fields(client, "errorstats");
        Assert.That(errors["errorstat_WRONGTYPE"], Is.EqualTo("count=2"));
        Assert.That(errors["errorstat_ERR"], Is.EqualTo("count=4"));
        Assert.That(Fields(client, "stats")["total_error_replies"], Is.EqualTo("6"));

        Assert.That(client.Execute("CONFIG", "RESETSTAT"), Is.EqualTo("+OK\r\n"));
        Assert.That(Fields(client, "errorstats"), Is.Empty);
        Assert.That(Fields(client, "stats")["total_error_replies"], Is.EqualTo("0"));
        Assert.That(Fields(client, "commandstats").ContainsKey("cmdstat_get"), Is.False);
    }

    [Test]
    public void KeyspaceCountsKeysAndExpiriesPerDatabase()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("INFO", "keyspace"), Is.EqualTo("$12\r\n# Keyspace\r\n\r\n"));

        client.Execute("SET", "a", "1");
        client.Execute("SET", "b", "2");
        client.Execute("SET", "c", "3", "EX", "1000");
        client.Execute("SELECT", "4");
        client.Execute("SET", "x", "1");
        client.Execute("SELECT", "0");

        var fields = Fields(client, "keyspace");
        Assert.That(fields.Keys, Is.EquivalentTo(new[] { "db0", "db4" }));
        Assert.That(fields["db0"], Does.Match(@"^keys=3,expires=1,avg_ttl=\d+$"));
        long averageTtl = long.Parse(fields["db0"].Split("avg_ttl=")[1]);
        Assert.That(averageTtl, Is.InRange(1, 1_000_000));
        Assert.That(fields["db4"], Is.EqualTo("keys=1,expires=0,avg_ttl=0"));
    }

    [Test]
    public void KeyspaceCountsAnOverwrittenKeyOnce()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 5; i++)
            client.Execute("SET", "same", new string('v', 10 * (i + 1)));
        Assert.That(Fields(client, "keyspace")["db0"], Is.EqualTo("keys=1,expires=0,avg_ttl=0"));
    }

    [Test]
    public void MemoryReportsEngineMemory()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        var fields = Fields(client, "memory");
        long used = long.Parse(fields["used_memory"]);
        Assert.That(used, Is.GreaterThan(0));
        Assert.That(used, Is.EqualTo(long.Parse(fields["used_memory_overhead"]) + long.Parse(fields["used_memory_dataset"])));
        Assert.That(long.Parse(fields["used_memory_peak"]), Is.GreaterThanOrEqualTo(used));
        Assert.That(fields["used_memory_human"], Does.Match(@"^\d+(\.\d\d[KMGTP]|B)$"));
        Assert.That(fields["maxmemory_policy"], Is.EqualTo("noeviction"));
    }

    [Test]
    public void MemoryReportsTheManagedHeapsCollections()
    {
        using var client = ConnectRaw();
        System.GC.Collect();
        // The test shares the server's process: INFO, read after, reports at least what the test saw.
        var seen = new[] { System.GC.CollectionCount(0), System.GC.CollectionCount(1), System.GC.CollectionCount(2) };
        long allocated = System.GC.GetTotalAllocatedBytes();
        var fields = Fields(client, "memory");
        for (int gen = 0; gen <= 2; gen++)
        {
            Assert.That(seen[gen], Is.GreaterThanOrEqualTo(1));
            Assert.That(long.Parse(fields[$"gc_gen{gen}_collections"]), Is.GreaterThanOrEqualTo(seen[gen]));
        }
        Assert.That(long.Parse(fields["gc_allocated_bytes"]), Is.GreaterThanOrEqualTo(allocated));
        Assert.That(long.Parse(fields["gc_heap_bytes"]), Is.GreaterThan(0));
        Assert.That(long.Parse(fields["gc_pause_time_ms"]), Is.GreaterThanOrEqualTo(0));
    }

    [Test]
    public void ReplicationAndRoleSayMaster()
    {
        using var client = ConnectRaw();
        var fields = Fields(client, "replication");
        Assert.That(fields["role"], Is.EqualTo("master"));
        Assert.That(fields["connected_slaves"], Is.EqualTo("0"));
        // ROLE agrees: a primary at INFO's offset, with no replicas.
        Assert.That(client.Execute("ROLE"), Is.EqualTo($"*3\r\n$6\r\nmaster\r\n:{fields["master_repl_offset"]}\r\n*0\r\n"));
        Assert.That(client.Execute("ROLE", "x"), Is.EqualTo("-ERR wrong number of arguments for 'role' command\r\n"));
    }

    [Test]
    public void PersistenceAndCpu()
    {
        using var client = ConnectRaw();
        var persistence = Fields(client, "persistence");
        Assert.That(long.Parse(persistence["rdb_last_save_time"]), Is.EqualTo(Server.Store.LastSaveUnixSeconds));
        Assert.That(persistence["aof_enabled"], Is.EqualTo("0"));
        var cpu = Fields(client, "cpu");
        Assert.That(cpu["used_cpu_user"], Does.Match(@"^\d+\.\d{6}$"));
    }

    [Test]
    public void InfoIsVerbatimInResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("INFO", "cluster"), Is.EqualTo("=34\r\ntxt:# Cluster\r\ncluster_enabled:0\r\n\r\n"));
    }

    [Test]
    public void StackExchangeRedisParsesInfo()
    {
        using var redis = Connect();
        var server = redis.GetServer("127.0.0.1", Port);
        redis.GetDatabase().StringSet("k", "v");
        var groups = server.Info();
        Assert.That(groups.Select(g => g.Key), Does.Contain("Server").And.Contain("Keyspace"), "it leaves out empty sections");
        Assert.That(groups.Single(g => g.Key == "Keyspace").Single().Key, Is.EqualTo("db0"));
        Assert.That(groups.Single(g => g.Key == "Server").Single(p => p.Key == "redis_version").Value, Is.EqualTo("7.2.5"));
        Assert.That(server.Version, Is.EqualTo(new System.Version(7, 2, 5)));
    }
}
