using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Garnet.networking.Linux;

namespace Garnet.networking;

/// <summary>
/// Listens on a TCP endpoint or a Unix domain socket path and serves each accepted connection with a consumer from
/// an <see cref="ISessionProvider"/>, optionally over TLS.
/// </summary>
/// <remarks>
/// With epoll, a thread accepts with accept4 (<see cref="NativeAcceptLoop"/>) and hands each descriptor to an event
/// loop; otherwise one accept loop hands each new connection to the thread pool, and its receives complete on pool
/// threads. Either way each batch of received bytes is consumed on the thread that received it (see
/// <see cref="IMessageConsumer.TryConsumeMessages"/>). Nothing is shared between connections except the table used
/// to close them all on <see cref="Dispose"/>.
/// </remarks>
public sealed class NetworkServer : IDisposable
{
    private EndPoint[] _endpoints;
    private IReadOnlyList<bool>? _optional;
    private readonly NetworkServerOptions _options;

    /// <summary>Buffers of each kind (receive, send) kept for reuse between the batches and connections that borrow them.</summary>
    private const int MaxPooledBuffersPerKind = 64;

    /// <summary>The connections' receive and send buffers, lent while they hold bytes.</summary>
    internal PinnedBufferPool BufferPool { get; }

    /// <summary>Buffers waiting to be lent to connections (diagnostics).</summary>
    public int PooledBufferCount => BufferPool.Count;

    /// <summary>What the epoll event loops have done so far, summed over the loops (diagnostics).</summary>
    public EventLoopCounters EventLoopCounters
    {
        get
        {
            var total = default(EventLoopCounters);
            foreach (var loop in _loops)
                total += loop.Counters;
            return total;
        }
    }
    private readonly object _lock = new();
    private readonly HashSet<ConnectionHandler> _connections = [];
    private readonly CancellationTokenSource _shutdown = new();
    /// <summary>One per bound endpoint; replaced as a whole (never changed in place) when the server is rebound.</summary>
    private volatile Listener[] _listeners = [];

    /// <summary>
    /// Serializes changes of the listeners. Not <see cref="_lock"/>: closing a listener waits for its accept loop, which
    /// may be registering a connection under that lock.
    /// </summary>
    private readonly object _listenLock = new();
    private bool _started;
    /// <summary>The event loops; replaced (never changed in place) when a spare loop is added for a busy one.</summary>
    private volatile EpollLoop[] _loops = [];
    private int _nextLoop;
    private long _totalConnections;
    private long _refusedConnections;
    private volatile bool _disposed;

    /// <summary>Creates a server; nothing is bound until <see cref="Start"/>.</summary>
    /// <param name="endpoint">An <see cref="IPEndPoint"/> (port 0 picks a free port) or a <see cref="UnixDomainSocketEndPoint"/>.</param>
    /// <param name="provider">Creates the consumer of each accepted connection.</param>
    /// <param name="options">Buffer sizes, TLS and backlog; copied, so later changes have no effect.</param>
    public NetworkServer(EndPoint endpoint, ISessionProvider provider, NetworkServerOptions options)
        : this([endpoint], provider, options)
    {
    }

    /// <summary>
    /// Creates a server listening on every one of <paramref name="endpoints"/> (at least one); nothing is bound until
    /// <see cref="Start"/>. An endpoint marked in <paramref name="optional"/> is left out where this host cannot bind it.
    /// </summary>
    public NetworkServer(IReadOnlyList<EndPoint> endpoints, ISessionProvider provider, NetworkServerOptions options, IReadOnlyList<bool>? optional = null)
    {
        ArgumentNullException.ThrowIfNull(provider);
        ArgumentNullException.ThrowIfNull(options);
        _endpoints = CheckEndpoints(endpoints, allowNone: false);
        _optional = optional;
        _options = options.Clone();
        _options.Validate();
        BufferPool = new PinnedBufferPool(_options.ReceiveBufferSize, _options.SendBufferSize, MaxPooledBuffersPerKind);
        Provider = provider;
    }

