using System;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>
/// maxmemory-clients: past it, the clients holding the most memory (unread replies, a large command arriving) are
/// disconnected and counted in evicted_clients; CLIENT NO-EVICT ON clients stay; the others keep being served.
/// </summary>
[TestFixture]
public sealed class ClientEvictionTests : ServerTestBase
{
    private const int ValueLength = 512 * 1024;
    private const string Ok = "+OK\r\n";

    private static long Stat(RawClient client, string field)
        => long.Parse(ReplyText.InfoFields(client.Execute("INFO", "all"))[field], CultureInfo.InvariantCulture);

    private static void RequireHeldOutput()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("Replies held for a client that does not read exist with the epoll connections, which are Linux's.");
    }

    /// <summary>Sends <paramref name="requests"/> GETs of the large value and reads none of the replies.</summary>
    private static void RequestWithoutReading(RawClient client, int requests)
    {
        var pipeline = new StringBuilder();
        for (var i = 0; i < requests; i++)
            pipeline.Append(RawClient.Encode("GET", "big"));
        client.SendRaw(pipeline.ToString());
    }

    /// <summary>Sends a SET whose 4 MB value never completes: the server may close the connection before it is all sent.</summary>
    private static void SendOversizedCommand(RawClient client, char fill)
    {
        try
        {
            client.SendRaw("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4000000\r\n");
            client.SendRaw(new string(fill, 3_000_000));
        }
        catch (System.Net.Sockets.SocketException)
        {
            // Evicted while sending.
        }
    }

    private static void WaitUntilEvicted(RawClient observer, long count)
    {
        var clock = Stopwatch.StartNew();
        while (Stat(observer, "evicted_clients") < count)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), $"{count} clients are evicted");
            Thread.Sleep(20);
        }
    }

    private static void WaitUntilClosed(RawClient client)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            client.ReadToEnd();
            if (client.IsClosedByServer())
                return;
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the server closes the client");
        }
    }

    private static bool IsListed(RawClient observer, string name)
        => ReplyText.Payload(observer.Execute("CLIENT", "LIST")).Contains($" name={name} ", StringComparison.Ordinal);

    [Test]
    public void ClientLeavingRepliesUnreadIsEvictedAndTheOthersAreServed()
    {
        RequireHeldOutput();
        using var admin = ConnectRaw();
        using var other = ConnectRaw();
        using var slow = ConnectRaw();
        Assert.That(slow.Execute("CLIENT", "SETNAME", "slow"), Is.EqualTo(Ok));
        Assert.That(admin.Execute("SET", "big", new string('v', ValueLength)), Is.EqualTo(Ok));
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory-clients", "8mb"), Is.EqualTo(Ok));
        Assert.That(Stat(admin, "evicted_clients"), Is.Zero);

        var described = new System.Collections.Concurrent.ConcurrentQueue<string>();
        Server.Store.ClientEviction.ClientEvicted += described.Enqueue;
        RequestWithoutReading(slow, 200); // 100 MB of replies
        WaitUntilEvicted(admin, 1);
        WaitUntilClosed(slow);
        Assert.That(IsListed(admin, "slow"), Is.False);
        // The host logs each eviction from this description.
        Assert.That(described, Has.Count.EqualTo(1));
        Assert.That(described.TryPeek(out var description) ? description : "", Does.Contain(" name=slow tot-mem="));

        // The largest went and the total fell under the limit: nobody else was evicted, and everyone is served.
        for (var i = 0; i < 20; i++)
            Assert.That(other.Execute("INCR", "counter"), Is.EqualTo($":{i + 1}\r\n"));
        Assert.That(admin.Execute("GET", "counter"), Is.EqualTo("$2\r\n20\r\n"));
        Assert.That(Stat(admin, "evicted_clients"), Is.EqualTo(1));
    }

    [Test]
    public void ClientSendingAnOversizedCommandIsEvicted()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory-clients", "1mb"), Is.EqualTo(Ok));
        using var greedy = ConnectRaw();
        // A 4 MB bulk string arriving: the receive buffer grows for it past the limit before the command is whole.
        SendOversizedCommand(greedy, 'x');
        WaitUntilEvicted(admin, 1);
        WaitUntilClosed(greedy);
        Assert.That(admin.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void PercentageOfMaxmemoryIsTheLimitOnlyWhileMaxmemoryIsSet()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory-clients", "1%"), Is.EqualTo(Ok));
        using var first = ConnectRaw();
        // maxmemory 0: a percentage of nothing is no limit, and a 3 MB command is taken whole.
        var value = new string('x', 3_000_000);
        Assert.That(first.Execute("SET", "k", value), Is.EqualTo(Ok));
        Assert.That(Stat(admin, "evicted_clients"), Is.Zero);

        // 1% of 200 MB is 2 MB.
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory", "200mb"), Is.EqualTo(Ok));
        using var second = ConnectRaw();
        SendOversizedCommand(second, 'y');
        WaitUntilEvicted(admin, 1);
        WaitUntilClosed(second);
        Assert.That(admin.Execute("STRLEN", "k"), Is.EqualTo(":3000000\r\n"));
    }

    [Test]
    public void NoEvictClientStaysWhileTheOthersGo()
    {
        RequireHeldOutput();
        using var admin = ConnectRaw();
        using var bystander = ConnectRaw();
        using var slow = ConnectRaw();
        Assert.That(admin.Execute("CLIENT", "NO-EVICT", "on"), Is.EqualTo(Ok));
        Assert.That(bystander.Execute("CLIENT", "SETNAME", "bystander"), Is.EqualTo(Ok));
        Assert.That(slow.Execute("CLIENT", "SETNAME", "slow"), Is.EqualTo(Ok));
        Assert.That(slow.Execute("CLIENT", "NO-EVICT", "ON"), Is.EqualTo(Ok));
        Assert.That(admin.Execute("SET", "big", new string('v', ValueLength)), Is.EqualTo(Ok));
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory-clients", "8mb"), Is.EqualTo(Ok));

        // As in Redis, a NO-EVICT client's memory counts toward the total: with it past the limit, every client that
        // may be evicted is, however little it holds.
        RequestWithoutReading(slow, 100); // 50 MB of replies
        WaitUntilEvicted(admin, 1);
        WaitUntilClosed(bystander);
        var slowLine = ReplyText.Payload(admin.Execute("CLIENT", "LIST"));
        Assert.That(slowLine, Does.Contain(" name=slow "));
        Assert.That(IsListed(admin, "bystander"), Is.False);

        // The NO-EVICT client gets every reply, in order.
        var expected = $"${ValueLength}\r\n{new string('v', ValueLength)}\r\n";
        for (var i = 0; i < 100; i++)
        {
            var reply = slow.ReadReply();
            if (reply != expected)
                Assert.Fail($"Reply {i} differs: {reply.Length} characters, starting {reply[..Math.Min(20, reply.Length)]}");
        }
        Assert.That(slow.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(Stat(admin, "evicted_clients"), Is.EqualTo(1));
    }

    [Test]
    public void SubscriberNotReadingItsMessagesIsEvictedBetweenItsOwnCommands()
    {
        RequireHeldOutput();
        using var admin = ConnectRaw();
        using var subscriber = ConnectRaw();
        Assert.That(subscriber.Execute("SUBSCRIBE", "news"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory-clients", "4mb"), Is.EqualTo(Ok));

        // The subscriber runs no command while messages pile up for it: the pass over all clients finds it.
        var message = new string('m', 256 * 1024);
        for (var i = 0; i < 60 && Stat(admin, "evicted_clients") == 0; i++)
        {
            Assert.That(admin.Execute("PUBLISH", "news", message), Is.AnyOf(":1\r\n", ":0\r\n"));
            Thread.Sleep(5);
        }
        WaitUntilEvicted(admin, 1);
        WaitUntilClosed(subscriber);
        Assert.That(admin.Execute("PUBLISH", "news", "after"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void NoEvictShowsInClientListFlags()
    {
        using var client = ConnectRaw();
        Assert.That(ReplyText.ClientField(ReplyText.Payload(client.Execute("CLIENT", "INFO")), "flags"), Is.EqualTo("N"));
        Assert.That(client.Execute("CLIENT", "NO-EVICT", "on"), Is.EqualTo(Ok));
        Assert.That(ReplyText.ClientField(ReplyText.Payload(client.Execute("CLIENT", "INFO")), "flags"), Is.EqualTo("e"));
        Assert.That(client.Execute("CLIENT", "NO-EVICT", "off"), Is.EqualTo(Ok));
        Assert.That(ReplyText.ClientField(ReplyText.Payload(client.Execute("CLIENT", "INFO")), "flags"), Is.EqualTo("N"));
        Assert.That(client.Execute("CLIENT", "NO-EVICT", "maybe"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void MaxmemoryClientsTakesBytesOrAPercentageWithRedisChecks()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory-clients"), Is.EqualTo(RawClient.Encode("maxmemory-clients", "0")));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "1gb"), Is.EqualTo(Ok));
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory-clients"), Is.EqualTo(RawClient.Encode("maxmemory-clients", "1073741824")));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "5%"), Is.EqualTo(Ok));
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory-clients"), Is.EqualTo(RawClient.Encode("maxmemory-clients", "5%")));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "101%"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - percentage argument must be less or equal to 100\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "lots"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - argument must be a memory or percent value\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory-clients"), Is.EqualTo(RawClient.Encode("maxmemory-clients", "5%")));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-clients", "0"), Is.EqualTo(Ok));
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory-clients"), Is.EqualTo(RawClient.Encode("maxmemory-clients", "0")));
    }

    [Test]
    public void MaxmemoryClientsGivenAtStartIsInForce()
    {
        var options = Garnet.test.Host.HostTestHelpers.SmallSettings(0).Server;
        options.ConfigParameters["maxmemory-clients"] = "1mb";
        using var server = new GarnetServer(options);
        server.Start();
        using var admin = new RawClient(server.Port);
        Assert.That(admin.Execute("CONFIG", "GET", "maxmemory-clients"), Is.EqualTo(RawClient.Encode("maxmemory-clients", "1048576")));
        using var greedy = new RawClient(server.Port);
        SendOversizedCommand(greedy, 'z');
        WaitUntilEvicted(admin, 1);
        WaitUntilClosed(greedy);
    }

    [Test]
    public void TinyLimitIsRaisedTo128KbSoIdleClientsStay()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "maxmemory-clients", "1"), Is.EqualTo(Ok));
        using var other = ConnectRaw();
        for (var i = 0; i < 10; i++)
            Assert.That(other.Execute("SET", "k" + i, new string('x', 1000)), Is.EqualTo(Ok));
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(Stat(admin, "evicted_clients"), Is.Zero);
    }

    [Test]
    public void InfoReportsClientMemory()
    {
        RequireHeldOutput();
        using var admin = ConnectRaw();
        using var slow = ConnectRaw();
        Assert.That(admin.Execute("SET", "big", new string('v', ValueLength)), Is.EqualTo(Ok));
        var memory = ReplyText.InfoFields(admin.Execute("INFO", "memory"));
        Assert.That(memory["mem_clients_slaves"], Is.EqualTo("0"));
        Assert.That(long.Parse(memory["mem_clients_normal"], CultureInfo.InvariantCulture), Is.LessThan(ValueLength));

        RequestWithoutReading(slow, 40); // 20 MB of replies, held while eviction is off
        var clock = Stopwatch.StartNew();
        while (long.Parse(ReplyText.InfoFields(admin.Execute("INFO", "memory"))["mem_clients_normal"], CultureInfo.InvariantCulture) < ValueLength)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the held replies count in mem_clients_normal");
            Thread.Sleep(20);
        }
        Assert.That(Stat(admin, "evicted_clients"), Is.Zero);
        for (var i = 0; i < 40; i++)
            Assert.That(slow.ReadReply(), Has.Length.GreaterThan(ValueLength));
    }
}
