using System.Linq;
using System.Text;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Network;

/// <summary>
/// A client that sends requests but does not read the replies: its replies wait (in the kernel, then in the
/// connection's backlog), and nobody else waits with them.
/// </summary>
[TestFixture(SocketIoModel.Epoll)]
[TestFixture(SocketIoModel.AsyncEventArgs)]
public sealed class SlowReaderTests(SocketIoModel socketIo) : NetworkTestBase(socketIo)
{
    internal const int ReplyLength = 1_000_000;

    /// <summary>Pipelines <paramref name="count"/> requests for a 1 MB reply each, in one write, without reading.</summary>
    internal static void RequestBigReplies(LineClient client, int count, string? then = null)
    {
        var requests = new StringBuilder();
        for (var i = 0; i < count; i++)
            requests.Append($"BIG {ReplyLength}\n");
        requests.Append(then);
        client.Send(requests.ToString());
    }

    private static void ReadBigReplies(LineClient client, int count)
    {
        for (var r = 0; r < count; r++)
        {
            var reply = client.ReadLineBytes();
            Assert.That(reply, Has.Length.EqualTo(ReplyLength), $"reply {r}");
            for (var i = 0; i < reply.Length; i += 4093)
            {
                if (reply[i] != LineConsumer.PatternByte(i))
                    Assert.Fail($"Reply {r} byte {i} is {reply[i]}.");
            }
        }
    }

    [Test]
    public void AClientThatDoesNotReadHoldsUpNoOtherClientAndLaterGetsEveryReplyInOrder()
    {
        var server = StartServer();
        using var slow = Connect(server);
        slow.Send("hello\n");
        Assert.That(slow.ReadLine(), Is.EqualTo("HELLO"));
        using var other = Connect(server);

        // 64 MB of replies: far more than the kernel buffers for a connection nobody reads.
        RequestBigReplies(slow, 64, "after\n");
        WaitUntil(() => server.Provider.Consumers.First().LinesHandled > 0, "the slow client's requests are being served");

        for (var i = 0; i < 20; i++)
        {
            other.Send($"ping {i}\n");
            Assert.That(other.ReadLine(), Is.EqualTo($"PING {i}"));
        }

        ReadBigReplies(slow, 64);
        Assert.That(slow.ReadLine(), Is.EqualTo("AFTER"));
        slow.Send("still here\n");
        Assert.That(slow.ReadLine(), Is.EqualTo("STILL HERE"));
    }

    [Test]
    public void QuitBehindUnreadRepliesClosesOnlyAfterTheyAreDelivered()
    {
        var server = StartServer();
        using var client = Connect(server);

        RequestBigReplies(client, 16, "QUIT\nnever answered\n");
        WaitUntil(() => server.Provider.Consumers.Count == 1, "the connection has its consumer");
        var consumer = server.Provider.Consumers.Single();
        // Epoll connections serve everything up to QUIT at once, keeping the replies the kernel will not take in
        // their backlog, so the close has to wait for it. (A blocking send waits for the reader inside the consumer.)
        if (SocketIo == SocketIoModel.Epoll)
            WaitUntil(() => consumer.LinesHandled == 17, "the requests up to QUIT are served");

        ReadBigReplies(client, 16);
        Assert.That(client.ReadLine(), Is.EqualTo("BYE"));
        Assert.That(client.IsClosedByServer(), Is.True);
        WaitUntil(() => consumer.DisposeCount == 1, "the consumer is disposed");
        Assert.That(consumer.LinesHandled, Is.EqualTo(17), "nothing after QUIT is consumed");
    }

    [Test]
    public void DisposingTheServerEndsAConnectionWithUnreadReplies()
    {
        var server = StartServer();
        using var client = Connect(server);

        RequestBigReplies(client, 32);
        WaitUntil(() => server.Provider.Consumers.Count == 1, "the connection has its consumer");
        var consumer = server.Provider.Consumers.Single();
        WaitUntil(() => consumer.LinesHandled > 0, "the requests are being served");

        server.Server.Dispose();

        Assert.That(consumer.DisposeCount, Is.EqualTo(1));
        Assert.That(server.Server.ActiveConnections, Is.Zero);
    }
}

/// <summary>
/// Epoll connections keep unread replies in a backlog, up to <see cref="NetworkServerOptions.MaxSendBacklog"/> (the
/// other model blocks a pool thread on the full socket instead, so it has no such limit).
/// </summary>
[TestFixture]
public sealed class SendBacklogLimitTests() : NetworkTestBase(SocketIoModel.Epoll)
{
    [Test]
    public void AClientWhoseUnreadRepliesPassTheLimitIsDisconnectedAlone()
    {
        var server = StartServer(new NetworkServerOptions { MaxSendBacklog = 4 * SlowReaderTests.ReplyLength });
        using var slow = Connect(server);
        slow.Send("hello\n");
        Assert.That(slow.ReadLine(), Is.EqualTo("HELLO"));
        using var other = Connect(server);

        SlowReaderTests.RequestBigReplies(slow, 64);
        var consumer = server.Provider.Consumers.First();
        WaitUntil(() => consumer.DisposeCount == 1, "the slow client is disconnected");

        other.Send("fine\n");
        Assert.That(other.ReadLine(), Is.EqualTo("FINE"));
        Assert.That(server.Server.ActiveConnections, Is.EqualTo(1));
    }
}
