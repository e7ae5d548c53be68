using System.Net;
using System.Net.Sockets;

namespace Garnet.common;

/// <summary>How a server's connections to other nodes (cluster bus, replication, slot migration) are made.</summary>
public static class NodeConnections
{
    /// <summary>
    /// Makes a connection to another node leave from the address this server listens on (<paramref name="source"/>), as
    /// Redis's cluster bus and replication do, so the other node sees which node connects: only a specific address of the
    /// same kind (loopback or not) as <paramref name="destination"/>; any address, or none, leaves the choice to the system.
    /// </summary>
    public static void BindSource(Socket socket, string? source, IPAddress destination)
    {
        if (source == null || !IPAddress.TryParse(source, out var from) || from.AddressFamily != destination.AddressFamily
            || from.Equals(IPAddress.Any) || from.Equals(IPAddress.IPv6Any) || IPAddress.IsLoopback(from) != IPAddress.IsLoopback(destination))
            return;
        socket.Bind(new IPEndPoint(from, 0));
    }
}
