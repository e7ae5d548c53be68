using System;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Tracking;

/// <summary>Helpers for the client tracking fixtures: raw clients in either protocol and the invalidations they receive.</summary>
public abstract class TrackingTestBase : ServerTestBase
{
    /// <summary>A raw client, switched to RESP3 when asked.</summary>
    protected RawClient Client(bool resp3)
    {
        var client = ConnectRaw();
        if (resp3)
            Assert.That(client.Execute("HELLO", "3"), Does.StartWith("%"));
        return client;
    }

    /// <summary>A RESP3 client with CLIENT TRACKING ON and <paramref name="options"/>.</summary>
    protected RawClient Tracker(params string[] options)
    {
        var client = Client(resp3: true);
        Assert.That(client.Execute(["CLIENT", "TRACKING", "ON", .. options]), Is.EqualTo("+OK\r\n"));
        return client;
    }

    /// <summary>The client id of <paramref name="client"/>.</summary>
    protected static long IdOf(RawClient client)
    {
        string reply = client.Execute("CLIENT", "ID");
        return long.Parse(reply.AsSpan(1, reply.Length - 3), CultureInfo.InvariantCulture);
    }

    /// <summary>The key list of an invalidation: a RESP array of bulk strings.</summary>
    protected static string Keys(params string[] keys)
    {
        var text = new StringBuilder().Append('*').Append(keys.Length).Append("\r\n");
        foreach (var key in keys)
            text.Append('$').Append(key.Length).Append("\r\n").Append(key).Append("\r\n");
        return text.ToString();
    }

    /// <summary>The RESP3 invalidation push of <paramref name="keys"/>.</summary>
    protected static string Invalidation(params string[] keys) => ">2\r\n$10\r\ninvalidate\r\n" + Keys(keys);

    /// <summary>The RESP2 message a redirection's subscriber gets for <paramref name="keys"/>.</summary>
    protected static string InvalidationMessage(params string[] keys) => "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n" + Keys(keys);

    /// <summary>
    /// Asserts that nothing waits for <paramref name="client"/> (RESP3): its queued invalidations would be written before
    /// PING's reply, and a writer's invalidations are queued before the writer gets its reply.
    /// </summary>
    protected static void AssertNothingPending(RawClient client)
        => Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"), "no invalidation was waiting");

    /// <summary>An INFO field's value.</summary>
    protected static string InfoField(RawClient client, string field)
    {
        var match = Regex.Match(client.Execute("INFO", "everything"), "\r\n" + Regex.Escape(field) + ":([^\r]*)\r\n");
        Assert.That(match.Success, Is.True, field + " is reported");
        return match.Groups[1].Value;
    }

    /// <summary>Waits (up to 10 s) for <paramref name="condition"/>, failing with <paramref name="what"/>.</summary>
    protected static void WaitUntil(Func<bool> condition, string what)
    {
        var watch = Stopwatch.StartNew();
        while (!condition())
        {
            if (watch.Elapsed > TimeSpan.FromSeconds(10))
                Assert.Fail("Timed out waiting until " + what);
            Thread.Sleep(10);
        }
    }
}
