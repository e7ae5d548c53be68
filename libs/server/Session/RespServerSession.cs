using System;
using Garnet.common;
using Garnet.networking;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// One client connection's session: parses the RESP commands of each received batch and runs them
/// on the receiving thread against the engine, writing replies into the connection's send buffer,
/// which is flushed once per batch (and whenever it fills).
/// </summary>
public sealed unsafe partial class RespServerSession : IMessageConsumer
{
    private const int CommandsPerEpochRefresh = 256;

    private readonly StoreWrapper _server;
    private readonly INetworkSender _sender;
    private readonly NetworkResponseSink _sink;
    /// <summary>Where reads copy values; made at the first (see <see cref="Output"/>): an idle connection holds none.</summary>
    private OutputBuffer? _output;

    private OutputBuffer Output => _output ??= new OutputBuffer();
    private RespWriter _writer;

    private int _databaseIndex;
    private GarnetDatabase? _database;
    private ClientSession<StringInput, StringOutput, MainStoreFunctions>? _storeSession;
    private bool _batchActive;

    /// <summary>This batch's thread's per-command call counters (INFO commandstats), fetched by <see cref="BeginBatch"/>.</summary>

    /// <summary>The server's <see cref="StoreWrapper.CommandLatency"/> as the session opened: null when metrics are off.</summary>
    private readonly ICommandLatencyObserver? _latency;
    /// <summary>The server's client eviction, tested once per batch (Clients/RespServerSession.Eviction.cs).</summary>
    private readonly ClientEviction _eviction;
    private bool _closeRequested;
    private bool _disposed;

    /// <param name="listed">
    /// False for a session of the server's own that no client sees (a slot migration's): it is not in CLIENT LIST nor
    /// counted as a connection.
    /// </param>
    internal RespServerSession(StoreWrapper server, INetworkSender sender, bool replaying = false, bool listed = true)
    {
        _server = server;
        _observers = server.CommandObservers;
        _sender = sender;
        _replaying = replaying;
        // A replayed command was admitted when it first ran: recovery applies it whatever the slots are now.
        _cluster = replaying ? null : server.Cluster;
        if (!replaying && server.OperationLog is { } log)
            _oplog = new SessionOperationLog(log, server.Options.AofCommitWait);
        _durable = _oplog != null || replaying;
        _sink = new NetworkResponseSink(sender, _oplog, new HeldReplyRelease(this));
        _writer.Attach(_sink);
        _writer.ErrorListener = this;
        ClientId = server.Clients.NextId();
        ConnectedAt = DateTimeOffset.UtcNow;
        _connectedTicks = Environment.TickCount64;
        _lastCommandTicks = _connectedTicks;
        _aclUser = server.Acl.DefaultUser;
        // Replayed commands are not the clients' commands: like Redis's AOF loading, they stay out of the command statistics,
        // the latency observer and the slow log (Stats/RespServerSession.CommandTiming.cs).
        _latency = replaying ? null : server.CommandLatency;
        if (replaying)
            _replayCounters = new CommandCounters(ServerStatistics.CommandSlots) { Discarded = true };
        _eviction = server.ClientEviction;
        _keyspaceEvents = server.KeyspaceNotifications;
        Authenticated = server.Acl.DefaultUserIsOpen;
        if (listed)
        {
            server.Statistics.AddConnection();
            server.Clients.Add(this);
        }
        sender.UseOutputLimit(server.ClientLimits.Normal);
        _watchArming = server.WatchArming;
        // A write's reply may be sent before the write ends; one that can block on a client that does not read must not
        // keep the write in flight, or WATCH on every other connection would wait for that client.
        _writesInFlight = _watchArming.Register(alwaysArmed: sender.SendMayBlock);
    }

    /// <summary>The client id (CLIENT ID).</summary>
    public long ClientId { get; }

    /// <summary>The client name (CLIENT SETNAME), or null.</summary>
    public string? ClientName { get; internal set; }

    /// <summary>Library name and version the client reported (CLIENT SETINFO).</summary>
    public string? LibraryName { get; internal set; }

    /// <inheritdoc cref="LibraryName"/>
    public string? LibraryVersion { get; internal set; }

