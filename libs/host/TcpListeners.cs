using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using Garnet.networking;
using Garnet.server;

namespace Garnet;

/// <summary>The server's TCP listeners as CONFIG SET port and bind change them: the network server rebound in place.</summary>
internal sealed class TcpListeners(NetworkServer server) : IServerListeners
{
    /// <inheritdoc/>
    public int Port
    {
        get
        {
            var bound = server.BoundEndPoints;
            return bound.Count > 0 && bound[0] is IPEndPoint ip ? ip.Port : 0;
        }
    }

    /// <inheritdoc/>
    public bool TryRebind(IReadOnlyList<BindAddress> addresses, int port)
    {
        var (endpoints, optional) = port == 0 ? ([], []) : EndpointsOf(addresses, port);
        try
        {
            server.Rebind(endpoints, optional);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>An endpoint per address at <paramref name="port"/>, and which of them are optional.</summary>
    public static (EndPoint[] Endpoints, bool[] Optional) EndpointsOf(IReadOnlyList<BindAddress> addresses, int port)
    {
        var endpoints = new EndPoint[addresses.Count];
        var optional = new bool[addresses.Count];
        for (int i = 0; i < endpoints.Length; i++)
        {
            endpoints[i] = new IPEndPoint(addresses[i].Address, port);
            optional[i] = addresses[i].Optional;
        }
        return (endpoints, optional);
    }
}
