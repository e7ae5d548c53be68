using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>
/// The life of a blocked client: order among several, disconnects and CLIENT KILL, input that
/// follows the blocking command, databases, and many clients at once.
/// </summary>
public class BlockedClientTests : BlockingTestBase
{
    [Test]
    public void ClientsAreServedFirstComeFirstServed()
    {
        using var first = BlockedClient(1, "BLPOP", "k", "0");
        using var second = BlockedClient(2, "BRPOP", "other", "k", "0");
        using var third = BlockedClient(3, "BLPOP", "k", "0");
        using var writer = ConnectRaw();

        Assert.That(writer.Execute("RPUSH", "k", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(first.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\n1\r\n"));
        WaitForBlocked(2);

        Assert.That(writer.Execute("RPUSH", "k", "2", "3"), Is.EqualTo(":2\r\n"));
        Assert.That(second.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\n3\r\n"));
        Assert.That(third.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\n2\r\n"));
        WaitForBlocked(0);
    }

    [Test]
    public void ZeroTimeoutWaitsUntilPushed()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "0");
        // Time passes (the timer is not involved with timeout 0); the client is still waiting.
        Thread.Sleep(200);
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(1));
        using var writer = ConnectRaw();
        writer.Execute("LPUSH", "k", "late");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$4\r\nlate\r\n"));
    }

    [Test]
    public void LongTimeoutStillServedByPush()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "100");
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "k", "v");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
        WaitForBlocked(0);
    }

    [Test]
    public void DisconnectWhileBlockedDoesNotLoseLaterPush()
    {
        var blocked = BlockedClient(1, "BLPOP", "k", "0");
        using var waiting = BlockedClient(2, "BLPOP", "other", "0");
        blocked.Dispose();
        WaitForBlocked(1);

        using var writer = ConnectRaw();
        Assert.That(writer.Execute("RPUSH", "k", "kept"), Is.EqualTo(":1\r\n"));
        Assert.That(writer.Execute("LRANGE", "k", "0", "-1"), Is.EqualTo("*1\r\n$4\r\nkept\r\n"));

        writer.Execute("RPUSH", "other", "x");
        Assert.That(waiting.ReadReply(), Is.EqualTo("*2\r\n$5\r\nother\r\n$1\r\nx\r\n"));
    }

    [Test]
    public void ClientKillEndsTheWait()
    {
        using var blocked = ConnectRaw();
        string id = blocked.Execute("CLIENT", "ID").TrimStart(':').TrimEnd();
        blocked.Send("BLPOP", "k", "0");
        WaitForBlocked(1);

        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "KILL", "ID", id), Is.EqualTo(":1\r\n"));
        WaitForBlocked(0);
        Assert.That(blocked.IsClosedByServer(), Is.True);
        Assert.That(admin.Execute("RPUSH", "k", "v"), Is.EqualTo(":1\r\n"));
        Assert.That(admin.Execute("LLEN", "k"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void PipelinedCommandsRunAfterUnblockInOrder()
    {
        using var blocked = ConnectRaw();
        blocked.SendRaw(RawClient.Encode("SET", "before", "1") + RawClient.Encode("BLPOP", "k", "0")
            + RawClient.Encode("SET", "after", "2") + RawClient.Encode("GET", "after") + RawClient.Encode("PING"));
        WaitForBlocked(1);
        Assert.That(blocked.ReadReply(), Is.EqualTo("+OK\r\n"));

        using var writer = ConnectRaw();
        Assert.That(writer.Execute("GET", "before"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(writer.Execute("GET", "after"), Is.EqualTo("$-1\r\n"));
        writer.Execute("RPUSH", "k", "v");

        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("$1\r\n2\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void PipelinedBlockingCommandsBlockInTurn()
    {
        using var blocked = ConnectRaw();
        blocked.SendRaw(RawClient.Encode("BLPOP", "a", "0") + RawClient.Encode("BLPOP", "b", "0") + RawClient.Encode("ECHO", "done"));
        WaitForBlocked(1);
        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "b", "early");
        writer.Execute("RPUSH", "a", "1");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\n1\r\n"));
        // The second BLPOP finds b's element without blocking.
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nb\r\n$5\r\nearly\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("$4\r\ndone\r\n"));

        blocked.SendRaw(RawClient.Encode("BLPOP", "a", "0") + RawClient.Encode("BLPOP", "b", "0.01") + RawClient.Encode("ECHO", "end"));
        WaitForBlocked(1);
        writer.Execute("RPUSH", "a", "2");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\n2\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*-1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("$3\r\nend\r\n"));
    }

    [Test]
    public void InputSentWhileBlockedRunsAfterwards()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "0");
        blocked.Send("PING");
        // A command split across sends while blocked.
        string echo = RawClient.Encode("ECHO", "split");
        blocked.SendRaw(echo.Substring(0, 7));
        blocked.SendRaw(echo.Substring(7));
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        writer.Execute("RPUSH", "k", "v");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("+PONG\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("$5\r\nsplit\r\n"));
        Assert.That(blocked.Execute("ECHO", "after"), Is.EqualTo("$5\r\nafter\r\n"));
    }

    [Test]
    public void TimeoutThenPipelinedCommandsRun()
    {
        using var blocked = ConnectRaw();
        blocked.SendRaw(RawClient.Encode("BRPOP", "k", "0.05") + RawClient.Encode("ECHO", "next"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*-1\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("$4\r\nnext\r\n"));
    }

    [Test]
    public void WaitsAreScopedToTheDatabase()
    {
        using var blocked = ConnectRaw();
        blocked.Execute("SELECT", "1");
        blocked.Send("BLPOP", "k", "0");
        WaitForBlocked(1);

        using var writer = ConnectRaw();
        writer.Execute("RPUSH", "k", "db0");
        Assert.That(writer.Execute("LLEN", "k"), Is.EqualTo(":1\r\n"));
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(1));
        writer.Execute("SELECT", "1");
        writer.Execute("RPUSH", "k", "db1");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$3\r\ndb1\r\n"));
    }

    [Test]
    public void WriteOfAnotherTypeKeepsClientBlocked()
    {
        using var blocked = BlockedClient(1, "BLPOP", "k", "0");
        using var writer = ConnectRaw();
        writer.Execute("SADD", "k", "member");
        writer.Execute("DEL", "k");
        Assert.That(Server.Store.Blocking.BlockedClients, Is.EqualTo(1));
        writer.Execute("RPUSH", "k", "v");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nk\r\n$1\r\nv\r\n"));
    }

    [Test]
    public void ManyTimeoutsAllExpire()
    {
        var clients = new List<RawClient>();
        try
        {
            for (int i = 0; i < 20; i++)
            {
                var client = ConnectRaw();
                client.Send("BLPOP", "k" + (i % 5), (0.01 * (i + 1)).ToString(System.Globalization.CultureInfo.InvariantCulture));
                clients.Add(client);
            }
            foreach (var client in clients)
                Assert.That(client.ReadReply(), Is.EqualTo("*-1\r\n"));
            WaitForBlocked(0);
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
    }

    [Test]
    public void ClientsWithLongTimeoutsLeaveCleanly()
    {
        var clients = new List<RawClient>();
        for (int i = 0; i < 100; i++)
        {
            var client = ConnectRaw();
            client.Send("BZPOPMIN", "z" + i, "3600");
            clients.Add(client);
        }
        WaitForBlocked(100);
        foreach (var client in clients)
            client.Dispose();
        WaitForBlocked(0);

        using var writer = ConnectRaw();
        writer.Execute("ZADD", "z7", "1", "m");
        Assert.That(writer.Execute("ZCARD", "z7"), Is.EqualTo(":1\r\n"));
        using var later = ConnectRaw();
        Assert.That(later.Execute("BZPOPMAX", "later", "0.05"), Is.EqualTo("*-1\r\n"));
    }

    [Test]
    public void ConcurrentProducersAndBlockingConsumersLoseNothing()
    {
        const int Producers = 3;
        const int PerProducer = 500;
        const int Consumers = 4;
        var received = new System.Collections.Concurrent.ConcurrentBag<string>();
        int remaining = Producers * PerProducer;

        // Dedicated threads: blocking socket calls on pool threads would starve the server's receive flows.
        var consumers = Enumerable.Range(0, Consumers).Select(c => StartThread(() =>
        {
            using var client = ConnectRaw();
            while (Volatile.Read(ref remaining) > 0)
            {
                string reply = client.Execute(c % 2 == 0 ? "BLPOP" : "BRPOP", "q", "0.2");
                if (reply == "*-1\r\n")
                    continue;
                var match = Regex.Match(reply, @"\$\d+\r\n(p\d+-\d+)\r\n$");
                received.Add(match.Success ? match.Groups[1].Value : "unexpected: " + reply);
                Interlocked.Decrement(ref remaining);
            }
        })).ToArray();
        var producers = Enumerable.Range(0, Producers).Select(p => StartThread(() =>
        {
            using var client = ConnectRaw();
            for (int i = 0; i < PerProducer; i++)
                client.Execute(i % 2 == 0 ? "RPUSH" : "LPUSH", "q", $"p{p}-{i}");
        })).ToArray();

        foreach (var thread in producers.Concat(consumers))
            Assert.That(thread.Join(60_000), Is.True);
        Assert.That(received.Where(r => r.StartsWith("unexpected")), Is.Empty);
        Assert.That(received.Count, Is.EqualTo(Producers * PerProducer));
        Assert.That(received.Distinct().Count(), Is.EqualTo(Producers * PerProducer));
        WaitForBlocked(0);
    }

    private static Thread StartThread(System.Action action)
    {
        // A failure shows up as missing or unexpected elements, not as an exception on a bare thread.
        var thread = new Thread(() =>
        {
            try
            {
                action();
            }
            catch (System.Exception)
            {
            }
        })
        { IsBackground = true };
        thread.Start();
        return thread;
    }

    [Test]
    public void ManyClientsEachGetOneElement()
    {
        const int Clients = 24;
        var clients = new List<RawClient>();
        try
        {
            for (int i = 0; i < Clients; i++)
            {
                var client = ConnectRaw();
                client.Send(i % 2 == 0 ? "BLPOP" : "BRPOP", "q" + (i % 3), "shared", "0");
                clients.Add(client);
            }
            WaitForBlocked(Clients);

            // Concurrent writers push exactly one element per blocked client, to the keys they wait on.
            Parallel.For(0, Clients, new ParallelOptions { MaxDegreeOfParallelism = 4 }, i =>
            {
                using var writer = ConnectRaw();
                writer.Execute("RPUSH", "q" + (i % 3), "e" + i);
            });

            var received = new List<string>();
            foreach (var client in clients)
            {
                var match = Regex.Match(client.ReadReply(), @"\$\d+\r\n(e\d+)\r\n$");
                Assert.That(match.Success, Is.True);
                received.Add(match.Groups[1].Value);
            }
            Assert.That(received.Distinct().Count(), Is.EqualTo(Clients));
            WaitForBlocked(0);
            using var check = ConnectRaw();
            Assert.That(check.Execute("EXISTS", "q0", "q1", "q2", "shared"), Is.EqualTo(":0\r\n"));
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
    }
}
