using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Notifications;

/// <summary>
/// The "evicted" keyspace event: under maxmemory with an eviction policy, every key the log's head drops is announced
/// once, on the key-event channel (class E) and, with K, on the key's own channel. Pages of 16 KB so that a budget of
/// one megabyte holds many pages and evicts keys a page at a time.
/// </summary>
[TestFixture]
public sealed class EvictedEventTests : KeyspaceNotificationTestBase
{
    private const string EvictedChannel = "__keyevent@0__:evicted";

    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 14, MemorySize = 1L << 25, IndexSize = 1L << 16, Databases = 1 };

    [Test]
    public void EvictedKeysAreAnnounced([Values("Ee", "KEA")] string classes)
    {
        using var client = ConnectRaw();
        using var subscriber = ConnectRaw();
        Assert.That(subscriber.Execute("SUBSCRIBE", EvictedChannel), Is.EqualTo($"*3\r\n$9\r\nsubscribe\r\n${EvictedChannel.Length}\r\n{EvictedChannel}\r\n:1\r\n"));
        using var keySubscriber = classes.Contains('K') ? ConnectRaw() : null;
        keySubscriber?.Execute("PSUBSCRIBE", "__keyspace@0__:key:*");
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", classes), Is.EqualTo(Ok));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "1mb", "maxmemory-policy", "allkeys-lru"), Is.EqualTo(Ok));

        // About four times the budget, so the head drops most of it.
        const int Keys = 12_000;
        for (int first = 0; first < Keys; first += 500)
        {
            var batch = new List<string[]>();
            for (int i = first; i < first + 500; i++)
                batch.Add(["SET", "key:" + i, Pattern(300, seed: i)]);
            foreach (string reply in client.Pipeline(batch.ToArray()))
                Assert.That(reply, Is.EqualTo(Ok));
        }
        WaitForHeadToRest(client);
        long evicted = InfoNumber(client, "evicted_keys");
        Assert.That(evicted, Is.GreaterThan(Keys / 2));

        var announced = new HashSet<string>();
        for (long i = 0; i < evicted; i++)
        {
            var parts = subscriber.ReadReply().Split("\r\n");
            Assert.That(parts[2], Is.EqualTo("message"));
            Assert.That(parts[4], Is.EqualTo(EvictedChannel));
            Assert.That(announced.Add(parts[6]), Is.True, $"{parts[6]} announced twice");
        }
        // Nothing more: the subscriber's next reply is its PING's.
        Assert.That(subscriber.Execute("PING"), Is.EqualTo("*2\r\n$4\r\npong\r\n$0\r\n\r\n"));
        foreach (string key in announced)
            Assert.That(client.Execute("EXISTS", key), Is.EqualTo(Integer(0)), key);
        Assert.That(announced.Count + long.Parse(client.Execute("DBSIZE").AsSpan(1).TrimEnd("\r\n"), CultureInfo.InvariantCulture), Is.EqualTo(Keys),
            "every key written is either still there or was announced as evicted");

        if (keySubscriber != null)
        {
            // The key channels also carry every SET ("set"), in order with the evictions.
            var announcedOnKeys = new HashSet<string>();
            while (announcedOnKeys.Count < evicted)
            {
                var (channel, message) = NextEvent(keySubscriber);
                if (message == "set")
                    continue;
                Assert.That(message, Is.EqualTo("evicted"), channel);
                Assert.That(announcedOnKeys.Add(channel.Substring("__keyspace@0__:".Length)), Is.True, channel);
            }
            Assert.That(announcedOnKeys, Is.EquivalentTo(announced));
        }
    }

    [Test]
    public void NoEvictedEventsWithoutTheClass()
    {
        using var client = ConnectRaw();
        using var subscriber = ConnectRaw();
        subscriber.Execute("SUBSCRIBE", EvictedChannel);
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "Ex"), Is.EqualTo(Ok));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "1mb", "maxmemory-policy", "allkeys-lru"), Is.EqualTo(Ok));
        for (int first = 0; first < 8_000; first += 500)
        {
            var batch = new List<string[]>();
            for (int i = first; i < first + 500; i++)
                batch.Add(["SET", "key:" + i, Pattern(300, seed: i)]);
            client.Pipeline(batch.ToArray());
        }
        WaitForHeadToRest(client);
        Assert.That(InfoNumber(client, "evicted_keys"), Is.GreaterThan(0));
        Assert.That(subscriber.Execute("PING"), Is.EqualTo("*2\r\n$4\r\npong\r\n$0\r\n\r\n"), "no evicted event came first");
    }

    private static long InfoNumber(RawClient client, string field)
        => long.Parse(ReplyText.InfoFields(client.Execute("INFO", "all"))[field], CultureInfo.InvariantCulture);

    /// <summary>Waits until the head of the log rests (it may go on a little after the last write).</summary>
    private static void WaitForHeadToRest(RawClient client)
    {
        long passed = -1;
        for (int i = 0; i < 100; i++)
        {
            long now = InfoNumber(client, "log_pages_evicted");
            if (now == passed)
                return;
            passed = now;
            Thread.Sleep(50);
        }
    }
}
