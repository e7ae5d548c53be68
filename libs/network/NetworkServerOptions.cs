using System;
using System.Net.Security;
using System.Net.Sockets;

namespace Garnet.networking;

/// <summary>Settings of a <see cref="NetworkServer"/>. Read when the server is constructed.</summary>
public sealed class NetworkServerOptions
{
    /// <summary>
    /// Gets or sets the initial size in bytes of each connection's receive buffer. Default 128 KiB. The buffer doubles
    /// whenever one incomplete message fills it, up to <see cref="MaxReceiveBufferSize"/>.
    /// </summary>
    public int ReceiveBufferSize { get; set; } = 1 << 17;

    /// <summary>
    /// Gets or sets the largest a connection's receive buffer may grow to, which bounds the size of one message.
    /// Default 1 GiB. A connection whose pending message does not fit is closed.
    /// </summary>
    public int MaxReceiveBufferSize { get; set; } = 1 << 30;

    /// <summary>Gets or sets the size in bytes of each connection's send buffer. Default 128 KiB.</summary>
    public int SendBufferSize { get; set; } = 1 << 17;

    /// <summary>
    /// Gets or sets the TLS settings (server certificate etc.). Default <see langword="null"/>: plain, unencrypted connections.
    /// </summary>
    public SslServerAuthenticationOptions? TlsOptions { get; set; }

    /// <summary>
    /// Gets or sets how long a client may take to complete the TLS handshake before its connection is dropped.
    /// Default 10 seconds. Only used when <see cref="TlsOptions"/> is set.
    /// </summary>
    public TimeSpan TlsHandshakeTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Gets or sets how plain (non-TLS) connections do their I/O. Default <see cref="SocketIoModel.Auto"/>: epoll event
    /// loops on Linux, <see cref="SocketAsyncEventArgs"/> elsewhere.
    /// </summary>
    public SocketIoModel SocketIo { get; set; } = SocketIoModel.Auto;

    /// <summary>
    /// Gets or sets how many epoll event loops serve the connections. Default 0: one per processor the process may run on.
    /// </summary>
    public int EventLoops { get; set; }

    /// <summary>
    /// Gets or sets how long an epoll event loop keeps polling, instead of sleeping, after it last had events. Default
    /// 50 µs; <see cref="TimeSpan.Zero"/> makes loops sleep whenever they are idle. A loop that is awake when a request
    /// arrives spares the client's core the wake-up of the loop's thread, at the price of up to this much polling per
    /// burst of requests: a loaded loop stays awake, an idle one sleeps.
    /// </summary>
    public TimeSpan BusyPoll { get; set; } = DefaultBusyPoll;

    /// <summary>The default <see cref="BusyPoll"/>: 50 µs.</summary>
    public static readonly TimeSpan DefaultBusyPoll = TimeSpan.FromMicroseconds(50);

    /// <summary>
    /// Gets or sets how many reply bytes an epoll connection may have waiting for a client that does not read them
    /// before the connection is closed. Default 1 GiB.
    /// </summary>
    public long MaxSendBacklog { get; set; } = 1L << 30;

    /// <summary>Gets or sets the maximum length of the queue of connections waiting to be accepted. Default 512.</summary>
    public int Backlog { get; set; } = 512;

    /// <summary>Copies the settings, so that later changes to this instance do not affect a running server.</summary>
    internal NetworkServerOptions Clone() => (NetworkServerOptions)MemberwiseClone();

    internal void Validate()
    {
        if (ReceiveBufferSize <= 0)
            throw new ArgumentOutOfRangeException(nameof(ReceiveBufferSize), ReceiveBufferSize, "Must be positive.");
        if (MaxReceiveBufferSize < ReceiveBufferSize)
            throw new ArgumentOutOfRangeException(nameof(MaxReceiveBufferSize), MaxReceiveBufferSize, "Must be at least ReceiveBufferSize.");
        if (SendBufferSize <= 0)
            throw new ArgumentOutOfRangeException(nameof(SendBufferSize), SendBufferSize, "Must be positive.");
        if (TlsHandshakeTimeout <= TimeSpan.Zero && TlsHandshakeTimeout != System.Threading.Timeout.InfiniteTimeSpan)
            throw new ArgumentOutOfRangeException(nameof(TlsHandshakeTimeout), TlsHandshakeTimeout, "Must be positive or infinite.");
        if (SocketIo == SocketIoModel.Epoll && !OperatingSystem.IsLinux())
            throw new PlatformNotSupportedException("Epoll socket I/O is only available on Linux.");
        if (EventLoops < 0)
            throw new ArgumentOutOfRangeException(nameof(EventLoops), EventLoops, "Must be 0 (one per processor) or positive.");
        if (BusyPoll < TimeSpan.Zero || BusyPoll > TimeSpan.FromSeconds(1))
            throw new ArgumentOutOfRangeException(nameof(BusyPoll), BusyPoll, "Must be between zero and one second.");
        if (MaxSendBacklog <= 0)
            throw new ArgumentOutOfRangeException(nameof(MaxSendBacklog), MaxSendBacklog, "Must be positive.");
        if (Backlog <= 0)
            throw new ArgumentOutOfRangeException(nameof(Backlog), Backlog, "Must be positive.");
    }
}
