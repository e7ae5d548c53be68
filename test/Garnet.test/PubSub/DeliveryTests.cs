using System.Collections.Generic;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>Subscribers that fall behind, subscribers that keep up, and subscription churn, under a small output limit.</summary>
public class DeliveryTests : PubSubTestBase
{
    /// <summary>Small enough that a subscriber which never reads overflows it quickly.</summary>
    private const long OutputLimit = 256 * 1024;

    protected override TestServerOptions ServerOptions => new() { PubSubOutputLimit = OutputLimit };

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
        var reading = Background(() =>
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
        var publishing = Background(() =>
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
            churn.Add(Background(() =>
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
        // A client may have closed with its SUBSCRIBE still unread by the server, which then subscribes it
        // before it sees the close: wait for every churned session to be gone, not only for empty counts.
        WaitUntil(() => Server.Store.Clients.Count == 1, "every churned client is gone");
        WaitUntil(() => Server.Store.PubSub.ChannelCount == 0 && Server.Store.PubSub.PatternCount == 0, "every subscription is gone");
        Assert.That(publisher.Execute("PUBLISH", "ch0", "m"), Is.EqualTo(":0\r\n"));
    }
}
