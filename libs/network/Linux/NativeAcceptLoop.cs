using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;

namespace Garnet.networking.Linux;

/// <summary>
/// Accepts the connections of an epoll server with accept4 on a thread of its own, handing each bare descriptor to the
/// server. An accepted .NET <see cref="Socket"/> would be dropped at once (the epoll connection owns the descriptor),
/// but making it leaves about 0.6 KB of garbage per connection (the socket, its safe handle, its addresses): for a burst
/// of idle connections that is RSS until the next collection, more than an idle connection itself costs.
/// </summary>
internal sealed unsafe class NativeAcceptLoop : IDisposable
{
    internal const int SockaddrStorageSize = 128;

    private readonly NetworkServer _server;
    private readonly Listener _listener;
    private readonly int _listenFd;
    private readonly int _wakeFd;
    private readonly bool _tcp;
    private readonly Thread _thread;
    private volatile bool _stopping;

    /// <param name="server">Receives each accepted descriptor (<see cref="NetworkServer.AcceptDescriptor"/>).</param>
    /// <param name="listener">The bound, listening socket; made non-blocking here, and owned by the caller.</param>
    public NativeAcceptLoop(NetworkServer server, Listener listener)
    {
        _server = server;
        _listener = listener;
        var socket = listener.Socket;
        _tcp = socket.AddressFamily != AddressFamily.Unix;
        // The loop drains the backlog after each wake-up, until accept4 says EAGAIN.
        socket.Blocking = false;
        _listenFd = (int)socket.Handle;
        _wakeFd = LinuxSockets.CreateEventFd();
        _thread = new Thread(Run) { IsBackground = true, Name = "Garnet accept" };
    }

    public void Start() => _thread.Start();

    private void Run()
    {
        var address = stackalloc byte[SockaddrStorageSize];
        while (!_stopping)
        {
            if (LinuxSockets.PollReadable(_listenFd, _wakeFd) < 0 && LinuxSockets.Errno != LinuxSockets.EINTR)
                return;
            while (!_stopping)
            {
                int length = SockaddrStorageSize;
                int fd = LinuxSockets.Accept(_listenFd, address, &length);
                if (fd >= 0)
                {
                    Hand(fd, address);
                    continue;
                }
                int errno = LinuxSockets.Errno;
                if (errno == LinuxSockets.EAGAIN)
                    break;
                if (LinuxSockets.IsAbandonedAccept(errno))
                    continue;
                if (LinuxSockets.IsOutOfResources(errno))
                {
                    // Typically out of descriptors: keep serving the open connections and retry shortly (the listen
                    // socket stays readable, so without the pause this would spin).
                    Thread.Sleep(10);
                    break;
                }
                return; // the listen socket is gone: the server is stopping
            }
        }
    }

    private void Hand(int fd, byte* address)
    {
        string remote;
        bool local;
        if (_tcp)
        {
            remote = FormatRemote(address, out local);
            LinuxSockets.SetNoDelay(fd);
        }
        else
        {
            remote = "";
            local = true;
        }
        try
        {
            _server.AcceptDescriptor(_listener, fd, remote, local);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or OutOfMemoryException)
        {
            // No memory for this one connection: drop it, keep accepting.
            LinuxSockets.CloseDescriptor(fd);
        }
    }

    /// <summary>
    /// "ip:port" as <see cref="IPEndPoint.ToString"/> writes it, with IPv4 clients of a dual-mode socket shown as the
    /// IPv4 address they are; <paramref name="loopback"/> tells protected mode whether the client is on this host.
    /// </summary>
    internal static string FormatRemote(byte* address, out bool loopback)
    {
        ushort family = *(ushort*)address;
        int port = (address[2] << 8) | address[3];
        if (family == 2) // AF_INET: port, then the address at 4
            return FormatIPv4(address + 4, port, out loopback);
        if (family == 10) // AF_INET6: port, flow info, the address at 8, scope id at 24
        {
            var bytes = new ReadOnlySpan<byte>(address + 8, 16);
            if (bytes[..10].IndexOfAnyExcept((byte)0) < 0 && bytes[10] == 0xFF && bytes[11] == 0xFF)
                return FormatIPv4(address + 20, port, out loopback);
            var ip = new IPAddress(bytes, *(uint*)(address + 24));
            loopback = IPAddress.IsLoopback(ip);
            return new IPEndPoint(ip, port).ToString();
        }
        loopback = false;
        return "";
    }

    private static string FormatIPv4(byte* ip, int port, out bool loopback)
    {
        loopback = ip[0] == 127;
        return $"{ip[0]}.{ip[1]}.{ip[2]}.{ip[3]}:{port}";
    }

    /// <summary>Stops accepting and waits for the thread to end; the caller then closes the listen socket.</summary>
    public void Dispose()
    {
        if (_stopping)
            return;
        _stopping = true;
        LinuxSockets.Signal(_wakeFd);
        if (_thread.IsAlive && Thread.CurrentThread != _thread)
            _thread.Join();
        LinuxSockets.CloseDescriptor(_wakeFd);
    }
}
