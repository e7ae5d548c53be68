using NUnit.Framework;

namespace Garnet.test.Strings;

/// <summary>The fixture itself works: both clients reach the in-process server.</summary>
public class SmokeTests : ServerTestBase
{
    [Test]
    public void StackExchangeRedisRoundTrip()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.StringSet("key", "value"), Is.True);
        Assert.That((string?)db.StringGet("key"), Is.EqualTo("value"));
    }

    [Test]
    public void RawRoundTrip()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "a", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo("$-1\r\n"));
    }
}
