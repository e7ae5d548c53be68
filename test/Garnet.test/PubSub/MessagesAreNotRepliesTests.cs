using System.Text;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>
/// Messages reach the connection whatever happens to the replies around them: dropped (CLIENT REPLY OFF | SKIP),
/// captured by a script, or gathered in EXEC's array, which a message must not split.
/// </summary>
public class MessagesAreNotRepliesTests : PubSubTestBase
{
    [TestCase("OFF")]
    [TestCase("SKIP")]
    public void MessageToItselfArrivesWhileRepliesAreDropped(string mode)
    {
        using var client = Subscriber(true, "c");
        client.Send("CLIENT", "REPLY", mode);
        client.Send("PUBLISH", "c", "hello"); // its reply is dropped, not the message it queued for this client
        Assert.That(client.ReadReply(), Is.EqualTo(Message(true, "c", "hello")));
        Assert.That(client.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void MessagesPublishedWhileRepliesAreOffAllArriveInOrder()
    {
        // Publishes race with the subscriber's silenced commands, whose start writes what is queued; none may be lost.
        const int Count = 5000;
        using var subscriber = Subscriber(true, "c");
        using var publisher = ConnectRaw();
        subscriber.Send("CLIENT", "REPLY", "OFF");
        var pings = new StringBuilder();
        for (int i = 0; i < 20; i++)
            pings.Append(RawClient.Encode("PING"));
        var publishing = Background(() =>
        {
            for (int i = 0; i < Count; i++)
            {
                subscriber.SendRaw(pings.ToString());
                Assert.That(publisher.Execute("PUBLISH", "c", i.ToString()), Is.EqualTo(":1\r\n"));
            }
        });
        for (int i = 0; i < Count; i++)
            Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(true, "c", i.ToString())));
        publishing.Wait();
        Assert.That(subscriber.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"), "nothing but the messages came before");
    }

    [Test]
    public void MessageToItselfFromAScriptComesBeforeTheScriptsReply()
    {
        using var client = Subscriber(true, "c");
        client.Send("EVAL", "redis.call('PUBLISH', 'c', 'hi'); return 'done'", "0");
        Assert.That(client.ReadReply(), Is.EqualTo(Message(true, "c", "hi")));
        Assert.That(client.ReadReply(), Is.EqualTo("$4\r\ndone\r\n"));
    }

    [Test]
    public void MessageToItselfFromAScriptWhileRepliesAreOffArrives()
    {
        using var client = Subscriber(true, "c");
        client.Send("CLIENT", "REPLY", "OFF");
        client.Send("EVAL", "redis.call('PUBLISH', 'c', 'hi'); return 'done'", "0");
        Assert.That(client.ReadReply(), Is.EqualTo(Message(true, "c", "hi")));
        Assert.That(client.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void MessagesToItselfInsideExecFollowExecsReply()
    {
        using var client = Subscriber(true, "c");
        client.Execute("MULTI");
        client.Execute("PUBLISH", "c", "one");
        client.Execute("EVAL", "return redis.call('PUBLISH', 'c', 'two')", "0");
        client.Execute("PING");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*3\r\n:1\r\n:1\r\n+PONG\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo(Message(true, "c", "one")));
        Assert.That(client.ReadReply(), Is.EqualTo(Message(true, "c", "two")));
    }
}
