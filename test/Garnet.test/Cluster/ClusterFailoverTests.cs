using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net;
using System.Text;
using System.Threading;
using Garnet.common;
using Garnet.server;
using Garnet.test.Host;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Cluster;

/// <summary>
/// Automatic failover: three primaries and a replica of the first, with commit-before-ack (the operation log at commit
/// frequency 0, whose commits wait for the replicas in sync). When the first primary fails, stops, is killed or is cut off,
/// its replica is elected by the other primaries and serves every write the primary acknowledged; a primary cut off from
/// the majority stops acknowledging writes.
/// </summary>
[TestFixture]
public sealed class ClusterFailoverTests : ClusterNodesTestBase
{
    // The node timeout, in seconds (small, so a failure is found fast; not so small that a loaded machine fakes one).
    private const int NodeTimeout = 2;

    private static void Configure(ServerOptions options)
    {
        options.EnableAof = true;
        options.ClusterTimeout = NodeTimeout;
    }

    /// <summary>A node as the test reaches it, and as the other nodes do (its announced address).</summary>
    private sealed record Node(IPEndPoint Endpoint, string AnnouncedIp, int AnnouncedPort)
    {
        public string Run(params string[] args)
        {
            using var client = new RawClient(Endpoint);
            return client.Execute(args);
        }

        public string Id => Run("CLUSTER", "MYID").Split('\n')[1][..40];
    }

    private static Node Of(GarnetServer server) => new(new IPEndPoint(IPAddress.Loopback, server.Port), "127.0.0.1", server.Port);

    /// <summary>The keys among k0, k1, … whose slots are the first primary's (0-5460).</summary>
    private static string[] KeysOfFirstPrimary(int count)
        => Enumerable.Range(0, count * 4).Select(i => "k" + i).Where(k => HashSlot.Of(Encoding.ASCII.GetBytes(k)) <= 5460).Take(count).ToArray();

    /// <summary>A hash tag whose slot is the first primary's.</summary>
    private static readonly string FirstTag = "{" + KeysOfFirstPrimary(1)[0] + "}";

    /// <summary>Makes <paramref name="primaries"/> a cluster of three with <paramref name="replica"/> following the first; waits until it is in sync.</summary>
    private static void FormShard(Node[] primaries, Node replica)
    {
        string[][] ranges = [["0", "5460"], ["5461", "10922"], ["10923", "16383"]];
        for (int i = 0; i < 3; i++)
        {
            Assert.That(primaries[i].Run(["CLUSTER", "ADDSLOTSRANGE", .. ranges[i]]), Is.EqualTo("+OK\r\n"));
            primaries[i].Run("CLUSTER", "SET-CONFIG-EPOCH", (i + 1).ToString());
        }
        foreach (var node in primaries.Skip(1).Append(replica))
            Assert.That(node.Run("CLUSTER", "MEET", primaries[0].AnnouncedIp, primaries[0].AnnouncedPort.ToString()), Is.EqualTo("+OK\r\n"));
        foreach (var node in primaries.Append(replica))
            WaitFor(node, "CLUSTER INFO", info => info.Contains("cluster_known_nodes:4\r\n") && info.Contains("cluster_state:ok\r\n"));
        Assert.That(replica.Run("CLUSTER", "REPLICATE", primaries[0].Id), Is.EqualTo("+OK\r\n"));
        WaitUntilInSync(primaries[0], replica);
    }

