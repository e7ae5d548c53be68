using Garnet.networking;

namespace Garnet.server;

/// <summary>Admits each accepted connection (maxclients, protected mode) and creates its RESP session.</summary>
public sealed class RespSessionProvider : ISessionProvider
{
    private static readonly byte[] MaxClientsReached = "-ERR max number of clients reached\r\n"u8.ToArray();

    private static readonly byte[] ProtectedModeDenied = System.Text.Encoding.ASCII.GetBytes("-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user. "
        + "In this mode connections are only accepted from the loopback interface. If you want to connect from external computers to Redis you may adopt one of the following solutions: "
        + "1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface by connecting to Redis from the same host the server is running, "
        + "however MAKE SURE Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. "
        + "2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and setting the protected mode option to 'no', and then restarting the server. "
        + "3) If you started the server manually just for testing, restart it with the '--protected-mode no' option. "
        + "4) Set up an authentication password for the default user. "
        + "NOTE: You only need to do one of the above things in order for the server to start accepting connections from the outside.\r\n");

    private readonly StoreWrapper _server;

    public RespSessionProvider(StoreWrapper server) => _server = server;

    /// <inheritdoc/>
    public byte[]? Admit(bool local, bool tls)
    {
        var limits = _server.ClientLimits;
        if (limits.ProtectedMode && !local && DefaultUserHasNoPassword)
        {
            _server.Statistics.AddRejectedConnection();
            return ProtectedModeDenied;
        }
        if (!limits.TryAdmit())
        {
            _server.Statistics.AddRejectedConnection();
            return MaxClientsReached;
        }
        return null;
    }

    /// <inheritdoc/>
    public int TcpKeepAliveSeconds => _server.ClientLimits.TcpKeepAliveSeconds;

    /// <inheritdoc/>
    public void OnConnectionClosed() => _server.ClientLimits.Release();

    /// <inheritdoc/>
    public IMessageConsumer CreateConsumer(INetworkSender sender) => new RespServerSession(_server, sender);

    /// <summary>As Redis decides protected mode: the default user has nopass (whether or not it is on).</summary>
    private bool DefaultUserHasNoPassword => _server.Acl.DefaultUser.Current.NoPass;
}
