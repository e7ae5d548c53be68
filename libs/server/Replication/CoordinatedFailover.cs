using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// FAILOVER on a primary (without --cluster): it pauses its writers, waits until a replica (the one named with TO, else
/// the first to get there) applied its whole log, has that replica promote itself on the stream's connection
/// (REPLPROMOTE), and becomes its replica; Redis's coordinated failover. Without TO's FORCE a replica that does not catch
/// up within TIMEOUT ends the failover and the writers go on; ABORT ends it while it waits.
/// </summary>
internal sealed class CoordinatedFailover
{
    private readonly StoreWrapper _server;
    private readonly Replication _replication;
    private readonly object _lock = new();
    private Thread? _thread;
    private volatile bool _aborted;
    private volatile string _state = "no-failover";

    public CoordinatedFailover(StoreWrapper server, Replication replication)
    {
        _server = server;
        _replication = replication;
    }

    /// <summary>INFO's master_failover_state: no-failover, waiting-for-sync or failover-in-progress.</summary>
    public string State => _state;

    /// <summary>Why the last failover ended without one, or null.</summary>
    public string? LastError { get; private set; }

    /// <summary>
    /// Starts a failover to the replica at <paramref name="host"/>:<paramref name="port"/> (any replica when null); null
    /// when started, else the error to reply (Redis's).
    /// </summary>
    public string? Start(string? host, int port, bool force, long timeoutMs)
    {
        if (_replication.IsReplica)
            return "ERR FAILOVER is not valid when server is a replica.";
        var senders = _replication.Senders;
        if (senders.Length == 0)
            return "ERR FAILOVER requires connected replicas.";
        lock (_lock)
        {
            if (_thread != null)
                return "ERR FAILOVER already in progress.";
            if (host != null)
            {
                var target = Array.Find(senders, s => s.Host == host && s.Port == port);
                if (target == null)
                    return "ERR FAILOVER target HOST and PORT is not a replica.";
                if (target.State != "online")
                    return "ERR FAILOVER target replica is not online.";
            }
            if (_server.OperationLog == null)
                return "ERR replication streams the operation log: start the primary with --aof";
            _aborted = false;
            _state = "waiting-for-sync";
            // Writers are paused before the reply goes, as Redis pauses them in the command.
            _server.ClientPause.Pause(long.MaxValue / 4, ClientPauseMode.Write, ClientPausePurpose.Failover);
            _thread = new Thread(() => Run(host, port, force, timeoutMs)) { IsBackground = true, Name = "Garnet failover" };
            _thread.Start();
        }
        return null;
    }

    /// <summary>FAILOVER ABORT: null when a failover waiting for its replica was ended, else the error.</summary>
    public string? Abort()
    {
        lock (_lock)
        {
            if (_thread == null)
                return "ERR No failover in progress.";
            _aborted = true;
        }
        return null;
    }

    private void Run(string? host, int port, bool force, long timeoutMs)
    {
        string? error = null;
        try
        {
            long end = _replication.LogEndWhilePaused();
            long deadline = timeoutMs > 0 ? Environment.TickCount64 + timeoutMs : long.MaxValue;
            ReplicaSender? target = null;
            while (target == null)
            {
                if (_aborted)
                {
                    error = "Failover manually aborted";
                    return;
                }
                foreach (var sender in _replication.Senders)
                {
                    if ((host == null || (sender.Host == host && sender.Port == port)) && sender.State == "online" && sender.AcknowledgedOffset >= end)
                        target = sender;
                }
                if (target != null)
                    break;
                if (Environment.TickCount64 > deadline)
                {
                    if (force && host != null && Array.Find(_replication.Senders, s => s.Host == host && s.Port == port) is { } forced)
                    {
                        target = forced;
                        break;
                    }
                    error = "Replica never caught up before timeout";
                    return;
                }
                Thread.Sleep(1);
            }
            _state = "failover-in-progress";
            // The replica promotes itself once it applied up to end (or at once with FORCE), on its stream's connection.
            error = target.Promote(force ? -1 : end, 5000);
            if (error != null)
                return;
            _replication.ReplicaOf(target.Host, target.Port);
        }
        catch (ObjectDisposedException)
        {
            error = "the server stopped";
        }
        finally
        {
            LastError = error;
            lock (_lock)
            {
                _thread = null;
                _state = "no-failover";
            }
            // Held writers go on: refused as a replica's once this server follows the new primary, or writing here again
            // when the failover ended without one.
            _server.ClientPause.Unpause(ClientPausePurpose.Failover);
        }
    }
}
