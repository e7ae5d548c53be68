using System;
using System.Text.RegularExpressions;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>TIME, LASTSAVE and SHUTDOWN.</summary>
[TestFixture]
public sealed class ServerMiscTests : ServerTestBase
{
    [Test]
    public void TimeIsSecondsAndMicrosecondsAsBulkStrings()
    {
        using var client = ConnectRaw();
        long before = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        string reply = client.Execute("TIME");
        long after = DateTimeOffset.UtcNow.ToUnixTimeSeconds();

        var match = Regex.Match(reply, @"^\*2\r\n\$\d+\r\n(\d+)\r\n\$\d+\r\n(\d+)\r\n$");
        Assert.That(match.Success, Is.True, reply);
        long seconds = long.Parse(match.Groups[1].Value);
        long microseconds = long.Parse(match.Groups[2].Value);
        Assert.That(seconds, Is.InRange(before, after));
        Assert.That(microseconds, Is.InRange(0, 999_999));
        Assert.That(client.Execute("TIME", "x"), Is.EqualTo("-ERR wrong number of arguments for 'time' command\r\n"));
    }

    [Test]
    public void TimeThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var time = redis.GetServer("127.0.0.1", Port).Time();
        Assert.That(Math.Abs((time - DateTime.UtcNow).TotalMinutes), Is.LessThan(5));
    }

    [Test]
    public void LastSaveIsTheStoreTimestamp()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LASTSAVE"), Is.EqualTo($":{Server.Store.LastSaveUnixSeconds}\r\n"));
        Assert.That(client.Execute("LASTSAVE", "x"), Is.EqualTo("-ERR wrong number of arguments for 'lastsave' command\r\n"));
    }

    [TestCase]
    [TestCase("NOSAVE")]
    [TestCase("save", "now", "force")]
    [TestCase("NOW")]
    public void ShutdownAsksTheHostToStopAndClosesTheConnection(params string[] options)
    {
        int requests = 0;
        Server.Store.ShutdownRequested += () => Interlocked.Increment(ref requests);
        using var client = ConnectRaw();
        client.Send(["SHUTDOWN", .. options]);
        Assert.That(client.ReadToEnd(), Is.Empty);
        Assert.That(Volatile.Read(ref requests), Is.EqualTo(1));
    }

    [Test]
    public void ShutdownSyntaxErrorsDoNotStopTheServer()
    {
        int requests = 0;
        Server.Store.ShutdownRequested += () => Interlocked.Increment(ref requests);
        using var client = ConnectRaw();
        Assert.That(client.Execute("SHUTDOWN", "SAVE", "NOSAVE"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SHUTDOWN", "LATER"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SHUTDOWN", "ABORT", "NOW"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("SHUTDOWN", "ABORT"), Is.EqualTo("-ERR No shutdown in progress.\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(requests, Is.Zero);
    }
}
