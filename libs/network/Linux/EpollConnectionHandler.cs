using System;
using System.Net.Sockets;

namespace Garnet.networking.Linux;

/// <summary>
/// A plain (TCP or Unix domain socket) connection served by an <see cref="EpollLoop"/>: non-blocking receive and send
/// on the socket's descriptor, the consumer run on the loop's thread.
/// </summary>
/// <remarks>
/// Sends never block the loop. When the kernel will not take all of a reply (the client is not reading), the rest is
/// kept in a <see cref="SendBacklog"/>, the connection waits for writability instead of input, and the loop serves the
/// other connections meanwhile; reading resumes once the backlog has drained, which bounds what a slow reader can make
/// the server hold to the replies of one received batch. Sends may come from other threads too (pub/sub delivery,
/// blocked commands waking up), so the send state is guarded by a lock that the hot path takes uncontended.
/// <para>
/// The connection owns the bare descriptor, not a <see cref="Socket"/>: the socket object, its safe handle and its
/// cached addresses would be most of what an idle connection costs. Without the handle's reference counting, the
/// lock also orders every use of the descriptor from other threads (send, shutdown) before its close, after which
/// <see cref="_transportClosed"/> keeps them off a number the kernel may already have given to a new connection.
/// </para>
/// </remarks>
internal sealed unsafe class EpollConnectionHandler : ConnectionHandler
{
    private readonly object _sendLock = new();
    /// <summary>The loop serving the connection; it changes only when a busy loop hands the connection off.</summary>
    private EpollLoop _loop;
    private readonly int _fd;
    private readonly long _maxBacklog;
    private SendBacklog? _backlog;
    /// <summary>When the backlog first passed the soft output limit (TickCount64), 0 while under it.</summary>
    private long _overSoftLimitSince;
    private int _slot = -1;
    private ulong _token;
    private bool _registered;
    private bool _transportClosed;

    /// <summary>The backlog is waiting for the socket to become writable; input is not read meanwhile.</summary>
    private volatile bool _waitingForWritable;

    /// <summary>The consumer asked to close; the connection closes as soon as the backlog has drained.</summary>
    private volatile bool _closeWhenSent;

    /// <summary>Out of the epoll set while a thread that handed its loop over finishes this connection's batch.</summary>
    private volatile bool _held;

    /// <param name="fd">The accepted descriptor (<see cref="NativeAcceptLoop"/>); the connection owns and closes it.</param>
    public EpollConnectionHandler(NetworkServer server, int fd, NetworkServerOptions options, EpollLoop loop, string localEndpoint, string remoteEndpoint)
        : base(server, socket: null, fd, options, localEndpoint, remoteEndpoint)
    {
        _fd = fd;
        _loop = loop;
        _maxBacklog = options.MaxSendBacklog;
    }

    /// <inheritdoc />
    public override long UnsentBytes => _backlog?.Length ?? 0;

    /// <inheritdoc />
    public override bool SendMayBlock => false;

    /// <inheritdoc />
    protected override bool ReceivesByPointer => true;

    /// <inheritdoc />
    protected override int UnsentBlocks => _backlog?.Segments ?? 0;

    /// <inheritdoc />
    protected override bool WaitingToWrite => _waitingForWritable || _closeWhenSent;

    /// <summary>
    /// Creates the consumer here, on the accepting thread, so consumers are created in the order connections were
    /// accepted (client ids increase with connection order, as in Redis), then queues the connection to its loop,
    /// which starts watching the socket.
    /// </summary>
    internal override void Start()
    {
        if (TryCreateConsumer())
            _loop.Adopt(this);
    }

    protected override void Run() => throw new InvalidOperationException("Epoll connections are started by their loop.");

    /// <summary>
    /// Called by the loop, on its thread, with the slot and event token it assigned: starts watching the socket (of a
    /// new connection, or of one handed over from a busy loop).
    /// </summary>
    internal void Start(EpollLoop loop, int slot, ulong token)
    {
        _slot = slot;
        _token = token;
        try
        {
            lock (_sendLock)
            {
                _loop = loop;
                // The consumer may already have sent from another thread and hit a full socket.
                var interest = _waitingForWritable || _closeWhenSent ? LinuxSockets.EPOLLOUT : LinuxSockets.EPOLLIN;
                LinuxSockets.Add(loop.EpollDescriptor, _fd, interest, _token);
                _registered = true;
            }
        }
        catch (SocketException e)
        {
            CloseOnReceiveException(e);
        }
    }

