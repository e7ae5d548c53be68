using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace Garnet.test;

/// <summary>
/// A loopback TCP proxy in front of a test server that records what each client connection sends and
/// receives, so a test can see what a client library says to the server when it connects and how the
/// server answers.
/// </summary>
public sealed class RecordingProxy : IDisposable
{
    private readonly TcpListener _listener;
    private readonly int _serverPort;
    private readonly List<Recording> _connections = new();
    private readonly List<Socket> _sockets = new();

    public RecordingProxy(int serverPort)
    {
        _serverPort = serverPort;
        _listener = new TcpListener(IPAddress.Loopback, 0);
        _listener.Start();
        _ = AcceptLoopAsync();
    }

    /// <summary>The port clients connect to.</summary>
    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>
    /// Each connection's commands, in the order sent, with the reply each got (server pushes that are
    /// not replies — published messages — are left out).
    /// </summary>
    public List<List<(string Command, string Reply)>> Exchanges()
    {
        var result = new List<List<(string, string)>>();
        lock (_connections)
        {
            foreach (var connection in _connections)
            {
                List<string> commands;
                List<string> replies;
                lock (connection)
                {
                    commands = RespFrame.Split(connection.Sent);
                    replies = RespFrame.Split(connection.Received).FindAll(reply => !IsPublishedMessage(reply));
                }
                var exchanges = new List<(string, string)>();
                for (int i = 0; i < commands.Count; i++)
                    exchanges.Add((RespFrame.CommandText(commands[i]), i < replies.Count ? replies[i] : "(no reply)"));
                result.Add(exchanges);
            }
        }
        return result;
    }

    private static bool IsPublishedMessage(string frame) =>
        frame.StartsWith('>') && (frame.Contains("\r\nmessage\r\n", StringComparison.Ordinal)
            || frame.Contains("\r\npmessage\r\n", StringComparison.Ordinal)
            || frame.Contains("\r\nsmessage\r\n", StringComparison.Ordinal));

    private async Task AcceptLoopAsync()
    {
        while (true)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptSocketAsync();
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                return;
            }
            var server = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            await server.ConnectAsync(IPAddress.Loopback, _serverPort);
            var recording = new Recording();
            lock (_connections)
            {
                _connections.Add(recording);
                _sockets.Add(client);
                _sockets.Add(server);
            }
            _ = PumpAsync(client, server, recording, recording.Sent);
            _ = PumpAsync(server, client, recording, recording.Received);
        }
    }

    private static async Task PumpAsync(Socket from, Socket to, Recording recording, List<byte> record)
    {
        var buffer = new byte[1 << 16];
        try
        {
            while (true)
            {
                int read = await from.ReceiveAsync(buffer);
                if (read == 0)
                    break;
                lock (recording)
                    record.AddRange(new ArraySegment<byte>(buffer, 0, read));
                await to.SendAsync(new ArraySegment<byte>(buffer, 0, read));
            }
            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // One side went away; disposing the proxy closes the other.
        }
    }

    public void Dispose()
    {
        _listener.Stop();
        lock (_connections)
        {
            foreach (var socket in _sockets)
                socket.Dispose();
        }
    }

    private sealed class Recording
    {
        public List<byte> Sent { get; } = new();

        public List<byte> Received { get; } = new();
    }
}
