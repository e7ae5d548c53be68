using System;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Text;

namespace Garnet.test.Network;

/// <summary>A blocking client for the test line protocol. Every read times out, so a broken server fails the test instead of hanging it.</summary>
internal sealed class LineClient : IDisposable
{
    public const int ReadTimeoutMs = 15_000;

    private readonly byte[] _readBuffer = new byte[64 * 1024];
    private int _readStart;
    private int _readEnd;

    private LineClient(Socket socket, Stream stream)
    {
        Socket = socket;
        Stream = stream;
    }

    public Socket Socket { get; }

    public Stream Stream { get; }

    public static LineClient Connect(EndPoint endpoint)
    {
        var socket = endpoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            socket.ReceiveTimeout = ReadTimeoutMs;
            socket.SendTimeout = ReadTimeoutMs;
            socket.Connect(endpoint);
            return new LineClient(socket, new NetworkStream(socket, ownsSocket: true));
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Connects over TLS, accepting whatever certificate the server presents (the tests use a self-signed one).</summary>
    public static LineClient ConnectTls(EndPoint endpoint)
    {
        var plain = Connect(endpoint);
        var tls = new SslStream(plain.Stream, leaveInnerStreamOpen: false);
        try
        {
            tls.AuthenticateAsClient(new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                RemoteCertificateValidationCallback = static (_, _, _, _) => true,
            });
            return new LineClient(plain.Socket, tls);
        }
        catch (Exception e) when (e is AuthenticationException or IOException)
        {
            tls.Dispose();
            throw;
        }
    }

    public void Send(string text) => Send(Encoding.UTF8.GetBytes(text));

    public void Send(byte[] bytes)
    {
        Stream.Write(bytes, 0, bytes.Length);
        Stream.Flush();
    }

    /// <summary>Reads one line without its '\n'; fails the test on end of stream.</summary>
    public string ReadLine() => Encoding.UTF8.GetString(ReadLineBytes());

    public byte[] ReadLineBytes()
    {
        var line = new MemoryStream();
        while (true)
        {
            if (_readStart == _readEnd && !Fill())
                throw new EndOfStreamException($"Connection closed after {line.Length} bytes of a line.");
            var available = _readBuffer.AsSpan(_readStart, _readEnd - _readStart);
            var end = available.IndexOf((byte)'\n');
            if (end >= 0)
            {
                line.Write(available[..end]);
                _readStart += end + 1;
                return line.ToArray();
            }
            line.Write(available);
            _readStart = _readEnd;
        }
    }

    /// <summary>
    /// Whether the server closed the connection: true on end of stream or reset, false if more data arrives.
    /// A read that times out throws, failing the test.
    /// </summary>
    public bool IsClosedByServer()
    {
        if (_readStart != _readEnd)
            return false;
        try
        {
            return !Fill();
        }
        catch (IOException e) when (e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset or SocketError.ConnectionAborted })
        {
            return true;
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.ConnectionReset or SocketError.ConnectionAborted)
        {
            return true;
        }
    }

    public void Dispose() => Stream.Dispose();

    private bool Fill()
    {
        _readStart = 0;
        _readEnd = Stream.Read(_readBuffer, 0, _readBuffer.Length);
        return _readEnd > 0;
    }
}
