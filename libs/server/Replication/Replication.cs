using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// This server's place in replication: a primary, which streams its operation log to the replicas that ask for it
/// (<see cref="ReplicaSender"/>, one each), or a replica of one primary (<see cref="ReplicaLink"/> asks for the stream,
/// <see cref="ReplicaStream"/> applies it).
/// </summary>
/// <remarks>
/// The stream is the primary's operation log itself, by file offset: a replica's offset is the primary's log offset up
/// to which it applied every entry, so offsets compare across replicas (which one has every acknowledged write) and a
/// replica that reconnects continues where it stopped while the primary still has the files from there. A new replica,
/// or one too far behind, first loads a checkpoint the primary takes for it, then the log from the address the
/// checkpoint noted. A primary therefore needs the operation log (--aof).
/// </remarks>
public sealed class Replication : IReplicationControl, IReplicaCommitGate, IDisposable
{
    private readonly StoreWrapper _server;
    private readonly object _lock = new();
    private readonly List<ReplicaSender> _senders = [];
    private ReplicaLink? _link;
    private string _replicationId = NewReplicationId();
    private bool _disposed;

    // The senders as an array for the commit gate, which reads it on every acknowledgement (replaced under _lock), with
    // the senders that ended while their replica was in sync, until it is late (under _lock).
    private volatile ReplicaSender[] _gateSenders = [];
    private readonly List<ReplicaSender> _departed = [];
    private readonly Timer? _lateReplicaCheck;

    internal Replication(StoreWrapper server)
    {
        _server = server;
        Stream = new ReplicaStream(server);
        Failover = new CoordinatedFailover(server, this);
        if (server.Options.EnableCluster)
            _lateReplicaCheck = new Timer(_ => DropLateReplicas(), null, LateCheckMs, LateCheckMs);
    }

    private const int LateCheckMs = 100;

    /// <summary>
    /// How long commits wait for a replica in sync that does not acknowledge before it is taken out of sync: a second
    /// longer than a primary's lease (half the node timeout, at most 5 s), so that a primary cut off from the cluster and
    /// its replicas loses its lease (and stops completing commits) before it could count commits without them.
    /// </summary>
    private long LateReplicaMs => Math.Min(_server.Options.ClusterTimeout * 1000L / 2, 5000) + 1000;

    // The replicated offset the gate last gave while this primary held its lease: without the lease, no commit past it
    // counts (replicas leaving the gate then raise nothing).
    private long _offsetUnderLease = long.MaxValue;

    /// <summary>
    /// In cluster mode, commits (and so the replies held for them under commit-before-ack) wait for every replica in sync:
    /// the replica a failover promotes has each acknowledged write (see <see cref="IReplicaCommitGate"/>).
    /// </summary>
    long IReplicaCommitGate.ReplicatedOffset
    {
        get
        {
            // A replica streams to no one: its commits (its log's copy of its primary's stream) wait for its disk alone.
            if (IsReplica)
                return long.MaxValue;
            long offset = long.MaxValue;
            foreach (var sender in _gateSenders)
            {
                if (sender.InSync)
                    offset = Math.Min(offset, sender.AcknowledgedOffset);
            }
            if (_server.Cluster is not { WriteLeaseHeld: false })
            {
                Volatile.Write(ref _offsetUnderLease, offset);
                return offset;
            }
            return Math.Min(offset, Volatile.Read(ref _offsetUnderLease));
        }
    }

    private void DropLateReplicas()
    {
        bool dropped = false;
        foreach (var sender in _gateSenders)
        {
            if (sender.DropIfLate(LateReplicaMs))
            {
                dropped = true;
                LastSenderError = $"{sender.Host}:{sender.Port}: no acknowledgement for {LateReplicaMs} ms; commits no longer wait for it";
            }
        }
        lock (_lock)
        {
            // An ended stream leaves the gate once late, or once a new stream to the same replica is in sync.
            int before = _departed.Count;
            _departed.RemoveAll(old => !old.InSync || _senders.Exists(s => s.InSync && s.Host == old.Host && s.Port == old.Port));
            if (_departed.Count != before)
                PublishSenders();
        }
        if (dropped)
            _server.OperationLog?.OnReplicated();
    }