    /// <summary>When the connection was accepted.</summary>
    public DateTimeOffset ConnectedAt { get; }

    /// <summary>When the last command ran (to the coarse clock's tick, about 4 ms: CLIENT LIST and timeout count seconds).</summary>
    public DateTimeOffset LastCommandAt => ConnectedAt.AddMilliseconds(System.Threading.Volatile.Read(ref _lastCommandTicks) - _connectedTicks);

    // The coarse monotonic clock's milliseconds at the connection and at the last batch's commands: read at every batch, where
    // the wall clock's read costs a cycle counter read (about 1% of a pipelined GET's time) and this one does not.
    private readonly long _connectedTicks;
    private long _lastCommandTicks;

    /// <summary>The last command run.</summary>
    public RespCommand LastCommand { get; private set; }

    /// <summary>Whether the client logged in (AUTH, HELLO ... AUTH), or started logged in as a default user with nopass.</summary>
    public bool Authenticated { get; internal set; }

    /// <summary>The selected database.</summary>
    public int DatabaseIndex => _databaseIndex;

    /// <summary>The protocol version in use (2 or 3).</summary>
    public int ProtocolVersion => _writer.Resp3 ? 3 : 2;

    /// <summary>The client's address.</summary>
    public string RemoteEndpoint => _sender.RemoteEndpoint;

    /// <summary>This session is about to hold its thread for long (a script past its time limit); see <see cref="INetworkSender.ReleaseOtherConnections"/>.</summary>
    internal void ReleaseOtherConnections() => _sender.ReleaseOtherConnections();

    /// <summary>Reply bytes the connection holds for a client that is not reading (see <see cref="INetworkSender.UnsentBytes"/>).</summary>
    internal long UnsentBytes => _sender.UnsentBytes;

    /// <summary>What the connection holds in its buffers (see <see cref="INetworkSender.Buffers"/>).</summary>
    internal ConnectionBuffers Buffers => _sender.Buffers;

    /// <summary>The server's address of this connection.</summary>
    public string LocalEndpoint => _sender.LocalEndpoint;

    /// <summary>Set by CLIENT KILL: the connection closes at its next batch.</summary>
    internal volatile bool KillRequested;

    /// <summary>
    /// Ends this connection from another session (CLIENT KILL): it leaves the client list at once,
    /// its socket is shut (safe from any thread) so an idle client does not linger, and a batch
    /// already in flight stops at its end.
    /// </summary>
    internal void RequestKill()
    {
        KillRequested = true;
        _server.Clients.Remove(this);
        CancelBlocking();
        _sender.CloseAfterSend();
    }

    /// <inheritdoc/>
    public int TryConsumeMessages(byte* buffer, int bytesRead)
    {
        // The gate keeps this receive path apart from a thread serving this client's blocking command
        // (see RespServerSession.Blocking.cs); while blocked, input is kept by the session, in order.
        lock (_gate)
        {
            if (_aclChannelsChanged)
                RecheckChannelAccess(); // ACL: another session's SETUSER may have revoked a subscribed channel
            if (KillRequested)
            {
                _sender.CloseAfterSend();
                return bytesRead;
            }
            if (HasBlockedInput)
                return ConsumeWhileBlocked(buffer, bytesRead);
            // Scripting/Debugger: while a debugged script is stopped, input is debugger commands.
            if (_luaDebugger is { TakesInput: true })
            {
                FeedDebugger(buffer, bytesRead);
                return bytesRead;
            }
            int position = ConsumeBatch(buffer, bytesRead);
            if (_blockedOn == null && _pausedCommand == null)
                return position;
            Stash(buffer + position, bytesRead - position);
            return bytesRead;
        }
    }

