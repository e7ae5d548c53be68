using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>CONFIG GET and SET of the encoding thresholds, their *-ziplist-* aliases and Redis's value checks.</summary>
public sealed class EncodingConfigTests : ServerTestBase
{
    [TestCase("hash-max-listpack-entries", "512")]
    [TestCase("hash-max-ziplist-entries", "512")]
    [TestCase("hash-max-listpack-value", "64")]
    [TestCase("hash-max-ziplist-value", "64")]
    [TestCase("set-max-intset-entries", "512")]
    [TestCase("set-max-listpack-entries", "128")]
    [TestCase("set-max-listpack-value", "64")]
    [TestCase("zset-max-listpack-entries", "128")]
    [TestCase("zset-max-ziplist-entries", "128")]
    [TestCase("zset-max-listpack-value", "64")]
    [TestCase("zset-max-ziplist-value", "64")]
    [TestCase("list-max-listpack-size", "-2")]
    [TestCase("list-max-ziplist-size", "-2")]
    public void DefaultsAreRedis(string name, string value)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", name), Is.EqualTo($"*2\r\n${name.Length}\r\n{name}\r\n${value.Length}\r\n{value}\r\n"));
    }

    [Test]
    public void PatternsFindNamesAndAliases()
    {
        using var client = ConnectRaw();
        string reply = client.Execute("CONFIG", "GET", "hash-max-*-entries");
        Assert.That(reply, Does.StartWith("*4\r\n"));
        Assert.That(reply, Does.Contain("hash-max-listpack-entries").And.Contain("hash-max-ziplist-entries"));
    }

    [Test]
    public void AnAliasSetsTheSameValue()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "zset-max-ziplist-entries", "7"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "zset-max-listpack-entries"), Does.EndWith("$1\r\n7\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "list-max-listpack-size", "-4"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "list-max-ziplist-size"), Does.EndWith("$2\r\n-4\r\n"));
    }

    [Test]
    public void ByteLimitsTakeMemoryValues()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "hash-max-listpack-value", "1kb"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "hash-max-listpack-value"), Does.EndWith("$4\r\n1024\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "zset-max-listpack-value", "2k"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "zset-max-listpack-value"), Does.EndWith("$4\r\n2000\r\n"));
    }

    [TestCase("hash-max-listpack-entries", "-1", "argument must be between 0 and 9223372036854775807 inclusive")]
    [TestCase("hash-max-listpack-entries", "99999999999999999999", "argument couldn't be parsed into an integer")]
    [TestCase("set-max-intset-entries", "1kb", "argument couldn't be parsed into an integer")]
    [TestCase("set-max-listpack-value", "x", "argument couldn't be parsed into an integer")]
    [TestCase("hash-max-listpack-value", "-5", "argument must be a memory value")]
    [TestCase("list-max-listpack-size", "abc", "argument couldn't be parsed into an integer")]
    [TestCase("list-max-listpack-size", "99999999999", "argument must be between -2147483648 and 2147483647 inclusive")]
    public void MalformedOrOutOfRangeValuesAreRefused(string name, string value, string reason)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", name, value), Is.EqualTo($"-ERR CONFIG SET failed (possibly related to argument '{name}') - {reason}\r\n"));
    }

    [Test]
    public void EmbeddersSetThemThroughTheServerOptions()
    {
        Server.Options.EncodingThresholds.SetMaxListpackEntries = 3;
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "set-max-listpack-entries"), Does.EndWith("$1\r\n3\r\n"));
        client.Execute("SADD", "s", "a", "b", "c", "d");
        Assert.That(client.EncodingOf("s"), Is.EqualTo("hashtable"));
    }
}
