using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>Helpers for the pub/sub fixtures: raw subscribers and waiting on the broker's state.</summary>
public abstract class PubSubTestBase : ServerTestBase
{
    /// <summary>A raw client (in RESP3 when asked) that subscribed to <paramref name="channels"/>, confirmations read.</summary>
    protected RawClient Subscriber(bool resp3, params string[] channels) => Subscribed(resp3, "SUBSCRIBE", channels);

    /// <summary>A raw client (in RESP3 when asked) that subscribed to <paramref name="patterns"/>, confirmations read.</summary>
    protected RawClient PatternSubscriber(bool resp3, params string[] patterns) => Subscribed(resp3, "PSUBSCRIBE", patterns);

    private RawClient Subscribed(bool resp3, string command, string[] names)
    {
        var client = ConnectRaw();
        if (resp3)
            client.Execute("HELLO", "3");
        var arguments = new string[names.Length + 1];
        arguments[0] = command;
        names.CopyTo(arguments, 1);
        client.Send(arguments);
        foreach (var _ in names)
            client.ReadReply();
        return client;
    }

    /// <summary>The message a subscriber receives, in RESP2 or RESP3.</summary>
    protected static string Message(bool resp3, string channel, string message)
        => $"{(resp3 ? '>' : '*')}3\r\n$7\r\nmessage\r\n${channel.Length}\r\n{channel}\r\n${message.Length}\r\n{message}\r\n";

    /// <summary>The pattern message a subscriber receives, in RESP2 or RESP3.</summary>
    protected static string PatternMessage(bool resp3, string pattern, string channel, string message)
        => $"{(resp3 ? '>' : '*')}4\r\n$8\r\npmessage\r\n${pattern.Length}\r\n{pattern}\r\n${channel.Length}\r\n{channel}\r\n${message.Length}\r\n{message}\r\n";

    /// <summary>A (p)(un)subscribe confirmation.</summary>
    protected static string Confirmation(bool resp3, string kind, string name, int count)
        => $"{(resp3 ? '>' : '*')}3\r\n${kind.Length}\r\n{kind}\r\n${name.Length}\r\n{name}\r\n:{count}\r\n";

    /// <summary>
    /// Runs a test client's loop on its own thread: its blocking socket calls must not hold the
    /// thread pool the in-process server delivers messages on.
    /// </summary>
    protected static Task Background(Action action)
        => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

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