    /// <summary>Runs the complete commands at <paramref name="buffer"/>; returns the bytes consumed (up to a command that blocked).</summary>
    private int ConsumeBatch(byte* buffer, int bytesRead)
    {
        int position = 0;
        int commands = 0;
        BeginBatch();
        BeginTiming(buffer, bytesRead);
        // CONFIG SET appendonly / appendfsync: the log turned on or off, and a changed commit policy, are taken between batches.
        if (_server.OperationLog != _oplog?.Log)
            FollowOperationLog(_server.OperationLog);
        _oplog?.RefreshPolicy();
        // CLIENT PAUSE: the one look per batch at whether one is on (Clients/RespServerSession.Pause.cs).
        _pauseSeen = _server.ClientPause.IsActive || _server.Replication.IsReplica; // and a replica's -READONLY
        try
        {
            // The device error of the storage tier is caught out here, not around each command, so the loop's
            // locals stay in registers; after one the loop goes on with the next command.
            while (true)
            {
                try
                {
                    RunCommands(buffer, bytesRead, ref position, ref commands);
                    break;
                }
                catch (DeviceReadException e)
                {
                    FailCommandOnDeviceError(e);
                    AfterDeviceError(); // Stats/RespServerSession.CommandTiming.cs
                    commands++;
                }
            }
        }
        finally
        {
            try
            {
                EndTiming();
            }
            finally
            {
                EndBatch();
            }
        }

        if (commands > 0)
        {
            if (!_replaying)
                _server.Statistics.AddCommands(commands);
            FlushKeyspaceStatistics();
            _lastCommandTicks = Environment.TickCount64;
        }
        // Durability: replies held for a write's commit go once it is durable (RespServerSession.OperationLog.cs).
        ReleaseHeldReplies();
        // The batch's replies are out: an idle connection holds no send buffer.
        _writer.ReleaseBuffer();
        // maxmemory-clients: off by default, and then this test is all a batch pays.
        if (_eviction.IsOn)
            CountMemoryAfterBatch();
        if (_closeRequested)
        {
            // Scripting/Debugger: a debugged EVAL ends the command loop this way; what follows it is debugger input.
            if (_luaDebugger is { TakesInput: true })
            {
                _closeRequested = false;
                // With YES the EVAL itself goes to the forked session too, with or without input after it.
                if (position < bytesRead || _debugFork != null)
                    FeedDebugger(buffer + position, bytesRead - position);
                return bytesRead;
            }
            _sender.CloseAfterSend();
            return bytesRead;
        }
        return position;
    }

    /// <summary>Runs the complete commands from <paramref name="position"/> on, until the batch ends or must stop.</summary>
    private void RunCommands(byte* buffer, int bytesRead, ref int position, ref int commands)
    {
        while (position < bytesRead && !_closeRequested)
        {
            var parse = TryParseCommand(buffer + position, bytesRead - position, out int consumed);
            if (parse == ParseResult.Incomplete)
            {
                // Redis's client-query-buffer-limit: a command that keeps growing past it ends the client.
                if (bytesRead - position > _server.ClientLimits.QueryBufferLimit)
                {
                    _server.Statistics.AddQueryBufferLimitDisconnection();
                    _closeRequested = true;
                }
                return;
            }
            position += consumed;
            if (parse == ParseResult.ProtocolError)
            {
                _closeRequested = true;
                return;
            }
            if (parse == ParseResult.Empty)
                continue;

            _commandReplyMark = _writer.Position;
            _commandOffset = position - consumed;
            _commandLength = consumed;
            ExecuteCommand();
            if (_pausedCommand != null)
                return; // held by CLIENT PAUSE: not run, the rest of the input waits with it
            commands++;
            // The connection broke or passed its output limit: the rest of the batch would only make replies to drop.
            if (!_writer.Healthy)
            {
                _closeRequested = true;
                return;
            }
            if (_blockingSignaled)
                ServeSignaledWaiters();
            if (_blockedOn != null)
                return;
            if (commands % CommandsPerEpochRefresh == 0)
                _storeSession!.Refresh();
        }
    }

    /// <summary>Where the running command's reply starts in the writer (see <see cref="FailCommandOnDeviceError"/>).</summary>
    private long _commandReplyMark;

