using System;
using System.Net.Sockets;
using System.Threading;

namespace Garnet.networking;

/// <summary>
/// One accepted connection: owns its socket and its consumer, holds pinned receive and send buffers while it has
/// bytes in them, and runs the receive-consume loop. Subclasses supply the transport (raw socket or TLS stream).
/// </summary>
/// <remarks>
/// Buffers are lent, not owned: the send buffer from when the consumer first writes until it releases it
/// (<see cref="ReleaseSendBuffer"/>), and, for transports that receive on their own thread
/// (<see cref="ReceivesByPointer"/>), the receive buffer only while a partial command waits in it; otherwise they
/// receive into their thread's buffer (<see cref="BorrowReceiveBuffer"/>). An idle connection then holds no buffer.
/// </remarks>
/// <remarks>
/// Threading: the connection has a single logical receive flow. It starts on a thread-pool thread, and each receive
/// completion continues it on the thread that completed the receive; the consumer runs on that thread with no
/// hand-off. Only this flow calls the consumer and only this flow closes the connection (<see cref="Close"/>), which
/// is what makes <see cref="IDisposable.Dispose"/> of the consumer happen exactly once and never concurrently with
/// <see cref="IMessageConsumer.TryConsumeMessages"/>. Other threads (server shutdown, a consumer sending from elsewhere)
/// only shut the socket down, which makes a pending receive complete and the flow close.
/// </remarks>
internal abstract unsafe class ConnectionHandler : INetworkSender, IThreadPoolWorkItem
{
    /// <summary>The connection whose consumer is running on this thread, if any.</summary>
    [ThreadStatic]
    private static ConnectionHandler? t_consuming;

    private readonly NetworkServer _server;
    private readonly int _initialReceiveBufferSize;
    private readonly int _maxReceiveBufferSize;
    private readonly int _sendBufferSize;
    /// <summary>The lent send buffer, or empty (null pointer) while the consumer holds none.</summary>
    private PinnedBuffer _sendBuffer;
    /// <summary>The receive buffer: the connection's own, the receiving thread's (<see cref="_receiveBorrowed"/>), or empty.</summary>
    private PinnedBuffer _receiveBuffer;
    private bool _receiveBorrowed;
    private int _bytesInBuffer;
    private int _peakBytesInBuffer;
    private readonly long _descriptor;
    private IMessageConsumer? _consumer;
    private Exception? _sendError;
    private volatile bool _sendFailed;
    private volatile bool _closeRequested;
    private volatile bool _dropRequested;
    private volatile bool _aborted;
    private int _closed;

    private readonly Socket? _socket;

    /// <param name="server">The server the connection belongs to.</param>
    /// <param name="socket">The connection's socket, or null for a transport that owns the bare descriptor.</param>
    /// <param name="descriptor">The socket's descriptor (or handle).</param>
    /// <param name="options">Buffer sizes.</param>
    /// <param name="localEndpoint">The server's end, as CLIENT LIST shows it.</param>
    /// <param name="remoteEndpoint">The client's end.</param>
    protected ConnectionHandler(NetworkServer server, Socket? socket, long descriptor, NetworkServerOptions options, string localEndpoint, string remoteEndpoint)
    {
        _server = server;
        _socket = socket;
        _descriptor = descriptor;
        LocalEndpoint = localEndpoint;
        RemoteEndpoint = remoteEndpoint;
        _initialReceiveBufferSize = options.ReceiveBufferSize;
        _maxReceiveBufferSize = options.MaxReceiveBufferSize;
        _sendBufferSize = options.SendBufferSize;
        // Transports that receive by pointer borrow their thread's buffer; the others keep one for a pending receive.
        if (!ReceivesByPointer)
            _receiveBuffer = server.BufferPool.RentReceive();
    }

    /// <summary>Gets the connection whose consumer is running on the calling thread, or <see langword="null"/>.</summary>
    internal static ConnectionHandler? Current => t_consuming;

    /// <inheritdoc />
    public byte* SendBufferStart
    {
        get
        {
            if (_sendBuffer.Pointer == null)
                _sendBuffer = _server.BufferPool.RentSend();
            return _sendBuffer.Pointer;
        }
    }

    /// <inheritdoc />
    public int SendBufferLength => _sendBufferSize;

