using NUnit.Framework;

namespace Garnet.test.ETag;

/// <summary>Garnet's ETag commands one by one: their replies, byte for byte, and their errors.</summary>
public sealed class ETagCommandTests : ServerTestBase
{
    private const string InvalidETag = "-ETAG must be a numerical value greater than or equal to 0\r\n";

    private static string Pair(long etag, string? value)
        => $"*2\r\n:{etag}\r\n" + (value == null ? "$-1\r\n" : $"${value.Length}\r\n{value}\r\n");

    [Test]
    public void SetWithETagStartsAtOneAndAdvancesOnEachSet()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("SET", "k", "v1", "WITHETAG"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("SET", "k", "v2", "withetag"), Is.EqualTo(":2\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo(Pair(2, "v2")));
        Assert.That(c.Execute("GET", "k"), Is.EqualTo("$2\r\nv2\r\n"));

        // On a key without an ETag (ETag 0) the first ETag is 1.
        c.Execute("SET", "plain", "x");
        Assert.That(c.Execute("SET", "plain", "y", "WITHETAG"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void SetWithETagHonoursNxXxKeepTtlAndExpirations()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("SET", "k", "v", "XX", "WITHETAG"), Is.EqualTo("$-1\r\n"));
        Assert.That(c.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("SET", "k", "v", "NX", "WITHETAG"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("SET", "k", "w", "NX", "WITHETAG"), Is.EqualTo("$-1\r\n"));
        Assert.That(c.Execute("SET", "k", "w", "XX", "EX", "100", "WITHETAG"), Is.EqualTo(":2\r\n"));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":100\r\n"));
        Assert.That(c.Execute("SET", "k", "z", "KEEPTTL", "WITHETAG"), Is.EqualTo(":3\r\n"));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":100\r\n"));
        Assert.That(c.Execute("SET", "k", "z", "WITHETAG"), Is.EqualTo(":4\r\n"));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
    }

    [Test]
    public void SetWithETagRejectsGetAndBadOptions()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("SET", "k", "v", "GET", "WITHETAG"), Is.EqualTo("-ERR WITHETAG option not allowed with GET inside of SET\r\n"));
        Assert.That(c.Execute("SET", "k", "v", "WITHETAG", "GET"), Is.EqualTo("-ERR WITHETAG option not allowed with GET inside of SET\r\n"));
        Assert.That(c.Execute("SET", "k", "v", "WITHETAG", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(c.Execute("SET", "k", "v", "EX", "0", "WITHETAG"), Is.EqualTo("-ERR invalid expire time in 'set' command\r\n"));
        Assert.That(c.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void GetWithETag()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("GETWITHETAG", "missing"), Is.EqualTo("$-1\r\n"));
        c.Execute("SET", "plain", "abc");
        Assert.That(c.Execute("GETWITHETAG", "plain"), Is.EqualTo(Pair(0, "abc")));
        c.Execute("RPUSH", "list", "a");
        Assert.That(c.Execute("GETWITHETAG", "list"), Does.StartWith("-WRONGTYPE"));
        Assert.That(c.Execute("GETWITHETAG"), Is.EqualTo("-ERR wrong number of arguments for 'getwithetag' command\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'getwithetag' command\r\n"));
    }

    [Test]
    public void GetIfNotMatch()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("GETIFNOTMATCH", "missing", "1"), Is.EqualTo("$-1\r\n"));
        c.Execute("SET", "k", "hello", "WITHETAG");
        Assert.That(c.Execute("GETIFNOTMATCH", "k", "1"), Is.EqualTo(Pair(1, null)));
        Assert.That(c.Execute("GETIFNOTMATCH", "k", "7"), Is.EqualTo(Pair(1, "hello")));
        c.Execute("SET", "plain", "p");
        Assert.That(c.Execute("GETIFNOTMATCH", "plain", "0"), Is.EqualTo(Pair(0, null)));
        Assert.That(c.Execute("GETIFNOTMATCH", "k", "abc"), Is.EqualTo(InvalidETag));
        Assert.That(c.Execute("GETIFNOTMATCH", "k", "-1"), Is.EqualTo(InvalidETag));
        c.Execute("SADD", "set", "m");
        Assert.That(c.Execute("GETIFNOTMATCH", "set", "0"), Does.StartWith("-WRONGTYPE"));
        Assert.That(c.Execute("GETIFNOTMATCH", "k"), Is.EqualTo("-ERR wrong number of arguments for 'getifnotmatch' command\r\n"));
    }

    [Test]
    public void SetIfMatch()
    {
        using var c = ConnectRaw();
        // A missing key is created, its ETag one past the ETag given.
        Assert.That(c.Execute("SETIFMATCH", "k", "v1", "5"), Is.EqualTo(Pair(6, null)));
        Assert.That(c.Execute("SETIFMATCH", "k", "v2", "6"), Is.EqualTo(Pair(7, null)));
        Assert.That(c.Execute("GET", "k"), Is.EqualTo("$2\r\nv2\r\n"));
        // A mismatch changes nothing and answers with the current ETag and value (nil with NOGET).
        Assert.That(c.Execute("SETIFMATCH", "k", "v3", "6"), Is.EqualTo(Pair(7, "v2")));
        Assert.That(c.Execute("SETIFMATCH", "k", "v3", "6", "NOGET"), Is.EqualTo(Pair(7, null)));
        Assert.That(c.Execute("GET", "k"), Is.EqualTo("$2\r\nv2\r\n"));
        // A key without an ETag matches 0.
        c.Execute("SET", "plain", "p");
        Assert.That(c.Execute("SETIFMATCH", "plain", "q", "1"), Is.EqualTo(Pair(0, "p")));
        Assert.That(c.Execute("SETIFMATCH", "plain", "q", "0"), Is.EqualTo(Pair(1, null)));
        Assert.That(c.Execute("GETWITHETAG", "plain"), Is.EqualTo(Pair(1, "q")));
    }

    [Test]
    public void SetIfMatchExpirationsAndErrors()
    {
        using var c = ConnectRaw();
        c.Execute("SET", "k", "v", "EX", "500", "WITHETAG");
        // Without EX or PX the key keeps its time to live.
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "1"), Is.EqualTo(Pair(2, null)));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":500\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "2", "PX", "90000"), Is.EqualTo(Pair(3, null)));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":90\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "3", "EX", "30", "NOGET"), Is.EqualTo(Pair(4, null)));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":30\r\n"));

        Assert.That(c.Execute("SETIFMATCH", "k", "w", "x"), Is.EqualTo(InvalidETag));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "-3"), Is.EqualTo(InvalidETag));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "4", "EX"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "4", "EX", "1", "PX", "1"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "4", "KEEPTTL"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "4", "EX", "ten"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w", "4", "EX", "0"), Is.EqualTo("-ERR invalid expire time in 'setifmatch' command\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "k", "w"), Is.EqualTo("-ERR wrong number of arguments for 'setifmatch' command\r\n"));
        // None of the refused commands changed the key.
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo(Pair(4, "w")));
    }

    [Test]
    public void SetIfGreater()
    {
        using var c = ConnectRaw();
        // A missing key takes the ETag given.
        Assert.That(c.Execute("SETIFGREATER", "k", "v1", "10"), Is.EqualTo(Pair(10, null)));
        Assert.That(c.Execute("SETIFGREATER", "k", "v2", "10"), Is.EqualTo(Pair(10, "v1")));
        Assert.That(c.Execute("SETIFGREATER", "k", "v2", "9", "NOGET"), Is.EqualTo(Pair(10, null)));
        Assert.That(c.Execute("SETIFGREATER", "k", "v3", "25", "EX", "100"), Is.EqualTo(Pair(25, null)));
        Assert.That(c.Execute("GETWITHETAG", "k"), Is.EqualTo(Pair(25, "v3")));
        Assert.That(c.Execute("TTL", "k"), Is.EqualTo(":100\r\n"));
        // A key without an ETag takes any ETag above 0.
        c.Execute("SET", "plain", "p");
        Assert.That(c.Execute("SETIFGREATER", "plain", "q", "0"), Is.EqualTo(Pair(0, "p")));
        Assert.That(c.Execute("SETIFGREATER", "plain", "q", "3"), Is.EqualTo(Pair(3, null)));
        Assert.That(c.Execute("SETIFGREATER", "plain", "q", "-3"), Is.EqualTo(InvalidETag));
        Assert.That(c.Execute("SETIFGREATER", "plain", "q"), Is.EqualTo("-ERR wrong number of arguments for 'setifgreater' command\r\n"));
    }

    [Test]
    public void DelIfGreater()
    {
        using var c = ConnectRaw();
        Assert.That(c.Execute("DELIFGREATER", "missing", "3"), Is.EqualTo(":0\r\n"));
        c.Execute("SET", "k", "v", "WITHETAG");
        c.Execute("SET", "k", "v", "WITHETAG");
        Assert.That(c.Execute("DELIFGREATER", "k", "2"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "k", "1"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("EXISTS", "k"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "k", "3"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        // A key without an ETag has ETag 0.
        c.Execute("SET", "plain", "p");
        Assert.That(c.Execute("DELIFGREATER", "plain", "0"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "plain", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "plain", "x"), Is.EqualTo(InvalidETag));
        Assert.That(c.Execute("DELIFGREATER", "plain"), Is.EqualTo("-ERR wrong number of arguments for 'delifgreater' command\r\n"));
    }

    [Test]
    public void ObjectKeys()
    {
        using var c = ConnectRaw();
        c.Execute("HSET", "h", "f", "v");
        // A conditional delete leaves an object alone.
        Assert.That(c.Execute("DELIFGREATER", "h", "5"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("TYPE", "h"), Is.EqualTo("+hash\r\n"));
        // ETag sets replace an object as SET does.
        Assert.That(c.Execute("SETIFMATCH", "h", "s", "0"), Is.EqualTo(Pair(1, null)));
        Assert.That(c.Execute("TYPE", "h"), Is.EqualTo("+string\r\n"));
        c.Execute("LPUSH", "l", "a");
        Assert.That(c.Execute("SETIFGREATER", "l", "s", "4"), Is.EqualTo(Pair(4, null)));
        Assert.That(c.Execute("GETWITHETAG", "l"), Is.EqualTo(Pair(4, "s")));
        c.Execute("SADD", "st", "a");
        Assert.That(c.Execute("SET", "st", "s", "WITHETAG"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("TYPE", "st"), Is.EqualTo("+string\r\n"));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That((long)db.Execute("SET", "se", "one", "WITHETAG"), Is.EqualTo(1));
        var reply = (StackExchange.Redis.RedisResult[])db.Execute("SETIFMATCH", "se", "two", 1)!;
        Assert.That((long)reply[0], Is.EqualTo(2));
        Assert.That(reply[1].IsNull, Is.True);
        Assert.That((string?)db.StringGet("se"), Is.EqualTo("two"));
    }
}