    /// <summary>Publishes the senders (and the departed ones still in sync) to the commit gate; under <c>_lock</c>.</summary>
    private void PublishSenders() => _gateSenders = [.. _senders, .. _departed];

    /// <summary>A sender that ended stays in the commit gate while its replica counts as in sync; under <c>_lock</c>.</summary>
    private void KeepInGate(ReplicaSender sender)
    {
        sender.Departed();
        if (sender.InSync && _server.Options.EnableCluster)
            _departed.Add(sender);
    }

    /// <summary>This server stops being a primary: no replica gates its commits any more; under <c>_lock</c>.</summary>
    private void ClearGate()
    {
        foreach (var sender in _departed)
            sender.LeaveGate();
        foreach (var sender in _senders)
            sender.LeaveGate();
        _departed.Clear();
    }

    /// <summary>The commit gate sees the senders as they are now (outside <c>_lock</c>).</summary>
    private void ReevaluateGate()
    {
        var log = _server.OperationLog;
        if (log == null || !_server.Options.EnableCluster)
            return;
        if (log.ReplicaGate != this)
            log.ReplicaGate = this;
        else
            log.OnReplicated();
    }

    /// <summary>Whether this server is a replica (REPLICAOF host port), connected or not.</summary>
    public bool IsReplica => Volatile.Read(ref _link) != null;

    /// <summary>The link to the primary while this server is a replica.</summary>
    internal ReplicaLink? Link => Volatile.Read(ref _link);

    /// <summary>What a replica applied of its primary's stream.</summary>
    internal ReplicaStream Stream { get; }

    /// <summary>
    /// The history this server's data follows (INFO's master_replid): its own as a primary, its primary's as a replica
    /// once synced. A replica promoted (REPLICAOF NO ONE) starts a new one.
    /// </summary>
    public string ReplicationId
    {
        get
        {
            lock (_lock)
                return IsReplica && Stream.ReplicationId is { } primaryId ? primaryId : _replicationId;
        }
    }

    /// <summary>
    /// The replication offset (INFO's master_repl_offset): the operation log's end as a primary, the primary's offset
    /// applied as a replica.
    /// </summary>
    public long Offset => IsReplica ? Stream.Offset : _server.OperationLog?.WrittenOut ?? 0;

    bool IReplicationControl.HoldsPrimaryHistory => IsReplica && Stream.ReplicationId != null && !Stream.Syncing;

    long IReplicationControl.AcknowledgedOffset
        => !IsReplica && _server.OperationLog is { } log && (log.CommitFrequencyMs == 0 || _server.Options.AofCommitWait) ? log.CommittedFileOffset : 0;

    void IReplicationControl.OnLeaseChanged() => ReevaluateGate();

    /// <summary>Why the last stream to a replica ended, with the replica's address (INFO's replica_stream_last_error), or null.</summary>
    public string? LastSenderError { get; private set; }

    /// <summary>Replicas that started from a checkpoint (INFO's sync_full).</summary>
    public long FullSyncs { get; private set; }

    /// <summary>Replicas that continued where they stood (sync_partial_ok).</summary>
    public long PartialSyncs { get; private set; }

    /// <summary>Replicas that asked to continue and had to start over (sync_partial_err).</summary>
    public long RefusedPartialSyncs { get; private set; }

    /// <summary>The replicas streamed to now, for INFO and ROLE.</summary>
    internal ReplicaSender[] Senders
    {
        get
        {
            lock (_lock)
                return [.. _senders];
        }
    }

