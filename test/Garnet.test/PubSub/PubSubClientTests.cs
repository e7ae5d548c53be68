using System.Collections.Concurrent;
using System.Threading;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.PubSub;

/// <summary>Pub/sub through StackExchange.Redis, which keeps a separate subscription connection.</summary>
public class PubSubClientTests : PubSubTestBase
{
    [Test]
    public void SubscribeAndPublishRoundTrip()
    {
        using var connection = Connect();
        var subscriber = connection.GetSubscriber();
        var received = new BlockingCollection<string>();
        subscriber.Subscribe(RedisChannel.Literal("greetings"), (channel, message) => received.Add(channel + "=" + message));

        Assert.That(subscriber.Publish(RedisChannel.Literal("greetings"), "hello"), Is.EqualTo(1));
        Assert.That(received.TryTake(out string? first, 10000), Is.True);
        Assert.That(first, Is.EqualTo("greetings=hello"));

        Assert.That(connection.GetDatabase().Publish(RedisChannel.Literal("greetings"), "again"), Is.EqualTo(1));
        Assert.That(received.TryTake(out string? second, 10000), Is.True);
        Assert.That(second, Is.EqualTo("greetings=again"));

        subscriber.Unsubscribe(RedisChannel.Literal("greetings"));
        Assert.That(subscriber.Publish(RedisChannel.Literal("greetings"), "nobody"), Is.EqualTo(0));
    }

    [Test]
    public void ClientOpensItsSubscriptionConnection()
    {
        // StackExchange.Redis subscribes to its master-changed channel on its subscription connection when it connects.
        using var connection = Connect();
        using var observer = ConnectRaw();
        WaitUntil(() => observer.Execute("PUBSUB", "CHANNELS").Contains("__Booksleeve_MasterChanged"), "the client subscribed");
        Assert.That(observer.Execute("CLIENT", "LIST"), Does.Contain(" flags=P "));
    }

    [Test]
    public void PatternSubscriptionThroughClient()
    {
        using var connection = Connect();
        var subscriber = connection.GetSubscriber();
        var received = new BlockingCollection<string>();
        subscriber.Subscribe(new RedisChannel("news.*", RedisChannel.PatternMode.Pattern), (channel, message) => received.Add(channel + "=" + message));

        Assert.That(subscriber.Publish(RedisChannel.Literal("news.tech"), "chips"), Is.EqualTo(1));
        Assert.That(received.TryTake(out string? first, 10000), Is.True);
        Assert.That(first, Is.EqualTo("news.tech=chips"));
        Assert.That(subscriber.Publish(RedisChannel.Literal("sport"), "x"), Is.EqualTo(0));
    }

    [Test]
    public void ManyMessagesThroughClientArriveInOrder()
    {
        const int Count = 2000;
        using var connection = Connect();
        var subscriber = connection.GetSubscriber();
        var received = new ConcurrentQueue<string>();
        int count = 0;
        using var done = new ManualResetEventSlim();
        // A handler passed to Subscribe may run for several messages at once; the channel's queue hands them over
        // one at a time in the order they arrived.
        var queue = subscriber.Subscribe(RedisChannel.Literal("seq"));
        queue.OnMessage(delivered =>
        {
            var message = delivered.Message;
            received.Enqueue(message.ToString());
            if (Interlocked.Increment(ref count) == Count)
                done.Set();
        });
        var database = connection.GetDatabase();
        for (int i = 0; i < Count; i++)
            database.Publish(RedisChannel.Literal("seq"), i.ToString(), CommandFlags.FireAndForget);
        Assert.That(done.Wait(20000), Is.True);
        int expected = 0;
        foreach (string message in received)
            Assert.That(message, Is.EqualTo((expected++).ToString()));
    }
}