    /// <summary>
    /// A record the command needed could not be read back from the log device (the storage tier): the command fails
    /// with an error reply in place of what it had written (the store counts the error), and the connection goes on. Had part of the reply been
    /// sent already, the client could not tell where it ends, so the connection is closed instead.
    /// </summary>
    private void FailCommandOnDeviceError(DeviceReadException e)
    {
        if (!_writer.TryRewind(_commandReplyMark))
        {
            _closeRequested = true;
            return;
        }
        _writer.WriteError(System.Text.Encoding.ASCII.GetBytes("ERR " + e.Message));
    }

    /// <summary>
    /// Protects the selected database's epoch for the batch, moving to its replacement if it was flushed or swapped.
    /// Entering checks, once protected, that the database was not retired meanwhile (see <see cref="GarnetDatabase"/>).
    /// </summary>
    private void BeginBatch()
    {
        while (true)
        {
            var current = _server.GetDatabase(_databaseIndex);
            if (!ReferenceEquals(current, _database))
                SwitchDatabase(current);
            if (current.TryEnter(_storeSession!))
                break;
        }
        _batchActive = true;
        _counters = _replayCounters ?? _server.Statistics.CountersOfThisThread();
    }

    private void EndBatch()
    {
        if (_batchActive)
        {
            _batchActive = false;
            _storeSession!.EndUnsafe();
        }
        // Client tracking: broadcasting clients hear of the batch's writes once, at its end (Tracking/).
        if (_broadcastBatch != null)
            SendBroadcastInvalidations();
    }

    private void SwitchDatabase(GarnetDatabase database)
    {
        _storeSession?.Dispose();
        _database = database;
        _storeSession = database.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects, _noTouch));
        _objectSession = _storeSession.NewLinkedSession<ObjectInput, ObjectOutput, ObjectStoreFunctions>(new ObjectStoreFunctions(database.Objects, _noTouch));
    }

    /// <summary>CLIENT NO-TOUCH changed: the store sessions are made again with the new setting (their callbacks hold it).</summary>
    internal void RenewStoreSessions()
    {
        EndBatch();
        _database = null;
        BeginBatch();
    }

    /// <summary>Selects database <paramref name="index"/> in the middle of a batch (SELECT).</summary>
    internal void SelectDatabase(int index)
    {
        EndBatch();
        _databaseIndex = index;
        BeginBatch();
    }

    /// <summary>
    /// Re-resolves the selected database in the middle of a batch, after this session flushed or
    /// swapped it (FLUSHDB, FLUSHALL, SWAPDB).
    /// </summary>
    internal void RefreshDatabase()
    {
        EndBatch();
        BeginBatch();
    }

    /// <summary>Ends the connection after this batch's replies (QUIT, protocol errors).</summary>
    internal void RequestClose() => _closeRequested = true;

    /// <summary>The engine session of the selected database (valid during a batch).</summary>
    internal ClientSession<StringInput, StringOutput, MainStoreFunctions> Store => _storeSession!;

    /// <inheritdoc/>
    public void Dispose()
    {
        // Under the gate: a thread serving this client's blocking command may be running it.
        lock (_gate)
        {
            if (_disposed)
                return;
            _disposed = true;
            try
            {
                FinishDebugSessionOnDisconnect(); // Scripting/Debugger: a stopped script runs to its end
            }
            catch (Exception)
            {
                // The connection is gone either way; what follows frees the session's state.
            }
            CancelBlocking();
            ForgetPause(); // Clients/RespServerSession.Pause.cs
            StopMonitoring(); // Monitor/RespServerSession.Monitor.cs
            if (_replicationStream)
                _server.Replication.Stream.Detach(this); // Replication/RespServerSession.Replication.cs
            StopTracking(); // Tracking/: leaves its prefixes and tracked keys
            ResetPubSub(closing: true); // leaves every channel and pattern (PubSub/RespServerSession.PubSub.cs)
            ForgetWatches(); // Transactions: stops counting as a watcher
            _watchArming.Unregister(_writesInFlight);
            _server.Clients.Remove(this);
            _eviction.Forget(this);
            _storeSession?.Dispose();
            _output?.Dispose();
            _replyBuffer?.Dispose();
            _lua?.Dispose(); // Scripting: the session's Lua state.
            _customReply?.Dispose(); // Extensions: the procedures' reply buffer.
        }
    }
}