    /// <inheritdoc />
    public void ReleaseSendBuffer()
    {
        var buffer = _sendBuffer;
        if (buffer.Pointer == null)
            return;
        _sendBuffer = default;
        _server.BufferPool.ReturnSend(buffer);
    }

    /// <inheritdoc />
    public virtual long UnsentBytes => 0;

    /// <summary>The output limit of the connection's class of clients, or null for none (see <see cref="UseOutputLimit"/>).</summary>
    protected OutputLimitClass? OutputLimits { get; private set; }

    /// <inheritdoc />
    public void UseOutputLimit(OutputLimitClass limits) => OutputLimits = limits;

    /// <inheritdoc />
    public virtual bool SendMayBlock => true;

    /// <inheritdoc />
    public ConnectionBuffers Buffers
        => new(_descriptor, Volatile.Read(ref _bytesInBuffer), _receiveBorrowed ? Volatile.Read(ref _bytesInBuffer) : _receiveBuffer.Length, Volatile.Read(ref _peakBytesInBuffer),
            _sendBuffer.Array?.Length ?? 0, UnsentBytes, UnsentBlocks, WaitingToWrite);

    /// <summary>Gets the number of blocks <see cref="UnsentBytes"/> are kept in.</summary>
    protected virtual int UnsentBlocks => 0;

    /// <summary>Gets whether the connection waits for the socket to become writable, reading nothing meanwhile.</summary>
    protected virtual bool WaitingToWrite => false;

    /// <inheritdoc />
    /// <remarks>Threads that serve one connection each (async sockets, TLS) have nobody else to release.</remarks>
    public virtual void ReleaseOtherConnections()
    {
    }

    /// <inheritdoc />
    public string RemoteEndpoint { get; }

    /// <inheritdoc />
    public string LocalEndpoint { get; }

    /// <summary>Gets the socket's descriptor (or handle).</summary>
    protected long Descriptor => _descriptor;

    /// <summary>Gets the socket of a transport built on one (all but those that own the bare descriptor).</summary>
    protected Socket Socket => _socket ?? throw new InvalidOperationException("This transport owns a bare descriptor.");

    /// <summary>Gets the server the connection belongs to.</summary>
    protected NetworkServer Server => _server;

    /// <summary>Gets the array to receive into; it changes when the buffer grows. Only for transports that do not <see cref="ReceivesByPointer"/>.</summary>
    protected byte[] ReceiveArray => _receiveBuffer.Array ?? throw new InvalidOperationException("The receive buffer is mapped memory; receive by pointer.");

    /// <summary>
    /// Whether the transport receives into <see cref="ReceivePointer"/> on its own thread (never into
    /// <see cref="ReceiveArray"/>): a buffer grown for a large message is then mapped from the system and given back to
    /// it as soon as the message is done or the connection closes.
    /// </summary>
    protected virtual bool ReceivesByPointer => false;

    /// <summary>Gets the address of the receive buffer; it changes when the buffer grows.</summary>
    protected byte* ReceivePointer => _receiveBuffer.Pointer;

    /// <summary>Gets whether the connection holds no receive buffer (nothing partial is waiting); see <see cref="BorrowReceiveBuffer"/>.</summary>
    protected bool HasNoReceiveBuffer => _receiveBuffer.Pointer == null;

    /// <summary>
    /// Receives the next bytes into <paramref name="threadBuffer"/>, a buffer of the receiving thread's, when the
    /// connection holds none (<see cref="HasNoReceiveBuffer"/>); after the consumer ran, a partial command left in it is
    /// copied to a buffer of the connection's own. Only for transports that <see cref="ReceivesByPointer"/>.
    /// </summary>
    protected void BorrowReceiveBuffer(PinnedBuffer threadBuffer)
    {
        _receiveBuffer = threadBuffer;
        _receiveBorrowed = true;
    }

    /// <summary>Hands back the thread's buffer after a receive that brought nothing (it must never outlive the receive).</summary>
    protected void EndBorrowedReceive()
    {
        if (_receiveBorrowed)
            GiveUpReceiveBuffer();
    }

    /// <summary>Gets whether a send failed (the connection is broken and closes).</summary>
    protected bool HasSendFailed => _sendFailed;

