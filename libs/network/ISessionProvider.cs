namespace Garnet.networking;

/// <summary>Creates the protocol side of each accepted connection.</summary>
public interface ISessionProvider
{
    /// <summary>
    /// Creates the consumer for a newly accepted connection (after the TLS handshake, if any). Called on a thread-pool
    /// thread, possibly concurrently for different connections. An exception closes that connection only.
    /// </summary>
    /// <param name="sender">How the consumer sends replies on this connection.</param>
    /// <returns>The consumer; the network layer disposes it exactly once when the connection closes.</returns>
    IMessageConsumer CreateConsumer(INetworkSender sender);
}
