using System;
using System.IO;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;

namespace Resp.benchmark;

/// <summary>
/// One blocking client connection (plain TCP or TLS) with its own receive buffer and
/// <see cref="ReplyScanner"/>. Sends and receives work on spans of preallocated arrays, so the
/// measured loops do not allocate.
/// </summary>
public sealed class RespConnection : IDisposable
{
    private const int ReceiveBufferSize = 1 << 17;

    private readonly Socket _socket;
    private readonly SslStream? _tls;
    private readonly byte[] _receiveBuffer = new byte[ReceiveBufferSize];

    private RespConnection(Socket socket, SslStream? tls)
    {
        _socket = socket;
        _tls = tls;
    }

    /// <summary>The socket, for waiting on many connections at once (see TrackingListeners).</summary>
    internal Socket Socket => _socket;

    /// <summary>Counts the replies that arrived on this connection.</summary>
    public ReplyScanner Scanner { get; } = new();

    /// <summary>Connects, completes the TLS handshake if asked, and authenticates if a password is set.</summary>
    public static RespConnection Open(BenchmarkOptions options)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp)
        {
            NoDelay = true,
            ReceiveTimeout = options.Timeout * 1000,
            SendTimeout = options.Timeout * 1000,
        };
        SslStream? tls = null;
        try
        {
            socket.Connect(options.Host, options.Port);
            if (options.Tls)
            {
                tls = new SslStream(new NetworkStream(socket, ownsSocket: false), leaveInnerStreamOpen: false);
                var authentication = new SslClientAuthenticationOptions
                {
                    TargetHost = options.TlsHost ?? options.Host,
                    EnabledSslProtocols = SslProtocols.None,
                };
                if (options.TlsInsecure)
                    authentication.RemoteCertificateValidationCallback = static (_, _, _, _) => true;
                tls.AuthenticateAsClient(authentication);
            }
            var connection = new RespConnection(socket, tls);
            if (options.Auth != null)
                connection.Authenticate(options.Auth);
            return connection;
        }
        catch
        {
            tls?.Dispose();
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Writes all of <paramref name="data"/>.</summary>
    public void Send(ReadOnlySpan<byte> data)
    {
        if (_tls != null)
        {
            _tls.Write(data);
            return;
        }
        while (!data.IsEmpty)
        {
            int sent = _socket.Send(data, SocketFlags.None);
            data = data.Slice(sent);
        }
    }

    /// <summary>
    /// Reads until <paramref name="replies"/> more complete replies were counted; returns how many
    /// were (more only if the server sent replies nobody asked for).
    /// </summary>
    public long ReceiveReplies(long replies)
    {
        long counted = 0;
        while (counted < replies)
            counted += ReceiveOnce();
        return counted;
    }

    /// <summary>Reads whatever is available (blocking for at least one byte) and returns the replies it completed.</summary>
    public int ReceiveOnce()
    {
        int read = _tls != null ? _tls.Read(_receiveBuffer) : _socket.Receive(_receiveBuffer, SocketFlags.None);
        if (read == 0)
            throw new IOException("The server closed the connection.");
        return Scanner.Feed(_receiveBuffer.AsSpan(0, read));
    }

    private void Authenticate(string password)
    {
        var request = new RequestBuffer(64 + password.Length * 3);
        request.ArrayHeader(2);
        request.Bulk("AUTH"u8);
        request.Bulk(System.Text.Encoding.UTF8.GetBytes(password));
        RunSetup(request.Written, 1, "AUTH");
    }

    /// <summary>
    /// Sends <paramref name="commands"/> (<paramref name="count"/> of them) before a run and waits
    /// for their replies; throws if any was an error. The replies are not counted in the run.
    /// </summary>
    public void RunSetup(ReadOnlySpan<byte> commands, int count, string what)
    {
        Send(commands);
        ReceiveReplies(count);
        if (Scanner.Errors + Scanner.ErrorElements > 0)
            throw new InvalidOperationException(what + " was refused: " + Scanner.FirstError);
        Scanner.Reset();
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        _tls?.Dispose();
        _socket.Dispose();
    }
}
