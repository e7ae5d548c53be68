using System.Collections.Generic;

namespace Garnet.server;

/// <summary>
/// The host's TCP listeners, which CONFIG SET port and bind change while the server runs (the host implements it over
/// its network server; open connections are not touched).
/// </summary>
public interface IServerListeners
{
    /// <summary>The TCP port listened on (as bound), or 0 when the server does not listen on TCP.</summary>
    int Port { get; }

    /// <summary>
    /// Listens on <paramref name="addresses"/> at <paramref name="port"/> (0: on no TCP address) instead; false, with the
    /// previous listeners back, when a required address could not be bound.
    /// </summary>
    bool TryRebind(IReadOnlyList<BindAddress> addresses, int port);
}
