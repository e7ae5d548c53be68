using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Network;

/// <summary>How connections end, and that one connection's end never harms the others.</summary>
[TestFixture(SocketIoModel.Epoll)]
[TestFixture(SocketIoModel.AsyncEventArgs)]
public sealed class ConnectionLifecycleTests(SocketIoModel socketIo) : NetworkTestBase(socketIo)
{
    [Test]
    public void AClientDisconnectingMidMessageDisposesItsConsumerOnceAndHarmsNoOne()
    {
        var server = StartServer();
        using var bystander = Connect(server);
        bystander.Send("before\n");
        Assert.That(bystander.ReadLine(), Is.EqualTo("BEFORE"));

        var leaver = Connect(server);
        leaver.Send("complete\nhalf a mess");
        Assert.That(leaver.ReadLine(), Is.EqualTo("COMPLETE"));
        leaver.Dispose();

        var leaverConsumer = server.Provider.Consumers.Last();
        WaitUntil(() => leaverConsumer.DisposeCount > 0, "the leaver's consumer is disposed");
        WaitUntil(() => server.Server.ActiveConnections == 1, "the leaver's connection leaves the server");
        Assert.That(leaverConsumer.DisposeCount, Is.EqualTo(1));
        Assert.That(leaverConsumer.LinesHandled, Is.EqualTo(1));

        bystander.Send("after\n");
        Assert.That(bystander.ReadLine(), Is.EqualTo("AFTER"));
        using var newcomer = Connect(server);
        newcomer.Send("new\n");
        Assert.That(newcomer.ReadLine(), Is.EqualTo("NEW"));
        Assert.That(server.Provider.Consumers.First().DisposeCount, Is.Zero);
    }

    [Test]
    public void IdleConnectionsHoldNoBuffersAndBusyOnesShareThem()
    {
        var server = StartServer();
        Assert.That(server.Server.PooledBufferCount, Is.Zero);

        using var first = Connect(server);
        first.Send("one\n");
        Assert.That(first.ReadLine(), Is.EqualTo("ONE"));
        // The send buffer comes back once the reply is out; an epoll connection received into its loop's buffer and
        // holds none, the others keep one for their pending receive.
        WaitUntil(() => server.Server.PooledBufferCount == 1, "the idle connection's send buffer is back in the pool");

        using var second = Connect(server);
        second.Send("two\n");
        Assert.That(second.ReadLine(), Is.EqualTo("TWO"));
        WaitUntil(() => server.Server.PooledBufferCount == 1, "the second connection borrowed the same send buffer and gave it back");

        // A partial command is kept in a buffer of the connection's own (epoll moves it out of the loop's).
        second.Send("thr");
        first.Send("four\n");
        Assert.That(first.ReadLine(), Is.EqualTo("FOUR"));
        second.Send("ee\n");
        Assert.That(second.ReadLine(), Is.EqualTo("THREE"));
    }

    [Test]
    public void AConsumerThatThrowsClosesOnlyItsOwnConnection()
    {
        var server = StartServer();
        using var bystander = Connect(server);
        bystander.Send("first\n");
        Assert.That(bystander.ReadLine(), Is.EqualTo("FIRST"));
        using var thrower = Connect(server);

        thrower.Send("ok\n");
        Assert.That(thrower.ReadLine(), Is.EqualTo("OK"));
        thrower.Send("BOOM\nnever answered\n");

        Assert.That(thrower.IsClosedByServer(), Is.True);
        var throwerConsumer = server.Provider.Consumers.Last();
        WaitUntil(() => throwerConsumer.DisposeCount > 0, "the throwing consumer is disposed");
        Assert.That(throwerConsumer.DisposeCount, Is.EqualTo(1));

        bystander.Send("fine\n");
        Assert.That(bystander.ReadLine(), Is.EqualTo("FINE"));
        Assert.That(server.Server.ActiveConnections, Is.EqualTo(1));
    }