    /// <summary>Waits until the replica's link is up and it applied all the primary logged (and so is in sync).</summary>
    private static void WaitUntilInSync(Node primary, Node replica)
    {
        WaitFor(replica, "INFO replication", info =>
        {
            primary.Run("WAIT", "0", "0");
            long end = Field(primary.Run("INFO", "replication"), "master_repl_offset");
            return info.Contains("master_link_status:up\r\n") && Field(info, "slave_repl_offset") == end;
        });
        // One acknowledged write more: the replica is in sync from the acknowledgement that found it caught up.
        Assert.That(primary.Run("SET", FirstTag + "sync", "1"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void AReplicaTakesOverWhenItsPrimaryStops()
    {
        var servers = Enumerable.Range(0, 4).Select(_ => StartNode(configure: Configure)).ToArray();
        var nodes = servers.Select(Of).ToArray();
        var (primary, replica) = (nodes[0], nodes[3]);
        FormShard(nodes[..3], replica);
        string primaryId = primary.Id, replicaId = replica.Id;

        // Acknowledged under commit-before-ack, so on the replica too the moment each reply came: the primary stops at once.
        string[] keys = KeysOfFirstPrimary(300);
        using (var client = new RawClient(primary.Endpoint))
        {
            foreach (string key in keys)
                Assert.That(client.Execute("SET", key, "v:" + key), Is.EqualTo("+OK\r\n"));
        }
        StopNode(servers[0]);

        WaitForNodesLine(replica, replicaId, "myself,master");
        WaitForNodesLine(nodes[1], primaryId, "fail");
        WaitForNodesLine(nodes[1], replicaId, "master - ");
        Assert.That(nodes[1].Run("CLUSTER", "NODES").Split('\n').Single(line => line.StartsWith(replicaId)), Does.EndWith(" 0-5460"));
        using (var client = new RawClient(replica.Endpoint))
        {
            foreach (string key in keys)
                Assert.That(client.Execute("GET", key), Is.EqualTo($"${key.Length + 2}\r\nv:{key}\r\n"), key);
            Assert.That(client.Execute("SET", keys[0], "new"), Is.EqualTo("+OK\r\n"), "the new primary takes writes");
        }
        string info = replica.Run("CLUSTER", "INFO");
        Assert.That(info, Does.Contain("cluster_stats_messages_auth-req_sent:"));
        Assert.That(info, Does.Contain("cluster_state:ok\r\n"));
        Assert.That(long.Parse(Between(info, "cluster_my_epoch:", "\r")), Is.GreaterThan(3), "the election's epoch is the new configuration epoch");
    }

    [Test]
    public void ForcedFailoverTakesTheVoteOfThePrimaries()
    {
        var servers = Enumerable.Range(0, 4).Select(_ => StartNode(configure: Configure)).ToArray();
        var nodes = servers.Select(Of).ToArray();
        var (primary, replica) = (nodes[0], nodes[3]);
        FormShard(nodes[..3], replica);
        string primaryId = primary.Id, replicaId = replica.Id;
        Assert.That(primary.Run("CLUSTER", "FAILOVER", "FORCE"), Is.EqualTo("-ERR You should send CLUSTER FAILOVER to a replica\r\n"));
        string key = KeysOfFirstPrimary(1)[0];
        Assert.That(primary.Run("SET", key, "before"), Is.EqualTo("+OK\r\n"));

        Assert.That(replica.Run("CLUSTER", "FAILOVER", "FORCE"), Is.EqualTo("+OK\r\n"));
        WaitForNodesLine(replica, replicaId, "myself,master");
        // The old primary hears that its slots went to its replica, and follows it.
        WaitForNodesLine(primary, primaryId, $"myself,slave {replicaId}");
        WaitForNodesLine(nodes[2], primaryId, $"slave {replicaId}");
        Assert.That(replica.Run("GET", key), Is.EqualTo("$6\r\nbefore\r\n"));
        Assert.That(primary.Run("SET", key, "x"), Is.EqualTo($"-MOVED {HashSlot.Of(Encoding.ASCII.GetBytes(key))} 127.0.0.1:{replica.AnnouncedPort}\r\n"));
    }

    /// <summary>
    /// The primary is another process, killed (SIGKILL) while four clients write to it with commit-before-ack; once its
    /// replica is elected, every write a client had a reply for is there.
    /// </summary>
    [Test]
    public void EveryAcknowledgedWriteSurvivesAKilledPrimary()
    {
        string directory = Path.Combine(Path.GetTempPath(), "garnet-cluster-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        Directories.Add(directory);
        int port = FreePort();
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        using var process = ExternalProcess.Start(dotnet, [ServerDll(), "--warm-up", "0", "--port", port.ToString(), "--memory", "64m", "--page", "1m", "--index", "1m",
            "--cluster", "--cluster-timeout", NodeTimeout.ToString(), "--aof", "--aof-commit-freq", "0", "--checkpointdir", directory]);
        Assert.That(process.WaitForOutput($"listening on 127.0.0.1:{port}", TimeSpan.FromSeconds(30)), Is.True, process.Output + process.Error);
        var primary = new Node(new IPEndPoint(IPAddress.Loopback, port), "127.0.0.1", port);
        var others = Enumerable.Range(0, 3).Select(_ => Of(StartNode(configure: Configure))).ToArray();
        var replica = others[2];
        FormShard([primary, others[0], others[1]], replica);
        string primaryId = primary.Id, replicaId = replica.Id;

        const int Writers = 4;
        var acknowledged = new int[Writers];
        var stop = new CancellationTokenSource();
        var threads = Enumerable.Range(0, Writers).Select(w => new Thread(() =>
        {
            try
            {
                using var client = new RawClient(primary.Endpoint);
                // One list per writer, in the primary's slots; pipelined 16 at a time.
                string list = FirstTag + "list" + w;
                for (int next = 0; !stop.IsCancellationRequested; next += 16)
                {
                    for (int i = 0; i < 16; i++)
                        client.Send("RPUSH", list, (next + i).ToString());
                    for (int i = 0; i < 16; i++)
                    {
                        if (!client.ReadReply().StartsWith(':'))
                            return;
                        Volatile.Write(ref acknowledged[w], next + i + 1);
                    }
                }
            }
            catch (Exception e) when (e is IOException or System.Net.Sockets.SocketException or InvalidOperationException)
            {
                // The primary died under the writer.
            }
        })).ToArray();
        foreach (var thread in threads)
            thread.Start();
        var watch = Stopwatch.StartNew();
        while (acknowledged.Any(count => count < 200) && watch.Elapsed < TimeSpan.FromSeconds(30))
            Thread.Sleep(20);
        Thread.Sleep(300);
        process.Kill();
        stop.Cancel();
        foreach (var thread in threads)
            thread.Join();
        Assert.That(acknowledged, Has.All.GreaterThanOrEqualTo(200), "every writer had replies before the kill");

        WaitForNodesLine(replica, replicaId, "myself,master");
        WaitForNodesLine(others[0], primaryId, "fail");
        using var reader = new RawClient(replica.Endpoint);
        for (int w = 0; w < Writers; w++)
        {
            string list = FirstTag + "list" + w;
            long length = long.Parse(reader.Execute("LLEN", list)[1..].Trim());
            Assert.That(length, Is.GreaterThanOrEqualTo(acknowledged[w]), $"writer {w}: {acknowledged[w]} pushes acknowledged");
            // In order, none twice: element i is i.
            string range = reader.Execute("LRANGE", list, "0", "-1");
            var values = range.Split("\r\n").Where((_, i) => i > 0 && i % 2 == 0).Take((int)length).ToArray();
            for (int i = 0; i < values.Length; i++)
                Assert.That(values[i], Is.EqualTo(i.ToString()), $"writer {w} element {i}");
        }
    }

    /// <summary>
    /// The first primary is cut off from the other nodes (each node announces a proxy the test controls; nodes connect from
    /// addresses of their own). Within half the node timeout it stops taking writes; the other side elects its replica,
    /// which has every write the primary acknowledged; once the cut heals, the old primary follows the new one.
    /// </summary>
    [Test]
    public void APrimaryCutOffStopsAcknowledgingWritesAndItsReplicaTakesOver() => WithNodesBehindProxies((nodes, proxies) =>
    {
        var (primary, replica) = (nodes[0], nodes[3]);
        FormShard(nodes[..3], replica);
        string primaryId = primary.Id, replicaId = replica.Id;
        string[] keys = KeysOfFirstPrimary(200);
        using (var client = new RawClient(primary.Endpoint))
        {
            foreach (string key in keys)
                Assert.That(client.Execute("SET", key, "v"), Is.EqualTo("+OK\r\n"));
        }

        // A writer goes on writing through the cut; each write it has a reply for must be on the replica afterwards.
        int acknowledged = 0;
        var writer = new Thread(() =>
        {
            try
            {
                using var client = new RawClient(primary.Endpoint);
                for (int i = 0; ; i++)
                {
                    if (client.Execute("SET", FirstTag + "cut" + i, "v") != "+OK\r\n")
                        return;
                    Volatile.Write(ref acknowledged, i + 1);
                }
            }
            catch (Exception e) when (e is IOException or System.Net.Sockets.SocketException or InvalidOperationException)
            {
                // Its reply never came (the write waits for the replica it was cut from), or the connection ended.
            }
        });
        writer.Start();
        while (Volatile.Read(ref acknowledged) < 100)
            Thread.Sleep(5);

        // The cut: no one reaches the primary at its announced address, and no node takes its connections.
        proxies[0].BlockAll();
        for (int i = 1; i < 4; i++)
            proxies[i].Block(primary.Endpoint.Address);
        // Within its lease (half the node timeout) it takes no writes, before a replica can be promoted (the node
        // timeout, then the election). (A write sent meanwhile would wait for the replica it cannot reach.)
        Thread.Sleep(NodeTimeout * 500 + 500);
        Assert.That(primary.Run("SET", keys[0], "during the cut"), Is.EqualTo("-CLUSTERDOWN The cluster is down\r\n"));

        WaitForNodesLine(replica, replicaId, "myself,master");
        int written;
        using (var client = new RawClient(replica.Endpoint))
        {
            foreach (string key in keys)
                Assert.That(client.Execute("GET", key), Is.EqualTo("$1\r\nv\r\n"), key);
            written = Volatile.Read(ref acknowledged);
            for (int i = 0; i < written; i++)
                Assert.That(client.Execute("GET", FirstTag + "cut" + i), Is.EqualTo("$1\r\nv\r\n"), $"write {i} of the {written} acknowledged");
        }

        foreach (var proxy in proxies)
            proxy.Heal();
        WaitForNodesLine(primary, primaryId, $"myself,slave {replicaId}");
        // Back in touch with every node (its suspicions cleared), it redirects to the new primary.
        WaitFor(primary, "CLUSTER INFO", info => info.Contains("cluster_state:ok\r\n"));
        Assert.That(primary.Run("SET", keys[0], "x"), Does.StartWith("-MOVED"));
        writer.Join();
        Assert.That(Volatile.Read(ref acknowledged), Is.EqualTo(written), "no write is acknowledged once the primary is cut off from its replica");
    });

    /// <summary>
    /// A replica cut off from its primary (only) falls out of sync; the primary goes on acknowledging writes without it,
    /// and says so in gossip. When the primary then stops, the other primaries refuse the replica their votes (it lacks
    /// acknowledged writes): the slots stay down rather than lose those writes.
    /// </summary>
    [Test]
    public void AReplicaThatLacksAcknowledgedWritesIsNotElected() => WithNodesBehindProxies((nodes, proxies) =>
    {
        var (primary, replica) = (nodes[0], nodes[3]);
        FormShard(nodes[..3], replica);
        string primaryId = primary.Id, replicaId = replica.Id;

        // The primary and its replica no longer reach each other; both still reach the other primaries.
        proxies[3].Block(primary.Endpoint.Address);
        proxies[0].Block(replica.Endpoint.Address);
        string[] keys = KeysOfFirstPrimary(50);
        using (var client = new RawClient(primary.Endpoint))
        {
            // The first write waits until the replica is taken out of sync (its lease is held: the other primaries answer).
            foreach (string key in keys)
                Assert.That(client.Execute("SET", key, "acknowledged without the replica"), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(primary.Run("INFO", "replication"), Does.Contain("commits no longer wait for it"));
        // The other primaries hear what it acknowledged (a few gossip rounds), then it stops.
        Thread.Sleep(NodeTimeout * 1000);
        StopNode(Servers.Single(server => server.Port == primary.Endpoint.Port));

        WaitForNodesLine(nodes[1], primaryId, "fail");
        // Long enough for several elections (each waits at most twice the node timeout for votes).
        Thread.Sleep(NodeTimeout * 4000);
        Assert.That(replica.Run("CLUSTER", "NODES").Split('\n').Single(line => line.StartsWith(replicaId)), Does.Contain("myself,slave"));
        string info = replica.Run("CLUSTER", "INFO");
        Assert.That(info, Does.Contain("cluster_stats_messages_auth-req_sent:"), "it asked");
        Assert.That(info, Does.Contain("cluster_last_failover_error:the election in epoch"), "and was refused");
        Assert.That(replica.Run("READONLY"), Is.EqualTo("+OK\r\n"));
    });

    /// <summary>
    /// Runs <paramref name="test"/> on four nodes on 127.0.0.2-5, each announcing a proxy of its own (the test cuts links
    /// there); the nodes stop and the proxies close afterwards, whatever happens.
    /// </summary>
    private void WithNodesBehindProxies(Action<Node[], PartitionProxy[]> test)
    {
        var proxies = new List<PartitionProxy>();
        try
        {
            var nodes = StartBehindProxies(proxies);
            test(nodes, proxies.ToArray());
        }
        finally
        {
            StopNodes();
            foreach (var proxy in proxies)
                proxy.Dispose();
        }
    }

    /// <summary>Four nodes on 127.0.0.2-5, each announcing a proxy of its own (added to <paramref name="proxies"/>).</summary>
    private Node[] StartBehindProxies(List<PartitionProxy> proxies)
    {
        var nodes = new Node[4];
        for (int i = 0; i < 4; i++)
        {
            var proxy = new PartitionProxy();
            proxies.Add(proxy);
            string address = $"127.0.0.{i + 2}";
            var server = StartNode(configure: options =>
            {
                Configure(options);
                options.Address = address;
                options.ClusterAnnounceIp = "127.0.0.1";
                options.ClusterAnnouncePort = proxy.Port;
            });
            proxy.Target = new IPEndPoint(IPAddress.Parse(address), server.Port);
            nodes[i] = new Node(proxy.Target, "127.0.0.1", proxy.Port);
        }
        return nodes;
    }

    private static void WaitFor(Node node, string command, Func<string, bool> done)
    {
        var watch = Stopwatch.StartNew();
        string reply = "";
        while (watch.Elapsed < TimeSpan.FromSeconds(30))
        {
            reply = node.Run(command.Split(' '));
            if (done(reply))
                return;
            Thread.Sleep(50);
        }
        Assert.Fail($"{node.Endpoint} never got there with {command}:\n{reply}\n{node.Run("CLUSTER", "NODES")}");
    }

    private static void WaitForNodesLine(Node node, string id, string text)
        => WaitFor(node, "CLUSTER NODES", nodes => nodes.Split('\n').Any(line => line.StartsWith(id) && line.Contains(text)));

    private static long Field(string info, string field) => long.Parse(Between(info, field + ":", "\r"));

    private static string Between(string text, string start, string end)
    {
        int at = text.IndexOf(start, StringComparison.Ordinal);
        if (at < 0)
            return "-1";
        at += start.Length;
        return text[at..text.IndexOf(end, at, StringComparison.Ordinal)];
    }
}
