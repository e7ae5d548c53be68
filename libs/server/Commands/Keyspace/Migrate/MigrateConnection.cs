using System;
using System.Net;
using System.Net.Sockets;
using Garnet.common;

namespace Garnet.server;

/// <summary>How one step of talking to a target ended.</summary>
internal enum MigrateIo : byte
{
    /// <summary>It completed.</summary>
    Ok,

    /// <summary>The connection failed or was closed.</summary>
    Failed,

    /// <summary>The timeout passed first (Redis does not retry after one).</summary>
    TimedOut,
}

/// <summary>
/// One blocking connection from this server, as a client, to a MIGRATE target: connecting, writing and reading a reply
/// line each within the command's timeout, as Redis's synchronous connection helpers do. It remembers the database it
/// last selected there (so SELECT is sent only on a change) and when it was last used (for the cache's idle limit).
/// Used by one session at a time (<see cref="MigrateConnectionCache"/> hands it out).
/// </summary>
internal sealed class MigrateConnection : IDisposable
{
    // Redis reads replies into a 1 KB buffer; the lines that matter (+OK, an error) are short.
    private const int MaxLine = 1024;

    private readonly Socket _socket;
    private readonly byte[] _input = new byte[4096];
    private int _start;
    private int _end;

    private MigrateConnection(string name, Socket socket)
    {
        Name = name;
        _socket = socket;
    }

    /// <summary>The cache's name of the target: the host and port as given, "host:port".</summary>
    public string Name { get; }

    /// <summary>The database last selected on the target, -1 when unknown (after an error the target replied).</summary>
    public long SelectedDatabase { get; set; } = -1;

    /// <summary>When it was last handed back, in <see cref="Environment.TickCount64"/> milliseconds.</summary>
    public long LastUsedMs { get; set; }

    /// <summary>
    /// Connects to <paramref name="host"/>:<paramref name="port"/> within <paramref name="timeoutMs"/>; null when it cannot.
    /// From <paramref name="source"/> when given (see <see cref="NodeConnections.BindSource"/>).
    /// </summary>
    public static MigrateConnection? TryConnect(string name, string host, int port, int timeoutMs, string? source = null)
    {
        if (port is <= 0 or > IPEndPoint.MaxPort)
            return null;
        IPAddress? address;
        try
        {
            address = IPAddress.TryParse(host, out var parsed) ? parsed : FirstAddress(Dns.GetHostAddresses(host));
        }
        catch (SocketException)
        {
            return null;
        }
        catch (ArgumentException)
        {
            return null;
        }
        if (address == null)
            return null;

        var socket = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            // A non-blocking connect waited for by poll: the thread blocks here for at most the timeout.
            socket.Blocking = false;
            NodeConnections.BindSource(socket, source, address);
            try
            {
                socket.Connect(new IPEndPoint(address, port));
            }
            catch (SocketException e) when (e.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
            {
                if (!socket.Poll((int)Math.Min(timeoutMs * 1000L, int.MaxValue), SelectMode.SelectWrite)
                    || (int)socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)! != 0)
                {
                    socket.Dispose();
                    return null;
                }
            }
            socket.Blocking = true;
            socket.NoDelay = true;
            return new MigrateConnection(name, socket);
        }
        catch (SocketException)
        {
            socket.Dispose();
            return null;
        }
    }

    private static IPAddress? FirstAddress(IPAddress[] addresses)
    {
        foreach (var address in addresses)
        {
            if (address.AddressFamily is AddressFamily.InterNetwork or AddressFamily.InterNetworkV6)
                return address;
        }
        return null;
    }

    /// <summary>Writes all of <paramref name="bytes"/>, each socket write allowed <paramref name="timeoutMs"/>.</summary>
    public MigrateIo Write(ReadOnlySpan<byte> bytes, int timeoutMs)
    {
        try
        {
            _socket.SendTimeout = timeoutMs;
            while (bytes.Length > 0)
            {
                int sent = _socket.Send(bytes);
                if (sent <= 0)
                    return MigrateIo.Failed;
                bytes = bytes.Slice(sent);
            }
            return MigrateIo.Ok;
        }
        catch (SocketException e)
        {
            return e.SocketErrorCode == SocketError.TimedOut ? MigrateIo.TimedOut : MigrateIo.Failed;
        }
        catch (ObjectDisposedException)
        {
            return MigrateIo.Failed;
        }
    }

    /// <summary>
    /// Reads one reply line (without its CRLF, cut to Redis's 1 KB) within <paramref name="timeoutMs"/> per socket read;
    /// the span is valid until the next read.
    /// </summary>
    public MigrateIo ReadLine(int timeoutMs, out ReadOnlySpan<byte> line)
    {
        line = default;
        try
        {
            _socket.ReceiveTimeout = timeoutMs;
            while (true)
            {
                int newline = _input.AsSpan(_start, _end - _start).IndexOf((byte)'\n');
                if (newline >= 0)
                {
                    int length = newline > 0 && _input[_start + newline - 1] == '\r' ? newline - 1 : newline;
                    line = _input.AsSpan(_start, Math.Min(length, MaxLine));
                    _start += newline + 1;
                    return MigrateIo.Ok;
                }
                if (_start > 0)
                {
                    _input.AsSpan(_start, _end - _start).CopyTo(_input);
                    _end -= _start;
                    _start = 0;
                }
                // No target of ours sends a line this long: treat it as a broken conversation.
                if (_end == _input.Length)
                    return MigrateIo.Failed;
                int received = _socket.Receive(_input, _end, _input.Length - _end, SocketFlags.None);
                if (received <= 0)
                    return MigrateIo.Failed;
                _end += received;
            }
        }
        catch (SocketException e)
        {
            return e.SocketErrorCode == SocketError.TimedOut ? MigrateIo.TimedOut : MigrateIo.Failed;
        }
        catch (ObjectDisposedException)
        {
            return MigrateIo.Failed;
        }
    }

    /// <summary>Closes the connection.</summary>
    public void Dispose() => _socket.Dispose();
}
