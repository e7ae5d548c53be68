using System;
using System.IO;
using System.Net.Sockets;
using System.Text;
using System.Threading;

namespace Garnet.test.Protocol;

/// <summary>
/// A socket for protocol tests that reads exact byte counts and tells a server close (end of stream)
/// apart from silence (a read timeout), which the error-then-close tests depend on.
/// </summary>
internal sealed class ByteClient : IDisposable
{
    private readonly Socket _socket;

    public ByteClient(int port, int receiveTimeoutMilliseconds = 10000)
    {
        _socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp)
        {
            NoDelay = true,
            ReceiveTimeout = receiveTimeoutMilliseconds,
            SendTimeout = 30000,
        };
        _socket.Connect("127.0.0.1", port);
    }

    /// <summary>Sends bytes given as Latin-1 text (any byte value can be written).</summary>
    public void Send(string text) => Send(Encoding.Latin1.GetBytes(text));

    public void Send(ReadOnlySpan<byte> bytes)
    {
        while (bytes.Length > 0)
            bytes = bytes.Slice(_socket.Send(bytes));
    }

    /// <summary>Sends <paramref name="text"/> in pieces of <paramref name="pieceLength"/> bytes with a pause between, so each arrives in its own read.</summary>
    public void SendInPieces(string text, int pieceLength, int pauseMilliseconds = 1)
    {
        var bytes = Encoding.Latin1.GetBytes(text);
        for (int offset = 0; offset < bytes.Length; offset += pieceLength)
        {
            Send(bytes.AsSpan(offset, Math.Min(pieceLength, bytes.Length - offset)));
            Thread.Sleep(pauseMilliseconds);
        }
    }

    /// <summary>Reads exactly <paramref name="count"/> bytes as Latin-1 text; fails on close or timeout.</summary>
    public string Read(int count)
    {
        var buffer = new byte[count];
        ReadExactly(buffer);
        return Encoding.Latin1.GetString(buffer);
    }

    /// <summary>Reads exactly <paramref name="buffer"/>.Length bytes.</summary>
    public void ReadExactly(Span<byte> buffer)
    {
        while (buffer.Length > 0)
        {
            int read = _socket.Receive(buffer);
            if (read == 0)
                throw new EndOfStreamException("The server closed the connection.");
            buffer = buffer.Slice(read);
        }
    }

    /// <summary>
    /// Reads until the server closes the connection; <paramref name="closed"/> is false if the read timed
    /// out instead (the server kept the connection open).
    /// </summary>
    public string ReadUntilClosed(out bool closed)
    {
        var received = new MemoryStream();
        var buffer = new byte[65536];
        closed = false;
        while (true)
        {
            int read;
            try
            {
                read = _socket.Receive(buffer);
            }
            catch (SocketException e) when (e.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock)
            {
                break;
            }
            catch (SocketException)
            {
                closed = true; // reset
                break;
            }
            if (read == 0)
            {
                closed = true;
                break;
            }
            received.Write(buffer, 0, read);
        }
        return Encoding.Latin1.GetString(received.ToArray());
    }

    /// <summary>Closes abruptly (RST), as a client that crashes.</summary>
    public void Abort()
    {
        _socket.LingerState = new LingerOption(true, 0);
        _socket.Close();
    }

    public void Dispose() => _socket.Dispose();
}
