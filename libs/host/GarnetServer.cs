using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using Garnet.networking;
using Garnet.server;

namespace Garnet;

/// <summary>
/// An embeddable server: give it options, call <see cref="Start"/>, and dispose it to stop. The
/// executable, the tests and applications embedding the NuGet package all use this class.
/// </summary>
public sealed class GarnetServer : IDisposable
{
    private readonly NetworkServer _tcpServer;
    private readonly NetworkServer? _unixServer;
    private bool _disposed;

    /// <summary>Creates the server (nothing listens until <see cref="Start"/>).</summary>
    public GarnetServer(ServerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Options = options;
        Store = new StoreWrapper(options);
        if (options.EnableCluster)
            Store.Cluster = Garnet.cluster.ClusterNode.Open(options);
        var provider = new RespSessionProvider(Store);
        var networkOptions = new NetworkServerOptions
        {
            ReceiveBufferSize = options.NetworkBufferSize,
            TlsOptions = options.TlsOptions,
            SocketIo = options.SocketIo,
            EventLoops = options.EventLoops,
            BusyPoll = TimeSpan.FromMicroseconds(options.BusyPollMicroseconds),
            // Redis passes tcp-backlog to listen(), where 0 means the system's least.
            Backlog = Math.Max(1, options.TcpBacklog),
        };
        var addresses = BindAddresses.Parse(options.Address, out string? error) ?? throw new ArgumentException($"bind: {error}", nameof(options));
        var (endpoints, optional) = TcpListeners.EndpointsOf(addresses, options.Port);
        _tcpServer = new NetworkServer(endpoints, provider, networkOptions, optional);
        Store.Listeners = new TcpListeners(_tcpServer);
        if (options.UnixSocketPath != null)
            _unixServer = new NetworkServer(new UnixDomainSocketEndPoint(Path.GetFullPath(options.UnixSocketPath)), provider, networkOptions);
    }

    /// <summary>The options the server runs with.</summary>
    public ServerOptions Options { get; }

    /// <summary>The server's shared state (databases, statistics, clients).</summary>
    public StoreWrapper Store { get; }

    /// <summary>Registration of custom commands and procedures (before <see cref="Start"/> or while running).</summary>
    public ExtensionRegistry Register => Store.Extensions;

    /// <summary>Bytes of memory holding replies for clients that do not read them, now (they go back when those clients read or close).</summary>
    public long HeldReplyBytes => _tcpServer.HeldReplyBytes + (_unixServer?.HeldReplyBytes ?? 0);

    /// <summary>Bytes of receive buffers grown for large incomplete messages, now (they go back when the message is done or its client closes).</summary>
    public long HeldReceiveBytes => _tcpServer.HeldReceiveBytes + (_unixServer?.HeldReceiveBytes ?? 0);

    /// <summary>The TCP port actually bound (useful with port 0), or 0 when the server listens on no TCP address (CONFIG SET port 0).</summary>
    public int Port => Store.Listeners!.Port;

    /// <summary>What the epoll event loops of both listeners have done so far (all zero for other socket models).</summary>
    public Garnet.networking.EventLoopCounters EventLoopCounters => _tcpServer.EventLoopCounters + (_unixServer?.EventLoopCounters ?? default);

    /// <summary>What replaying the operation log found at <see cref="Start"/>, or null if nothing was replayed.</summary>
    public OperationLogRecoveryReport? RecoveryReport { get; private set; }

    /// <summary>What the start-up warm-up did (<see cref="ServerOptions.WarmUpMilliseconds"/>), or null when it did not run.</summary>
    public WarmUpReport? WarmUp { get; private set; }

    /// <summary>What the operator should know about how the server started (limits it lowered, exposure); filled by <see cref="Start"/>.</summary>
    public IReadOnlyList<string> StartWarnings => _startWarnings;
    private readonly List<string> _startWarnings = [];

    /// <summary>Starts listening, after fitting maxclients to the process's descriptor limit (raising it if it may), as Redis does.</summary>
    public void Start()
    {
        // The hot paths are compiled before recovery replays through them and before anyone can connect (WarmUp/).
        if (Options.WarmUpMilliseconds > 0)
            WarmUp = StartupWarmUp.Run(Options, TimeSpan.FromMilliseconds(Options.WarmUpMilliseconds));
        // Durability: the data comes back from the operation log before anyone can connect.
        RecoveryReport = Store.Recover();
        if (Store.CheckpointRecovery is { Damage: not null } damaged)
        {
            _startWarnings.Add($"RECOVERY WAS INCOMPLETE: the checkpoint {damaged.Path} is damaged ({damaged.Damage}); only the {damaged.Records} records "
                + "before the damage were loaded (--fail-on-recovery-error is off).");
        }
        if (RecoveryReport is { CutBytes: > 0 } cut)
            _startWarnings.Add($"Recovery cut {cut.CutBytes} bytes off the end of the AOF ({cut.CutReason}): the end of a write a crash interrupted, never acknowledged.");
        int fitting = ClientLimits.FitToDescriptors(Options.MaxClients, Store.ClientLimits.Connected, out string? report);
        Store.ClientLimits.MaxClients = fitting;
        if (report != null)
            _startWarnings.Add(report);
        _tcpServer.Start();
        _unixServer?.Start();
        (Store.Cluster as Garnet.cluster.ClusterNode)?.Start(Port, Store.Replication);
        if (!BindAddresses.AllLoopback(BindAddresses.Parse(Options.Address, out _)!) && Store.Acl.DefaultUserIsOpen)
        {
            _startWarnings.Add(Store.ClientLimits.ProtectedMode
                ? $"Listening on {_tcpServer.BoundEndPoint} with no password for the default user: protected mode refuses clients from other hosts. Set a password to serve them, or --protected-mode no to serve them without one."
                : $"Listening on {_tcpServer.BoundEndPoint} with no password for the default user and protected mode off: anyone who can reach this address can run any command.");
        }
    }

    /// <summary>Stops listening, closes connections and frees the stores.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        // A script looping on an event loop ends now; otherwise the loop's thread could not be joined.
        Store.BeginStop();
        _unixServer?.Dispose();
        _tcpServer.Dispose();
        Store.Dispose();
        Store.Cluster?.Dispose();
    }
}
