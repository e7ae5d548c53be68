using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Network;

/// <summary>Framing, buffering and reply delivery over plain TCP.</summary>
[TestFixture(SocketIoModel.Epoll)]
[TestFixture(SocketIoModel.AsyncEventArgs)]
public sealed class NetworkServerTests(SocketIoModel socketIo) : NetworkTestBase(socketIo)
{
    [Test]
    public void PortZeroBindsARealPortAndConnectionsKnowTheirEndpoints()
    {
        var server = StartServer();
        var bound = (IPEndPoint)server.EndPoint;
        Assert.That(bound.Port, Is.GreaterThan(0));
        Assert.That(bound.Address, Is.EqualTo(IPAddress.Loopback));

        using var client = Connect(server);
        client.Send("WHO\n");
        var parts = client.ReadLine().Split('|');

        Assert.That(parts[0], Is.EqualTo(client.Socket.LocalEndPoint!.ToString()));
        Assert.That(parts[1], Is.EqualTo(bound.ToString()));
    }

    [Test]
    public void StartingOnATakenPortThrows()
    {
        var first = StartServer();
        var port = ((IPEndPoint)first.EndPoint).Port;

        using var second = new NetworkServer(new IPEndPoint(IPAddress.Loopback, port), new LineSessionProvider(), new NetworkServerOptions());
        Assert.That(second.Start, Throws.InstanceOf<SocketException>());
    }

    [Test]
    public void ThousandsOfPipelinedMessagesInOneWriteAreAnsweredInOrder()
    {
        const int count = 5000;
        var server = StartServer();
        using var client = Connect(server);

        var request = new StringBuilder();
        for (var i = 0; i < count; i++)
            request.Append("msg-").Append(i).Append('\n');
        client.Send(request.ToString());

        for (var i = 0; i < count; i++)
            Assert.That(client.ReadLine(), Is.EqualTo($"MSG-{i}"));
    }

    [Test]
    public void MessagesSplitByteByByteAreReassembled()
    {
        var server = StartServer();
        using var client = Connect(server);

        // Each piece is sent once the server has been offered the previous one, so they arrive apart however busy
        // the machine is (pieces sent a millisecond apart could be read together).
        var request = Encoding.ASCII.GetBytes("hello\nsplit world\n");
        int offered = 0;
        for (int i = 0; i < request.Length; i += 3)
        {
            client.Send(request.AsSpan(i, Math.Min(3, request.Length - i)).ToArray());
            var deadline = DateTime.UtcNow.AddSeconds(10);
            while (server.Provider.Consumers.Count == 0 || server.Provider.Consumers.Single().ConsumeCalls == offered)
            {
                Assert.That(DateTime.UtcNow, Is.LessThan(deadline), $"piece at {i} was offered");
                Thread.Sleep(1);
            }
            offered = server.Provider.Consumers.Single().ConsumeCalls;
        }

        Assert.That(client.ReadLine(), Is.EqualTo("HELLO"));
        Assert.That(client.ReadLine(), Is.EqualTo("SPLIT WORLD"));
        // The bytes arrived in pieces, and the pieces were offered again until each message was complete.
        Assert.That(server.Provider.Consumers.Single().ConsumeCalls, Is.GreaterThanOrEqualTo((request.Length + 2) / 3));
    }

    [Test]
    public void AMessageLargerThanTheReceiveBufferGrowsIt()
    {
        var server = StartServer(new NetworkServerOptions { ReceiveBufferSize = 4096, SendBufferSize = 4096 });
        using var client = Connect(server);

        var message = new byte[1 << 20];
        for (var i = 0; i < message.Length; i++)
            message[i] = (byte)('a' + i % 26);
        client.Send([.. message, (byte)'\n', .. "after\n"u8.ToArray()]);

        var reply = client.ReadLineBytes();
        Assert.That(reply, Has.Length.EqualTo(message.Length));
        for (var i = 0; i < reply.Length; i++)
        {
            if (reply[i] != (byte)('A' + i % 26))
                Assert.Fail($"Reply byte {i} is {reply[i]}.");
        }
        Assert.That(client.ReadLine(), Is.EqualTo("AFTER"));

        // The connection keeps working once the buffer is back to its normal size.
        client.Send("small\n");
        Assert.That(client.ReadLine(), Is.EqualTo("SMALL"));
    }

    [Test]
    public void AMessageLargerThanTheMaximumBufferClosesOnlyItsConnection()
    {
        var server = StartServer(new NetworkServerOptions { ReceiveBufferSize = 1024, MaxReceiveBufferSize = 8192 });
        using var other = Connect(server);
        using var client = Connect(server);

        client.Send(new byte[32 * 1024]);

        Assert.That(client.IsClosedByServer(), Is.True);
        other.Send("still here\n");
        Assert.That(other.ReadLine(), Is.EqualTo("STILL HERE"));
        WaitUntil(() => server.Provider.DisposeCalls == 1, "the oversized connection's consumer is disposed");
        Assert.That(server.Server.ActiveConnections, Is.EqualTo(1));
    }

    [Test]
    public void RepliesLargerThanTheSendBufferArriveIntactAndInOrder()
    {
        const int bigLength = 100_000;
        var server = StartServer(new NetworkServerOptions { SendBufferSize = 1024 });
        using var client = Connect(server);

        client.Send($"first\nBIG {bigLength}\nlast\n");

        Assert.That(client.ReadLine(), Is.EqualTo("FIRST"));
        var big = client.ReadLineBytes();
        Assert.That(big, Has.Length.EqualTo(bigLength));
        for (var i = 0; i < big.Length; i++)
        {
            if (big[i] != LineConsumer.PatternByte(i))
                Assert.Fail($"Reply byte {i} is {big[i]}.");
        }
        Assert.That(client.ReadLine(), Is.EqualTo("LAST"));
    }

    [Test]
    public void CloseAfterSendDeliversTheReplyThenEndOfStream()
    {
        var server = StartServer();
        using var client = Connect(server);

        client.Send("hi\nQUIT\nnever answered\n");

        Assert.That(client.ReadLine(), Is.EqualTo("HI"));
        Assert.That(client.ReadLine(), Is.EqualTo("BYE"));
        Assert.That(client.IsClosedByServer(), Is.True);

        var consumer = server.Provider.Consumers.Single();
        WaitUntil(() => consumer.DisposeCount > 0, "the consumer is disposed");
        Assert.That(consumer.DisposeCount, Is.EqualTo(1));
        Assert.That(consumer.LinesHandled, Is.EqualTo(2), "nothing after QUIT is consumed");
        WaitUntil(() => server.Server.ActiveConnections == 0, "the connection leaves the server");
    }
}
