using System;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>
/// maxclients, client-output-buffer-limit, client-query-buffer-limit, proto-max-bulk-len and timeout: a client past a
/// limit ends only itself, with Redis's reply where Redis sends one, and the others keep being served.
/// </summary>
[TestFixture]
public sealed class ClientLimitsTests : ServerTestBase
{
    private static long Stat(RawClient client, string field)
        => long.Parse(ReplyText.InfoFields(client.Execute("INFO", "all"))[field], CultureInfo.InvariantCulture);

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

    [Test]
    public void ClientsPastMaxClientsGetRedisErrorAndTheOthersStay()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "maxclients", "2"), Is.EqualTo("+OK\r\n"));
        using var second = ConnectRaw();
        Assert.That(second.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        using (var third = ConnectRaw())
            Assert.That(third.ReadToEnd(), Is.EqualTo("-ERR max number of clients reached\r\n"));
        Assert.That(Stat(admin, "rejected_connections"), Is.GreaterThanOrEqualTo(1));
        Assert.That(ReplyText.InfoFields(admin.Execute("INFO", "clients"))["maxclients"], Is.EqualTo("2"));

        // A place that frees up is taken by the next client.
        second.Dispose();
        var clock = Stopwatch.StartNew();
        while (true)
        {
            using var next = ConnectRaw();
            next.Send("PING");
            string reply = next.ReadReply();
            if (reply == "+PONG\r\n")
                break;
            Assert.That(reply, Is.EqualTo("-ERR max number of clients reached\r\n"));
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)));
            Thread.Sleep(20);
        }
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void LimitsAreReadAndSetWithConfigInRedisForms()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "client-output-buffer-limit"),
            Is.EqualTo(RawClient.Encode("client-output-buffer-limit", "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60")));
        Assert.That(client.Execute("CONFIG", "SET", "client-output-buffer-limit", "normal 64mb 32mb 10"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "client-output-buffer-limit"),
            Is.EqualTo(RawClient.Encode("client-output-buffer-limit", "normal 67108864 33554432 10 slave 268435456 67108864 60 pubsub 33554432 8388608 60")));
        Assert.That(client.Execute("CONFIG", "SET", "client-output-buffer-limit", "nobody 1 1 1"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - Invalid client class specified in buffer limit configuration.\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "client-output-buffer-limit", "normal 1 1"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - Wrong number of arguments in buffer limit configuration.\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "proto-max-bulk-len", "1000"),
            Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'proto-max-bulk-len') - argument must be between"));
        Assert.That(client.Execute("CONFIG", "SET", "timeout", "5", "tcp-keepalive", "60", "protected-mode", "no"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "timeout"), Is.EqualTo(RawClient.Encode("timeout", "5")));
        Assert.That(client.Execute("CONFIG", "GET", "tcp-keepalive"), Is.EqualTo(RawClient.Encode("tcp-keepalive", "60")));
        Assert.That(client.Execute("CONFIG", "GET", "protected-mode"), Is.EqualTo(RawClient.Encode("protected-mode", "no")));
        Assert.That(client.Execute("CONFIG", "SET", "maxclients", "0"), Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'maxclients')"));
    }

    [Test]
    public void ClientThatDoesNotReadIsClosedAtTheOutputLimitAndOthersAreServed()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("Output is held for a slow reader by the epoll connections, which are Linux's.");
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "client-output-buffer-limit", "normal 1mb 512kb 10"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("SET", "big", new string('v', 256 * 1024)), Is.EqualTo("+OK\r\n"));

        using var slow = ConnectRaw();
        var requests = new StringBuilder();
        for (int i = 0; i < 400; i++) // 100 MB of replies, far more than the kernel's buffers take
            requests.Append(RawClient.Encode("GET", "big"));
        slow.SendRaw(requests.ToString());

        var clock = Stopwatch.StartNew();
        while (Stat(admin, "client_output_buffer_limit_disconnections") == 0)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the slow reader passes the hard limit");
            Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
            Thread.Sleep(20);
        }
        string received = slow.ReadToEnd();
        Assert.That(received.Length, Is.LessThan(400 * 256 * 1024), "the replies past the limit were dropped");
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(Server.HeldReplyBytes, Is.Zero, "the memory that held the slow reader's replies went back");
    }

    [Test]
    public void RepliesHeldForASlowReaderAreGivenBackOnceItReads()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("Output is held for a slow reader by the epoll connections, which are Linux's.");
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("SET", "big", new string('v', 256 * 1024)), Is.EqualTo("+OK\r\n"));
        using var slow = ConnectRaw();
        var requests = new StringBuilder();
        for (int i = 0; i < 100; i++)
            requests.Append(RawClient.Encode("GET", "big"));
        requests.Append(RawClient.Encode("ECHO", "last"));
        slow.SendRaw(requests.ToString());

        var clock = Stopwatch.StartNew();
        while (Server.HeldReplyBytes == 0)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the server holds replies the client has not read");
            Thread.Sleep(20);
        }
        for (int i = 0; i < 100; i++)
            Assert.That(slow.ReadReply(), Has.Length.GreaterThan(256 * 1024));
        Assert.That(slow.ReadReply(), Is.EqualTo("$4\r\nlast\r\n"));
        Assert.That(Server.HeldReplyBytes, Is.Zero, "every block went back once sent");
    }

    [Test]
    public void CommandGrowingPastTheQueryBufferLimitEndsItsClient()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "client-query-buffer-limit", "1mb"), Is.EqualTo("+OK\r\n"));
        using var greedy = ConnectRaw();
        greedy.SendRaw("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4000000\r\n");
        greedy.SendRaw(new string('x', 1_500_000));
        WaitUntilClosed(greedy);
        Assert.That(Stat(admin, "client_query_buffer_limit_disconnections"), Is.GreaterThanOrEqualTo(1));
        Assert.That(admin.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void BulkLongerThanProtoMaxBulkLenIsAProtocolError()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "proto-max-bulk-len", "1mb"), Is.EqualTo("+OK\r\n"));
        using var client = ConnectRaw();
        client.SendRaw("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000000\r\n");
        Assert.That(client.ReadToEnd(), Is.EqualTo("-ERR Protocol error: invalid bulk length\r\n"));
        using var next = ConnectRaw();
        Assert.That(next.Execute("SET", "k", new string('x', 1 << 20)), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void IdleClientsAreClosedAfterTheTimeoutButSubscribersAreNot()
    {
        using var admin = ConnectRaw();
        using var subscriber = ConnectRaw();
        Assert.That(subscriber.Execute("SUBSCRIBE", "news"), Does.Contain("subscribe"));
        using var idle = ConnectRaw();
        Assert.That(idle.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(admin.Execute("CONFIG", "SET", "timeout", "1"), Is.EqualTo("+OK\r\n"));

        WaitUntilClosed(idle);
        // The admin connection idled too; a new one turns the timeout off and finds the subscriber still there.
        using var next = ConnectRaw();
        Assert.That(next.Execute("CONFIG", "SET", "timeout", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(next.Execute("PUBLISH", "news", "still here"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void SubscribersHaveThePubSubClassLimitUntilTheyUnsubscribe()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("Output is held for a slow reader by the epoll connections, which are Linux's.");
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 0 0"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("SET", "big", new string('v', 256 * 1024)), Is.EqualTo("+OK\r\n"));
        var requests = new StringBuilder();
        for (int i = 0; i < 200; i++)
            requests.Append(RawClient.Encode("GET", "big"));

        // Subscribed (RESP3 lets it run GET): past the pubsub limit it is closed.
        using var subscriber = ConnectRaw();
        Assert.That(subscriber.Execute("HELLO", "3"), Does.StartWith("%"));
        Assert.That(subscriber.Execute("SUBSCRIBE", "news"), Does.Contain("subscribe"));
        subscriber.SendRaw(requests.ToString());
        var clock = Stopwatch.StartNew();
        while (Stat(admin, "client_output_buffer_limit_disconnections") == 0)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the subscriber passes the pubsub limit");
            Thread.Sleep(20);
        }

        // Unsubscribed again, it is a normal client, which has no limit: all its replies arrive.
        using var former = ConnectRaw();
        Assert.That(former.Execute("HELLO", "3"), Does.StartWith("%"));
        Assert.That(former.Execute("SUBSCRIBE", "news"), Does.Contain("subscribe"));
        Assert.That(former.Execute("UNSUBSCRIBE", "news"), Does.Contain("unsubscribe"));
        former.SendRaw(requests.ToString());
        Thread.Sleep(500);
        for (int i = 0; i < 200; i++)
            Assert.That(former.ReadReply(), Has.Length.GreaterThan(256 * 1024));
        Assert.That(Stat(admin, "client_output_buffer_limit_disconnections"), Is.EqualTo(1));
    }

    [Test]
    public void BuffersGrownForLargeIncompleteCommandsGoBackWhenTheirClientsClose()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("Grown receive buffers are mapped from the system by the epoll connections, which are Linux's.");
        using var admin = ConnectRaw();
        var clients = new System.Collections.Generic.List<RawClient>();
        for (int i = 0; i < 3; i++)
        {
            var client = ConnectRaw();
            clients.Add(client);
            client.SendRaw("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$20000000\r\n");
            client.SendRaw(new string('x', 5_000_000));
        }
        var clock = Stopwatch.StartNew();
        while (Server.HeldReceiveBytes < 3 * 5_000_000)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the receive buffers grow to hold the incomplete commands");
            Thread.Sleep(20);
        }
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        foreach (var client in clients)
            client.Dispose();
        clock.Restart();
        while (Server.HeldReceiveBytes != 0)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the grown buffers go back when their clients close");
            Thread.Sleep(20);
        }

        // A large command that completes gives its buffer back too, and is applied.
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("SET", "k", new string('y', 3_000_000)), Is.EqualTo("+OK\r\n"));
        // The SET's reply goes out before its batch ends and lets go of the buffer; the next reply comes after.
        Assert.That(writer.Execute("STRLEN", "k"), Is.EqualTo(":3000000\r\n"));
        Assert.That(Server.HeldReceiveBytes, Is.Zero);
    }
}
