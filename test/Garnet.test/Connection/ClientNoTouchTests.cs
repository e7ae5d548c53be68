using NUnit.Framework;
using Reply = Garnet.test.Keyspace.Resp;

namespace Garnet.test.Connection;

/// <summary>
/// CLIENT NO-TOUCH: a client's reads and writes leave keys' access times (OBJECT IDLETIME, LRU/LFU eviction) as they
/// were, except TOUCH; RESET turns it off. Idle times are set with RESTORE ... IDLETIME rather than waited for.
/// </summary>
public class ClientNoTouchTests : ServerTestBase
{
    private static string Idle(RawClient client, string key) => client.Execute("OBJECT", "IDLETIME", key);

    private static void RestoreIdle(RawClient client, string key, string payload)
        => Assert.That(client.Execute("RESTORE", key, "0", payload, "REPLACE", "IDLETIME", "1000"), Is.EqualTo("+OK\r\n"));

    [Test]
    public void ReadsAndWritesOfANoTouchClientAreNotAccesses()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "src", "12");
        string payload = Reply.Bulk(client.Execute("DUMP", "src"))!;
        client.Execute("RPUSH", "list", "a");

        Assert.That(client.Execute("CLIENT", "NO-TOUCH", "ON"), Is.EqualTo("+OK\r\n"));
        RestoreIdle(client, "k", payload);
        client.Execute("GET", "k");
        client.Execute("STRLEN", "k");
        client.Execute("INCR", "k");
        client.Execute("LRANGE", "list", "0", "-1");
        Assert.That(Reply.Integer(Idle(client, "k")), Is.InRange(1000, 1002));
        Assert.That(client.Execute("CLIENT", "INFO"), Does.Contain(" flags=T "));

        // TOUCH still touches.
        client.Execute("TOUCH", "k");
        Assert.That(Reply.Integer(Idle(client, "k")), Is.EqualTo(0));

        Assert.That(client.Execute("CLIENT", "NO-TOUCH", "OFF"), Is.EqualTo("+OK\r\n"));
        RestoreIdle(client, "k", payload);
        client.Execute("GET", "k");
        Assert.That(Reply.Integer(Idle(client, "k")), Is.EqualTo(0));
    }

    [Test]
    public void ResetTurnsItOffAndOtherClientsStillTouch()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("SET", "src", "v");
        string payload = Reply.Bulk(client.Execute("DUMP", "src"))!;
        client.Execute("CLIENT", "NO-TOUCH", "ON");
        RestoreIdle(client, "k", payload);
        other.Execute("GET", "k");
        Assert.That(Reply.Integer(Idle(client, "k")), Is.EqualTo(0));

        RestoreIdle(client, "k", payload);
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        client.Execute("GET", "k");
        Assert.That(Reply.Integer(Idle(client, "k")), Is.EqualTo(0));
        Assert.That(client.Execute("CLIENT", "NO-TOUCH", "maybe"), Is.EqualTo("-ERR syntax error\r\n"));
    }
}
