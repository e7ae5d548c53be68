using System.Text;
using Garnet.test.Tracking;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// A key the server removes on its own, expired by active expiration or evicted for the memory budget, is signalled
/// to everyone who cares (the server's KeyRemovalHook): a WATCH on it aborts EXEC, a client tracking it is told it
/// was invalidated, and its keyspace event is published. Pages of 16 KB so that a budget of 4 MB holds hundreds.
/// </summary>
[TestFixture]
public sealed class ServerKeyRemovalTests : TrackingTestBase
{
    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 14, MemorySize = 1L << 25, IndexSize = 1L << 16, Databases = 1 };

    /// <summary>A client subscribed to the keyspace channel of <paramref name="key"/> in database 0.</summary>
    private RawClient KeyspaceSubscriber(string key)
    {
        var subscriber = ConnectRaw();
        string channel = "__keyspace@0__:" + key;
        Assert.That(subscriber.Execute("SUBSCRIBE", channel), Is.EqualTo($"*3\r\n$9\r\nsubscribe\r\n${channel.Length}\r\n{channel}\r\n:1\r\n"));
        return subscriber;
    }

    private static string Message(string channel, string message)
        => $"*3\r\n$7\r\nmessage\r\n${channel.Length}\r\n{channel}\r\n${message.Length}\r\n{message}\r\n";

    private RawClient Watcher(string key)
    {
        var watcher = ConnectRaw();
        Assert.That(watcher.Execute("WATCH", key), Is.EqualTo("+OK\r\n"));
        return watcher;
    }

    private static void AssertExecAborts(RawClient watcher, string key)
    {
        Assert.That(watcher.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(watcher.Execute("GET", key), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(watcher.Execute("EXEC"), Is.EqualTo("*-1\r\n"));
    }

    [Test]
    public void AnActivelyExpiredKeyIsSignalledToWatchTrackingAndNotifications()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "Kx"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "ttl", "v", "PX", "300"), Is.EqualTo("+OK\r\n"));
        using var subscriber = KeyspaceSubscriber("ttl");
        using var watcher = Watcher("ttl");
        using var tracker = Tracker();
        Assert.That(tracker.Execute("GET", "ttl"), Is.EqualTo("$1\r\nv\r\n"));

        // Nobody reads the key again: the active expiration deletes it within its period (a second).
        Assert.That(subscriber.ReadReply(), Is.EqualTo(Message("__keyspace@0__:ttl", "expired")));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("ttl")));
        AssertExecAborts(watcher, "ttl");
    }

    [Test]
    public void AnEvictedKeyIsSignalledToWatchTrackingAndNotifications()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "4mb", "maxmemory-policy", "allkeys-lru"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "Ke"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "oldest", "v"), Is.EqualTo("+OK\r\n"));
        using var subscriber = KeyspaceSubscriber("oldest");
        using var watcher = Watcher("oldest");
        using var tracker = Tracker();
        Assert.That(tracker.Execute("GET", "oldest"), Is.EqualTo("$1\r\nv\r\n"));

        // Four times the budget written after it: the least recently used key goes.
        string value = new('x', 500);
        for (int batch = 0; batch < 64; batch++)
        {
            var commands = new StringBuilder();
            for (int i = 0; i < 500; i++)
                commands.Append(RawClient.Encode("SET", $"filler:{batch}:{i}", value));
            client.SendRaw(commands.ToString());
            for (int i = 0; i < 500; i++)
                Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        }

        Assert.That(subscriber.ReadReply(), Is.EqualTo(Message("__keyspace@0__:oldest", "evicted")));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("oldest")));
        AssertExecAborts(watcher, "oldest");
        Assert.That(client.Execute("EXISTS", "oldest"), Is.EqualTo(":0\r\n"));
    }
}
