using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>
/// RESP2's subscribe mode (which commands may run), RESET and disconnects dropping subscriptions,
/// PUBSUB's subcommands, and the counts in CLIENT LIST and INFO.
/// </summary>
public class SubscribeModeTests : PubSubTestBase
{
    [Test]
    public void RespTwoSubscriberMayOnlyRunPubSubCommands()
    {
        using var client = Subscriber(false, "c");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n"));
        Assert.That(client.Execute("CLIENT", "LIST"), Does.StartWith("-ERR Can't execute 'client|list': only"));
        Assert.That(client.Execute("PUBSUB", "NUMPAT"), Does.StartWith("-ERR Can't execute 'pubsub|numpat': only"));
        Assert.That(client.Execute("HELLO", "2"), Does.StartWith("-ERR Can't execute 'hello': only"));
        Assert.That(client.Execute("PUBLISH", "c", "x"), Does.StartWith("-ERR Can't execute 'publish': only"));
        // Errors that come first in Redis still do.
        Assert.That(client.Execute("NOSUCH"), Does.StartWith("-ERR unknown command 'NOSUCH'"));
        Assert.That(client.Execute("GET"), Is.EqualTo("-ERR wrong number of arguments for 'get' command\r\n"));

        Assert.That(client.Execute("PING"), Is.EqualTo("*2\r\n$4\r\npong\r\n$0\r\n\r\n"));
        Assert.That(client.Execute("PING", "hi"), Is.EqualTo("*2\r\n$4\r\npong\r\n$2\r\nhi\r\n"));
        Assert.That(client.Execute("SUBSCRIBE", "d"), Is.EqualTo(Confirmation(false, "subscribe", "d", 2)));
        Assert.That(client.Execute("QUIT"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.IsClosedByServer(), Is.True);
    }

    [Test]
    public void RespThreeSubscriberMayRunAnyCommand()
    {
        using var client = Subscriber(true, "c");
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.Execute("PUBSUB", "NUMSUB", "c"), Is.EqualTo("*2\r\n$1\r\nc\r\n:1\r\n"));

        // Switching to RESP2 while subscribed enters subscribe mode.
        client.Execute("HELLO", "2");
        Assert.That(client.Execute("GET", "k"), Does.StartWith("-ERR Can't execute 'get'"));
    }

    [Test]
    public void MessagesQueuedBeforeACommandComeBeforeItsReply()
    {
        using var client = Subscriber(true, "c");
        using var publisher = ConnectRaw();
        for (int i = 0; i < 100; i++)
            publisher.Execute("PUBLISH", "c", "m" + i);
        // Whatever was delivered already or is still queued arrives in order, then the reply.
        client.Send("ECHO", "done");
        for (int i = 0; i < 100; i++)
            Assert.That(client.ReadReply(), Is.EqualTo(Message(true, "c", "m" + i)));
        Assert.That(client.ReadReply(), Is.EqualTo("$4\r\ndone\r\n"));
    }

