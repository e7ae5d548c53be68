using System.Net.Sockets;

namespace Garnet.networking;

/// <summary>How a <see cref="NetworkServer"/> does the I/O of plain (non-TLS) connections.</summary>
public enum SocketIoModel
{
    /// <summary><see cref="Epoll"/> on Linux, <see cref="AsyncEventArgs"/> elsewhere.</summary>
    Auto,

    /// <summary>Event loops over epoll, one thread per processor (Linux only).</summary>
    Epoll,

    /// <summary>The runtime's asynchronous sockets (<see cref="SocketAsyncEventArgs"/>).</summary>
    AsyncEventArgs,
}
