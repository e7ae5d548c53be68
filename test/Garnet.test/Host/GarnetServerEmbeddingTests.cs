using System;
using System.IO;
using System.Net.Sockets;
using System.Text;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Host;

/// <summary>The embeddable <see cref="GarnetServer"/>: options in, Start, Dispose.</summary>
[TestFixture]
public sealed class GarnetServerEmbeddingTests
{
    private static ServerOptions Small(int port) => SmallSettings(port).Server;

    [Test]
    public void StartsOnAFreePortAndServes()
    {
        using var server = new GarnetServer(Small(0));
        server.Start();
        Assert.That(server.Port, Is.GreaterThan(0));
        using var client = new RawClient(server.Port);
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(server.Store.Options, Is.SameAs(server.Options));
    }

    [Test]
    public void DisposeTwiceIsSafeAndFreesThePort()
    {
        var server = new GarnetServer(Small(0));
        server.Start();
        int port = server.Port;
        var client = new RawClient(port);
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        server.Dispose();
        Assert.DoesNotThrow(server.Dispose);
        Assert.That(client.IsClosedByServer(), Is.True, "connections close with the server");
        client.Dispose();
        Assert.That(IsListening(port), Is.False);

        // The same port can be bound again at once.
        using var again = new GarnetServer(Small(port));
        again.Start();
        using var second = new RawClient(port);
        Assert.That(second.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void DisposeWithoutStartIsSafe()
    {
        var server = new GarnetServer(Small(0));
        Assert.DoesNotThrow(server.Dispose);
        Assert.DoesNotThrow(server.Dispose);
    }

    [Test]
    public void ServesTheUnixSocketToo()
    {
        string path = Path.Combine(Path.GetTempPath(), "garnet-" + Guid.NewGuid().ToString("N") + ".sock");
        var options = Small(0);
        options.UnixSocketPath = path;
        using (var server = new GarnetServer(options))
        {
            server.Start();
            using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            socket.Connect(new UnixDomainSocketEndPoint(path));
            socket.Send("*1\r\n$4\r\nPING\r\n"u8);
            var buffer = new byte[64];
            int read = socket.Receive(buffer);
            Assert.That(Encoding.ASCII.GetString(buffer, 0, read), Is.EqualTo("+PONG\r\n"));
        }
        if (File.Exists(path))
            File.Delete(path);
    }
}