    /// <summary>Gets where the next received bytes go: after the bytes the consumer left unconsumed.</summary>
    protected int ReceiveOffset => _bytesInBuffer;

    /// <summary>Gets how many bytes the next receive may write.</summary>
    protected int ReceiveCount => _receiveBuffer.Length - _bytesInBuffer;

    /// <summary>Gets why the connection closed, once it has.</summary>
    internal CloseReason? ClosedBecause { get; private set; }

    /// <summary>Gets the error that closed the connection, if one did.</summary>
    internal Exception? CloseError { get; private set; }

    /// <summary>Starts the receive flow on a thread-pool thread, so that the accept loop never runs a consumer.</summary>
    internal virtual void Start() => ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);

    void IThreadPoolWorkItem.Execute() => Run();

    /// <summary>Runs the receive flow: create the consumer (after any handshake), then receive until the connection closes.</summary>
    protected abstract void Run();

    /// <summary>Sends <paramref name="length"/> bytes from the start of <paramref name="buffer"/>, blocking until all are handed to the transport.</summary>
    protected abstract void SendCore(byte[] buffer, int length);

    /// <summary>Releases the transport (socket, stream, event args). Called once, from <see cref="Close"/>.</summary>
    protected abstract void DisposeTransport();

    /// <inheritdoc />
    public bool Send(int length)
    {
        if ((uint)length > (uint)_sendBuffer.Length)
            ThrowSendLengthOutOfRange(length);
        if (_sendFailed)
            return false;
        if (length == 0)
            return true;

        try
        {
            SendCore(_sendBuffer.Array ?? throw new InvalidOperationException("Send without a send buffer."), length);
            return true;
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or System.IO.IOException)
        {
            _sendError = e;
            _sendFailed = true;
            return false;
        }
    }

    /// <inheritdoc />
    public void CloseAfterSend()
    {
        _closeRequested = true;

        // Inside TryConsumeMessages the flow closes as soon as the call returns. From any other thread, wake the
        // flow: a pending receive completes with end-of-stream once the socket is shut down. Everything sent so far is
        // already with the kernel (Send is synchronous), and the FIN queues behind it.
        if (t_consuming != this)
            ShutdownTransport(SocketShutdown.Both);
    }

    /// <inheritdoc />
    public void CloseDroppingUnsent()
    {
        _dropRequested = true;
        _closeRequested = true;
        // Shut the socket in every case: a connection waiting to write to a client that does not read is woken by the
        // hang-up and closes (dropping its backlog) instead of waiting for the client; inside the consumer, the sends
        // of the rest of its batch fail, which is what dropping means.
        ShutdownTransport(SocketShutdown.Both);
    }

    /// <summary>Ends the connection on behalf of the server (shutdown). Callable from any thread.</summary>
    internal void Abort()
    {
        _aborted = true;
        AbortTransport();
    }

    /// <summary>Makes the receive flow end soon; by default by closing the socket under it, which fails its pending receive.</summary>
    protected virtual void AbortTransport() => Socket.Dispose();

    /// <summary>Shuts the socket down in <paramref name="how"/>; callable from any thread, harmless once closed.</summary>
    protected virtual void ShutdownTransport(SocketShutdown how)
    {
        try
        {
            Socket.Shutdown(how);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already closed or reset.
        }
    }

    /// <summary>Closes the connection for a server shutdown, from the thread that owns its receive flow.</summary>
    internal void CloseForShutdown() => Close(CloseReason.ServerShutdown);

    /// <summary>Closes the connection after the consumer asked to (<see cref="CloseAfterSend"/>) and its replies are out.</summary>
    protected virtual void CloseWhenSent() => Close(CloseReason.CloseRequested);

    /// <summary>Creates the consumer; returns <see langword="false"/> (having closed the connection) if that fails.</summary>
    protected bool TryCreateConsumer()
    {
        if (_aborted)
        {
            Close(CloseReason.ServerShutdown);
            return false;
        }

        try
        {
            _consumer = _server.Provider.CreateConsumer(this);
            return true;
        }
        catch (Exception e)
        {
            // A provider failure is confined to this connection, whatever it is.
            Close(CloseReason.ConsumerError, e);
            return false;
        }
    }

    /// <summary>
    /// <see cref="OnReceived"/> on a thread-pool thread (asynchronous sockets, TLS): the device reads the batch waits for
    /// are told to <see cref="PoolThreadReads"/>, so the pool keeps threads for the other connections meanwhile.
    /// </summary>
    protected bool OnReceivedOnPoolThread(int bytesReceived)
    {
        Tsavorite.BlockingReads.Observer = PoolThreadReads.Instance;
        try
        {
            return OnReceived(bytesReceived);
        }
        finally
        {
            Tsavorite.BlockingReads.Observer = null;
        }
    }

    /// <summary>
    /// Offers the buffered bytes, including <paramref name="bytesReceived"/> new ones, to the consumer and keeps what it
    /// left. Returns <see langword="true"/> to keep receiving, or <see langword="false"/> after closing the connection.
    /// </summary>
    protected bool OnReceived(int bytesReceived)
    {
        _bytesInBuffer += bytesReceived;
        if (_bytesInBuffer > _peakBytesInBuffer)
            _peakBytesInBuffer = _bytesInBuffer;
        var buffer = _receiveBuffer.Pointer;

        int consumed = 0;
        Exception? consumerError = null;
        t_consuming = this;
        try
        {
            consumed = _consumer!.TryConsumeMessages(buffer, _bytesInBuffer);
        }
        catch (Exception e)
        {
            // Whatever the consumer throws ends its own connection, never the server.
            consumerError = e;
        }
        finally
        {
            t_consuming = null;
        }

        if (consumerError is not null)
        {
            Close(CloseReason.ConsumerError, consumerError);
            return false;
        }
        if ((uint)consumed > (uint)_bytesInBuffer)
        {
            Close(CloseReason.ConsumerError, new InvalidOperationException($"The consumer reported {consumed} bytes consumed out of {_bytesInBuffer}."));
            return false;
        }
        if (_closeRequested)
        {
            if (_dropRequested)
                Close(CloseReason.Dropped);
            else
                CloseWhenSent();
            return false;
        }
        if (_sendFailed)
        {
            Close(CloseReason.SendFailed, _sendError);
            return false;
        }

        var remaining = _bytesInBuffer - consumed;
        if (consumed > 0 && remaining > 0)
            Buffer.MemoryCopy(buffer + consumed, buffer, _receiveBuffer.Length, remaining);
        _bytesInBuffer = remaining;

        if (remaining == 0)
        {
            if (ReceivesByPointer)
            {
                // Nothing partial: the connection gives its buffer back and receives into its thread's next time. The
                // peak (CLIENT LIST rbp) starts over only after a buffer grown for a large message, as before.
                if (_receiveBuffer.Length > _initialReceiveBufferSize)
                    _peakBytesInBuffer = 0;
                GiveUpReceiveBuffer();
            }
            else if (_receiveBuffer.Length > _initialReceiveBufferSize)
            {
                // A buffer that grew for one large message goes back to the normal size once that message is done.
                ReleaseReceiveBuffer();
                _receiveBuffer = _server.BufferPool.RentReceive();
                _peakBytesInBuffer = 0;
            }
        }
        else if (remaining == _receiveBuffer.Length)
        {
            if (!TryGrowReceiveBuffer())
            {
                Close(CloseReason.MessageTooLarge);
                return false;
            }
        }
        else if (_receiveBorrowed)
        {
            // The thread's buffer serves the next connection: the partial command moves to one of this connection's own.
            var own = _server.BufferPool.RentReceive();
            Buffer.MemoryCopy(_receiveBuffer.Pointer, own.Pointer, own.Length, remaining);
            _receiveBuffer = own;
            _receiveBorrowed = false;
        }
        return true;
    }

    /// <summary>Drops the receive buffer (returned to the pool, given back to the system, or the thread's, left to it).</summary>
    private void GiveUpReceiveBuffer()
    {
        if (_receiveBorrowed)
            _receiveBorrowed = false;
        else if (_receiveBuffer.IsMapped)
            ReleaseReceiveBuffer();
        else if (_receiveBuffer.Pointer != null)
            _server.BufferPool.ReturnReceive(_receiveBuffer);
        _receiveBuffer = default;
    }

    /// <summary>Closes the connection after a receive completed with <paramref name="error"/>.</summary>
    protected void CloseOnReceiveError(SocketError error)
        => Close(NetworkErrors.IsConnectionClosed(error) ? CloseReason.ClientDisconnected : CloseReason.ReceiveError,
                 error == SocketError.Success ? null : new SocketException((int)error));

    /// <summary>Closes the connection after a receive threw <paramref name="e"/>.</summary>
    protected void CloseOnReceiveException(Exception e)
        => Close(NetworkErrors.IsConnectionClosed(e) ? CloseReason.ClientDisconnected : CloseReason.ReceiveError, e);

    /// <summary>
    /// The one place a connection ends: closes the transport, disposes the consumer and leaves the server's table.
    /// Called only by the receive flow, so it never overlaps the consumer; the guard makes a second call harmless.
    /// </summary>
    /// <remarks>
    /// <paramref name="reason"/> and <paramref name="error"/> are what a logger reports here: ConsumerError,
    /// ReceiveError and HandshakeFailed as errors, the rest as routine.
    /// </remarks>
    protected void Close(CloseReason reason, Exception? error = null)
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
            return;

        if (_aborted)
            reason = CloseReason.ServerShutdown;
        else if (_dropRequested)
            reason = CloseReason.Dropped;
        else if (_closeRequested && reason == CloseReason.ClientDisconnected)
            reason = CloseReason.CloseRequested;
        ClosedBecause = reason;
        CloseError = error;

        if (reason == CloseReason.CloseRequested)
            DrainBeforeClose();
        DisposeTransport();
        _socket?.Dispose();

        if (_consumer is not null)
        {
            try
            {
                _consumer.Dispose();
            }
            catch (Exception)
            {
                // The connection is gone either way; a consumer failing to clean up must not take the thread down.
            }
        }

        // Only this connection's own receive loop closes it, after its last socket operation and consumer call, so
        // nothing can touch the receive buffer any more. A send buffer the consumer still holds is left to the GC: a
        // thread delivering to it late may still have its address, so it must not serve another connection.
        GiveUpReceiveBuffer();
        _sendBuffer = default;
        _server.OnConnectionClosed(this);
    }

    /// <summary>
    /// Sends FIN after the replies and discards request bytes that already arrived: closing a socket with unread
    /// input makes the kernel send RST, which can destroy replies the client has not read yet.
    /// </summary>
    protected virtual void DrainBeforeClose()
    {
        try
        {
            Socket.Shutdown(SocketShutdown.Send);
            Span<byte> scratch = stackalloc byte[16 * 1024];
            for (var i = 0; i < 64 && Socket.Available > 0; i++)
            {
                if (Socket.Receive(scratch[..Math.Min(Socket.Available, scratch.Length)], SocketFlags.None) == 0)
                    break;
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already broken: nothing left to be graceful about.
        }
    }

    private bool TryGrowReceiveBuffer()
    {
        var length = _receiveBuffer.Length;
        var newLength = Math.Min((long)length * 2, _maxReceiveBufferSize);
        if (newLength <= length)
            return false;

        PinnedBuffer grown;
        try
        {
            grown = ReceivesByPointer ? PinnedBuffer.AllocateFromSystem((int)newLength) : PinnedBuffer.Allocate((int)newLength);
        }
        catch (OutOfMemoryException)
        {
            return false;
        }
        if (grown.IsMapped)
            _server.HeldReceiveMemory.Add(grown.Length);
        Buffer.MemoryCopy(_receiveBuffer.Pointer, grown.Pointer, grown.Length, _bytesInBuffer);
        GiveUpReceiveBuffer();
        _receiveBuffer = grown;
        return true;
    }

    /// <summary>Gives a mapped receive buffer back to the system (arrays are pooled or left to the GC by the caller).</summary>
    private void ReleaseReceiveBuffer()
    {
        if (!_receiveBuffer.IsMapped)
            return;
        _server.HeldReceiveMemory.Add(-_receiveBuffer.Length);
        _receiveBuffer.FreeIfMapped();
    }

    private static void ThrowSendLengthOutOfRange(int length)
        => throw new ArgumentOutOfRangeException(nameof(length), length, "Must be between 0 and SendBufferLength.");
}