    /// <summary>Handles what epoll reported for this connection. Loop thread only.</summary>
    internal void OnEvents(uint events)
    {
        if ((events & LinuxSockets.EPOLLOUT) != 0 && !TryDrainBacklog())
            return;
        if ((events & (LinuxSockets.EPOLLIN | LinuxSockets.EPOLLERR | LinuxSockets.EPOLLHUP)) == 0)
            return;

        if (_waitingForWritable || _closeWhenSent)
        {
            // Not reading: only a broken connection matters now (epoll always reports errors and hang-ups).
            if ((events & (LinuxSockets.EPOLLERR | LinuxSockets.EPOLLHUP)) != 0)
                Close(HasSendFailed ? CloseReason.SendFailed : CloseReason.ClientDisconnected);
            return;
        }
        Receive();
    }

    /// <summary>Stops watching the socket on the current loop, before another loop adopts the connection. Loop thread only.</summary>
    internal void Detach()
    {
        lock (_sendLock)
        {
            if (_registered)
            {
                LinuxSockets.Remove(_loop.EpollDescriptor, _fd);
                _registered = false;
            }
        }
        if (_slot >= 0)
        {
            _loop.Forget(_slot);
            _slot = -1;
        }
    }

    /// <inheritdoc />
    public override void ReleaseOtherConnections() => _loop.HandOffOthers(this);

    /// <summary>Gets whether a thread that handed its loop over is finishing this connection's batch.</summary>
    internal bool IsHeld => _held;

    /// <summary>
    /// Takes the socket out of the loop's epoll set, so the loop's next leader does not dispatch it while this thread
    /// finishes its batch (see EpollLoop.Leadership.cs); false if it is not watched (closing, or handed to another loop).
    /// </summary>
    internal bool Hold()
    {
        lock (_sendLock)
        {
            if (_transportClosed || !_registered)
                return false;
            LinuxSockets.Remove(_loop.EpollDescriptor, _fd);
            _registered = false;
            _held = true;
            return true;
        }
    }

    /// <summary>Puts the socket back in the epoll set after <see cref="Hold"/>, waiting to write if the batch left a backlog.</summary>
    internal void Unhold()
    {
        lock (_sendLock)
        {
            if (!_held)
                return;
            _held = false;
            if (_transportClosed)
                return;
            var interest = _waitingForWritable || _closeWhenSent ? LinuxSockets.EPOLLOUT : LinuxSockets.EPOLLIN;
            try
            {
                LinuxSockets.Add(_loop.EpollDescriptor, _fd, interest, _token);
                _registered = true;
            }
            catch (SocketException)
            {
                // The loop is stopping (its epoll set is being closed); the connection closes with it.
                _ = LinuxSockets.Shutdown(_fd, SocketShutdown.Both);
            }
        }
    }

    /// <summary>Closes the connection after an unexpected failure in the loop's handling of it.</summary>
    internal void CloseAfterLoopError(Exception e) => Close(CloseReason.ReceiveError, e);

    /// <summary>One receive per readiness report; level-triggered epoll reports the connection again if more is waiting.</summary>
    private void Receive()
    {
        if (HasNoReceiveBuffer)
            BorrowReceiveBuffer(_loop.ReceiveBuffer);
        var received = LinuxSockets.Receive(_fd, ReceivePointer + ReceiveOffset, ReceiveCount);
        if (received > 0)
        {
            OnReceived((int)received);
            return;
        }
        if (received == 0)
        {
            Close(CloseReason.ClientDisconnected);
            return;
        }

        var errno = LinuxSockets.Errno;
        if (errno is LinuxSockets.EAGAIN or LinuxSockets.EINTR)
        {
            EndBorrowedReceive();
            return;
        }
        CloseOnReceiveError(LinuxSockets.ToSocketError(errno));
    }