    private static EndPoint[] CheckEndpoints(IReadOnlyList<EndPoint> endpoints, bool allowNone)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        if (endpoints.Count == 0 && !allowNone)
            throw new ArgumentException("At least one endpoint is needed.", nameof(endpoints));
        var copy = new EndPoint[endpoints.Count];
        for (int i = 0; i < copy.Length; i++)
        {
            if (endpoints[i] is not IPEndPoint and not UnixDomainSocketEndPoint)
                throw new ArgumentException("Only IPEndPoint and UnixDomainSocketEndPoint are supported.", nameof(endpoints));
            copy[i] = endpoints[i];
        }
        return copy;
    }

    /// <summary>Gets the first endpoint the server listens on; after <see cref="Start"/>, with the actual port if 0 was requested.</summary>
    /// <exception cref="InvalidOperationException">The server was rebound to no endpoint.</exception>
    public EndPoint BoundEndPoint => _listeners is { Length: > 0 } listeners ? listeners[0].Bound
        : _endpoints.Length > 0 ? _endpoints[0] : throw new InvalidOperationException("The server listens on no endpoint.");

    /// <summary>Gets every endpoint the server listens on (after <see cref="Start"/>, as bound).</summary>
    public IReadOnlyList<EndPoint> BoundEndPoints
    {
        get
        {
            var listeners = _listeners;
            if (listeners.Length == 0)
                return _endpoints;
            var bound = new EndPoint[listeners.Length];
            for (int i = 0; i < bound.Length; i++)
                bound[i] = listeners[i].Bound;
            return bound;
        }
    }

    /// <summary>Gets the number of connections currently open.</summary>
    public int ActiveConnections
    {
        get
        {
            lock (_lock)
                return _connections.Count;
        }
    }

    /// <summary>Gets the number of connections accepted since the server started.</summary>
    public long TotalConnections => Interlocked.Read(ref _totalConnections);

    /// <summary>The memory of the replies held for clients that do not read them, across this server's connections.</summary>
    internal HeldMemory HeldReplyMemory { get; } = new();

    /// <summary>Gets the bytes of memory holding replies for clients that do not read them (blocks of the backlogs), now.</summary>
    public long HeldReplyBytes => HeldReplyMemory.Bytes;

    /// <summary>The memory of receive buffers grown beyond the standard size for large messages (mapped from the system).</summary>
    internal HeldMemory HeldReceiveMemory { get; } = new();

    /// <summary>Gets the bytes of receive buffers grown for large messages and not yet given back, now.</summary>
    public long HeldReceiveBytes => HeldReceiveMemory.Bytes;

    /// <summary>Gets the number of connections the provider refused (see <see cref="ISessionProvider.Admit"/>).</summary>
    public long RefusedConnections => Interlocked.Read(ref _refusedConnections);

    internal ISessionProvider Provider { get; }

    /// <summary>Binds the endpoints and starts accepting connections.</summary>
    /// <exception cref="SocketException">An endpoint cannot be bound, for example because the port is taken.</exception>
    /// <exception cref="InvalidOperationException">The server was already started.</exception>
    public void Start()
    {
        lock (_listenLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_started)
                throw new InvalidOperationException("The server is already started.");
            var listeners = BindAll(_endpoints, _optional);
            try
            {
                if (_options.TlsOptions is null && UsesEpoll(_options.SocketIo))
                    _loops = StartLoops(_options.EventLoops > 0 ? _options.EventLoops : Environment.ProcessorCount);
            }
            catch
            {
                foreach (var listener in listeners)
                    listener.Dispose();
                throw;
            }
            _started = true;
            StartAccepting(listeners);
        }
    }

    /// <summary>
    /// Listens on <paramref name="endpoints"/> instead of the endpoints bound now (Redis's CONFIG SET port and bind), as
    /// Redis changes its listeners: the old ones close first (so a port can be bound again on another address), then the
    /// new ones bind; an endpoint marked in <paramref name="optional"/> that this host cannot bind (no such address or
    /// family) is left out. If a required one fails, the old endpoints are bound again and the error is thrown. Open
    /// connections are not touched. No endpoint at all stops listening (Redis's port 0).
    /// </summary>
    /// <exception cref="SocketException">A required endpoint cannot be bound.</exception>
    public void Rebind(IReadOnlyList<EndPoint> endpoints, IReadOnlyList<bool>? optional = null)
    {
        var requested = CheckEndpoints(endpoints, allowNone: true);
        lock (_listenLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (!_started)
            {
                _endpoints = requested;
                _optional = optional;
                return;
            }
            var old = _listeners;
            _listeners = [];
            foreach (var listener in old)
                listener.Dispose();
            Listener[] listeners;
            try
            {
                listeners = BindAll(requested, optional);
            }
            catch (SocketException)
            {
                StartAccepting(BindAll(_endpoints, _optional));
                throw;
            }
            _endpoints = requested;
            _optional = optional;
            StartAccepting(listeners);
        }
    }

    private Listener[] BindAll(EndPoint[] endpoints, IReadOnlyList<bool>? optional)
    {
        var listeners = new List<Listener>(endpoints.Length);
        try
        {
            for (int i = 0; i < endpoints.Length; i++)
            {
                try
                {
                    listeners.Add(Listener.Bind(endpoints[i], _options.Backlog, _shutdown.Token));
                }
                catch (SocketException e) when (optional != null && i < optional.Count && optional[i]
                    && e.SocketErrorCode is SocketError.AddressNotAvailable or SocketError.AddressFamilyNotSupported)
                {
                    // Redis's "-addr": bound only where this host has the address.
                }
            }
            // Only optional endpoints, none of them here: nothing would listen.
            if (listeners.Count == 0 && endpoints.Length > 0)
                throw new SocketException((int)SocketError.AddressNotAvailable);
        }
        catch
        {
            foreach (var listener in listeners)
                listener.Dispose();
            throw;
        }
        return [.. listeners];
    }

    private void StartAccepting(Listener[] listeners)
    {
        _listeners = listeners;
        foreach (var listener in listeners)
            listener.StartAccepting(this, _loops.Length > 0, AcceptLoopAsync);
    }

    /// <summary>
    /// Stops accepting, closes every connection (disposing its consumer) and waits until all of them have finished.
    /// When called from inside a consumer, that consumer's own connection finishes closing after its call returns.
    /// </summary>
    public void Dispose()
    {
        ConnectionHandler[] connections;
        lock (_lock)
        {
            if (_disposed)
                return;
            _disposed = true;
            connections = [.. _connections];
        }

        _shutdown.Cancel();
        lock (_listenLock)
        {
            foreach (var listener in _listeners)
                listener.Dispose();
            _listeners = [];
        }

        foreach (var connection in connections)
            connection.Abort();

        // Called from a consumer on one of our event loops: that loop cannot get back to its events until this call
        // returns, so its other connections are closed here, on its thread.
        var current = ConnectionHandler.Current;
        var currentLoop = EpollLoop.Current;
        if (currentLoop is not null && Array.IndexOf(_loops, currentLoop) >= 0)
            currentLoop.CloseAllExcept(current);

        lock (_lock)
        {
            while (_connections.Count > (current is not null && _connections.Contains(current) ? 1 : 0))
                Monitor.Wait(_lock);
        }

        // A loop disposed from its own thread stops once the current consumer returns, closing that last connection.
        foreach (var loop in _loops)
            loop.Dispose();
    }

    /// <summary>Called by a connection, once, when it has closed.</summary>
    internal void OnConnectionClosed(ConnectionHandler connection)
    {
        lock (_lock)
        {
            _connections.Remove(connection);
            if (_disposed)
                Monitor.PulseAll(_lock);
        }
        Provider.OnConnectionClosed();
    }

    private async Task AcceptLoopAsync(Listener listener)
    {
        var shutdown = listener.Stopping;
        while (!shutdown.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await listener.Socket.AcceptAsync(shutdown).ConfigureAwait(false);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException || shutdown.IsCancellationRequested)
            {
                return;
            }
            catch (SocketException e) when (NetworkErrors.IsConnectionClosed(e.SocketErrorCode))
            {
                // The client gave up before it was accepted.
                continue;
            }
            catch (SocketException)
            {
                // Typically out of file descriptors: keep serving the open connections and retry shortly.
                try
                {
                    await Task.Delay(10, shutdown).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
                continue;
            }

            // The connection outlives its listener: its TLS handshake stops with the server, not the listener.
            Accept(listener, client, _shutdown.Token);
        }
    }

    private void Accept(Listener listener, Socket client, CancellationToken shutdown)
    {
        if (!TryAdmit(listener, client))
            return;

        ConnectionHandler connection;
        try
        {
            string remote;
            if (listener.UnixSocketPath is not null)
            {
                // Clients of a Unix domain socket are normally unnamed; the path identifies both ends.
                remote = listener.UnixSocketPath;
            }
            else
            {
                client.NoDelay = true;
                SetKeepAlive(client, Provider.TcpKeepAliveSeconds);
                remote = client.RemoteEndPoint is { } ep ? Listener.FormatEndPoint(ep) : "";
            }

            string local = listener.IsWildcard && client.LocalEndPoint is { } reached ? Listener.FormatEndPoint(reached) : listener.LocalEndpoint;
            if (_options.TlsOptions is not null)
                connection = new TlsConnectionHandler(this, client, _options, local, remote, shutdown);
            else
                connection = new SocketConnectionHandler(this, client, _options, local, remote);
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException or OutOfMemoryException)
        {
            // Reset before we got to it, or no memory for its buffers: drop this one connection.
            client.Dispose();
            Provider.OnConnectionClosed();
            return;
        }
        Register(connection);
    }

    /// <summary>The address and port a client of a wildcard listener reached ("ip:port", getsockname), or null if unknown.</summary>
    private static unsafe string? LocalEndOf(int fd)
    {
        var address = stackalloc byte[NativeAcceptLoop.SockaddrStorageSize];
        int length = NativeAcceptLoop.SockaddrStorageSize;
        if (LinuxSockets.GetSockName(fd, address, &length) != 0)
            return null;
        var formatted = NativeAcceptLoop.FormatRemote(address, out _);
        return formatted.Length == 0 ? null : formatted;
    }

    /// <summary>
    /// Serves a connection the epoll servers' accept loop took with accept4 (<see cref="NativeAcceptLoop"/>): the
    /// bare descriptor, its client's "ip:port" and whether that client is on this host.
    /// </summary>
    internal void AcceptDescriptor(Listener listener, int fd, string remote, bool local)
    {
        var refusal = Provider.Admit(local || listener.UnixSocketPath is not null, tls: false);
        if (refusal is not null)
        {
            Interlocked.Increment(ref _refusedConnections);
            // Without blocking: if the socket will not take it at once, the client does not get it.
            LinuxSockets.SendOnce(fd, refusal);
            LinuxSockets.CloseDescriptor(fd);
            return;
        }

        ConnectionHandler connection;
        try
        {
            if (listener.UnixSocketPath is not null)
                remote = listener.UnixSocketPath; // clients of a Unix domain socket are normally unnamed
            else if (Provider.TcpKeepAliveSeconds is var seconds and > 0)
                LinuxSockets.SetKeepAlive(fd, seconds);
            string localEnd = listener.IsWildcard ? LocalEndOf(fd) ?? listener.LocalEndpoint : listener.LocalEndpoint;
            connection = new EpollConnectionHandler(this, fd, _options, NextLoop(), localEnd, remote);
        }
        catch (OutOfMemoryException)
        {
            LinuxSockets.CloseDescriptor(fd);
            Provider.OnConnectionClosed();
            return;
        }
        Register(connection);
    }

    /// <summary>Adds an admitted connection to the table and starts it (or closes it, if the server is being disposed).</summary>
    private void Register(ConnectionHandler connection)
    {
        lock (_lock)
        {
            if (_disposed)
            {
                // Through the connection, which may own the bare descriptor (epoll), not a socket object.
                connection.CloseForShutdown();
                return;
            }
            _connections.Add(connection);
        }
        Interlocked.Increment(ref _totalConnections);
        connection.Start();
    }

    /// <summary>
    /// Asks the provider whether <paramref name="client"/> may stay; a refused client gets the provider's message (sent
    /// without blocking: if the socket will not take it at once, the client does not get it) and is closed.
    /// </summary>
    private bool TryAdmit(Listener listener, Socket client)
    {
        byte[]? refusal;
        try
        {
            refusal = Provider.Admit(IsLocal(listener, client), _options.TlsOptions is not null);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            client.Dispose();
            return false;
        }
        if (refusal is null)
            return true;

        Interlocked.Increment(ref _refusedConnections);
        try
        {
            if (_options.TlsOptions is null && refusal.Length > 0)
            {
                client.Blocking = false;
                client.Send(refusal, SocketFlags.None, out _);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The client is gone already; it is refused all the same.
        }
        client.Dispose();
        return false;
    }

    /// <summary>Turns TCP keepalive on with Redis's timing (probes after <paramref name="seconds"/> idle, then every third of it, three times).</summary>
    private static void SetKeepAlive(Socket client, int seconds)
    {
        if (seconds <= 0)
            return;
        client.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, true);
        client.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime, seconds);
        client.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval, Math.Max(1, seconds / 3));
        client.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount, 3);
    }

    /// <summary>Whether the client is on this host: a Unix domain socket, or a loopback address (IPv4 ones mapped to IPv6 too).</summary>
    private static bool IsLocal(Listener listener, Socket client)
    {
        if (listener.UnixSocketPath is not null)
            return true;
        if (client.RemoteEndPoint is not IPEndPoint ip)
            return false;
        var address = ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address;
        return IPAddress.IsLoopback(address);
    }

    private static bool UsesEpoll(SocketIoModel model)
        => model == SocketIoModel.Epoll || (model == SocketIoModel.Auto && OperatingSystem.IsLinux());

    private EpollLoop[] StartLoops(int count)
    {
        var loops = new EpollLoop[count];
        try
        {
            for (var i = 0; i < count; i++)
                loops[i] = new EpollLoop($"Garnet event loop {i}", HandOffTarget, _options.BusyPoll, _options.ReceiveBufferSize);
        }
        catch
        {
            foreach (var loop in loops)
                loop?.Dispose();
            throw;
        }
        return loops;
    }

    /// <summary>Spreads connections over the loops in turn, passing over a loop whose thread is held by a long script.</summary>
    private EpollLoop NextLoop()
    {
        var loops = _loops;
        var next = loops[(int)((uint)Interlocked.Increment(ref _nextLoop) % (uint)loops.Length)];
        return next.IsBusy ? HandOffTarget(next) : next;
    }

    /// <summary>
    /// A loop other than <paramref name="busy"/> that is not busy itself, adding a spare loop when there is none
    /// (a single loop, or all of them held): connections must never wait for a long script to end.
    /// </summary>
    private EpollLoop HandOffTarget(EpollLoop busy)
    {
        lock (_lock)
        {
            foreach (var loop in _loops)
            {
                if (loop != busy && !loop.IsBusy)
                    return loop;
            }
            var spare = new EpollLoop($"Garnet event loop {_loops.Length}", HandOffTarget, _options.BusyPoll, _options.ReceiveBufferSize);
            _loops = [.. _loops, spare];
            return spare;
        }
    }
}
