using System.Collections.Concurrent;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.PubSub;

/// <summary>
/// Sharded pub/sub (SSUBSCRIBE, SUNSUBSCRIBE, SPUBLISH, PUBSUB SHARDCHANNELS / SHARDNUMSUB): shard channels are a
/// namespace of their own, their messages are "smessage"s, and their confirmations count shard channels only, as
/// Redis 7 answers them (checked against Redis 7.0.15 byte for byte).
/// </summary>
public class ShardedPubSubTests : PubSubTestBase
{
    private static string ShardConfirmation(bool resp3, string kind, string? name, int count)
        => $"{(resp3 ? '>' : '*')}3\r\n${kind.Length}\r\n{kind}\r\n" + (name == null ? (resp3 ? "_\r\n" : "$-1\r\n") : $"${name.Length}\r\n{name}\r\n") + $":{count}\r\n";

    private static string ShardMessage(bool resp3, string channel, string message)
        => $"{(resp3 ? '>' : '*')}3\r\n$8\r\nsmessage\r\n${channel.Length}\r\n{channel}\r\n${message.Length}\r\n{message}\r\n";

    [TestCase(false)]
    [TestCase(true)]
    public void ShardChannelsAreTheirOwnNamespace(bool resp3)
    {
        using var subscriber = ConnectRaw();
        if (resp3)
            subscriber.Execute("HELLO", "3");
        using var publisher = ConnectRaw();
        Assert.That(subscriber.Execute("SUBSCRIBE", "a"), Is.EqualTo(ShardConfirmation(resp3, "subscribe", "a", 1)));
        subscriber.Send("SSUBSCRIBE", "x", "y");
        Assert.That(subscriber.ReadReply(), Is.EqualTo(ShardConfirmation(resp3, "ssubscribe", "x", 1)));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(ShardConfirmation(resp3, "ssubscribe", "y", 2)));
        // Channels and patterns are counted apart from shard channels.
        Assert.That(subscriber.Execute("PSUBSCRIBE", "p*"), Is.EqualTo(ShardConfirmation(resp3, "psubscribe", "p*", 2)));
        Assert.That(subscriber.Execute("SUNSUBSCRIBE", "x"), Is.EqualTo(ShardConfirmation(resp3, "sunsubscribe", "x", 1)));

        Assert.That(publisher.Execute("SPUBLISH", "y", "hello"), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo(ShardMessage(resp3, "y", "hello")));
        Assert.That(publisher.Execute("PUBLISH", "y", "plain"), Is.EqualTo(":0\r\n"), "a shard channel is not a channel");
        Assert.That(publisher.Execute("SPUBLISH", "a", "sharded"), Is.EqualTo(":0\r\n"), "nor a channel a shard channel");
        Assert.That(publisher.Execute("SPUBLISH", "pz", "sharded"), Is.EqualTo(":0\r\n"), "patterns do not match shard channels");

        Assert.That(publisher.Execute("PUBSUB", "SHARDCHANNELS"), Is.EqualTo("*1\r\n$1\r\ny\r\n"));
        Assert.That(publisher.Execute("PUBSUB", "SHARDCHANNELS", "z*"), Is.EqualTo("*0\r\n"));
        Assert.That(publisher.Execute("PUBSUB", "SHARDNUMSUB", "y", "x"), Is.EqualTo("*4\r\n$1\r\ny\r\n:1\r\n$1\r\nx\r\n:0\r\n"));
        Assert.That(publisher.Execute("PUBSUB", "CHANNELS"), Is.EqualTo("*1\r\n$1\r\na\r\n"));
        Assert.That(publisher.Execute("CLIENT", "LIST"), Does.Contain(" sub=1 psub=1 ssub=1 "));
        Assert.That(Garnet.test.Server.ReplyText.InfoFields(publisher.Execute("INFO", "stats"))["pubsubshard_channels"], Is.EqualTo("1"));

        Assert.That(subscriber.Execute("SUNSUBSCRIBE"), Is.EqualTo(ShardConfirmation(resp3, "sunsubscribe", "y", 0)));
        Assert.That(subscriber.Execute("SUNSUBSCRIBE"), Is.EqualTo(ShardConfirmation(resp3, "sunsubscribe", null, 0)));
        Assert.That(publisher.Execute("PUBSUB", "SHARDCHANNELS"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void ShardSubscriptionsPutARESP2ClientInSubscribeMode()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SSUBSCRIBE", "x"), Is.EqualTo(ShardConfirmation(false, "ssubscribe", "x", 1)));
        Assert.That(client.Execute("GET", "k"),
            Is.EqualTo("-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n"));
        Assert.That(client.Execute("SSUBSCRIBE"), Is.EqualTo("-ERR wrong number of arguments for 'ssubscribe' command\r\n"));
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("SPUBLISH", "x"), Is.EqualTo("-ERR wrong number of arguments for 'spublish' command\r\n"));
        Assert.That(client.Execute("SPUBLISH", "x", "m"), Is.EqualTo(":0\r\n"), "RESET dropped the subscription");
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SPUBLISH", "ch", "m"), Is.EqualTo("-ERR The command has no key arguments\r\n"));
    }

    [Test]
    public void ChannelPermissionsApplyToShardChannels()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "news", "on", "nopass", "+@all", "~*", "resetchannels", "&news.*"), Is.EqualTo("+OK\r\n"));
        using var user = ConnectRaw();
        Assert.That(user.Execute("AUTH", "news", "x"), Is.EqualTo("+OK\r\n"));
        Assert.That(user.Execute("SPUBLISH", "news.today", "m"), Is.EqualTo(":0\r\n"));
        Assert.That(user.Execute("SPUBLISH", "sports", "m"), Does.StartWith("-NOPERM"));
        Assert.That(user.Execute("SSUBSCRIBE", "sports"), Does.StartWith("-NOPERM"));
        Assert.That(user.Execute("SSUBSCRIBE", "news.today"), Is.EqualTo(ShardConfirmation(false, "ssubscribe", "news.today", 1)));
        // Losing the permission disconnects the subscriber, as for channels.
        Assert.That(admin.Execute("ACL", "SETUSER", "news", "resetchannels"), Is.EqualTo("+OK\r\n"));
        WaitUntil(() => user.IsClosedByServer(), "the shard subscriber was disconnected");
    }

    [Test]
    public void ShardedChannelsThroughTheClient()
    {
        using var connection = Connect();
        var subscriber = connection.GetSubscriber();
        var received = new BlockingCollection<string>();
        var channel = RedisChannel.Sharded("orders");
        subscriber.Subscribe(channel, (from, message) => received.Add(from + "=" + message));
        Assert.That(subscriber.Publish(channel, "first"), Is.EqualTo(1));
        Assert.That(received.TryTake(out string? first, 10000), Is.True);
        Assert.That(first, Is.EqualTo("orders=first"));
        Assert.That(connection.GetDatabase().Publish(RedisChannel.Literal("orders"), "plain"), Is.EqualTo(0));
        subscriber.Unsubscribe(channel);
        Assert.That(subscriber.Publish(channel, "nobody"), Is.EqualTo(0));
    }
}