    protected override void SendCore(byte[] buffer, int length)
    {
        lock (_sendLock)
        {
            ObjectDisposedException.ThrowIf(_transportClosed, this);

            var bytes = SendBufferStart;
            var sent = 0;
            if (_backlog is null || _backlog.IsEmpty)
            {
                var descriptor = new DescriptorSend(_fd);
                int taken;
                while (sent < length && (taken = descriptor.Send(bytes + sent, length - sent)) > 0)
                    sent += taken;
                if (sent == length)
                    return;
            }

            _backlog ??= new SendBacklog(Server.HeldReplyMemory);
            long unsent = _backlog.Length + (length - sent);
            var limits = OutputLimits;
            bool limitPassed = limits is not null && limits.IsPassed(unsent, ref _overSoftLimitSince);
            if (limitPassed || unsent > _maxBacklog)
            {
                // A client that does not read must not make the server hold its replies without bound (Redis's
                // client-output-buffer-limit; _maxBacklog is a backstop for classes without a limit).
                if (limitPassed)
                    limits!.CountDisconnection();
                _ = LinuxSockets.Shutdown(_fd, SocketShutdown.Both);
                _backlog.Clear();
                throw new SocketException((int)SocketError.NoBufferSpaceAvailable);
            }
            _backlog.Append(bytes + sent, length - sent);
            if (!_waitingForWritable)
            {
                _waitingForWritable = true;
                if (_registered)
                    LinuxSockets.Modify(_loop.EpollDescriptor, _fd, LinuxSockets.EPOLLOUT, _token);
            }
        }
    }

    /// <summary>Sends what the backlog holds; returns <see langword="false"/> if the connection closed.</summary>
    private bool TryDrainBacklog()
    {
        SocketException? error = null;
        bool closeNow;
        lock (_sendLock)
        {
            if (_transportClosed)
                return false;
            if (_backlog is { IsEmpty: false })
            {
                var descriptor = new DescriptorSend(_fd);
                try
                {
                    if (!_backlog.TryDrain(ref descriptor))
                        return true;
                }
                catch (SocketException e)
                {
                    error = e;
                }
            }

            closeNow = error is null && _closeWhenSent;
            if (error is null)
            {
                _waitingForWritable = false;
                if (!closeNow)
                    LinuxSockets.Modify(_loop.EpollDescriptor, _fd, LinuxSockets.EPOLLIN, _token);
            }
        }

        if (error is not null)
        {
            Close(CloseReason.SendFailed, error);
            return false;
        }
        if (closeNow)
        {
            Close(CloseReason.CloseRequested);
            return false;
        }
        return true;
    }

    /// <summary>QUIT and protocol errors: the replies already queued still go out before the connection closes.</summary>
    protected override void CloseWhenSent()
    {
        lock (_sendLock)
        {
            if (_backlog is { IsEmpty: false })
            {
                _closeWhenSent = true;
                return;
            }
        }
        base.CloseWhenSent();
    }

    /// <summary>Wakes the loop (a pending read returns end of stream) instead of closing the descriptor under it.</summary>
    protected override void AbortTransport() => ShutdownTransport(SocketShutdown.Both);

    /// <inheritdoc />
    protected override void ShutdownTransport(SocketShutdown how)
    {
        lock (_sendLock)
        {
            // Failure means it is already reset or shut: the loop has seen, or will see, the hang-up.
            if (!_transportClosed)
                _ = LinuxSockets.Shutdown(_fd, how);
        }
    }

    /// <summary>Sends FIN after the replies and discards request bytes already received (see the base).</summary>
    protected override void DrainBeforeClose()
    {
        lock (_sendLock)
        {
            if (_transportClosed || LinuxSockets.Shutdown(_fd, SocketShutdown.Send) != 0)
                return;
        }
        // The loop thread closes the descriptor, and this is the loop thread: no lock needed to read from it.
        var scratch = stackalloc byte[16 * 1024];
        for (var i = 0; i < 64 && LinuxSockets.Receive(_fd, scratch, 16 * 1024) > 0; i++)
        {
        }
    }

    protected override void DisposeTransport()
    {
        lock (_sendLock)
        {
            _transportClosed = true;
            if (_registered)
            {
                LinuxSockets.Remove(_loop.EpollDescriptor, _fd);
                _registered = false;
            }
            _backlog?.Clear();
            LinuxSockets.CloseDescriptor(_fd);
        }
        if (_slot >= 0)
        {
            _loop.Forget(_slot);
            _slot = -1;
        }
    }

    /// <summary>Non-blocking send on a descriptor: bytes taken, 0 if the socket is full, or a <see cref="SocketException"/>.</summary>
    private readonly struct DescriptorSend(int fd) : SendBacklog.ISendBytes
    {
        public int Send(byte* bytes, int count)
        {
            while (true)
            {
                var sent = LinuxSockets.Send(fd, bytes, count);
                if (sent >= 0)
                    return (int)sent;
                var errno = LinuxSockets.Errno;
                if (errno == LinuxSockets.EINTR)
                    continue;
                if (errno == LinuxSockets.EAGAIN)
                    return 0;
                throw new SocketException((int)LinuxSockets.ToSocketError(errno));
            }
        }
    }
}
