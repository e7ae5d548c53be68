using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>SUBSCRIBE, PSUBSCRIBE, their UNSUBSCRIBEs and PUBLISH, byte for byte in RESP2 and RESP3.</summary>
public class SubscribeCommandsTests : PubSubTestBase
{
    [TestCase(false)]
    [TestCase(true)]
    public void SubscribeConfirmsEachChannel(bool resp3)
    {
        using var client = ConnectRaw();
        if (resp3)
            client.Execute("HELLO", "3");
        client.Send("SUBSCRIBE", "a", "bb", "a");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "subscribe", "a", 1)));
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "subscribe", "bb", 2)));
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "subscribe", "a", 2)));
        client.Send("PSUBSCRIBE", "p*");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "psubscribe", "p*", 3)));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void PublishDeliversToChannelSubscriber(bool resp3)
    {
        using var subscriber = Subscriber(resp3, "news");
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", "news", "hello"), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(resp3, "news", "hello")));
        Assert.That(publisher.Execute("PUBLISH", "other", "x"), Is.EqualTo(":0\r\n"));
        Assert.That(publisher.Execute("PUBLISH", "news", ""), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(resp3, "news", "")));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void PublishDeliversToPatternSubscriber(bool resp3)
    {
        using var subscriber = PatternSubscriber(resp3, "news.*");
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", "news.tech", "chips"), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(PatternMessage(resp3, "news.*", "news.tech", "chips")));
        Assert.That(publisher.Execute("PUBLISH", "sports", "x"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void PublishWithoutSubscribersCountsNone()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PUBLISH", "nobody", "x"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("PUBLISH", "nobody"), Is.EqualTo("-ERR wrong number of arguments for 'publish' command\r\n"));
    }

    [Test]
    public void ChannelAndPatternSubscriptionsEachReceive()
    {
        using var subscriber = ConnectRaw();
        subscriber.Send("SUBSCRIBE", "news.1");
        subscriber.ReadReply();
        subscriber.Send("PSUBSCRIBE", "news.*", "*.1", "other.*");
        for (int i = 0; i < 3; i++)
            subscriber.ReadReply();
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", "news.1", "m"), Is.EqualTo(":3\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(false, "news.1", "m")));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(PatternMessage(false, "news.*", "news.1", "m")));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(PatternMessage(false, "*.1", "news.1", "m")));
        Assert.That(subscriber.Execute("PING"), Is.EqualTo("*2\r\n$4\r\npong\r\n$0\r\n\r\n"));
    }

    [Test]
    public void EverySubscriberReceives()
    {
        using var first = Subscriber(false, "c");
        using var second = Subscriber(true, "c");
        using var third = PatternSubscriber(false, "?");
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", "c", "v"), Is.EqualTo(":3\r\n"));
        Assert.That(first.ReadReply(), Is.EqualTo(Message(false, "c", "v")));
        Assert.That(second.ReadReply(), Is.EqualTo(Message(true, "c", "v")));
        Assert.That(third.ReadReply(), Is.EqualTo(PatternMessage(false, "?", "c", "v")));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void UnsubscribeWithoutSubscriptionsRepliesNil(bool resp3)
    {
        using var client = ConnectRaw();
        if (resp3)
            client.Execute("HELLO", "3");
        string nil = resp3 ? "_\r\n" : "$-1\r\n";
        char push = resp3 ? '>' : '*';
        Assert.That(client.Execute("UNSUBSCRIBE"), Is.EqualTo($"{push}3\r\n$11\r\nunsubscribe\r\n{nil}:0\r\n"));
        Assert.That(client.Execute("PUNSUBSCRIBE"), Is.EqualTo($"{push}3\r\n$12\r\npunsubscribe\r\n{nil}:0\r\n"));
        // Naming channels that are not subscribed still confirms each.
        Assert.That(client.Execute("UNSUBSCRIBE", "x"), Is.EqualTo(Confirmation(resp3, "unsubscribe", "x", 0)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(resp3 ? "_\r\n" : "$-1\r\n"));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void UnsubscribeWithoutArgumentsLeavesEveryChannel(bool resp3)
    {
        using var client = Subscriber(resp3, "a", "b");
        client.Send("PSUBSCRIBE", "p*");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "psubscribe", "p*", 3)));

        client.Send("UNSUBSCRIBE");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "unsubscribe", "a", 2)));
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "unsubscribe", "b", 1)));

        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", "a", "x"), Is.EqualTo(":0\r\n"));
        Assert.That(publisher.Execute("PUBLISH", "pa", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo(PatternMessage(resp3, "p*", "pa", "x")));

        client.Send("PUNSUBSCRIBE");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(resp3, "punsubscribe", "p*", 0)));
        // Out of subscribe mode: any command again.
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(publisher.Execute("PUBSUB", "NUMPAT"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void UnsubscribeNamedChannelsKeepsTheOthers()
    {
        using var client = Subscriber(false, "a", "b", "c");
        client.Send("UNSUBSCRIBE", "b", "zz");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(false, "unsubscribe", "b", 2)));
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(false, "unsubscribe", "zz", 2)));
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", "b", "x"), Is.EqualTo(":0\r\n"));
        Assert.That(publisher.Execute("PUBLISH", "c", "y"), Is.EqualTo(":1\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo(Message(false, "c", "y")));
        client.Send("PUNSUBSCRIBE", "nope");
        Assert.That(client.ReadReply(), Is.EqualTo(Confirmation(false, "punsubscribe", "nope", 2)));
    }

    [Test]
    public void RespThreeClientReceivesItsOwnMessageBeforeTheReply()
    {
        using var client = Subscriber(true, "self");
        Assert.That(client.Execute("PUBLISH", "self", "hi"), Is.EqualTo(Message(true, "self", "hi")));
        Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"));
    }

    [TestCase("h?llo", "hello", true)]
    [TestCase("h?llo", "hllo", false)]
    [TestCase("h*llo", "heeeello", true)]
    [TestCase("h*llo", "hllo", true)]
    [TestCase("h[ae]llo", "hallo", true)]
    [TestCase("h[ae]llo", "hillo", false)]
    [TestCase("h[^e]llo", "hallo", true)]
    [TestCase("h[^e]llo", "hello", false)]
    [TestCase("h[a-b]llo", "hbllo", true)]
    [TestCase("h[a-b]llo", "hcllo", false)]
    [TestCase("h[b-a]llo", "hallo", true)]
    [TestCase("h\\*llo", "h*llo", true)]
    [TestCase("h\\*llo", "hello", false)]
    [TestCase("h[\\]]llo", "h]llo", true)]
    [TestCase("*", "", false)] // Redis's matcher: an empty channel matches only an empty pattern
    [TestCase("a*b*c", "axxbyyc", true)]
    [TestCase("a*b*c", "axxbyy", false)]
    public void PatternsMatchAsRedisGlobs(string pattern, string channel, bool matches)
    {
        using var subscriber = PatternSubscriber(false, pattern);
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", channel, "m"), Is.EqualTo(matches ? ":1\r\n" : ":0\r\n"));
        if (matches)
            Assert.That(subscriber.ReadReply(), Is.EqualTo(PatternMessage(false, pattern, channel, "m")));
    }

    [Test]
    public void BinaryChannelsAndMessages()
    {
        string channel = "c\r\n\0\u00ff";
        string message = "\r\n$3\r\n\0";
        using var subscriber = Subscriber(false, channel);
        using var publisher = ConnectRaw();
        Assert.That(publisher.Execute("PUBLISH", channel, message), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(Message(false, channel, message)));
    }
}
