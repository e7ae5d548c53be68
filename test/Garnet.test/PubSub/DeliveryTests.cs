using System.Collections.Generic;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>Order of many messages, concurrent publishers, and subscribers that fall behind.</summary>
public class DeliveryTests : PubSubTestBase
{
    /// <summary>Small enough that a subscriber which never reads overflows it quickly.</summary>
    private const long OutputLimit = 256 * 1024;

    protected override TestServerOptions ServerOptions => new() { PubSubOutputLimit = OutputLimit };

    [TestCase(false)]
    [TestCase(true)]
    public void ManyMessagesArriveInOrder(bool resp3)
    {
        const int Count = 20000;
        using var subscriber = Subscriber(resp3, "c");
        subscriber.Send("PSUBSCRIBE", "c*");
        subscriber.ReadReply();
        using var publisher = ConnectRaw();
        var publishing = Task.Run(() =>
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
            tasks.Add(Task.Run(() =>
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

    [Test]
    public void SlowSubscriberIsDisconnectedWhilePublisherCarriesOn()
    {
        const int Count = 2000;
        string payload = new('x', 16 * 1024); // 32 MB in all: far beyond the limit and the socket buffers
        using var slow = Subscriber(false, "c");
        using var publisher = ConnectRaw();
        using var observer = ConnectRaw();

        // The subscriber never reads; every publish still gets its reply.
        for (int i = 0; i < Count; i++)
            Assert.That(publisher.Execute("PUBLISH", "c", payload), Is.EqualTo(":1\r\n").Or.EqualTo(":0\r\n"));

        WaitUntil(() => observer.Execute("PUBSUB", "NUMSUB", "c") == "*2\r\n$1\r\nc\r\n:0\r\n", "the slow subscriber was disconnected");
        Assert.That(publisher.Execute("PUBLISH", "c", payload), Is.EqualTo(":0\r\n"));
        Assert.That(Regex.Matches(observer.Execute("CLIENT", "LIST"), "id=").Count, Is.EqualTo(2), "only the publisher and the observer are left");
        // The slow subscriber finds its connection closed after whatever had been sent.
        slow.ReadToEnd();
    }

    [Test]
    public void SubscriberThatReadsIsNotCutOff()
    {
        // 16 MB through a 256 KB limit, with at most a few messages outstanding at a time.
        const int Count = 1000;
        string payload = new('y', 16 * 1024);
        using var subscriber = Subscriber(true, "c");
        using var publisher = ConnectRaw();
        int received = 0;
        var reading = Task.Run(() =>
        {
            for (int i = 0; i < Count; i++)
            {
                Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(true, "c", payload)));
                Interlocked.Increment(ref received);
            }
        });
        for (int i = 0; i < Count; i++)
        {
            Assert.That(publisher.Execute("PUBLISH", "c", payload), Is.EqualTo(":1\r\n"));
            int sent = i + 1;
            WaitUntil(() => Volatile.Read(ref received) >= sent - 4 || reading.IsCompleted, "the subscriber read");
        }
        reading.Wait();
        Assert.That(received, Is.EqualTo(Count));
    }

    [Test]
    public void SubscriptionChurnUnderPublishingLeavesNothingBehind()
    {
        const int Clients = 4;
        const int Rounds = 200;
        using var publisher = ConnectRaw();
        using var stop = new CancellationTokenSource();
        long published = 0;
        var publishing = Task.Run(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                publisher.Execute("PUBLISH", "ch" + (published % 3), "m");
                published++;
            }
        });
        var churn = new List<Task>();
        for (int c = 0; c < Clients; c++)
        {
            int id = c;
            churn.Add(Task.Run(() =>
            {
                for (int round = 0; round < Rounds; round++)
                {
                    var client = ConnectRaw();
                    bool resp3 = (round + id) % 2 == 0;
                    if (resp3)
                        client.Execute("HELLO", "3");
                    client.Send("SUBSCRIBE", "ch0", "ch1");
                    client.Send("PSUBSCRIBE", "ch*");
                    if (round % 3 == 0)
                    {
                        // Read until the unsubscribe confirmations (messages may come first).
                        client.Send("UNSUBSCRIBE");
                        int confirmations = 0;
                        while (confirmations < 2)
                        {
                            if (client.ReadReply().Contains("\r\nunsubscribe\r\n"))
                                confirmations++;
                        }
                    }
                    // Leave without reading the rest: the disconnect cleans up.
                    client.Dispose();
                }
            }));
        }
        Task.WaitAll(churn.ToArray());
        stop.Cancel();
        publishing.Wait();
        Assert.That(published, Is.GreaterThan(0));
        WaitUntil(() => Server.Store.PubSub.ChannelCount == 0 && Server.Store.PubSub.PatternCount == 0, "every subscription is gone");
        Assert.That(publisher.Execute("PUBLISH", "ch0", "m"), Is.EqualTo(":0\r\n"));
    }
}