    /// <summary>
    /// REPLICAOF host port: this server becomes (or stays) a replica of that primary. The link connects and syncs in the
    /// background; until it has, reads see the data as it was (replica-serve-stale-data yes).
    /// </summary>
    public void ReplicaOf(string host, int port)
    {
        ReplicaLink? old;
        ReplicaSender[] senders;
        // A primary of a cluster becoming a replica: writes not yet committed with its replicas are given up (their
        // replies are never sent; those connections close), as the new primary may not have them. Before its replicas
        // leave the commit gate below, which would let those commits count.
        if (!IsReplica && _server.Options.EnableCluster)
            _server.OperationLog?.AbandonUncommitted();
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            old = _link;
            if (old != null && old.Host == host && old.Port == port)
                return;
            // A replica streams to no one: replicas of this server find it gone and connect again later.
            senders = [.. _senders];
            ClearGate();
            _senders.Clear();
            PublishSenders();
        }
        ReevaluateGate();
        // The old primary's stream (if any) ends before the new link gives out its token.
        if (old != null)
        {
            old.Dispose();
            Stream.Detach(null);
        }
        foreach (var sender in senders)
            sender.Dispose();
        // A primary paused for its replica's failover follows the new primary: its held writers go on (to be redirected).
        if (_pausedForFailover)
        {
            _pausedForFailover = false;
            _server.ClientPause.Unpause(ClientPausePurpose.Failover);
        }
        ReplicaLink? raced;
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            // Another REPLICAOF that ran meanwhile started a link of its own: the last one wins, the other stops.
            raced = _link != old ? _link : null;
            var link = new ReplicaLink(_server, this, host, port);
            Volatile.Write(ref _link, link);
            link.Start();
        }
        raced?.Dispose();
        UpdateKeepFrom();
    }

    void IReplicationControl.Follow(string host, int port) => ReplicaOf(host, port);

    void IReplicationControl.StopFollowing() => ReplicaOfNoOne();

    string? IReplicationControl.CatchUpWithPrimary(int timeoutMs)
    {
        var link = Link;
        if (link == null)
            return "this server is not a replica";
        long deadline = Environment.TickCount64 + timeoutMs;
        long end;
        using (var connection = MigrateConnection.TryConnect($"{link.Host}:{link.Port}", link.Host, link.Port, timeoutMs, _server.Options.Address))
        {
            if (connection == null)
                return $"could not connect to the primary at {link.Host}:{link.Port}";
            var commands = new MigrateCommandBuffer();
            if (ReplicaLink.Authenticate(_server, connection, commands, timeoutMs) is { } authError)
                return authError;
            commands.Clear();
            commands.BeginCommand(2);
            commands.WriteBulk("REPLFAILOVER"u8);
            commands.WriteBulk(timeoutMs);
            if (connection.Write(commands.Written, timeoutMs) != MigrateIo.Ok || connection.ReadLine(timeoutMs, out var line) != MigrateIo.Ok)
                return "the primary did not answer REPLFAILOVER";
            if (line.Length < 2 || line[0] != ':' || !long.TryParse(line.Slice(1), out end))
                return "the primary answered REPLFAILOVER with " + System.Text.Encoding.UTF8.GetString(line);
        }
        while (Stream.ReplicationId == null || Stream.Offset < end)
        {
            if (Environment.TickCount64 > deadline)
                return $"the replica applied up to {Stream.Offset} of the primary's {end} within {timeoutMs} ms";
            Thread.Sleep(1);
        }
        return null;
    }

    // Set while this primary's writers are paused for a replica's failover: they go on once this server follows another.
    private volatile bool _pausedForFailover;

    /// <summary>
    /// Where the operation log ends once writers are paused: writes already past the pause may still be appending, so the
    /// end counts once it stays put between two commits (-1 when the log failed).
    /// </summary>
    internal long LogEndWhilePaused()
    {
        var log = _server.OperationLog;
        long end = -1;
        while (log != null && log.CommitAll())
        {
            long written = log.WrittenOut;
            if (written == end)
                break;
            end = written;
            Thread.Sleep(10);
        }
        return end;
    }

    /// <summary>FAILOVER (a coordinated failover to a replica) on this primary.</summary>
    internal CoordinatedFailover Failover { get; }

    /// <summary>REPLFAILOVER: pauses writers for a replica about to take over (lifted when this server becomes a replica).</summary>
    internal void PauseForFailover(long timeoutMs)
    {
        _pausedForFailover = true;
        _server.ClientPause.Pause(timeoutMs, ClientPauseMode.Write, ClientPausePurpose.Failover);
    }

    /// <summary>REPLICAOF NO ONE: the link stops and this server is a primary with a history of its own from here.</summary>
    public void ReplicaOfNoOne()
    {
        ReplicaLink? old;
        lock (_lock)
        {
            old = _link;
            if (old == null)
                return;
            Volatile.Write(ref _link, null);
            _replicationId = NewReplicationId();
        }
        bool mirrored = Stream.LogMirror != null;
        old.Dispose();
        Stream.Detach(null);
        _server.OperationLog?.StopAbandoning();
        // Unless its own log copied the stream (see ReplicaLogMirror), what this server replicated is in no operation log of
        // its own: a checkpoint makes it durable as its own.
        if (_server.OperationLog != null && !mirrored)
            _server.Checkpoints.SaveInBackground(schedule: true);
    }

    /// <summary>
    /// REPLSYNC from a replica at <paramref name="host"/>:<paramref name="port"/> with what it holds
    /// (<paramref name="replicationId"/> at <paramref name="offset"/>): starts streaming to it. Null when accepted, else
    /// the error to reply.
    /// </summary>
    internal string? AcceptReplica(string host, int port, string token, string replicationId, long offset)
    {
        var log = _server.OperationLog;
        if (log == null)
            return "ERR replication streams the operation log: start the primary with --aof";
        ReplicaSender? replaced = null;
        lock (_lock)
        {
            if (_disposed)
                return "ERR the server is stopping";
            if (_link != null)
                return "ERR this server is a replica; point the replica at the primary";
            // The same replica asking again (it reconnected) replaces its old stream.
            for (int i = 0; i < _senders.Count; i++)
            {
                if (_senders[i].Host == host && _senders[i].Port == port)
                {
                    replaced = _senders[i];
                    _senders.RemoveAt(i);
                    KeepInGate(replaced);
                    break;
                }
            }
            bool continues = replicationId == _replicationId && offset >= log.FileStart && offset <= log.WrittenOut;
            if (continues)
                PartialSyncs++;
            else
                FullSyncs++;
            // A replica that held some history asked to continue it and could not (Redis's sync_partial_err).
            if (!continues && offset >= 0)
                RefusedPartialSyncs++;
            var sender = new ReplicaSender(_server, this, host, port, token, _replicationId, continues ? offset : -1);
            _senders.Add(sender);
            PublishSenders();
            sender.Start();
        }
        replaced?.Dispose();
        UpdateKeepFrom();
        ReevaluateGate();
        return null;
    }

    /// <summary>A sender that stopped on its own (the replica went away) leaves the list.</summary>
    internal void Remove(ReplicaSender sender)
    {
        lock (_lock)
        {
            if (_senders.Remove(sender))
                KeepInGate(sender);
            PublishSenders();
            if (sender.Error != null)
                LastSenderError = $"{sender.Host}:{sender.Port}: {sender.Error}";
        }
        UpdateKeepFrom();
        ReevaluateGate();
    }

    /// <summary>The operation log keeps the files its replicas' senders still have to read (see <see cref="OperationLog.KeepFrom"/>).</summary>
    internal void UpdateKeepFrom()
    {
        var log = _server.OperationLog;
        if (log == null)
            return;
        lock (_lock)
            log.KeepFrom = _senders.Count == 0 ? null : KeepFrom;
    }

    private long KeepFrom()
    {
        long keep = long.MaxValue;
        lock (_lock)
        {
            foreach (var sender in _senders)
                keep = Math.Min(keep, sender.Position);
        }
        return keep;
    }

    /// <summary>
    /// How many replicas acknowledged everything up to <paramref name="offset"/> (WAIT), or with <paramref name="durable"/>
    /// hold it durably in their own logs (WAITAOF).
    /// </summary>
    public int ReplicasAt(long offset, bool durable = false)
    {
        int count = 0;
        lock (_lock)
        {
            foreach (var sender in _senders)
            {
                if ((durable ? sender.DurableOffset : sender.AcknowledgedOffset) >= offset)
                    count++;
            }
        }
        return count;
    }

    /// <summary>REPLFACK: the replica at <paramref name="host"/>:<paramref name="port"/> holds the stream durably up to <paramref name="offset"/>; false when none is streamed to.</summary>
    internal bool OnDurableAtReplica(string host, int port, long offset)
    {
        bool found = false;
        lock (_lock)
        {
            foreach (var sender in _senders)
            {
                if (sender.Host == host && sender.Port == port)
                {
                    sender.NoteDurable(offset);
                    found = true;
                }
            }
        }
        if (found)
            OnAcknowledged();
        return found;
    }

    private readonly List<(RespServerSession Session, BlockedWaiter Waiter, long Offset, long Needed, bool Durable)> _waiters = [];
    private volatile int _waiterCount;

    // Acknowledgements drop the waiters of clients no longer blocked on them (left, timed out, unblocked); with no replica
    // acknowledging, registrations do, once the list reaches this size, which then doubles with what stays (amortized).
    private int _pruneWaitersAt = 1024;

    /// <summary>WAITs and WAITAOFs registered for replicas' acknowledgements and not yet answered or dropped.</summary>
    public int ReplicaWaiters => _waiterCount;

    /// <summary>
    /// A client blocked in WAIT until <paramref name="needed"/> replicas acknowledged <paramref name="offset"/> (in WAITAOF,
    /// with <paramref name="durable"/>, until they hold it durably).
    /// </summary>
    internal void AddWaiter(RespServerSession session, BlockedWaiter waiter, long offset, long needed, bool durable)
    {
        lock (_waiters)
        {
            if (_waiters.Count >= _pruneWaitersAt)
            {
                _waiters.RemoveAll(entry => !StillWaits(entry.Session, entry.Waiter));
                _pruneWaitersAt = Math.Max(1024, _waiters.Count * 2);
            }
            _waiters.Add((session, waiter, offset, needed, durable));
            _waiterCount = _waiters.Count;
        }
        // An acknowledgement between the caller's count and this registration woke no one.
        OnAcknowledged();
    }

    /// <summary>A replica acknowledged an offset: the WAITs it satisfies answer (and those that ended otherwise are dropped).</summary>
    internal void OnAcknowledged()
    {
        ReevaluateGate();
        if (_waiterCount == 0)
            return;
        List<(RespServerSession Session, BlockedWaiter Waiter)>? done = null;
        lock (_waiters)
        {
            for (int i = _waiters.Count - 1; i >= 0; i--)
            {
                var (session, waiter, offset, needed, durable) = _waiters[i];
                if (!StillWaits(session, waiter) || ReplicasAt(offset, durable) >= needed)
                {
                    (done ??= []).Add((session, waiter));
                    _waiters.RemoveAt(i);
                }
            }
            _waiterCount = _waiters.Count;
        }
        if (done == null)
            return;
        foreach (var (session, waiter) in done)
            session.TimeOutBlocked(waiter);
    }

    // A client that left keeps its waiter as its last wait, but out of the blocking registry.
    private static bool StillWaits(RespServerSession session, BlockedWaiter waiter)
        => Volatile.Read(ref waiter.Registered) && session.IsBlockedOn(waiter);

    /// <summary>Stops the link and every sender (the server's stop).</summary>
    public void Dispose()
    {
        ReplicaLink? link;
        ReplicaSender[] senders;
        lock (_lock)
        {
            if (_disposed)
                return;
            _disposed = true;
            link = _link;
            senders = [.. _senders];
            ClearGate();
            _senders.Clear();
            PublishSenders();
        }
        _lateReplicaCheck?.Dispose();
        ReevaluateGate();
        link?.Dispose();
        foreach (var sender in senders)
            sender.Dispose();
        Stream.Detach(null);
    }

    private static string NewReplicationId() => Convert.ToHexString(RandomNumberGenerator.GetBytes(20)).ToLowerInvariant();
}
