using System;
using System.Net.Sockets;

namespace Garnet.networking;

/// <summary>
/// A plain (TCP or Unix domain socket) connection: receives with one reusable <see cref="SocketAsyncEventArgs"/> and
/// runs the consumer on the thread that completed the receive.
/// </summary>
internal sealed class SocketConnectionHandler : ConnectionHandler
{
    private readonly SocketAsyncEventArgs _receiveArgs;

    public SocketConnectionHandler(NetworkServer server, Socket socket, NetworkServerOptions options, string localEndpoint, string remoteEndpoint)
        : base(server, socket, socket.Handle.ToInt64(), options, localEndpoint, remoteEndpoint)
    {
        _receiveArgs = new SocketAsyncEventArgs();
        _receiveArgs.Completed += OnReceiveCompleted;
    }

    protected override void Run()
    {
        if (TryCreateConsumer())
            ReceiveLoop();
    }

    /// <summary>
    /// Issues receives until one goes pending; a receive that completes synchronously is handled here, in the loop,
    /// rather than by recursion, so a fast sender cannot grow the stack.
    /// </summary>
    private void ReceiveLoop()
    {
        while (true)
        {
            bool pending;
            try
            {
                _receiveArgs.SetBuffer(ReceiveArray, ReceiveOffset, ReceiveCount);
                pending = Socket.ReceiveAsync(_receiveArgs);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                CloseOnReceiveException(e);
                return;
            }

            if (pending || !HandleReceiveCompleted())
                return;
        }
    }

    /// <summary>Continues the flow on the thread that completed a pending receive.</summary>
    private void OnReceiveCompleted(object? sender, SocketAsyncEventArgs e)
    {
        if (HandleReceiveCompleted())
            ReceiveLoop();
    }

    /// <summary>Returns <see langword="true"/> to receive again, or <see langword="false"/> once the connection is closed.</summary>
    private bool HandleReceiveCompleted()
    {
        if (_receiveArgs.SocketError != SocketError.Success)
        {
            CloseOnReceiveError(_receiveArgs.SocketError);
            return false;
        }
        if (_receiveArgs.BytesTransferred == 0)
        {
            Close(CloseReason.ClientDisconnected);
            return false;
        }
        return OnReceivedOnPoolThread(_receiveArgs.BytesTransferred);
    }

    protected override void SendCore(byte[] buffer, int length)
    {
        var sent = 0;
        while (sent < length)
        {
            var n = Socket.Send(buffer, sent, length - sent, SocketFlags.None);
            if (n <= 0)
                throw new SocketException((int)SocketError.ConnectionAborted);
            sent += n;
        }
    }

    protected override void DisposeTransport() => _receiveArgs.Dispose();
}
