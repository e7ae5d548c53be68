using System;
using System.Threading.Tasks;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Transactions;

/// <summary>
/// Connections whose sends block until the client reads (.NET's asynchronous sockets, TLS): a client that stops
/// reading in the middle of a write's reply must not hold up WATCH on other connections.
/// </summary>
public class WatchWithBlockingSendsTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { SocketIo = SocketIoModel.AsyncEventArgs, PageSize = 1L << 26 };

    [Test]
    public void WatchDoesNotWaitForAWriteWhoseReplyTheClientDoesNotRead()
    {
        using var stalled = ConnectRaw();
        using var other = ConnectRaw();
        // A 32 MB value: its reply is far more than the socket buffers hold, so sending it blocks.
        Assert.That(stalled.Execute("SETRANGE", "big", (32 << 20).ToString(), "x"), Is.EqualTo($":{(32 << 20) + 1}\r\n"));
        stalled.Send("GETDEL", "big");
        StringTestHelpers.WaitUntil(() => other.Execute("EXISTS", "big") == ":0\r\n", "GETDEL removed the key");

        var watch = Task.Run(() => other.Execute("WATCH", "k"));
        Assert.That(watch.Wait(TimeSpan.FromSeconds(10)), Is.True, "WATCH returned while the other reply is still unread");
        Assert.That(watch.Result, Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("SET", "k", "v"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(other.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
    }
}
