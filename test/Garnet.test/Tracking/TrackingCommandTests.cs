using NUnit.Framework;

namespace Garnet.test.Tracking;

/// <summary>CLIENT TRACKING's options and errors, CLIENT CACHING, GETREDIR, TRACKINGINFO, and what CLIENT LIST, INFO and CONFIG report.</summary>
public class TrackingCommandTests : TrackingTestBase
{
    [Test]
    public void TrackingOptionsAreCheckedAsRedisChecksThem()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        long otherId = IdOf(other);
        Assert.Multiple(() =>
        {
            Assert.That(client.Execute("CLIENT", "TRACKING"), Is.EqualTo("-ERR wrong number of arguments for 'client|tracking' command\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "MAYBE"), Is.EqualTo("-ERR syntax error\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "FOO"), Is.EqualTo("-ERR syntax error\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "REDIRECT"), Is.EqualTo("-ERR syntax error\r\n"), "REDIRECT needs its argument");
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "PREFIX"), Is.EqualTo("-ERR syntax error\r\n"), "PREFIX needs its argument");
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", "987654"), Is.EqualTo("-ERR The client ID you want redirect to does not exist\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", otherId.ToString(), "REDIRECT", otherId.ToString()),
                Is.EqualTo("-ERR A client can only redirect to a single other client\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "PREFIX", "a"), Is.EqualTo("-ERR PREFIX option requires BCAST mode to be enabled\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "OPTIN"), Is.EqualTo("-ERR OPTIN and OPTOUT are not compatible with BCAST\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "OPTOUT"), Is.EqualTo("-ERR OPTIN and OPTOUT are not compatible with BCAST\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "OPTIN", "OPTOUT"), Is.EqualTo("-ERR You can't use both OPTIN and OPTOUT\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "ab", "PREFIX", "a"),
                Is.EqualTo("-ERR Prefix 'ab' overlaps with another provided prefix 'a'. Prefixes for a single client must not overlap.\r\n"));
            Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a", "PREFIX", "a"),
                Is.EqualTo("-ERR Prefix 'a' overlaps with another provided prefix 'a'. Prefixes for a single client must not overlap.\r\n"));
            Assert.That(client.Execute("CLIENT", "GETREDIR"), Is.EqualTo(":-1\r\n"), "no refused form turned tracking on");
        });
    }

    [Test]
    public void ModesCannotBeSwitchedWithoutTurningTrackingOff()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "OPTIN"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "OPTOUT"),
            Is.EqualTo("-ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then re-enabling it with a different mode.\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST"),
            Is.EqualTo("-ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then re-enabling it with a different mode.\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "NOLOOP"), Is.EqualTo("+OK\r\n"), "the same mode again replaces the flags");
        Assert.That(client.Execute("CLIENT", "TRACKING", "OFF"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "user:"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON"),
            Is.EqualTo("-ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then re-enabling it with a different mode.\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "user:1"),
            Is.EqualTo("-ERR Prefix 'user:1' overlaps with an existing prefix 'user:'. Prefixes for a single client must not overlap.\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "item:"), Is.EqualTo("+OK\r\n"), "prefixes add up");
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"),
            Is.EqualTo("*6\r\n$5\r\nflags\r\n*2\r\n$2\r\non\r\n$5\r\nbcast\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n*2\r\n$5\r\nitem:\r\n$5\r\nuser:\r\n"));
    }

    [Test]
    public void CachingNeedsTheMatchingMode()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "CACHING", "YES"),
            Is.EqualTo("-ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled\r\n"));
        Assert.That(client.Execute("CLIENT", "CACHING"), Is.EqualTo("-ERR wrong number of arguments for 'client|caching' command\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "OPTIN"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "CACHING", "NO"), Is.EqualTo("-ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.\r\n"));
        Assert.That(client.Execute("CLIENT", "CACHING", "MAYBE"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "CACHING", "YES"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "OFF"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON", "OPTOUT"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "CACHING", "YES"), Is.EqualTo("-ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.\r\n"));
        Assert.That(client.Execute("CLIENT", "CACHING", "NO"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "TRACKING", "ON"), Is.EqualTo("+OK\r\n"), "the default mode in place of OPTOUT is no switch");
        Assert.That(client.Execute("CLIENT", "CACHING", "NO"), Is.EqualTo("-ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.\r\n"));
    }

    [Test]
    public void GetRedirReportsTheRedirection()
    {
        using var client = ConnectRaw();
        using var target = ConnectRaw();
        long targetId = IdOf(target);
        Assert.That(client.Execute("CLIENT", "GETREDIR"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("CLIENT", "GETREDIR", "x"), Is.EqualTo("-ERR wrong number of arguments for 'client|getredir' command\r\n"));
        client.Execute("CLIENT", "TRACKING", "ON");
        Assert.That(client.Execute("CLIENT", "GETREDIR"), Is.EqualTo(":0\r\n"));
        client.Execute("CLIENT", "TRACKING", "ON", "REDIRECT", targetId.ToString());
        Assert.That(client.Execute("CLIENT", "GETREDIR"), Is.EqualTo($":{targetId}\r\n"));
        client.Execute("CLIENT", "TRACKING", "ON");
        Assert.That(client.Execute("CLIENT", "GETREDIR"), Is.EqualTo(":0\r\n"), "turning on again without REDIRECT drops it");
        client.Execute("CLIENT", "TRACKING", "OFF");
        Assert.That(client.Execute("CLIENT", "GETREDIR"), Is.EqualTo(":-1\r\n"));
    }

    [Test]
    public void TrackingInfoIsAMapOfFlagsRedirectAndPrefixes()
    {
        using var client = Client(resp3: true);
        using var target = ConnectRaw();
        long targetId = IdOf(target);
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"),
            Is.EqualTo("%3\r\n$5\r\nflags\r\n~1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n"));
        client.Execute("CLIENT", "TRACKING", "ON", "OPTIN", "NOLOOP", "REDIRECT", targetId.ToString());
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"),
            Is.EqualTo($"%3\r\n$5\r\nflags\r\n~3\r\n$2\r\non\r\n$5\r\noptin\r\n$6\r\nnoloop\r\n$8\r\nredirect\r\n:{targetId}\r\n$8\r\nprefixes\r\n*0\r\n"));
        client.Execute("CLIENT", "CACHING", "YES");
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"),
            Is.EqualTo($"%3\r\n$5\r\nflags\r\n~4\r\n$2\r\non\r\n$5\r\noptin\r\n$11\r\ncaching-yes\r\n$6\r\nnoloop\r\n$8\r\nredirect\r\n:{targetId}\r\n$8\r\nprefixes\r\n*0\r\n"),
            "CLIENT subcommands keep CACHING for the next command");
        client.Execute("PING");
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"), Does.Contain("~3\r\n"), "another command used it up");
        client.Execute("CLIENT", "TRACKING", "OFF");
        client.Execute("CLIENT", "TRACKING", "ON", "OPTOUT");
        client.Execute("CLIENT", "CACHING", "NO");
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"),
            Is.EqualTo("%3\r\n$5\r\nflags\r\n~3\r\n$2\r\non\r\n$6\r\noptout\r\n$10\r\ncaching-no\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n*0\r\n"));
        client.Execute("CLIENT", "TRACKING", "OFF");
        client.Execute("CLIENT", "TRACKING", "ON", "BCAST");
        Assert.That(client.Execute("CLIENT", "TRACKINGINFO"),
            Is.EqualTo("%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$5\r\nbcast\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n*1\r\n$0\r\n\r\n"),
            "BCAST without prefixes listens on the empty prefix");
    }

    [Test]
    public void ClientListShowsTrackingFlagsAndRedirection()
    {
        using var client = ConnectRaw();
        using var target = ConnectRaw();
        long targetId = IdOf(target);
        Assert.That(client.Execute("CLIENT", "INFO"), Does.Contain(" flags=N ").And.Contain(" redir=-1 "));
        client.Execute("CLIENT", "TRACKING", "ON");
        Assert.That(client.Execute("CLIENT", "INFO"), Does.Contain(" flags=t ").And.Contain(" redir=0 "));
        client.Execute("CLIENT", "TRACKING", "OFF");
        client.Execute("CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", targetId.ToString());
        Assert.That(client.Execute("CLIENT", "INFO"), Does.Contain(" flags=tB ").And.Contain($" redir={targetId} "));
        Assert.That(target.Execute("CLIENT", "LIST", "ID", IdOf(client).ToString()), Does.Contain(" flags=tB "));
    }

    [Test]
    public void InfoCountsTrackingClientsKeysItemsAndPrefixes()
    {
        using var observer = ConnectRaw();
        using var first = Tracker();
        using var second = Tracker();
        using var broadcaster = Tracker("BCAST", "PREFIX", "a", "PREFIX", "b");
        first.Execute("MGET", "k1", "k2");
        second.Execute("GET", "k1");
        Assert.Multiple(() =>
        {
            Assert.That(InfoField(observer, "tracking_clients"), Is.EqualTo("3"));
            Assert.That(InfoField(observer, "tracking_total_keys"), Is.EqualTo("2"));
            Assert.That(InfoField(observer, "tracking_total_items"), Is.EqualTo("3"));
            Assert.That(InfoField(observer, "tracking_total_prefixes"), Is.EqualTo("2"));
        });
    }

    [Test]
    public void TrackingTableMaxKeysIsAConfigParameter()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "tracking-table-max-keys"), Is.EqualTo("*2\r\n$23\r\ntracking-table-max-keys\r\n$7\r\n1000000\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "tracking-table-max-keys", "-1"), Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'tracking-table-max-keys')"));
        Assert.That(client.Execute("CONFIG", "SET", "tracking-table-max-keys", "10"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "tracking-table-max-keys"), Is.EqualTo("*2\r\n$23\r\ntracking-table-max-keys\r\n$2\r\n10\r\n"));
    }

    [Test]
    public void ResetAndDisconnectTurnTrackingOffAndFreeItsState()
    {
        using var observer = ConnectRaw();
        var tracker = Tracker();
        tracker.Execute("MGET", "a", "b", "c");
        using var broadcaster = Tracker("BCAST", "PREFIX", "x");
        Assert.That(InfoField(observer, "tracking_total_items"), Is.EqualTo("3"));

        Assert.That(tracker.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(tracker.Execute("CLIENT", "GETREDIR"), Is.EqualTo(":-1\r\n"));
        Assert.Multiple(() =>
        {
            Assert.That(InfoField(observer, "tracking_clients"), Is.EqualTo("1"));
            Assert.That(InfoField(observer, "tracking_total_keys"), Is.EqualTo("0"));
            Assert.That(InfoField(observer, "tracking_total_items"), Is.EqualTo("0"));
        });
        tracker.Dispose();

        broadcaster.Dispose();
        WaitUntil(() => InfoField(observer, "tracking_clients") == "0", "the broadcasting client left");
        Assert.That(InfoField(observer, "tracking_total_prefixes"), Is.EqualTo("0"));
    }

    [Test]
    public void DisconnectingTakesTheClientOutOfSharedKeys()
    {
        using var observer = ConnectRaw();
        using var stays = Tracker();
        var leaves = Tracker();
        stays.Execute("GET", "shared");
        leaves.Execute("MGET", "shared", "own");
        Assert.That(InfoField(observer, "tracking_total_items"), Is.EqualTo("3"));
        leaves.Dispose();
        WaitUntil(() => InfoField(observer, "tracking_clients") == "1", "the client left");
        Assert.That(InfoField(observer, "tracking_total_keys"), Is.EqualTo("1"));
        Assert.That(InfoField(observer, "tracking_total_items"), Is.EqualTo("1"));
        observer.Execute("SET", "shared", "v");
        Assert.That(stays.ReadReply(), Is.EqualTo(Invalidation("shared")));
    }
}
