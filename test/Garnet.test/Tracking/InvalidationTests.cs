using System.Collections.Generic;
using NUnit.Framework;

namespace Garnet.test.Tracking;

/// <summary>Invalidations as clients receive them: the default mode, redirection, BCAST, OPTIN / OPTOUT, NOLOOP, flushes, expiry, transactions and scripts.</summary>
public class InvalidationTests : TrackingTestBase
{
    [Test]
    public void ReadKeyIsInvalidatedOnceWhenAnotherClientWritesIt()
    {
        using var tracker = Tracker();
        using var writer = ConnectRaw();
        Assert.That(tracker.Execute("GET", "k"), Is.EqualTo("_\r\n"));
        Assert.That(writer.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("k")));

        // The key was forgotten with its invalidation: another write says nothing until it is read again.
        Assert.That(writer.Execute("SET", "k", "w"), Is.EqualTo("+OK\r\n"));
        AssertNothingPending(tracker);
        Assert.That(writer.Execute("SET", "unread", "w"), Is.EqualTo("+OK\r\n"));
        AssertNothingPending(tracker);

        Assert.That(tracker.Execute("HGET", "h", "f"), Is.EqualTo("_\r\n"));
        Assert.That(writer.Execute("HSET", "h", "f", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("h")));
    }

    [Test]
    public void EveryKeyOfAMultiKeyReadIsTrackedAndOnlyWrittenKeysInvalidated()
    {
        using var tracker = Tracker();
        using var writer = ConnectRaw();
        tracker.Execute("MGET", "a", "b");
        tracker.Execute("SMEMBERS", "s1");
        Assert.That(writer.Execute("MSET", "a", "1", "b", "2"), Is.EqualTo("+OK\r\n"));
        Assert.That(new[] { tracker.ReadReply(), tracker.ReadReply() }, Is.EquivalentTo(new[] { Invalidation("a"), Invalidation("b") }));
        // SUNIONSTORE reads s1 and writes dst: only dst changes.
        Assert.That(writer.Execute("SUNIONSTORE", "dst", "s1"), Is.EqualTo(":0\r\n"));
        AssertNothingPending(tracker);
        // A failed write changes nothing.
        Assert.That(writer.Execute("LPUSH", "s1", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("s1")));
        tracker.Execute("GET", "s1");
        Assert.That(writer.Execute("INCR", "s1"), Does.StartWith("-WRONGTYPE"));
        AssertNothingPending(tracker);
    }

    [Test]
    public void OwnWritesAreInvalidatedAfterTheirReplyUnlessNoLoop()
    {
        using var tracker = Tracker();
        tracker.Execute("GET", "k");
        Assert.That(tracker.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("k")));

        using var quiet = Tracker("NOLOOP");
        using var writer = ConnectRaw();
        quiet.Execute("GET", "q");
        Assert.That(quiet.Execute("SET", "q", "v"), Is.EqualTo("+OK\r\n"));
        AssertNothingPending(quiet);
        // The key stays forgotten only for the invalidated clients: NOLOOP's own write still took it out of the table.
        quiet.Execute("GET", "q");
        writer.Execute("SET", "q", "w");
        Assert.That(quiet.ReadReply(), Is.EqualTo(Invalidation("q")));
    }

    [Test]
    public void RedirectionToAResp2SubscriberSendsPubSubMessages()
    {
        using var subscriber = ConnectRaw();
        long subscriberId = IdOf(subscriber);
        Assert.That(subscriber.Execute("SUBSCRIBE", "__redis__:invalidate"), Is.EqualTo("*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n"));
        using var tracker = ConnectRaw();
        using var writer = ConnectRaw();
        Assert.That(tracker.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", subscriberId.ToString()), Is.EqualTo("+OK\r\n"));
        Assert.That(tracker.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        writer.Execute("SET", "k", "v");
        Assert.That(subscriber.ReadReply(), Is.EqualTo(InvalidationMessage("k")));
        Assert.That(tracker.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the tracking client itself gets nothing");

        // A flush sends a null key list, in the tracking client's protocol.
        tracker.Execute("GET", "k");
        Assert.That(writer.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n"));
    }

    [Test]
    public void RedirectionToAResp3ClientSendsPushes()
    {
        using var target = Client(resp3: true);
        using var tracker = ConnectRaw();
        using var writer = ConnectRaw();
        tracker.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", IdOf(target).ToString());
        tracker.Execute("GET", "k");
        writer.Execute("DEL", "k");
        Assert.That(target.ReadReply(), Is.EqualTo(Invalidation("k")));
    }

    [Test]
    public void Resp2ClientWithoutRedirectionReceivesNothing()
    {
        using var tracker = ConnectRaw();
        using var writer = ConnectRaw();
        Assert.That(tracker.Execute("CLIENT", "TRACKING", "ON"), Is.EqualTo("+OK\r\n"));
        tracker.Execute("GET", "k");
        writer.Execute("SET", "k", "v");
        Assert.That(tracker.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(InfoField(writer, "tracking_total_keys"), Is.EqualTo("0"), "the key was invalidated all the same");
    }

    [Test]
    public void BrokenRedirectionIsReportedWhenAnInvalidationCannotGo()
    {
        var target = ConnectRaw();
        long targetId = IdOf(target);
        using var tracker = Client(resp3: true);
        using var writer = ConnectRaw();
        tracker.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", targetId.ToString());
        tracker.Execute("GET", "k");
        target.Dispose();
        WaitUntil(() => !writer.Execute("CLIENT", "LIST").Contains($"id={targetId} "), "the redirection's client left");
        Assert.That(tracker.Execute("CLIENT", "INFO"), Does.Contain(" flags=t "), "nothing is noticed before an invalidation");
        writer.Execute("SET", "k", "v");
        Assert.That(tracker.ReadReply(), Is.EqualTo($">2\r\n$21\r\ntracking-redir-broken\r\n:{targetId}\r\n"));
        Assert.That(tracker.Execute("CLIENT", "INFO"), Does.Contain(" flags=tR ").And.Contain($" redir={targetId} "));
        Assert.That(tracker.Execute("CLIENT", "TRACKINGINFO"), Does.Contain("~2\r\n$2\r\non\r\n$15\r\nbroken_redirect\r\n"));
    }

    [Test]
    public void BroadcastSendsEveryWriteOfMatchingKeys()
    {
        using var tracker = Tracker("BCAST", "PREFIX", "user:", "PREFIX", "item:");
        using var writer = ConnectRaw();
        writer.Execute("SET", "user:1", "a");
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("user:1")));
        writer.Execute("SET", "user:1", "b");
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("user:1")), "no read needed: every write is sent");
        writer.Execute("SET", "other", "c");
        AssertNothingPending(tracker);
        // One command's keys go together, one invalidation per prefix.
        writer.Execute("MSET", "user:2", "1", "item:9", "2", "user:3", "3", "other", "4");
        Assert.That(new[] { tracker.ReadReply(), tracker.ReadReply() }, Is.EquivalentTo(new[] { Invalidation("user:2", "user:3"), Invalidation("item:9") }));
        AssertNothingPending(tracker);
    }

    [Test]
    public void BroadcastWithoutPrefixCoversEveryKeyAndHonoursNoLoop()
    {
        using var all = Tracker("BCAST");
        using var quiet = Tracker("BCAST", "NOLOOP");
        quiet.Execute("SET", "x", "1");
        Assert.That(all.ReadReply(), Is.EqualTo(Invalidation("x")));
        AssertNothingPending(quiet);
        all.Execute("SET", "y", "1");
        Assert.That(quiet.ReadReply(), Is.EqualTo(Invalidation("y")));
        Assert.That(all.ReadReply(), Is.EqualTo(Invalidation("y")), "without NOLOOP a client hears of its own writes");
        // A pipelined batch of writes goes as one invalidation.
        using var writer = ConnectRaw();
        writer.SendRaw(RawClient.Encode("MULTI") + RawClient.Encode("SET", "p", "1") + RawClient.Encode("SET", "q", "2") + RawClient.Encode("EXEC"));
        for (int i = 0; i < 4; i++)
            writer.ReadReply();
        Assert.That(quiet.ReadReply(), Is.EqualTo(Invalidation("p", "q")));
    }

    [Test]
    public void OptInTracksOnlyTheCommandAfterCachingYes()
    {
        using var tracker = Tracker("OPTIN");
        using var writer = ConnectRaw();
        tracker.Execute("GET", "untracked");
        writer.Execute("SET", "untracked", "v");
        AssertNothingPending(tracker);

        Assert.That(tracker.Execute("CLIENT", "CACHING", "YES"), Is.EqualTo("+OK\r\n"));
        tracker.Execute("GET", "tracked");
        tracker.Execute("GET", "next");
        writer.Execute("MSET", "tracked", "1", "next", "2");
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("tracked")));
        AssertNothingPending(tracker);

        // CACHING YES covers a whole transaction.
        tracker.Execute("CLIENT", "CACHING", "YES");
        tracker.Execute("MULTI");
        tracker.Execute("GET", "t1");
        tracker.Execute("GET", "t2");
        tracker.Execute("EXEC");
        tracker.Execute("GET", "after");
        writer.Execute("MSET", "t1", "1", "t2", "2", "after", "3");
        Assert.That(new[] { tracker.ReadReply(), tracker.ReadReply() }, Is.EquivalentTo(new[] { Invalidation("t1"), Invalidation("t2") }));
        AssertNothingPending(tracker);
    }

    [Test]
    public void OptOutSkipsOnlyTheCommandAfterCachingNo()
    {
        using var tracker = Tracker("OPTOUT");
        using var writer = ConnectRaw();
        Assert.That(tracker.Execute("CLIENT", "CACHING", "NO"), Is.EqualTo("+OK\r\n"));
        tracker.Execute("GET", "skipped");
        tracker.Execute("GET", "tracked");
        writer.Execute("MSET", "skipped", "1", "tracked", "2");
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("tracked")));
        AssertNothingPending(tracker);
    }

    [Test]
    public void FlushInvalidatesEveryTrackingClientWithANullList()
    {
        using var tracker = Tracker();
        using var broadcaster = Tracker("BCAST", "PREFIX", "z");
        using var resp2 = ConnectRaw();
        using var subscriber = ConnectRaw();
        long subscriberId = IdOf(subscriber);
        subscriber.Execute("SUBSCRIBE", "__redis__:invalidate");
        resp2.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", subscriberId.ToString());
        tracker.Execute("GET", "k");
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(">2\r\n$10\r\ninvalidate\r\n_\r\n"));
        Assert.That(broadcaster.ReadReply(), Is.EqualTo(">2\r\n$10\r\ninvalidate\r\n_\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n"));
        Assert.That(InfoField(writer, "tracking_total_keys"), Is.EqualTo("0"));
        writer.Execute("SET", "k", "v");
        AssertNothingPending(tracker);

        // The flushing client's own invalidation comes after its reply.
        Assert.That(tracker.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(">2\r\n$10\r\ninvalidate\r\n_\r\n"));
    }

    [Test]
    public void ExpiredKeyIsInvalidated()
    {
        using var tracker = Tracker();
        using var broadcaster = Tracker("BCAST", "PREFIX", "ttl");
        using var writer = ConnectRaw();
        writer.Execute("SET", "ttl", "v", "PX", "50");
        Assert.That(broadcaster.ReadReply(), Is.EqualTo(Invalidation("ttl")), "the SET itself");
        Assert.That(tracker.Execute("GET", "ttl"), Is.EqualTo("$1\r\nv\r\n"));
        // The active expiration deletes it within its period (a second).
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("ttl")));
        Assert.That(broadcaster.ReadReply(), Is.EqualTo(Invalidation("ttl")));
    }

    [Test]
    public void WritesInsideExecInvalidateAndOwnInvalidationsFollowExecsReply()
    {
        using var tracker = Tracker();
        using var writer = ConnectRaw();
        tracker.Execute("GET", "k");
        writer.Execute("MULTI");
        writer.Execute("SET", "k", "1");
        writer.Execute("INCR", "n");
        Assert.That(writer.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n:1\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("k")));

        tracker.Execute("MULTI");
        tracker.Execute("GET", "m");
        tracker.Execute("SET", "m", "v");
        Assert.That(tracker.Execute("EXEC"), Is.EqualTo("*2\r\n_\r\n+OK\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("m")));
    }

    [Test]
    public void ScriptsTrackTheirReadsAndInvalidateTheirWrites()
    {
        using var tracker = Tracker();
        using var writer = ConnectRaw();
        Assert.That(tracker.Execute("EVAL", "return redis.call('GET', KEYS[1])", "1", "read"), Is.EqualTo("_\r\n"));
        Assert.That(tracker.Execute("EVAL_RO", "return 1", "1", "declared"), Is.EqualTo(":1\r\n"));
        tracker.Execute("GET", "written");
        Assert.That(writer.Execute("EVAL", "redis.call('SET', KEYS[1], 'v') return redis.call('SET', KEYS[2], 'v')", "2", "read", "declared"), Is.EqualTo("+OK\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("read")));
        AssertNothingPending(tracker);
        Assert.That(writer.Execute("EVAL", "return redis.call('DEL', KEYS[1])", "1", "written"), Is.EqualTo(":0\r\n"));
        Assert.That(tracker.ReadReply(), Is.EqualTo(Invalidation("written")));
    }

    [Test]
    public void TableOverItsLimitInvalidatesKeysToMakeRoom()
    {
        using var tracker = Tracker();
        using var observer = ConnectRaw();
        observer.Execute("CONFIG", "SET", "tracking-table-max-keys", "2");
        tracker.Execute("GET", "a");
        tracker.Execute("GET", "b");
        Assert.That(InfoField(observer, "tracking_total_keys"), Is.EqualTo("2"));
        tracker.Execute("GET", "c");
        string evicted = tracker.ReadReply();
        Assert.That(evicted, Is.AnyOf(Invalidation("a"), Invalidation("b"), Invalidation("c")));
        Assert.That(InfoField(observer, "tracking_total_keys"), Is.EqualTo("2"));
        AssertNothingPending(tracker);

        // Lowering the limit makes room at once.
        observer.Execute("CONFIG", "SET", "tracking-table-max-keys", "1");
        var seen = new List<string> { evicted, tracker.ReadReply() };
        Assert.That(InfoField(observer, "tracking_total_keys"), Is.EqualTo("1"));
        Assert.That(seen, Is.Unique);
    }
}
