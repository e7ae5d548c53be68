using NUnit.Framework;

namespace Garnet.test.Notifications;

/// <summary>notify-keyspace-events: its default, Redis's validation, and the canonical form CONFIG GET reports.</summary>
public class NotifyConfigTests : KeyspaceNotificationTestBase
{
    private static string ConfigValue(RawClient client)
    {
        var parts = client.Execute("CONFIG", "GET", "notify-keyspace-events").Split("\r\n");
        Assert.That(parts[2], Is.EqualTo("notify-keyspace-events"));
        return parts[4];
    }

    [Test]
    public void DefaultIsEmpty() => Assert.That(ConfigValue(ConnectRaw()), Is.EqualTo(""));

    [TestCase("AKE", "AKE")]
    [TestCase("KEg$lshzxetd", "AKE")]
    [TestCase("Elg", "glE")]
    [TestCase("EKA", "AKE")]
    [TestCase("KEAmn", "AKEmn")]
    [TestCase("nmEx", "xEmn")]
    [TestCase("g", "g")]
    [TestCase("$zhtde", "$hzetd")]
    [TestCase("", "")]
    public void SetReportsCanonicalForm(string value, string reported)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", value), Is.EqualTo("+OK\r\n"));
        Assert.That(ConfigValue(client), Is.EqualTo(reported));
    }

    [TestCase("KEQ")]
    [TestCase("a")]
    [TestCase("K E")]
    public void InvalidClassIsRefusedAndValueKept(string value)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "Kl"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", value),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.\r\n"));
        Assert.That(ConfigValue(client), Is.EqualTo("lK"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void NothingIsPublishedByDefaultNorWithoutKOrE()
    {
        using var subscriber = KeySubscriber();
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        client.Execute("DEL", "k");
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "A"), Is.EqualTo("+OK\r\n"));
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "E$"), Is.EqualTo("+OK\r\n"));
        client.Execute("SET", "k2", "v");
        ExpectKeyEvents(subscriber, 0, "set k2");
    }

    [Test]
    public void ClassesFilterEvents()
    {
        using var subscriber = KeySubscriber();
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "notify-keyspace-events", "El"), Is.EqualTo("+OK\r\n"));
        client.Execute("SET", "s", "v");     // $: off
        client.Execute("DEL", "s");          // g: off
        client.Execute("RPUSH", "list", "a"); // l: on
        ExpectKeyEvents(subscriber, 0, "rpush list");
    }
}
