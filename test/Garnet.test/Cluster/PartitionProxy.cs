using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace Garnet.test.Cluster;

/// <summary>
/// A TCP proxy in front of one node, which the node announces as its address: everything other nodes send it passes here,
/// so a test can cut the node off. Connections from the addresses <see cref="Block"/> names, or from anyone once
/// <see cref="BlockAll"/>, are refused and the open ones closed (nodes connect from the address they listen on).
/// </summary>
internal sealed class PartitionProxy : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly object _lock = new();
    private readonly HashSet<IPAddress> _blocked = [];
    private readonly List<(IPAddress From, Socket Client, Socket Server)> _open = [];
    private bool _blockAll;

    public PartitionProxy()
    {
        _listener.Start();
        _ = AcceptAsync();
    }

    /// <summary>The port nodes reach the proxied node at.</summary>
    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>The node's own address; set once it listens.</summary>
    public IPEndPoint? Target { get; set; }

    /// <summary>Refuses connections from <paramref name="from"/> and ends those open.</summary>
    public void Block(IPAddress from)
    {
        lock (_lock)
            _blocked.Add(from);
        CloseMatching(c => c.Equals(from));
    }

    /// <summary>Refuses every connection and ends those open: no one reaches the node through its announced address.</summary>
    public void BlockAll()
    {
        lock (_lock)
            _blockAll = true;
        CloseMatching(_ => true);
    }

    public void Heal()
    {
        lock (_lock)
        {
            _blocked.Clear();
            _blockAll = false;
        }
    }

    private bool IsBlocked(IPAddress from)
    {
        lock (_lock)
            return _blockAll || _blocked.Contains(from);
    }

    private void CloseMatching(Func<IPAddress, bool> match)
    {
        List<(IPAddress, Socket, Socket)> closing = [];
        lock (_lock)
        {
            for (int i = _open.Count - 1; i >= 0; i--)
            {
                if (match(_open[i].From))
                {
                    closing.Add(_open[i]);
                    _open.RemoveAt(i);
                }
            }
        }
        foreach (var (_, client, server) in closing)
        {
            client.Dispose();
            server.Dispose();
        }
    }

    private async Task AcceptAsync()
    {
        while (true)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptSocketAsync().ConfigureAwait(false);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                return;
            }
            var from = ((IPEndPoint)client.RemoteEndPoint!).Address;
            var target = Target;
            if (target == null || IsBlocked(from))
            {
                client.Dispose();
                continue;
            }
            var server = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await server.ConnectAsync(target).ConfigureAwait(false);
            }
            catch (SocketException)
            {
                client.Dispose();
                server.Dispose();
                continue;
            }
            lock (_lock)
                _open.Add((from, client, server));
            _ = PumpAsync(client, server);
            _ = PumpAsync(server, client);
        }
    }

    private static async Task PumpAsync(Socket from, Socket to)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                int read = await from.ReceiveAsync(buffer, SocketFlags.None).ConfigureAwait(false);
                if (read == 0)
                    break;
                for (int sent = 0; sent < read;)
                    sent += await to.SendAsync(buffer.AsMemory(sent, read - sent), SocketFlags.None).ConfigureAwait(false);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Cut, or the other side ended.
        }
        try
        {
            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Gone already.
        }
    }

    public void Dispose()
    {
        _listener.Stop();
        CloseMatching(_ => true);
    }
}