    [Test]
    public void ResetLeavesEverySubscription()
    {
        using var client = Subscriber(false, "a", "b");
        client.Execute("PSUBSCRIBE", "p*");
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("PUBSUB", "NUMSUB", "a", "b"), Is.EqualTo("*4\r\n$1\r\na\r\n:0\r\n$1\r\nb\r\n:0\r\n"));
        Assert.That(client.Execute("PUBSUB", "NUMPAT"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("PUBLISH", "a", "x"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("UNSUBSCRIBE"), Is.EqualTo("*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n"));
    }

    [Test]
    public void DisconnectLeavesEverySubscription()
    {
        using var observer = ConnectRaw();
        var subscriber = Subscriber(false, "a", "b");
        subscriber.Execute("PSUBSCRIBE", "p*");
        using var other = Subscriber(false, "a");
        Assert.That(observer.Execute("PUBSUB", "NUMSUB", "a", "b"), Is.EqualTo("*4\r\n$1\r\na\r\n:2\r\n$1\r\nb\r\n:1\r\n"));
        Assert.That(observer.Execute("PUBSUB", "NUMPAT"), Is.EqualTo(":1\r\n"));

        subscriber.Dispose();
        WaitUntil(() => observer.Execute("PUBSUB", "NUMSUB", "a", "b") == "*4\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n:0\r\n", "the closed subscriber left its channels");
        Assert.That(observer.Execute("PUBSUB", "NUMPAT"), Is.EqualTo(":0\r\n"));
        Assert.That(observer.Execute("PUBLISH", "a", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(other.ReadReply(), Is.EqualTo(Message(false, "a", "x")));
    }

    [Test]
    public void PubSubChannelsListsActiveChannels()
    {
        using var first = Subscriber(false, "news.tech", "news.art", "sport");
        using var second = Subscriber(false, "news.tech");
        using var patterns = PatternSubscriber(false, "weather.*");
        using var client = ConnectRaw();
        Assert.That(Sorted(client.Execute("PUBSUB", "CHANNELS")), Is.EqualTo(new[] { "news.art", "news.tech", "sport" }));
        Assert.That(Sorted(client.Execute("PUBSUB", "CHANNELS", "news.*")), Is.EqualTo(new[] { "news.art", "news.tech" }));
        Assert.That(client.Execute("PUBSUB", "CHANNELS", "none*"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("PUBSUB", "CHANNELS", "a", "b"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP.\r\n"));
    }

    [Test]
    public void PubSubNumSubAndNumPat()
    {
        using var first = Subscriber(false, "a");
        using var second = Subscriber(true, "a", "b");
        using var patterns = PatternSubscriber(false, "x*", "y*");
        using var morePatterns = PatternSubscriber(false, "x*");
        using var client = ConnectRaw();
        Assert.That(client.Execute("PUBSUB", "NUMSUB"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("PUBSUB", "NUMSUB", "a", "b", "c", "a"),
            Is.EqualTo("*8\r\n$1\r\na\r\n:2\r\n$1\r\nb\r\n:1\r\n$1\r\nc\r\n:0\r\n$1\r\na\r\n:2\r\n"));
        // Distinct patterns, however many clients subscribed to each.
        Assert.That(client.Execute("PUBSUB", "NUMPAT"), Is.EqualTo(":2\r\n"));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("PUBSUB", "NUMSUB", "b"), Is.EqualTo("*2\r\n$1\r\nb\r\n:1\r\n"));
    }

    [Test]
    public void PubSubHelpAndErrors()
    {
        using var client = ConnectRaw();
        string help = client.Execute("PUBSUB", "HELP");
        Assert.That(help, Does.StartWith("*14\r\n+PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CHANNELS [<pattern>]\r\n"));
        Assert.That(help, Does.Contain("+NUMSUB [<channel> ...]\r\n"));
        Assert.That(help, Does.Contain("+SHARDNUMSUB [<shardchannel> ...]\r\n"));
        Assert.That(help, Does.EndWith("+HELP\r\n+    Print this help.\r\n"));
        Assert.That(client.Execute("pubsub", "nope"), Is.EqualTo("-ERR unknown subcommand 'nope'. Try PUBSUB HELP.\r\n"));
        Assert.That(client.Execute("PUBSUB", "NUMPAT", "x"), Is.EqualTo("-ERR wrong number of arguments for 'pubsub|numpat' command\r\n"));
        Assert.That(client.Execute("PUBSUB"), Is.EqualTo("-ERR wrong number of arguments for 'pubsub' command\r\n"));
        Assert.That(client.Execute("SUBSCRIBE"), Is.EqualTo("-ERR wrong number of arguments for 'subscribe' command\r\n"));
        Assert.That(client.Execute("PSUBSCRIBE"), Is.EqualTo("-ERR wrong number of arguments for 'psubscribe' command\r\n"));
    }

    [Test]
    public void ClientListAndInfoShowSubscriptions()
    {
        using var subscriber = Subscriber(true, "a", "b");
        subscriber.Execute("PSUBSCRIBE", "p*");
        string line = subscriber.Execute("CLIENT", "INFO");
        Assert.That(line, Does.Contain(" flags=P "));
        Assert.That(line, Does.Contain(" sub=2 psub=1 ssub=0 "));

        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "INFO"), Does.Contain(" flags=N db=0 sub=0 psub=0 "));
        using var other = PatternSubscriber(false, "p*", "q*");
        string info = client.Execute("INFO", "stats");
        Assert.That(info, Does.Contain("pubsub_channels:2\r\n"));
        Assert.That(info, Does.Contain("pubsub_patterns:2\r\n"));

        subscriber.Execute("UNSUBSCRIBE", "a");
        Assert.That(subscriber.Execute("CLIENT", "INFO"), Does.Contain(" sub=1 psub=1 "));
        Assert.That(client.Execute("INFO", "stats"), Does.Contain("pubsub_channels:1\r\n"));
    }

    [Test]
    public void SubscribersAreOfClientTypePubSub()
    {
        using var subscriber = Subscriber(false, "a");
        using var client = ConnectRaw();
        client.Execute("CLIENT", "SETNAME", "plain");
        string pubsub = client.Execute("CLIENT", "LIST", "TYPE", "pubsub");
        Assert.That(Regex.Matches(pubsub, "id=").Count, Is.EqualTo(1));
        Assert.That(pubsub, Does.Contain(" sub=1 "));
        string normal = client.Execute("CLIENT", "LIST", "TYPE", "normal");
        Assert.That(Regex.Matches(normal, "id=").Count, Is.EqualTo(1));
        Assert.That(normal, Does.Contain(" name=plain "));

        Assert.That(client.Execute("CLIENT", "KILL", "TYPE", "pubsub"), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.IsClosedByServer(), Is.True);
        WaitUntil(() => client.Execute("PUBSUB", "NUMSUB", "a") == "*2\r\n$1\r\na\r\n:0\r\n", "the killed subscriber left its channel");
    }

    private static string[] Sorted(string reply)
    {
        var names = new System.Collections.Generic.List<string>();
        foreach (Match match in Regex.Matches(reply, @"\$\d+\r\n([^\r]*)\r\n"))
            names.Add(match.Groups[1].Value);
        names.Sort(System.StringComparer.Ordinal);
        return names.ToArray();
    }
}
