using System;
using System.Text;
using Garnet.common;
using Garnet.server.Scripting;

namespace Garnet.server;

/// <summary>
/// Replication's commands: REPLICAOF (SLAVEOF) and ROLE for users; REPLSYNC (a replica asks its primary for the stream),
/// REPLATTACH, REPLFULL and REPLAPPEND (the primary's sender on the replica) between servers. A replica refuses writes
/// from clients (-READONLY), checked with CLIENT PAUSE's once-per-batch look (see HoldForPause).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    // Set once this session's REPLATTACH owned the stream of a primary (see ReplicaStream).
    private bool _replicationStream;

    // The log offset the running WAIT waits for replicas to acknowledge.
    private long _replicaWaitOffset;

    /// <summary>Redis's reply to a write on a read-only replica.</summary>
    private static ReadOnlySpan<byte> ErrReadOnlyReplica => "READONLY You can't write against a read only replica."u8;

    /// <summary>REPLICAOF host port | NO ONE (and SLAVEOF).</summary>
    private void ReplicaOf()
    {
        if (_cluster != null)
        {
            _writer.WriteError("ERR REPLICAOF not allowed in cluster mode."u8);
            return;
        }
        var replication = _server.Replication;
        if (Ascii.EqualsIgnoreCase(_args[1].Span, "no"u8) && Ascii.EqualsIgnoreCase(_args[2].Span, "one"u8))
        {
            replication.ReplicaOfNoOne();
            _writer.WriteOk();
            return;
        }
        if (!NumberFormat.TryParseLong(_args[2].Span, out long port))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (port is < 0 or > 65535)
        {
            _writer.WriteError("ERR Invalid master port"u8);
            return;
        }
        string host = Encoding.UTF8.GetString(_args[1].Span);
        if (replication.Link is { } link && link.Host == host && link.Port == port)
        {
            _writer.WriteSimpleString("OK Already connected to specified master"u8);
            return;
        }
        replication.ReplicaOf(host, (int)port);
        _writer.WriteOk();
    }

    /// <summary>
    /// ROLE: as a primary, "master", its offset and its replicas [ip, port, acknowledged offset]; as a replica, "slave",
    /// its primary, the link's state and the offset applied.
    /// </summary>
    private void Role()
    {
        var replication = _server.Replication;
        if (replication.Link is { } link)
        {
            _writer.WriteArrayHeader(5);
            _writer.WriteBulk("slave"u8);
            _writer.WriteBulk(Encoding.UTF8.GetBytes(link.Host));
            _writer.WriteInteger(link.Port);
            _writer.WriteBulk(Encoding.ASCII.GetBytes(link.State));
            _writer.WriteInteger(replication.Stream.ReplicationId == null ? -1 : replication.Stream.Offset);
            return;
        }
        var senders = replication.Senders;
        _writer.WriteArrayHeader(3);
        _writer.WriteBulk("master"u8);
        _writer.WriteInteger(replication.Offset);
        _writer.WriteArrayHeader(senders.Length);
        foreach (var sender in senders)
        {
            _writer.WriteArrayHeader(3);
            _writer.WriteBulk(Encoding.UTF8.GetBytes(sender.Host));
            _writer.WriteBulk(Encoding.ASCII.GetBytes(sender.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)));
            _writer.WriteBulk(Encoding.ASCII.GetBytes(Math.Max(0, sender.AcknowledgedOffset).ToString(System.Globalization.CultureInfo.InvariantCulture)));
        }
    }

    /// <summary>REPLSYNC host port token replicationid offset: a replica asks this primary for the stream (internal).</summary>
    private void ReplSync()
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long port) || port is <= 0 or > 65535 || !NumberFormat.TryParseLong(_args[5].Span, out long offset))
        {
            _writer.WriteError("ERR REPLSYNC needs host port token replicationid offset"u8);
            return;
        }
        string? error = _server.Replication.AcceptReplica(Encoding.UTF8.GetString(_args[1].Span), (int)port,
            Encoding.ASCII.GetString(_args[3].Span), Encoding.ASCII.GetString(_args[4].Span), offset);
        if (error != null)
            _writer.WriteError(error);
        else
            _writer.WriteOk();
    }

    /// <summary>
    /// REPLFACK host port offset: the replica streamed to at host:port holds the stream durably in its own log up to offset
    /// (internal; its link sends it as commits come), which WAITAOF counts.
    /// </summary>
    private void ReplFack()
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long port) || port is <= 0 or > 65535 || !NumberFormat.TryParseLong(_args[3].Span, out long offset) || offset < 0)
        {
            _writer.WriteError("ERR REPLFACK needs host port offset"u8);
            return;
        }
        if (!_server.Replication.OnDurableAtReplica(Encoding.UTF8.GetString(_args[1].Span), (int)port, offset))
        {
            _writer.WriteError("ERR this server streams to no replica at that address"u8);
            return;
        }
        _writer.WriteOk();
    }

    /// <summary>REPLATTACH token replicationid: a primary's sender attaches its stream to this replica (internal).</summary>
    private void ReplAttach()
    {
        if (!_server.Replication.IsReplica || !_server.Replication.Stream.Attach(this, Encoding.ASCII.GetString(_args[1].Span)))
        {
            _writer.WriteError("ERR no replication stream is expected with this token"u8);
            return;
        }
        _replicationStream = true;
        _writer.WriteOk();
    }

    /// <summary>
    /// Whether this connection is the one the primary's stream attached (REPLATTACH) and still owns; else writes the error.
    /// The stream's commands (REPLFULL, REPLAPPEND, REPLPROMOTE) change this server's data or role, so nothing else may send them.
    /// </summary>
    private bool OwnsReplicationStream(ReplicaStream stream)
    {
        if (_replicationStream && stream.IsOwner(this))
            return true;
        _writer.WriteError("ERR this connection does not own the replication stream"u8);
        return false;
    }

    /// <summary>REPLFULL BEGIN replicationid offset | DATA bytes | END: a checkpoint to start from (internal).</summary>
    private void ReplFull()
    {
        var stream = _server.Replication.Stream;
        if (!OwnsReplicationStream(stream))
            return;
        var step = _args[1].Span;
        string? error;
        if (Ascii.EqualsIgnoreCase(step, "BEGIN"u8) && _argCount == 4 && NumberFormat.TryParseLong(_args[3].Span, out long offset))
        {
            stream.BeginSync(Encoding.ASCII.GetString(_args[2].Span), offset);
            error = null;
        }
        else if (Ascii.EqualsIgnoreCase(step, "DATA"u8) && _argCount == 3)
        {
            error = stream.AddSyncBytes(_args[2].Span);
        }
        else if (Ascii.EqualsIgnoreCase(step, "END"u8) && _argCount == 2)
        {
            // Emptying and loading the databases waits for their epochs: outside this batch's protection.
            EndBatch();
            try
            {
                error = stream.EndSync();
            }
            finally
            {
                BeginBatch();
            }
        }
        else
        {
            error = "ERR REPLFULL needs BEGIN replicationid offset, DATA bytes or END";
        }
        if (error != null)
            _writer.WriteError(error);
        else
            _writer.WriteOk();
    }

    /// <summary>REPLAPPEND replicationid offset entries: the primary's log entries from offset on (internal); replies the offset applied.</summary>
    private void ReplAppend()
    {
        var stream = _server.Replication.Stream;
        if (!OwnsReplicationStream(stream))
            return;
        if (!NumberFormat.TryParseLong(_args[2].Span, out long offset))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        // The entries replay through a session of their own, which protects itself on the databases: this one steps out.
        string? error;
        EndBatch();
        try
        {
            error = stream.Append(Encoding.ASCII.GetString(_args[1].Span), offset, _args[3].Span);
        }
        finally
        {
            BeginBatch();
        }
        if (error != null)
            _writer.WriteError(error);
        else
            _writer.WriteInteger(stream.Offset);
    }

    /// <summary>
    /// REPLFAILOVER timeout-ms: a replica about to take over (CLUSTER FAILOVER) asks this primary to pause its writers for
    /// up to that long and replies where its log ends once nothing more is being appended (internal).
    /// </summary>
    private void ReplFailover()
    {
        if (!NumberFormat.TryParseLong(_args[1].Span, out long timeoutMs) || timeoutMs <= 0)
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        var log = _server.OperationLog;
        if (log == null || _server.Replication.IsReplica)
        {
            _writer.WriteError("ERR this server is not a primary with an operation log"u8);
            return;
        }
        EndBatch();
        long end;
        try
        {
            _server.Replication.PauseForFailover(timeoutMs);
            end = _server.Replication.LogEndWhilePaused();
        }
        finally
        {
            BeginBatch();
        }
        if (log.Failure != null)
            _writer.WriteError("MISCONF Errors writing to the AOF file: " + log.Failure.Message);
        else
            _writer.WriteInteger(end);
    }

    /// <summary>
    /// For a replica, called with CLIENT PAUSE's check: a write from a client is refused with -READONLY (the primary's
    /// stream replays through sessions of its own). True when refused.
    /// </summary>
    private bool RefuseOnReplica(RespCommandInfo info)
    {
        if (_replaying || !_server.Replication.IsReplica || !MayWriteWhilePaused(info, _args, _argCount))
            return false;
        // Redis lets these through on a replica: they change no data of the keyspace.
        if (info.Command is RespCommand.PUBLISH or RespCommand.SPUBLISH or RespCommand.PFCOUNT)
            return false;
        // A script without a shebang (Redis's compatibility mode) runs on a replica as in Redis 7: its writes fail as it
        // calls them (RunScriptCommand). One with flags but not no-writes is refused here, as Redis refuses it.
        if (info.Command is RespCommand.EVAL or RespCommand.EVALSHA && IsCompatibilityModeScript(info.Command))
            return false;
        FlagTransactionError();
        _writer.WriteError(ErrReadOnlyReplica);
        return true;
    }

    /// <summary>Whether EVAL's script (EVALSHA's cached one; an unknown digest runs to its NOSCRIPT) has no shebang line.</summary>
    private bool IsCompatibilityModeScript(RespCommand command)
    {
        if (command == RespCommand.EVAL)
            return !_args[1].Span.StartsWith("#!"u8);
        if (!ScriptDigest.TryParse(_args[1].Span, out var digest) || Scripting.Find(digest) is not { } body)
            return true;
        return !body.AsSpan().StartsWith("#!"u8);
    }

    /// <summary>Whether a write a script calls is refused: on a replica, unless it replays its primary's stream.</summary>
    private bool ScriptWriteRefusedOnReplica => !_replaying && _server.Replication.IsReplica;

    /// <summary>INFO's replication section, with Redis's fields.</summary>
    private void WriteReplicationInfo(InfoBuilder info)
    {
        var replication = _server.Replication;
        var link = replication.Link;
        var stream = replication.Stream;
        if (link != null)
        {
            info.Line("role", "slave");
            info.Line("master_host", link.Host);
            info.Line("master_port", link.Port);
            info.Line("master_link_status", link.Up ? "up" : "down");
            long silence = stream.SilenceMs;
            info.Line("master_last_io_seconds_ago", silence < 0 ? -1 : silence / 1000);
            info.Line("master_sync_in_progress", stream.Syncing ? 1 : 0);
            info.Line("slave_read_repl_offset", stream.Offset);
            info.Line("slave_repl_offset", stream.Offset);
            info.Line("slave_priority", 100);
            info.Line("slave_read_only", 1);
            info.Line("replica_announced", 1);
            if (link.LastError != null)
                info.Line("master_link_last_error", link.LastError.Replace('\r', ' ').Replace('\n', ' '));
        }
        else
        {
            info.Line("role", "master");
        }
        var senders = replication.Senders;
        info.Line("connected_slaves", senders.Length);
        for (int i = 0; i < senders.Length; i++)
        {
            var sender = senders[i];
            info.Line("slave" + i.ToString(System.Globalization.CultureInfo.InvariantCulture),
                $"ip={sender.Host},port={sender.Port},state={sender.State},offset={Math.Max(0, sender.AcknowledgedOffset)},lag={sender.LagSeconds}");
        }
        if (replication.LastSenderError is { } senderError)
            info.Line("replica_stream_last_error", senderError.Replace('\r', ' ').Replace('\n', ' '));
        info.Line("master_failover_state", replication.Failover.State);
        info.Line("master_replid", replication.ReplicationId);
        info.Line("master_replid2", new string('0', 40));
        long offset = replication.Offset;
        info.Line("master_repl_offset", offset);
        info.Line("second_repl_offset", -1);
        var log = _server.OperationLog;
        info.Line("repl_backlog_active", log != null ? 1 : 0);
        info.Line("repl_backlog_size", log != null ? log.WrittenOut - log.FileStart : 0);
        info.Line("repl_backlog_first_byte_offset", log?.FileStart ?? 0);
        info.Line("repl_backlog_histlen", log != null ? log.WrittenOut - log.FileStart : 0);
    }
}
