using System;
using System.Threading;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Network;

/// <summary>Epoll event loops poll without sleeping for a while after their last events, then sleep again.</summary>
public sealed class BusyPollTests() : NetworkTestBase(SocketIoModel.Epoll)
{
    [Test]
    public void ALoopPollsAfterItsEventsAndSleepsOnceIdle()
    {
        // A window long enough that the loop surely polls at least once in it, however slow the machine.
        var server = StartServer(new NetworkServerOptions { EventLoops = 1, BusyPoll = TimeSpan.FromMilliseconds(20) });
        using var client = Connect(server);
        WaitUntilAsleep(server, "the loop sleeps after the connection joined");
        var before = server.Server.EventLoopCounters;

        client.Send("ping\n");
        Assert.That(client.ReadLine(), Is.EqualTo("PING"));

        WaitUntil(() => server.Server.EventLoopCounters.Sleeps > before.Sleeps, "the loop sleeps again");
        var after = server.Server.EventLoopCounters;
        Assert.That(after.Cycles, Is.GreaterThan(before.Cycles));
        Assert.That(after.EmptyPolls, Is.GreaterThan(before.EmptyPolls), "it polled before sleeping");

        // Asleep and idle: nothing more happens until the next event.
        Thread.Sleep(50);
        Assert.That(server.Server.EventLoopCounters, Is.EqualTo(after));
    }

    [Test]
    public void WithoutAWindowALoopSleepsWheneverIdle()
    {
        var server = StartServer(new NetworkServerOptions { EventLoops = 1, BusyPoll = TimeSpan.Zero });
        using var client = Connect(server);
        for (var i = 0; i < 20; i++)
        {
            client.Send($"m{i}\n");
            Assert.That(client.ReadLine(), Is.EqualTo($"M{i}"));
        }

        var counters = server.Server.EventLoopCounters;
        Assert.That(counters.EmptyPolls, Is.Zero);
        Assert.That(counters.Cycles, Is.GreaterThanOrEqualTo(20));
        // Every pass but the one in progress started with a sleep.
        Assert.That(counters.Sleeps, Is.GreaterThanOrEqualTo(counters.Cycles));
    }

    [Test]
    public void RequestsArrivingWhileTheLoopPollsAreServed()
    {
        var server = StartServer(new NetworkServerOptions { EventLoops = 1, BusyPoll = TimeSpan.FromSeconds(1) });
        using var first = Connect(server);
        using var second = Connect(server);
        first.Send("x\n");
        Assert.That(first.ReadLine(), Is.EqualTo("X"));
        var before = server.Server.EventLoopCounters;
        for (var i = 0; i < 200; i++)
        {
            first.Send($"a{i}\n");
            second.Send($"b{i}\n");
            Assert.That(first.ReadLine(), Is.EqualTo($"A{i}"));
            Assert.That(second.ReadLine(), Is.EqualTo($"B{i}"));
        }
        // A one-second window spans the gaps between requests: the loop polled through them instead of sleeping
        // before each (a sleep per request would be 400).
        var after = server.Server.EventLoopCounters;
        Assert.That(after.EmptyPolls, Is.GreaterThan(before.EmptyPolls));
        Assert.That(after.Sleeps - before.Sleeps, Is.LessThan(400));
    }

    [TestCase(-1)]
    [TestCase(1_000_001)]
    public void AWindowOutsideZeroToOneSecondIsRejected(int microseconds)
    {
        var options = new NetworkServerOptions { BusyPoll = TimeSpan.FromMicroseconds(microseconds) };
        Assert.That(() => new NetworkServer(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0), new LineSessionProvider(), options),
            Throws.InstanceOf<ArgumentOutOfRangeException>());
    }

    private static void WaitUntilAsleep(TestServer server, string what)
    {
        // Asleep means the sleep count stays put while nothing else happens.
        WaitUntil(() =>
        {
            var a = server.Server.EventLoopCounters;
            Thread.Sleep(30);
            return server.Server.EventLoopCounters == a;
        }, what);
    }
}
