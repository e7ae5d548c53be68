using System;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Threading;
using System.Threading.Tasks;

namespace Garnet.networking;

/// <summary>
/// A TLS connection: an <see cref="SslStream"/> over the socket. Decrypted bytes are read straight into the receive
/// buffer and go through the same consume step as plain connections; the continuation after each read runs the
/// consumer on the thread that completed it.
/// </summary>
internal sealed class TlsConnectionHandler : ConnectionHandler
{
    private readonly SslServerAuthenticationOptions _tlsOptions;
    private readonly TimeSpan _handshakeTimeout;
    private readonly CancellationToken _serverShutdown;
    private readonly SslStream _stream;

    public TlsConnectionHandler(NetworkServer server, Socket socket, NetworkServerOptions options, string localEndpoint, string remoteEndpoint, CancellationToken serverShutdown)
        : base(server, socket, socket.Handle.ToInt64(), options, localEndpoint, remoteEndpoint)
    {
        _tlsOptions = options.TlsOptions!;
        _handshakeTimeout = options.TlsHandshakeTimeout;
        _serverShutdown = serverShutdown;
        _stream = new SslStream(new NetworkStream(socket, ownsSocket: true), leaveInnerStreamOpen: false);
    }

    protected override void Run() => _ = RunAsync();

    /// <summary>Handshake, then read and consume until the connection closes. Never throws: every path ends in Close.</summary>
    private async Task RunAsync()
    {
        try
        {
            if (!await TryAuthenticateAsync().ConfigureAwait(false) || !TryCreateConsumer())
                return;

            while (true)
            {
                var read = await _stream.ReadAsync(ReceiveArray.AsMemory(ReceiveOffset, ReceiveCount)).ConfigureAwait(false);
                if (read == 0)
                {
                    Close(CloseReason.ClientDisconnected);
                    return;
                }
                if (!OnReceivedOnPoolThread(read))
                    return;
            }
        }
        catch (Exception e)
        {
            // Anything escaping here would be lost on an unobserved task; classify it and close instead.
            CloseOnReceiveException(e);
        }
    }

    private async Task<bool> TryAuthenticateAsync()
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_serverShutdown);
        timeout.CancelAfter(_handshakeTimeout);
        try
        {
            await _stream.AuthenticateAsServerAsync(_tlsOptions, timeout.Token).ConfigureAwait(false);
            return true;
        }
        catch (Exception e) when (e is AuthenticationException or System.IO.IOException or OperationCanceledException or SocketException or ObjectDisposedException)
        {
            Close(CloseReason.HandshakeFailed, e);
            return false;
        }
    }

    protected override void SendCore(byte[] buffer, int length) => _stream.Write(buffer, 0, length);

    protected override void DisposeTransport() => _stream.Dispose();
}
