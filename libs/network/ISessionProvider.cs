namespace Garnet.networking;

/// <summary>Creates the protocol side of each accepted connection.</summary>
public interface ISessionProvider
{
    /// <summary>
    /// Decides, as soon as a connection is accepted, whether it may stay (a limit on clients, a policy on where they come
    /// from). Returns <see langword="null"/> to admit it, or the bytes to send before closing it. Every admitted
    /// connection is later reported once to <see cref="OnConnectionClosed"/>. Called on the accepting thread.
    /// </summary>
    /// <param name="local">Whether the client is on this host: a loopback address or a Unix domain socket.</param>
    /// <param name="tls">Whether the connection will be TLS (a refusal is then closed without a message: the client expects a handshake).</param>
    byte[]? Admit(bool local, bool tls) => null;

    /// <summary>
    /// Seconds of idleness after which TCP keepalive probes a new connection (then every third of that, three times
    /// before giving up, as Redis sets it); 0 leaves keepalive off. Read for each accepted TCP connection.
    /// </summary>
    int TcpKeepAliveSeconds => 0;

    /// <summary>An admitted connection has closed (or could not be set up). Called once per admitted connection.</summary>
    void OnConnectionClosed()
    {
    }

    /// <summary>
    /// Creates the consumer for a newly accepted connection (after the TLS handshake, if any). Called on a thread-pool
    /// thread, possibly concurrently for different connections. An exception closes that connection only.
    /// </summary>
    /// <param name="sender">How the consumer sends replies on this connection.</param>
    /// <returns>The consumer; the network layer disposes it exactly once when the connection closes.</returns>
    IMessageConsumer CreateConsumer(INetworkSender sender);
}
