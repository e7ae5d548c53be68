using System;
using System.Diagnostics;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>Helpers for blocking-command tests: waiting (with generous bounds) until clients are blocked.</summary>
public abstract class BlockingTestBase : ServerTestBase
{
    /// <summary>Waits until exactly <paramref name="count"/> clients are blocked on the server.</summary>
    protected void WaitForBlocked(int count)
        => WaitUntil(() => Server.Store.Blocking.BlockedClients == count, $"{count} blocked clients (now {Server.Store.Blocking.BlockedClients})");

    /// <summary>Polls <paramref name="condition"/> for up to 10 seconds.</summary>
    protected static void WaitUntil(Func<bool> condition, string what)
    {
        var watch = Stopwatch.StartNew();
        while (!condition())
        {
            if (watch.Elapsed > TimeSpan.FromSeconds(10))
                Assert.Fail("Timed out waiting for " + what);
            Thread.Sleep(2);
        }
    }

    /// <summary>A raw client that sent <paramref name="command"/> and is now blocked in it (the <paramref name="blockedAfter"/>-th blocked client).</summary>
    protected RawClient BlockedClient(int blockedAfter, params string[] command)
    {
        var client = ConnectRaw();
        client.Send(command);
        WaitForBlocked(blockedAfter);
        return client;
    }
}
