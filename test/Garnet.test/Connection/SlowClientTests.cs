using System;
using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>
/// A client that pipelines requests for large replies and does not read them: the server keeps its replies
/// (shown as omem in CLIENT LIST) and goes on serving everyone else; the client later gets all of them, in order.
/// </summary>
[TestFixture]
public sealed class SlowClientTests : ServerTestBase
{
    private const int ValueLength = 512 * 1024;
    private const int Requests = 200; // 100 MB of replies

    private static string ListLineOf(RawClient observer, string name)
    {
        var list = ReplyText.Payload(observer.Execute("CLIENT", "LIST"));
        foreach (var line in list.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Contains($" name={name} "))
                return line;
        }
        throw new AssertionException($"No client named {name} in CLIENT LIST.");
    }

    private static long OutputMemoryOf(RawClient observer, string name)
        => long.Parse(Regex.Match(ListLineOf(observer, name), @" omem=(\d+) ").Groups[1].Value);

    [Test]
    public void UnreadRepliesWaitWhileOtherClientsAreServedAndArriveInOrderLater()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("Held output (omem) exists with the epoll connections, which are Linux's.");
        using var slow = ConnectRaw();
        using var other = ConnectRaw();
        Assert.That(slow.Execute("CLIENT", "SETNAME", "slow"), Is.EqualTo("+OK\r\n"));
        Assert.That(slow.Execute("SET", "big", new string('v', ValueLength)), Is.EqualTo("+OK\r\n"));

        var requests = new StringBuilder();
        for (var i = 0; i < Requests; i++)
            requests.Append(RawClient.Encode("GET", "big"));
        requests.Append(RawClient.Encode("ECHO", "last"));
        slow.SendRaw(requests.ToString());

        // The replies pile up on the server's side of the connection, visibly, and nobody else waits for them.
        var clock = Stopwatch.StartNew();
        while (OutputMemoryOf(other, "slow") == 0)
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the slow client's output is held by the server");
            Thread.Sleep(20);
        }
        for (var i = 0; i < 50; i++)
            Assert.That(other.Execute("INCR", "counter"), Is.EqualTo($":{i + 1}\r\n"));
        // While its output waits, the connection waits to write, and the output is kept in one or more blocks.
        var held = ListLineOf(other, "slow");
        Assert.That(ReplyText.ClientField(held, "events"), Is.EqualTo("w"));
        Assert.That(long.Parse(ReplyText.ClientField(held, "oll")), Is.GreaterThan(0));
        Assert.That(long.Parse(ReplyText.ClientField(held, "tot-mem")), Is.GreaterThan(long.Parse(ReplyText.ClientField(held, "omem"))));

        var expected = $"${ValueLength}\r\n{new string('v', ValueLength)}\r\n";
        for (var i = 0; i < Requests; i++)
        {
            var reply = slow.ReadReply();
            if (reply != expected)
                Assert.Fail($"Reply {i} differs: {reply.Length} characters, starting {reply[..Math.Min(20, reply.Length)]}");
        }
        Assert.That(slow.ReadReply(), Is.EqualTo("$4\r\nlast\r\n"));
        Assert.That(slow.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(OutputMemoryOf(other, "slow"), Is.Zero);
        Assert.That(ReplyText.ClientField(ListLineOf(other, "slow"), "oll"), Is.EqualTo("0"));
        Assert.That(ReplyText.ClientField(ListLineOf(other, "slow"), "events"), Is.EqualTo("r"));
    }
}
