using System.Collections.Generic;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>Order of many messages per subscriber, from one pipelining publisher and from several at once.</summary>
public class OrderingTests : PubSubTestBase
{
    [TestCase(false)]
    [TestCase(true)]
    public void ManyMessagesArriveInOrder(bool resp3)
    {
        const int Count = 20000;
        using var subscriber = Subscriber(resp3, "c");
        subscriber.Send("PSUBSCRIBE", "c*");
        subscriber.ReadReply();
        using var publisher = ConnectRaw();
        var publishing = Background(() =>
        {
            // Pipelined in batches, so publishes overlap the deliveries.
            for (int i = 0; i < Count; i += 100)
            {
                var batch = new System.Text.StringBuilder();
                for (int j = i; j < i + 100; j++)
                    batch.Append(RawClient.Encode("PUBLISH", "c", j.ToString()));
                publisher.SendRaw(batch.ToString());
                for (int j = i; j < i + 100; j++)
                    Assert.That(publisher.ReadReply(), Is.EqualTo(":2\r\n"));
            }
        });
        for (int i = 0; i < Count; i++)
        {
            Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(resp3, "c", i.ToString())));
            Assert.That(subscriber.ReadReply(), Is.EqualTo(PatternMessage(resp3, "c*", "c", i.ToString())));
        }
        publishing.Wait();
    }

    [Test]
    public void ConcurrentPublishersKeepTheirOwnOrder()
    {
        const int Publishers = 4;
        const int PerPublisher = 3000;
        using var subscriber = Subscriber(false, "c");
        var tasks = new List<Task>();
        for (int p = 0; p < Publishers; p++)
        {
            int publisherId = p;
            tasks.Add(Background(() =>
            {
                using var publisher = ConnectRaw();
                for (int i = 0; i < PerPublisher; i++)
                    Assert.That(publisher.Execute("PUBLISH", "c", publisherId + ":" + i), Is.EqualTo(":1\r\n"));
            }));
        }
        var next = new int[Publishers];
        for (int i = 0; i < Publishers * PerPublisher; i++)
        {
            string reply = subscriber.ReadReply();
            string message = reply.Substring(reply.LastIndexOf('$'));
            message = message.Substring(message.IndexOf('\n') + 1).TrimEnd('\r', '\n');
            var parts = message.Split(':');
            int publisherId = int.Parse(parts[0]);
            Assert.That(int.Parse(parts[1]), Is.EqualTo(next[publisherId]), "messages of one publisher arrive in order");
            next[publisherId]++;
        }
        Task.WaitAll(tasks.ToArray());
        Assert.That(next, Is.All.EqualTo(PerPublisher));
    }
}
