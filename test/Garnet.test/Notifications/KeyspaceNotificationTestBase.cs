using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Garnet.test.Notifications;

/// <summary>A raw client subscribed to every keyspace notification, and reading its pattern messages back as (channel, message).</summary>
public abstract class KeyspaceNotificationTestBase : ServerTestBase
{
    protected const string AllKeyChannels = "__key*__:*";

    /// <summary>A raw client that ran PSUBSCRIBE __key*__:*.</summary>
    protected RawClient KeySubscriber()
    {
        var client = ConnectRaw();
        Assert.That(client.Execute("PSUBSCRIBE", AllKeyChannels), Is.EqualTo($"*3\r\n$10\r\npsubscribe\r\n${AllKeyChannels.Length}\r\n{AllKeyChannels}\r\n:1\r\n"));
        return client;
    }

    /// <summary>The next pattern message's channel and message.</summary>
    protected static (string Channel, string Message) NextEvent(RawClient subscriber)
    {
        string reply = subscriber.ReadReply();
        var parts = reply.Split("\r\n");
        Assert.That(parts[0], Is.EqualTo("*4"), reply);
        Assert.That(parts[2], Is.EqualTo("pmessage"), reply);
        return (parts[6], parts[8]);
    }

    /// <summary>Asserts the next key-event messages (E only) are <paramref name="expected"/>, as "event key", in database <paramref name="db"/>.</summary>
    protected static void ExpectKeyEvents(RawClient subscriber, int db, params string[] expected)
    {
        var seen = new List<string>();
        foreach (var _ in expected)
        {
            var (channel, message) = NextEvent(subscriber);
            string prefix = $"__keyevent@{db}__:";
            Assert.That(channel, Does.StartWith(prefix));
            seen.Add(channel.Substring(prefix.Length) + " " + message);
        }
        Assert.That(seen, Is.EqualTo(expected));
    }

    /// <summary>
    /// Publishes a marker event (SET on a marker key) and asserts it is the next message: nothing was published
    /// between the previous check and now.
    /// </summary>
    protected static void ExpectNoEventsBefore(RawClient commands, RawClient subscriber, int db = 0)
    {
        string marker = "marker-" + Guid.NewGuid().ToString("N");
        Assert.That(commands.Execute("SET", marker, "1"), Is.EqualTo("+OK\r\n"));
        ExpectKeyEvents(subscriber, db, "set " + marker);
    }
}
