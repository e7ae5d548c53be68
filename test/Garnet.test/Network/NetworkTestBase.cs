using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Net;
using System.Threading;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Network;

/// <summary>A running server and the provider whose consumers it created.</summary>
internal sealed record TestServer(NetworkServer Server, LineSessionProvider Provider)
{
    public EndPoint EndPoint => Server.BoundEndPoint;
}

/// <summary>Starts in-process servers on free loopback ports and tears down every server and client a test made.</summary>
public abstract class NetworkTestBase
{
    private readonly List<IDisposable> _resources = [];

    /// <param name="socketIo">How the fixture's servers do plain-socket I/O; fixtures run once per model that exists here.</param>
    protected NetworkTestBase(SocketIoModel socketIo = SocketIoModel.Auto) => SocketIo = socketIo;

    /// <summary>Gets the I/O model the fixture's servers use for plain connections.</summary>
    protected SocketIoModel SocketIo { get; }

    /// <summary>Starts a line-protocol server on 127.0.0.1 with a free port, or on <paramref name="endpoint"/>.</summary>
    internal TestServer StartServer(NetworkServerOptions? options = null, EndPoint? endpoint = null)
    {
        var provider = new LineSessionProvider();
        options ??= new NetworkServerOptions();
        options.SocketIo = SocketIo;
        if (SocketIo == SocketIoModel.Epoll && !OperatingSystem.IsLinux())
            Assert.Ignore("epoll exists only on Linux.");
        var server = new NetworkServer(endpoint ?? new IPEndPoint(IPAddress.Loopback, 0), provider, options);
        _resources.Add(server);
        server.Start();
        return new TestServer(server, provider);
    }

    internal LineClient Connect(TestServer server) => Track(LineClient.Connect(server.EndPoint));

    internal LineClient ConnectTls(TestServer server) => Track(LineClient.ConnectTls(server.EndPoint));

    internal T Track<T>(T resource) where T : IDisposable
    {
        _resources.Add(resource);
        return resource;
    }

    [TearDown]
    public void DisposeResources()
    {
        // Clients first, then servers: the reverse of creation order.
        for (var i = _resources.Count - 1; i >= 0; i--)
            _resources[i].Dispose();
        _resources.Clear();
    }

    /// <summary>
    /// Waits for something the server does in the background (closing a connection, disposing a consumer).
    /// The limit only stops a broken server from hanging the run; it is not a timing assertion.
    /// </summary>
    protected static void WaitUntil(Func<bool> condition, string what)
    {
        var clock = Stopwatch.StartNew();
        while (!condition())
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(15))
                Assert.Fail($"Timed out waiting until {what}.");
            Thread.Sleep(5);
        }
    }
}
