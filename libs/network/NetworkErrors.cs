using System;
using System.IO;
using System.Net.Sockets;

namespace Garnet.networking;

/// <summary>Tells normal disconnects apart from real errors.</summary>
internal static class NetworkErrors
{
    /// <summary>Whether <paramref name="error"/> just means the peer went away or the socket was closed locally.</summary>
    public static bool IsConnectionClosed(SocketError error)
        => error is SocketError.ConnectionReset
            or SocketError.ConnectionAborted
            or SocketError.Shutdown
            or SocketError.OperationAborted
            or SocketError.Interrupted
            or SocketError.Disconnecting
            or SocketError.NotConnected
            or SocketError.TimedOut;

    /// <summary>Whether <paramref name="e"/>, thrown by a socket or stream operation, just means the connection closed.</summary>
    public static bool IsConnectionClosed(Exception e) => e switch
    {
        SocketException se => IsConnectionClosed(se.SocketErrorCode),
        ObjectDisposedException => true,
        OperationCanceledException => true,
        IOException { InnerException: { } inner } => IsConnectionClosed(inner),
        // SslStream reports a peer that vanished mid-record as a bare IOException.
        IOException => true,
        _ => false,
    };
}
