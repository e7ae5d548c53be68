using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Threading;

namespace Resp.benchmark;

/// <summary>
/// The --tracking-clients connections: each says HELLO 3 and CLIENT TRACKING ON BCAST [PREFIX p]; and the --subscribe
/// connection: HELLO 3 and PSUBSCRIBE pattern. One thread reads all of them (waiting on their sockets together) and
/// counts the pushes (invalidations, messages), so the server's writes are measured with listeners that keep up, as
/// an application's would.
/// </summary>
internal sealed class TrackingListeners : IDisposable
{
    private readonly List<RespConnection> _connections = new();
    private readonly Thread _reader;
    private readonly long[] _pushes;
    private volatile bool _stopping;

    private TrackingListeners(BenchmarkOptions options)
    {
        try
        {
            for (int i = 0; i < options.TrackingClients; i++)
            {
                var connection = RespConnection.Open(options);
                _connections.Add(connection);
                var request = new RequestBuffer(256);
                request.ArrayHeader(2);
                request.Bulk("HELLO"u8);
                request.Bulk("3"u8);
                bool prefixed = options.TrackingPrefix != null;
                request.ArrayHeader(prefixed ? 6 : 4);
                request.Bulk("CLIENT"u8);
                request.Bulk("TRACKING"u8);
                request.Bulk("ON"u8);
                request.Bulk("BCAST"u8);
                if (prefixed)
                {
                    request.Bulk("PREFIX"u8);
                    request.Bulk(System.Text.Encoding.UTF8.GetBytes(options.TrackingPrefix!));
                }
                connection.RunSetup(request.Written, 2, "HELLO 3 and CLIENT TRACKING ON BCAST");
            }
            if (options.SubscribePattern != null)
            {
                var connection = RespConnection.Open(options);
                _connections.Add(connection);
                var request = new RequestBuffer(256);
                request.ArrayHeader(2);
                request.Bulk("HELLO"u8);
                request.Bulk("3"u8);
                request.ArrayHeader(2);
                request.Bulk("PSUBSCRIBE"u8);
                request.Bulk(System.Text.Encoding.UTF8.GetBytes(options.SubscribePattern));
                // PSUBSCRIBE's confirmation is a push in RESP3, not a reply: only HELLO's is waited for.
                connection.RunSetup(request.Written, 1, "HELLO 3 and PSUBSCRIBE");
            }
        }
        catch
        {
            foreach (var connection in _connections)
                connection.Dispose();
            throw;
        }
        _pushes = new long[_connections.Count];
        _reader = new Thread(ReadAll) { IsBackground = true, Name = "tracking-listeners" };
        _reader.Start();
    }

    /// <summary>Opens the listeners of <paramref name="options"/>, or returns null when there are none.</summary>
    public static TrackingListeners? Start(BenchmarkOptions options)
        => options.TrackingClients > 0 || options.SubscribePattern != null ? new TrackingListeners(options) : null;

    /// <summary>Pushes (invalidations, messages) received so far, over all listeners.</summary>
    public long Invalidations
    {
        get
        {
            long total = 0;
            for (int i = 0; i < _pushes.Length; i++)
                total += Volatile.Read(ref _pushes[i]);
            return total;
        }
    }

    private void ReadAll()
    {
        var indexOf = new Dictionary<Socket, int>();
        for (int i = 0; i < _connections.Count; i++)
            indexOf[_connections[i].Socket] = i;
        var ready = new List<Socket>(_connections.Count);
        try
        {
            while (!_stopping)
            {
                ready.Clear();
                foreach (var connection in _connections)
                    ready.Add(connection.Socket);
                Socket.Select(ready, null, null, 100_000);
                foreach (var socket in ready)
                {
                    int index = indexOf[socket];
                    var connection = _connections[index];
                    connection.ReceiveOnce();
                    Volatile.Write(ref _pushes[index], connection.Scanner.Pushes);
                }
            }
        }
        catch (Exception e) when (_stopping && e is SocketException or ObjectDisposedException or IOException)
        {
            // The run is over and the connections are closing.
        }
    }

    public void Dispose()
    {
        _stopping = true;
        _reader.Join();
        foreach (var connection in _connections)
            connection.Dispose();
    }
}
