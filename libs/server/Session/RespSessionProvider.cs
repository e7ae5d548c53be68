using Garnet.networking;

namespace Garnet.server;

/// <summary>Creates a RESP session for each accepted connection.</summary>
public sealed class RespSessionProvider : ISessionProvider
{
    private readonly StoreWrapper _server;

    public RespSessionProvider(StoreWrapper server) => _server = server;

    /// <inheritdoc/>
    public IMessageConsumer CreateConsumer(INetworkSender sender) => new RespServerSession(_server, sender);
}
