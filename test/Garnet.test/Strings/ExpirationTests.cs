using System;
using System.Diagnostics;
using System.Threading;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>
/// Expiration set by SET, SETEX, PSETEX and GETEX, kept or cleared by later writes. Expiry is observed
/// by polling GET until the key is gone (bounded); "still there" checks wait well past the old time,
/// so a slow machine can only make them pass later, never fail them.
/// </summary>
[TestFixture]
public sealed class ExpirationTests : ServerTestBase
{
    private static long UnixMilliseconds => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    [TestCase("PX", "300")]
    [TestCase("EX", "1")]
    public void SetWithTimeToLiveExpires(string option, string amount)
    {
        using var client = ConnectRaw();
        var clock = Stopwatch.StartNew();
        Assert.That(client.Execute("SET", "k", "v", option, amount), Is.EqualTo(Ok));
        var lived = WaitUntilGone(client, "k", clock);
        long ttl = option == "EX" ? long.Parse(amount) * 1000 : long.Parse(amount);
        Assert.That(lived.TotalMilliseconds, Is.GreaterThanOrEqualTo(ttl - 1), "a key never expires early");
    }

    [Test]
    public void MillisecondPrecision()
    {
        using var client = ConnectRaw();
        var clock = Stopwatch.StartNew();
        client.Execute("SET", "short", "v", "PX", "150");
        client.Execute("PSETEX", "shorter", "50", "v");
        var lived = WaitUntilGone(client, "short", clock);
        Assert.That(lived.TotalMilliseconds, Is.GreaterThanOrEqualTo(149));
        Assert.That(client.Execute("GET", "shorter"), Is.EqualTo(Nil));
    }

    [Test]
    public void SetExAndPSetExExpire()
    {
        using var client = ConnectRaw();
        var clock = Stopwatch.StartNew();
        client.Execute("SETEX", "a", "1", "v");
        client.Execute("PSETEX", "b", "200", "v");
        Assert.That(WaitUntilGone(client, "b", clock).TotalMilliseconds, Is.GreaterThanOrEqualTo(199));
        Assert.That(WaitUntilGone(client, "a", clock).TotalMilliseconds, Is.GreaterThanOrEqualTo(999));
    }

