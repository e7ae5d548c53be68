namespace Garnet.networking;

/// <summary>
/// How a consumer writes replies: it writes bytes into the send buffer at <see cref="SendBufferStart"/> and calls
/// <see cref="Send"/> to hand them to the connection.
/// </summary>
/// <remarks>
/// The sender is not thread-safe: calls to <see cref="Send"/> must not overlap. The receiving thread calls it from
/// inside <see cref="IMessageConsumer.TryConsumeMessages"/>; a consumer that also sends from other threads must
/// serialize those calls itself.
/// </remarks>
public unsafe interface INetworkSender
{
    /// <summary>
    /// Gets the start of the buffer replies are written into. It is pinned and stays valid until
    /// <see cref="ReleaseSendBuffer"/>; reading it after that lends the connection a buffer again (perhaps another one).
    /// </summary>
    byte* SendBufferStart { get; }

    /// <summary>Gets the size in bytes of the buffer at <see cref="SendBufferStart"/>; the same for every buffer lent.</summary>
    int SendBufferLength { get; }

    /// <summary>
    /// Gives the send buffer back to the server's pool, so an idle connection holds none. Call only when everything
    /// written was sent and nothing (no copy of a pointer) will write into the buffer again: the next writer reads
    /// <see cref="SendBufferStart"/> afresh. Calls must not overlap <see cref="Send"/>.
    /// </summary>
    void ReleaseSendBuffer();

    /// <summary>Gets the remote end of the connection as "ip:port", or the socket path for a Unix domain socket.</summary>
    string RemoteEndpoint { get; }

    /// <summary>Gets the local end of the connection as "ip:port", or the socket path for a Unix domain socket.</summary>
    string LocalEndpoint { get; }

    /// <summary>
    /// Gets how many reply bytes <see cref="Send"/> accepted that are still waiting for the client to read enough for
    /// the operating system to take them; always 0 for transports whose <see cref="Send"/> blocks instead.
    /// Callable from any thread; output limits (pub/sub) count these bytes.
    /// </summary>
    long UnsentBytes { get; }

    /// <summary>
    /// Gets what the connection holds in its buffers (for CLIENT LIST). Callable from any thread; the figures are
    /// read without locks, so they describe the connection recently rather than exactly.
    /// </summary>
    ConnectionBuffers Buffers { get; }

    /// <summary>
    /// Gets whether <see cref="Send"/> may block until the client reads (rather than keeping what the operating system
    /// will not take yet): a consumer must then not hold anything other connections wait for while it sends.
    /// </summary>
    bool SendMayBlock { get; }

    /// <summary>
    /// Puts the connection in a class of clients whose <see cref="OutputLimit"/> bounds the replies it may hold for a
    /// client that does not read them (see <see cref="UnsentBytes"/>); past it the connection is closed and those replies
    /// are dropped. Transports whose <see cref="Send"/> blocks instead never hold any. Callable from any thread.
    /// </summary>
    void UseOutputLimit(OutputLimitClass limits);

    /// <summary>
    /// Sends the first <paramref name="length"/> bytes of the send buffer, in order and before any later call.
    /// May block until the operating system has accepted all of them, or keep the rest for later (see
    /// <see cref="UnsentBytes"/>); either way the whole send buffer is free to reuse afterwards.
    /// </summary>
    /// <param name="length">Number of bytes to send, between 0 and <see cref="SendBufferLength"/>.</param>
    /// <returns><see langword="false"/> if the connection is broken or closing; the consumer should then stop.</returns>
    bool Send(int length);

    /// <summary>
    /// Tells the transport that the consumer is about to keep its thread for a long time (a script past its time
    /// limit), so the other connections served by that thread are moved to one that is free, and keep being served
    /// (they get -BUSY, and can send SCRIPT KILL). Call only from inside <see cref="IMessageConsumer.TryConsumeMessages"/>.
    /// </summary>
    void ReleaseOtherConnections();

    /// <summary>
    /// Closes the connection once everything already sent has been handed over, and stops receiving.
    /// Used for QUIT and for protocol errors; safe to call from inside <see cref="IMessageConsumer.TryConsumeMessages"/>,
    /// in which case the connection closes when that call returns and no further messages are offered.
    /// </summary>
    void CloseAfterSend();

    /// <summary>
    /// Closes the connection at once, dropping the replies the client has not read yet (client eviction: the memory
    /// they hold is what has to go). Callable from any thread; from inside
    /// <see cref="IMessageConsumer.TryConsumeMessages"/>, the connection closes when that call returns.
    /// </summary>
    void CloseDroppingUnsent();
}
