using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>CLIENT REPLY ON | OFF | SKIP: the commands run, their replies are dropped.</summary>
public sealed class ClientReplyTests : ServerTestBase
{
    [Test]
    public void OffDropsEveryReplyUntilOn()
    {
        using var client = ConnectRaw();
        client.Send("CLIENT", "REPLY", "OFF");
        client.Send("SET", "cr:k", "v");
        client.Send("GET", "cr:k");
        client.Send("NOSUCHCOMMAND");
        client.Send("INCR", "cr:k");
        client.Send("CLIENT", "REPLY", "SKIP"); // changes nothing while replies are off
        Assert.That(client.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"), "the first reply after OFF is ON's own");
        Assert.That(client.Execute("GET", "cr:k"), Is.EqualTo("$1\r\nv\r\n"), "the silenced commands ran");
        Assert.That(client.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void SkipDropsTheNextReplyOnly()
    {
        using var client = ConnectRaw();
        client.Send("CLIENT", "REPLY", "SKIP");
        client.Send("INCR", "cr:n");
        Assert.That(client.Execute("INCR", "cr:n"), Is.EqualTo(":2\r\n"));
        // A skip skipped by another skip arms it again.
        client.Send("CLIENT", "REPLY", "SKIP");
        client.Send("CLIENT", "REPLY", "SKIP");
        client.Send("INCR", "cr:n");
        Assert.That(client.Execute("INCR", "cr:n"), Is.EqualTo(":4\r\n"));
    }

    [Test]
    public void ResetAnswersAndTurnsRepliesOn()
    {
        using var client = ConnectRaw();
        client.Send("CLIENT", "REPLY", "OFF");
        client.Send("PING");
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void RepliesLargerThanTheScratchBufferAreDroppedToo()
    {
        using var client = ConnectRaw();
        string big = new('x', 100_000);
        client.Execute("SET", "cr:big", big);
        client.Send("CLIENT", "REPLY", "OFF");
        client.Send("GET", "cr:big");
        client.Send("MGET", "cr:big", "cr:big", "cr:big");
        Assert.That(client.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("STRLEN", "cr:big"), Is.EqualTo(":100000\r\n"));
    }

    [Test]
    public void AProtocolSwitchWhileSilentStays()
    {
        using var client = ConnectRaw();
        client.Send("CLIENT", "REPLY", "OFF");
        client.Send("HELLO", "3");
        Assert.That(client.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "databases"), Does.StartWith("%1\r\n"));
    }

    [Test]
    public void PubSubMessagesStillArrive()
    {
        using var subscriber = ConnectRaw();
        using var publisher = ConnectRaw();
        subscriber.Execute("HELLO", "3");
        Assert.That(subscriber.Execute("SUBSCRIBE", "cr:ch"), Does.StartWith(">3\r\n$9\r\nsubscribe\r\n"));
        subscriber.Send("CLIENT", "REPLY", "OFF");
        subscriber.Send("PING");
        Assert.That(publisher.Execute("PUBLISH", "cr:ch", "hello"), Is.EqualTo(":1\r\n"));
        subscriber.Send("PING"); // its reply is dropped, the message queued before it is not
        Assert.That(subscriber.ReadReply(), Is.EqualTo(">3\r\n$7\r\nmessage\r\n$5\r\ncr:ch\r\n$5\r\nhello\r\n"));
        Assert.That(subscriber.Execute("CLIENT", "REPLY", "ON"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "REPLY", "MAYBE"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "REPLY"), Is.EqualTo("-ERR wrong number of arguments for 'client|reply' command\r\n"));
        Assert.That(client.Execute("CLIENT", "REPLY", "ON", "x"), Is.EqualTo("-ERR wrong number of arguments for 'client|reply' command\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.pcall('CLIENT', 'REPLY', 'OFF')", "0"), Does.StartWith("-ERR This Redis command is not allowed from script"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }
}
