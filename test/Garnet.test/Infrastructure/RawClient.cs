using System;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Text;

namespace Garnet.test;

/// <summary>
/// A byte-level RESP client for tests: sends exact bytes and reads whole replies back as their raw
/// text (e.g. ":1\r\n"), so tests can assert byte-exact protocol behaviour.
/// </summary>
public sealed class RawClient : IDisposable
{
    private readonly Socket _socket;
    private readonly List<byte> _pending = new();
    private readonly byte[] _buffer = new byte[1 << 16];

    public RawClient(int port)
        : this(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, port))
    {
    }

    /// <summary>Connects to <paramref name="server"/> (an address other than loopback makes the client one from "another host").</summary>
    public RawClient(System.Net.IPEndPoint server)
    {
        _socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, ReceiveTimeout = 10000, SendTimeout = 10000 };
        _socket.Connect(server);
    }

    /// <summary>The client's end of the connection (what the server reports as its addr).</summary>
    public System.Net.IPEndPoint LocalEndPoint => (System.Net.IPEndPoint)_socket.LocalEndPoint!;

    /// <summary>Sends raw bytes.</summary>
    public void SendRaw(ReadOnlySpan<byte> bytes)
    {
        while (bytes.Length > 0)
        {
            int sent = _socket.Send(bytes);
            bytes = bytes.Slice(sent);
        }
    }

    /// <summary>Sends raw text (encoded as Latin-1 so any byte value can be written).</summary>
    public void SendRaw(string text) => SendRaw(Encoding.Latin1.GetBytes(text));

    /// <summary>Encodes <paramref name="arguments"/> as a RESP array of bulk strings and sends it.</summary>
    public void Send(params string[] arguments) => SendRaw(Encode(arguments));

    /// <summary>A RESP array of bulk strings.</summary>
    public static string Encode(params string[] arguments)
    {
        var builder = new StringBuilder();
        builder.Append('*').Append(arguments.Length).Append("\r\n");
        foreach (var argument in arguments)
            builder.Append('$').Append(Encoding.Latin1.GetByteCount(argument)).Append("\r\n").Append(argument).Append("\r\n");
        return builder.ToString();
    }

    /// <summary>Sends a command and returns its whole reply as raw text.</summary>
    public string Execute(params string[] arguments)
    {
        Send(arguments);
        return ReadReply();
    }

    /// <summary>Reads one complete reply (of any RESP2/RESP3 type, nested) as raw text.</summary>
    public string ReadReply()
    {
        int offset = 0;
        while (true)
        {
            offset = 0;
            if (RespFrame.TryMeasure(_pending, ref offset))
            {
                string reply = Encoding.Latin1.GetString(_pending.GetRange(0, offset).ToArray());
                _pending.RemoveRange(0, offset);
                return reply;
            }
            Receive();
        }
    }

    /// <summary>Reads everything until the server closes the connection.</summary>
    public string ReadToEnd()
    {
        while (true)
        {
            int read;
            try
            {
                read = _socket.Receive(_buffer);
            }
            catch (SocketException)
            {
                break;
            }
            if (read == 0)
                break;
            _pending.AddRange(new ArraySegment<byte>(_buffer, 0, read));
        }
        string text = Encoding.Latin1.GetString(_pending.ToArray());
        _pending.Clear();
        return text;
    }

    /// <summary>Whether the server closed the connection (reads EOF within the timeout).</summary>
    public bool IsClosedByServer()
    {
        try
        {
            return _socket.Receive(_buffer) == 0;
        }
        catch (SocketException)
        {
            return true;
        }
    }

    private void Receive()
    {
        int read = _socket.Receive(_buffer);
        if (read == 0)
            throw new InvalidOperationException("The server closed the connection. Received so far: " + Encoding.Latin1.GetString(_pending.ToArray()));
        _pending.AddRange(new ArraySegment<byte>(_buffer, 0, read));
    }

    public void Dispose() => _socket.Dispose();
}