    [Test]
    public void ManyConcurrentClientsEachCompleteARoundTrip()
    {
        // Each loopback connection costs this process two descriptors (client and server end). If the limit is too low
        // for 1,000 clients, use as many as it allows, but never fewer than 500.
        var clientCount = Math.Min(1000, (int)Math.Min(int.MaxValue, (OpenFileLimit() - 256) / 2));
        Assert.That(clientCount, Is.GreaterThanOrEqualTo(500), "The open-file limit is too low for this test.");

        var server = StartServer(new NetworkServerOptions { ReceiveBufferSize = 4096, SendBufferSize = 4096 });
        var clients = new List<LineClient>(clientCount);
        for (var i = 0; i < clientCount; i++)
            clients.Add(Connect(server));

        // All requests first, then all replies: every connection is open and mid-conversation at the same time.
        for (var i = 0; i < clientCount; i++)
            clients[i].Send($"client-{i}\n");
        for (var i = 0; i < clientCount; i++)
            Assert.That(clients[i].ReadLine(), Is.EqualTo($"CLIENT-{i}"));

        Assert.That(server.Server.ActiveConnections, Is.EqualTo(clientCount));
        Assert.That(server.Server.TotalConnections, Is.EqualTo(clientCount));

        foreach (var client in clients)
            client.Dispose();
        WaitUntil(() => server.Server.ActiveConnections == 0, "every connection is closed");
        Assert.That(server.Provider.Consumers, Has.Count.EqualTo(clientCount));
        Assert.That(server.Provider.Consumers.All(c => c.DisposeCount == 1), Is.True, "each consumer is disposed exactly once");
    }

    [Test]
    public void ConnectionCountersFollowConnectsAndDisconnects()
    {
        var server = StartServer();
        var clients = Enumerable.Range(0, 3).Select(_ => Connect(server)).ToArray();
        foreach (var client in clients)
        {
            client.Send("ping\n");
            Assert.That(client.ReadLine(), Is.EqualTo("PING"));
        }
        Assert.That(server.Server.ActiveConnections, Is.EqualTo(3));

        clients[0].Dispose();
        WaitUntil(() => server.Server.ActiveConnections == 2, "the closed connection leaves the server");
        Assert.That(server.Server.TotalConnections, Is.EqualTo(3));
    }

    [Test]
    public void DisposeClosesConnectionsAndDisposesTheirConsumers()
    {
        var server = StartServer();
        var clients = Enumerable.Range(0, 3).Select(_ => Connect(server)).ToArray();
        foreach (var client in clients)
        {
            client.Send("ping\n");
            Assert.That(client.ReadLine(), Is.EqualTo("PING"));
        }
        // One connection is in the middle of a message when the server goes away.
        clients[1].Send("unfinished");

        server.Server.Dispose();

        Assert.That(server.Server.ActiveConnections, Is.Zero, "Dispose waits for every connection");
        Assert.That(server.Provider.Consumers.Select(c => c.DisposeCount), Is.EqualTo(new[] { 1, 1, 1 }));
        foreach (var client in clients)
            Assert.That(client.IsClosedByServer(), Is.True);
        Assert.That(() => LineClient.Connect(server.EndPoint), Throws.InstanceOf<SocketException>());

        server.Server.Dispose();
        Assert.That(server.Provider.DisposeCalls, Is.EqualTo(3), "a second Dispose does nothing");
    }

    [Test]
    public void CloseAfterSendFromAnotherThreadEndsAnIdleConnection()
    {
        var server = StartServer();
        using var client = Connect(server);

        client.Send("CLOSE-LATER\n");

        Assert.That(client.ReadLine(), Is.EqualTo("OK"));
        Assert.That(client.IsClosedByServer(), Is.True);
        WaitUntil(() => server.Provider.DisposeCalls == 1, "the consumer is disposed");
        WaitUntil(() => server.Server.ActiveConnections == 0, "the connection leaves the server");
    }

    [Test]
    public void DisposeFromInsideAConsumerClosesEverythingWithoutDeadlock()
    {
        var server = StartServer();
        server.Provider.Shutdown = server.Server.Dispose;
        using var bystander = Connect(server);
        bystander.Send("ping\n");
        Assert.That(bystander.ReadLine(), Is.EqualTo("PING"));
        using var client = Connect(server);

        client.Send("SHUTDOWN\n");

        Assert.That(client.ReadLine(), Is.EqualTo("SHUTTING DOWN"));
        Assert.That(client.IsClosedByServer(), Is.True);
        Assert.That(bystander.IsClosedByServer(), Is.True);
        WaitUntil(() => server.Server.ActiveConnections == 0, "every connection is closed");
        WaitUntil(() => server.Provider.DisposeCalls == 2, "both consumers are disposed");
        Assert.That(server.Provider.Consumers.Select(c => c.DisposeCount), Is.EqualTo(new[] { 1, 1 }));
    }

    private static long OpenFileLimit()
    {
        const string limits = "/proc/self/limits";
        if (!File.Exists(limits))
            return long.MaxValue;
        foreach (var line in File.ReadLines(limits))
        {
            if (!line.StartsWith("Max open files", StringComparison.Ordinal))
                continue;
            var soft = line["Max open files".Length..].Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries)[0];
            return soft == "unlimited" ? long.MaxValue : long.Parse(soft);
        }
        return long.MaxValue;
    }
}
