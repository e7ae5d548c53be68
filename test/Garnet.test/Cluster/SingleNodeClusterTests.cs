using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using Garnet.server;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Cluster;

/// <summary>
/// A server started with --cluster and no other node: slot assignment (ADDSLOTS..., DELSLOTS..., FLUSHSLOTS, SETSLOT NODE),
/// the cluster's state, CROSSSLOT and CLUSTERDOWN for commands with keys, the CLUSTER replies clients and redis-cli read,
/// and the node configuration kept across a restart in nodes.conf.
/// </summary>
[TestFixture]
public sealed class SingleNodeClusterTests
{
    private string _directory = null!;
    private GarnetServer _server = null!;

    [SetUp]
    public void Start()
    {
        _directory = Path.Combine(Path.GetTempPath(), "garnet-cluster-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        _server = StartNode(clean: false);
    }

    [TearDown]
    public void Stop()
    {
        _server?.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    private GarnetServer StartNode(bool clean, string? announceIp = null, int announcePort = 0, bool aof = false)
    {
        var options = ClusterTestKit.Options(_directory);
        options.CleanClusterConfig = clean;
        options.ClusterAnnounceIp = announceIp;
        options.ClusterAnnouncePort = announcePort;
        options.EnableAof = aof;
        options.Recover = aof;
        var server = new GarnetServer(options);
        server.Start();
        return server;
    }

    private RawClient Raw() => new(_server.Port);

    [Test]
    public void ANewNodeServesNoSlotAndRefusesKeysUntilItServesThemAll()
    {
        using var client = Raw();
        Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_state:fail\r\n").And.Contain("cluster_slots_assigned:0\r\n"));
        Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo("-CLUSTERDOWN Hash slot not served\r\n"));
        // Commands without keys run whatever the slots.
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        Assert.That(client.Execute("CLUSTER", "ADDSLOTS", "12182"), Is.EqualTo("+OK\r\n")); // foo's slot
        Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo("-CLUSTERDOWN The cluster is down\r\n"));
        Assert.That(client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "12181", "12183", "16383"), Is.EqualTo("+OK\r\n"));
        string info = client.Execute("CLUSTER", "INFO");
        Assert.That(info, Does.Contain("cluster_state:ok\r\n").And.Contain("cluster_slots_assigned:16384\r\n").And.Contain("cluster_known_nodes:1\r\n")
            .And.Contain("cluster_size:1\r\n"));
        Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "foo"), Is.EqualTo("$3\r\nbar\r\n"));
    }

    [Test]
    public void KeysOfOneCommandMustShareASlot()
    {
        using var client = Raw();
        client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        Assert.That(client.Execute("MSET", "a", "1", "b", "2"), Is.EqualTo("-CROSSSLOT Keys in request don't hash to the same slot\r\n"));
        Assert.That(client.Execute("MSET", "{user}a", "1", "{user}b", "2"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MGET", "{user}a", "{user}b"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
        // A refused command in MULTI fails the transaction, as in Redis.
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DEL", "a", "b"), Does.StartWith("-CROSSSLOT"));
        Assert.That(client.Execute("EXEC"), Does.StartWith("-EXECABORT"));
        // Each queued command is on one slot, but EXEC finds two slots in the transaction: it is discarded.
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "a", "1"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("SET", "b", "2"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-CROSSSLOT Keys in request don't hash to the same slot\r\n"));
        Assert.That(client.Execute("EXISTS", "a"), Is.EqualTo(":0\r\n"));
        // One slot: it runs; and a slot released between MULTI and EXEC stops it.
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        client.Execute("SET", "{t}a", "1");
        client.Execute("INCR", "{t}b");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n:1\r\n"));
        string slot = client.Execute("CLUSTER", "KEYSLOT", "t").TrimStart(':').Trim();
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        client.Execute("INCR", "{t}b");
        using (var admin = Raw())
            Assert.That(admin.Execute("CLUSTER", "DELSLOTS", slot), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-CLUSTERDOWN Hash slot not served\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-ERR EXEC without MULTI\r\n"));
        Assert.That(client.Execute("SELECT", "1"), Is.EqualTo("-ERR SELECT is not allowed in cluster mode\r\n"));
        Assert.That(client.Execute("SELECT", "99"), Is.EqualTo("-ERR SELECT is not allowed in cluster mode\r\n"));
        Assert.That(client.Execute("SELECT", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("SELECT", "0"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void OnlyDatabaseZeroExists()
    {
        using var client = Raw();
        client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        client.Execute("SET", "a", "1");
        Assert.That(client.Execute("MOVE", "a", "1"), Is.EqualTo("-ERR MOVE is not allowed in cluster mode\r\n"));
        Assert.That(client.Execute("SWAPDB", "0", "1"), Is.EqualTo("-ERR SWAPDB is not allowed in cluster mode\r\n"));
        Assert.That(client.Execute("COPY", "a", "{a}b", "DB", "1"), Is.EqualTo("-ERR Copying to another database is not allowed in cluster mode\r\n"));
        Assert.That(client.Execute("COPY", "a", "{a}b", "DB", "99"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("COPY", "a", "{a}b", "DB", "0"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void SlotAssignmentErrorsChangeNothing()
    {
        using var client = Raw();
        Assert.That(client.Execute("CLUSTER", "ADDSLOTS", "16384"), Is.EqualTo("-ERR Invalid or out of range slot\r\n"));
        Assert.That(client.Execute("CLUSTER", "ADDSLOTS", "x"), Is.EqualTo("-ERR Invalid or out of range slot\r\n"));
        Assert.That(client.Execute("CLUSTER", "ADDSLOTS", "5", "6", "5"), Is.EqualTo("-ERR Slot 5 specified multiple times\r\n"));
        Assert.That(client.Execute("CLUSTER", "ADDSLOTSRANGE", "10", "5"), Is.EqualTo("-ERR start slot number 10 is greater than end slot number 5\r\n"));
        Assert.That(client.Execute("CLUSTER", "ADDSLOTSRANGE", "1", "2", "3"), Is.EqualTo("-ERR wrong number of arguments for 'cluster|addslotsrange' command\r\n"));
        Assert.That(client.Execute("CLUSTER", "DELSLOTS", "7"), Is.EqualTo("-ERR Slot 7 is already unassigned\r\n"));
        Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_slots_assigned:0\r\n"));

        Assert.That(client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "99"), Is.EqualTo("+OK\r\n"));
        // All or nothing: slot 100 is free but 99 is taken.
        Assert.That(client.Execute("CLUSTER", "ADDSLOTS", "100", "99"), Is.EqualTo("-ERR Slot 99 is already busy\r\n"));
        Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_slots_assigned:100\r\n"));
        Assert.That(client.Execute("CLUSTER", "DELSLOTSRANGE", "0", "9", "50", "59"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_slots_assigned:80\r\n"));
        string id = Bulk(client.Execute("CLUSTER", "MYID"));
        Assert.That(client.Execute("CLUSTER", "NODES"), Does.Contain($"{id} 127.0.0.1:{_server.Port}@{_server.Port + 10000} myself,master - 0 0 0 connected 10-49 60-99\n"));
        Assert.That(client.Execute("CLUSTER", "SETSLOT", "5", "NODE", id), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLUSTER", "SETSLOT", "5", "NODE", new string('a', 40)), Is.EqualTo($"-ERR Unknown node {new string('a', 40)}\r\n"));
        Assert.That(client.Execute("CLUSTER", "SETSLOT", "5", "STABLE"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLUSTER", "NODES"), Does.Contain(" connected 5 10-49 60-99\n"));
    }

    [Test]
    public void FlushSlotsAndResetNeedAnEmptyDatabase()
    {
        using var client = Raw();
        client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        client.Execute("SET", "foo", "bar");
        Assert.That(client.Execute("CLUSTER", "FLUSHSLOTS"), Is.EqualTo("-ERR DB must be empty to perform CLUSTER FLUSHSLOTS.\r\n"));
        Assert.That(client.Execute("CLUSTER", "RESET"), Is.EqualTo("-ERR CLUSTER RESET can't be called with master nodes containing keys\r\n"));
        client.Execute("DEL", "foo");
        string id = Bulk(client.Execute("CLUSTER", "MYID"));
        Assert.That(client.Execute("CLUSTER", "FLUSHSLOTS"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_slots_assigned:0\r\n"));
        Assert.That(client.Execute("CLUSTER", "RESET", "SOFT"), Is.EqualTo("+OK\r\n"));
        Assert.That(Bulk(client.Execute("CLUSTER", "MYID")), Is.EqualTo(id));
        Assert.That(client.Execute("CLUSTER", "RESET", "HARD"), Is.EqualTo("+OK\r\n"));
        Assert.That(Bulk(client.Execute("CLUSTER", "MYID")), Is.Not.EqualTo(id).And.Length.EqualTo(40));
        Assert.That(client.Execute("CLUSTER", "RESET", "MEDIUM"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void KeysOfASlotAreCountedAndListed()
    {
        using var client = Raw();
        client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        for (int i = 0; i < 5; i++)
            client.Execute("SET", "{tag}" + i, "v");
        client.Execute("SET", "other", "v");
        int slot = int.Parse(client.Execute("CLUSTER", "KEYSLOT", "{tag}x").TrimStart(':').Trim());
        Assert.That(slot, Is.EqualTo(Garnet.common.HashSlot.Of("tag"u8)));
        Assert.That(client.Execute("CLUSTER", "COUNTKEYSINSLOT", slot.ToString()), Is.EqualTo(":5\r\n"));
        Assert.That(client.Execute("CLUSTER", "GETKEYSINSLOT", slot.ToString(), "3"), Does.StartWith("*3\r\n"));
        Assert.That(client.Execute("CLUSTER", "GETKEYSINSLOT", slot.ToString(), "0"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("CLUSTER", "COUNTKEYSINSLOT", "16384"), Is.EqualTo("-ERR Invalid slot\r\n"));
        Assert.That(client.Execute("CLUSTER", "COUNTKEYSINSLOT", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("CLUSTER", "GETKEYSINSLOT", "1", "-1"), Is.EqualTo("-ERR Invalid slot or number of keys\r\n"));
    }

    [Test]
    public void EpochsAndOtherNodesAsAnOnlyNodeSeesThem()
    {
        using var client = Raw();
        string id = Bulk(client.Execute("CLUSTER", "MYID"));
        string stranger = new('b', 40);
        Assert.That(client.Execute("CLUSTER", "BUMPEPOCH"), Is.EqualTo("+BUMPED 1\r\n"));
        Assert.That(client.Execute("CLUSTER", "BUMPEPOCH"), Is.EqualTo("+STILL 1\r\n"));
        Assert.That(client.Execute("CLUSTER", "SET-CONFIG-EPOCH", "5"), Is.EqualTo("-ERR Node config epoch is already non-zero\r\n"));
        Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_current_epoch:1\r\ncluster_my_epoch:1\r\n"));
        Assert.That(client.Execute("CLUSTER", "COUNT-FAILURE-REPORTS", id), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("CLUSTER", "COUNT-FAILURE-REPORTS", stranger), Is.EqualTo($"-ERR Unknown node {stranger}\r\n"));
        Assert.That(client.Execute("CLUSTER", "REPLICAS", id), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("CLUSTER", "FORGET", id), Is.EqualTo("-ERR I tried hard but I can't forget myself...\r\n"));
        Assert.That(client.Execute("CLUSTER", "REPLICATE", id), Is.EqualTo("-ERR Can't replicate myself\r\n"));
        Assert.That(client.Execute("CLUSTER", "FAILOVER"), Is.EqualTo("-ERR You should send CLUSTER FAILOVER to a replica\r\n"));
        Assert.That(client.Execute("CLUSTER", "LINKS"), Is.EqualTo("*0\r\n"));
        Assert.That(Bulk(client.Execute("CLUSTER", "MYSHARDID")), Has.Length.EqualTo(40));
        Assert.That(client.Execute("CLUSTER", "NOSUCH"), Does.StartWith("-ERR unknown subcommand 'NOSUCH'"));
        // A primary with no slot being imported: these change nothing, as in Redis.
        Assert.That(client.Execute("READONLY"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("READWRITE"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ASKING"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void TheNodeConfigurationSurvivesARestartUnlessCleaned()
    {
        string id;
        using (var client = Raw())
        {
            id = Bulk(client.Execute("CLUSTER", "MYID"));
            client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
            client.Execute("CLUSTER", "DELSLOTS", "42");
            client.Execute("CLUSTER", "SET-CONFIG-EPOCH", "7");
        }
        _server.Dispose();
        Assert.That(File.ReadAllText(Path.Combine(_directory, "nodes.conf")), Does.StartWith(id + " ").And.Contain(" connected 0-41 43-16383\n")
            .And.Contain("vars currentEpoch 7 lastVoteEpoch 0"));

        _server = StartNode(clean: false);
        using (var client = Raw())
        {
            Assert.That(Bulk(client.Execute("CLUSTER", "MYID")), Is.EqualTo(id));
            string info = client.Execute("CLUSTER", "INFO");
            Assert.That(info, Does.Contain("cluster_slots_assigned:16383\r\n").And.Contain("cluster_my_epoch:7\r\n").And.Contain("cluster_state:fail\r\n"));
            // The slots read back are this node's: once it serves all of them again, keys are served here.
            Assert.That(client.Execute("CLUSTER", "ADDSLOTS", "42"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo("+OK\r\n"));
        }
        _server.Dispose();

        _server = StartNode(clean: true);
        using (var client = Raw())
        {
            Assert.That(Bulk(client.Execute("CLUSTER", "MYID")), Is.Not.EqualTo(id));
            Assert.That(client.Execute("CLUSTER", "INFO"), Does.Contain("cluster_slots_assigned:0\r\n"));
        }
    }

    [Test]
    public void AnAnnouncedAddressIsWhatClientsAreGiven()
    {
        _server.Dispose();
        _server = StartNode(clean: false, announceIp: "10.1.2.3", announcePort: 7001);
        using var client = Raw();
        client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        string id = Bulk(client.Execute("CLUSTER", "MYID"));
        Assert.That(client.Execute("CLUSTER", "NODES"), Does.StartWith($"$").And.Contain($"{id} 10.1.2.3:7001@17001 myself,master - 0 0 0 connected 0-16383\n"));
        Assert.That(client.Execute("CLUSTER", "SLOTS"), Is.EqualTo($"*1\r\n*3\r\n:0\r\n:16383\r\n*4\r\n$8\r\n10.1.2.3\r\n:7001\r\n$40\r\n{id}\r\n*0\r\n"));
        Assert.That(File.ReadAllText(Path.Combine(_directory, "nodes.conf")), Does.StartWith($"{id} 10.1.2.3:7001@17001,,shard-id="));
    }

    [Test]
    public void RecoveryReplaysWritesWhateverTheSlotsAreNow()
    {
        _server.Dispose();
        _server = StartNode(clean: false, aof: true);
        using (var client = Raw())
        {
            client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
            Assert.That(client.Execute("SET", "foo", "bar"), Is.EqualTo("+OK\r\n"));
            // The node no longer serves foo's slot, and the cluster is down: the logged write must still come back.
            Assert.That(client.Execute("CLUSTER", "DELSLOTS", "12182"), Is.EqualTo("+OK\r\n"));
        }
        _server.Dispose();
        _server = StartNode(clean: false, aof: true);
        using (var client = Raw())
        {
            Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("CLUSTER", "COUNTKEYSINSLOT", "12182"), Is.EqualTo(":1\r\n"));
            Assert.That(client.Execute("GET", "foo"), Is.EqualTo("-CLUSTERDOWN Hash slot not served\r\n"));
        }
    }

    [Test]
    public void AnUnreadableNodeConfigurationFailsStartUp()
    {
        _server.Dispose();
        File.WriteAllText(Path.Combine(_directory, "nodes.conf"), "not a node line\n");
        var failure = Assert.Throws<InvalidDataException>(() => _server = StartNode(clean: false));
        Assert.That(failure!.Message, Does.Contain("nodes.conf is not valid"));
        _server = StartNode(clean: true);
    }

    [Test]
    public void TheDotNetClientSeesASingleNodeClusterAndUsesIt()
    {
        using (var client = Raw())
            client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        var options = new ConfigurationOptions { EndPoints = { { "127.0.0.1", _server.Port } }, ConnectTimeout = 5000, SyncTimeout = 5000 };
        using var connection = ConnectionMultiplexer.Connect(options);
        var server = connection.GetServer("127.0.0.1", _server.Port);
        Assert.That(server.ServerType, Is.EqualTo(ServerType.Cluster));
        var db = connection.GetDatabase();
        for (int i = 0; i < 100; i++)
            db.StringSet("key" + i, i);
        Assert.That((int)db.StringGet("key42"), Is.EqualTo(42));
        var nodes = connection.GetServer("127.0.0.1", _server.Port).ClusterConfiguration!.Nodes;
        Assert.That(nodes.Single().Slots.Single().From, Is.EqualTo(0));
        Assert.That(nodes.Single().Slots.Single().To, Is.EqualTo(16383));
    }

    [Test]
    public void RedisCliChecksTheCluster()
    {
        using (var client = Raw())
            client.Execute("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
        var (output, exitCode) = ClusterTestKit.RunRedisCli($"--cluster check 127.0.0.1:{_server.Port}");
        Assert.That(output, Does.Contain("[OK] All nodes agree about slots configuration.").And.Contain("[OK] All 16384 slots covered."));
        Assert.That(exitCode, Is.EqualTo(0));
    }

    [Test]
    public void AStandaloneServerRefusesClusterCommands()
    {
        using var server = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0, IndexSize = 1L << 20, MemorySize = 1L << 26, PageSize = 1L << 20 });
        server.Start();
        using var client = new RawClient(server.Port);
        Assert.That(client.Execute("CLUSTER", "INFO"), Is.EqualTo("-ERR This instance has cluster support disabled\r\n"));
        Assert.That(client.Execute("READONLY"), Is.EqualTo("-ERR This instance has cluster support disabled\r\n"));
        Assert.That(client.Execute("READWRITE"), Is.EqualTo("-ERR This instance has cluster support disabled\r\n"));
        Assert.That(client.Execute("ASKING"), Is.EqualTo("-ERR This instance has cluster support disabled\r\n"));
        Assert.That(client.Execute("MSET", "a", "1", "b", "2"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("INFO", "cluster"), Does.Contain("cluster_enabled:0"));
    }

    private static string Bulk(string reply)
    {
        int line = reply.IndexOf("\r\n", StringComparison.Ordinal);
        return reply.Substring(line + 2, reply.Length - line - 4);
    }
}