    [Test]
    public void AbsoluteTimesExpire()
    {
        using var client = ConnectRaw();
        long at = UnixMilliseconds + 300;
        Assert.That(client.Execute("SET", "px", "v", "PXAT", at.ToString()), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "ex", "v", "EXAT", ((at / 1000) + 1).ToString()), Is.EqualTo(Ok));
        WaitUntil(() => client.Execute("GET", "px") == Nil, "the PXAT key expires");
        Assert.That(UnixMilliseconds, Is.GreaterThanOrEqualTo(at - 1));
        WaitUntil(() => client.Execute("GET", "ex") == Nil, "the EXAT key expires");
    }

    [Test]
    public void ATimeInThePastDeletesAtOnce()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "old");
        Assert.That(client.Execute("SET", "k", "new", "EXAT", "1", "GET"), Is.EqualTo(Bulk("old")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SET", "k", "new", "PXAT", "1000"), Is.EqualTo(Ok));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SETNX", "k", "again"), Is.EqualTo(Integer(1)), "an expired key counts as missing");
    }

    [Test]
    public void AnExpiredKeyCountsAsMissingForConditionalSets()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "50");
        WaitUntil(() => client.Execute("GET", "k") == Nil, "the key expires");
        Assert.That(client.Execute("SET", "k", "w", "XX"), Is.EqualTo(Nil));
        Assert.That(client.Execute("SET", "k", "w", "NX", "GET"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("w")));
    }

    [Test]
    public void PlainSetClearsTheTimeToLive()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "set", "v", "PX", "200");
        client.Execute("SET", "set", "w");
        client.Execute("SET", "xx", "v", "PX", "200");
        client.Execute("SET", "xx", "w", "XX");
        client.Execute("SET", "getset", "v", "PX", "200");
        client.Execute("GETSET", "getset", "w");
        client.Execute("SET", "mset", "v", "PX", "200");
        client.Execute("MSET", "mset", "w");
        Thread.Sleep(600);
        foreach (var key in new[] { "set", "xx", "getset", "mset" })
            Assert.That(client.Execute("GET", key), Is.EqualTo(Bulk("w")), key);
    }

    [Test]
    public void KeepTtlKeepsTheTimeToLive()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "300");
        Assert.That(client.Execute("SET", "k", "w", "KEEPTTL"), Is.EqualTo(Ok));
        Assert.That(client.Execute("SET", "k", "x", "KEEPTTL", "XX", "GET"), Is.EqualTo(Bulk("w")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("x")));
        WaitUntil(() => client.Execute("GET", "k") == Nil, "the kept time to live ends");

        client.Execute("SET", "plain", "v");
        Assert.That(client.Execute("SET", "plain", "w", "KEEPTTL"), Is.EqualTo(Ok));
        Thread.Sleep(200);
        Assert.That(client.Execute("GET", "plain"), Is.EqualTo(Bulk("w")), "KEEPTTL on a key without one adds none");
    }

    [Test]
    public void SetWithTimeReplacesAnEarlierTime()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "100");
        client.Execute("SET", "k", "w", "EX", "1000");
        Thread.Sleep(400);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("w")));
        client.Execute("SET", "k", "x", "PX", "100", "XX");
        WaitUntil(() => client.Execute("GET", "k") == Nil, "the shorter time ends");
    }

    [Test]
    public void ModifyingCommandsKeepTheTimeToLive()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "counter", "1", "PX", "300");
        client.Execute("SET", "float", "1.5", "PX", "300");
        client.Execute("SET", "text", "abc", "PX", "300");
        client.Execute("SET", "range", "abc", "PX", "300");
        Assert.That(client.Execute("INCR", "counter"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("INCRBYFLOAT", "float", "1"), Is.EqualTo(Bulk("2.5")));
        Assert.That(client.Execute("APPEND", "text", "def"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("SETRANGE", "range", "1", "X"), Is.EqualTo(Integer(3)));
        foreach (var key in new[] { "counter", "float", "text", "range" })
            WaitUntil(() => client.Execute("GET", key) == Nil, $"'{key}' keeps its time to live");
    }

    [Test]
    public void GetExWithoutOptionsOnlyReads()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GETEX", "missing"), Is.EqualTo(Nil));
        client.Execute("SET", "k", "v", "PX", "200");
        Assert.That(client.Execute("GETEX", "k"), Is.EqualTo(Bulk("v")));
        WaitUntil(() => client.Execute("GET", "k") == Nil, "the time to live is untouched");
    }

    [TestCase("EX", "1")]
    [TestCase("PX", "200")]
    public void GetExSetsATimeToLive(string option, string amount)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        var clock = Stopwatch.StartNew();
        Assert.That(client.Execute("GETEX", "k", option, amount), Is.EqualTo(Bulk("v")));
        Assert.That(WaitUntilGone(client, "k", clock).TotalMilliseconds, Is.GreaterThanOrEqualTo(option == "EX" ? 999 : 199));
    }

    [Test]
    public void GetExAbsoluteTimes()
    {
        using var client = ConnectRaw();
        client.Execute("MSET", "a", "1", "b", "2", "c", "3");
        Assert.That(client.Execute("GETEX", "a", "PXAT", (UnixMilliseconds + 200).ToString()), Is.EqualTo(Bulk("1")));
        Assert.That(client.Execute("GETEX", "b", "EXAT", (UnixMilliseconds / 1000 + 1).ToString()), Is.EqualTo(Bulk("2")));
        Assert.That(client.Execute("GETEX", "c", "EXAT", "1"), Is.EqualTo(Bulk("3")), "a past time returns the value, then deletes");
        Assert.That(client.Execute("GET", "c"), Is.EqualTo(Nil));
        WaitUntil(() => client.Execute("GET", "a") == Nil, "PXAT ends");
        WaitUntil(() => client.Execute("GET", "b") == Nil, "EXAT ends");
    }

    [Test]
    public void GetExPersistRemovesTheTimeToLive()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v", "PX", "200");
        Assert.That(client.Execute("GETEX", "k", "PERSIST"), Is.EqualTo(Bulk("v")));
        client.Execute("SET", "plain", "v");
        Assert.That(client.Execute("GETEX", "plain", "persist"), Is.EqualTo(Bulk("v")));
        Thread.Sleep(600);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("GET", "plain"), Is.EqualTo(Bulk("v")));
    }

    [TestCase("EX")]
    [TestCase("PERSIST", "EX", "10")]
    [TestCase("EX", "10", "PERSIST")]
    [TestCase("EX", "10", "PX", "100")]
    [TestCase("KEEPTTL")]
    [TestCase("NX")]
    [TestCase("XX")]
    [TestCase("GET")]
    [TestCase("FOO")]
    public void GetExOptionErrors(params string[] options)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        var command = new string[2 + options.Length];
        command[0] = "GETEX";
        command[1] = "k";
        options.CopyTo(command, 2);
        Assert.That(client.Execute(command), Is.EqualTo(SyntaxError));
        command[1] = "missing";
        Assert.That(client.Execute(command), Is.EqualTo(SyntaxError), "syntax is checked before the key");
    }

    [Test]
    public void GetExTimeErrorsOnlyForAnExistingKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("GETEX", "k", "EX", "0"), Is.EqualTo(Error("ERR invalid expire time in 'getex' command")));
        Assert.That(client.Execute("GETEX", "k", "PX", "-5"), Is.EqualTo(Error("ERR invalid expire time in 'getex' command")));
        Assert.That(client.Execute("GETEX", "k", "EX", "9223372036854775807"), Is.EqualTo(Error("ERR invalid expire time in 'getex' command")));
        Assert.That(client.Execute("GETEX", "k", "EX", "abc"), Is.EqualTo(NotInteger));
        // Redis looks the key up before it validates the time.
        Assert.That(client.Execute("GETEX", "missing", "EX", "0"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GETEX", "missing", "EX", "abc"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GETEX", "k", "EX", "1", "EX", "1000"), Is.EqualTo(Bulk("v")), "a repeated option is allowed");
        Assert.That(client.Execute("GETEX", "k", "PERSIST", "PERSIST"), Is.EqualTo(Bulk("v")));
        Thread.Sleep(300);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
    }
}
