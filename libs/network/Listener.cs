using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Garnet.networking.Linux;

namespace Garnet.networking;

/// <summary>
/// One listening socket of a <see cref="NetworkServer"/> (a TCP address and port, or a Unix domain socket path) and the
/// loop that accepts on it. A server has one per bound address and replaces them when rebound (CONFIG SET port / bind);
/// the connections a listener accepted do not depend on it and outlive it.
/// </summary>
internal sealed class Listener : IDisposable
{
    private readonly Socket _socket;
    private readonly CancellationTokenSource _stop;
    private NativeAcceptLoop? _nativeAccept;
    private Task? _acceptLoop;
    private bool _disposed;

    private Listener(Socket socket, EndPoint bound, string? unixSocketPath, CancellationToken serverShutdown)
    {
        _socket = socket;
        Bound = bound;
        UnixSocketPath = unixSocketPath;
        LocalEndpoint = unixSocketPath ?? FormatEndPoint(bound);
        _stop = CancellationTokenSource.CreateLinkedTokenSource(serverShutdown);
    }

    /// <summary>The endpoint bound, with the actual port if 0 was asked for.</summary>
    public EndPoint Bound { get; }

    /// <summary>The path of a Unix domain socket listener (which owns the file and deletes it when disposed), else null.</summary>
    public string? UnixSocketPath { get; }

    /// <summary>"ip:port" (or the socket path) as connections report their local end.</summary>
    public string LocalEndpoint { get; }

    /// <summary>
    /// Whether the listener is bound to every address of the host (0.0.0.0 or ::): then each connection's local end is
    /// the address its client reached (getsockname), as Redis's CLIENT LIST laddr shows it, not <see cref="LocalEndpoint"/>.
    /// </summary>
    public bool IsWildcard => Bound is IPEndPoint ip && (ip.Address.Equals(IPAddress.Any) || ip.Address.Equals(IPAddress.IPv6Any));

    /// <summary>The listening socket (accept4 takes its descriptor).</summary>
    public Socket Socket => _socket;

    /// <summary>Stops this listener's accept loop (not the server's connections).</summary>
    public CancellationToken Stopping => _stop.Token;

    /// <summary>Binds <paramref name="endpoint"/> and listens; nothing is accepted until <see cref="StartAccepting"/>.</summary>
    /// <exception cref="SocketException">The endpoint cannot be bound (taken, not an address of this host ...).</exception>
    public static Listener Bind(EndPoint endpoint, int backlog, CancellationToken serverShutdown)
    {
        Socket socket;
        string? unixSocketPath = null;
        if (endpoint is UnixDomainSocketEndPoint)
        {
            unixSocketPath = endpoint.ToString()!;
            RemoveStaleSocketFile(endpoint, unixSocketPath);
            socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        }
        else
        {
            var ip = (IPEndPoint)endpoint;
            socket = new Socket(ip.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
            if (ip.AddressFamily == AddressFamily.InterNetworkV6 && ip.Address.Equals(IPAddress.IPv6Any))
                socket.DualMode = true;
        }
        try
        {
            socket.Bind(endpoint);
            socket.Listen(backlog);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        // Only a listener that bound the path owns the file and deletes it when disposed.
        return new Listener(socket, socket.LocalEndPoint ?? endpoint, unixSocketPath, serverShutdown);
    }

    /// <summary>Starts accepting: with accept4 on a thread of its own (epoll servers), else with an asynchronous loop.</summary>
    public void StartAccepting(NetworkServer server, bool native, Func<Listener, Task> acceptLoop)
    {
        if (native)
        {
            _nativeAccept = new NativeAcceptLoop(server, this);
            _nativeAccept.Start();
        }
        else
        {
            _acceptLoop = acceptLoop(this);
        }
    }

    /// <summary>Stops accepting and closes the socket (deleting a Unix socket's file); accepted connections go on.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _stop.Cancel();
        _nativeAccept?.Dispose();
        _socket.Dispose();
        _acceptLoop?.GetAwaiter().GetResult();
        _stop.Dispose();
        if (UnixSocketPath is not null)
            TryDeleteFile(UnixSocketPath);
    }

    internal static string FormatEndPoint(EndPoint endpoint)
    {
        if (endpoint is IPEndPoint ip)
        {
            // Dual-mode sockets report IPv4 clients as ::ffff:a.b.c.d; show them as the IPv4 address they are.
            var address = ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address;
            return new IPEndPoint(address, ip.Port).ToString();
        }
        return endpoint.ToString() ?? "";
    }

    /// <summary>
    /// Deletes a socket file left behind by a server that is gone; refuses (as bind would for a TCP port) when a
    /// server is still listening on it.
    /// </summary>
    private static void RemoveStaleSocketFile(EndPoint endpoint, string path)
    {
        if (!File.Exists(path))
            return;

        using (var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified))
        {
            try
            {
                probe.Connect(endpoint);
            }
            catch (SocketException)
            {
                TryDeleteFile(path);
                return;
            }
        }
        throw new SocketException((int)SocketError.AddressAlreadyInUse);
    }

    private static void TryDeleteFile(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Best effort: a leftover file is removed by the next server that binds the path.
        }
    }
}
