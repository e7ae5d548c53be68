using System;
using System.Threading;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The persistence commands: SAVE, BGSAVE [SCHEDULE], BGREWRITEAOF, WAITAOF, WAIT and Garnet's COMMITAOF. Checkpoints
/// are taken by <see cref="Checkpointer"/>; the replies are Redis's.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>SAVE: a checkpoint on this thread (other clients go on meanwhile), then +OK.</summary>
    private void Save()
    {
        // The checkpoint waits for every thread inside the databases to move on, this one too: it leaves its batch meanwhile.
        CheckpointStart started;
        EndBatch();
        try
        {
            started = _server.Checkpoints.Save();
        }
        finally
        {
            BeginBatch();
        }
        switch (started)
        {
            case CheckpointStart.Started:
                _writer.WriteOk();
                break;
            case CheckpointStart.Failed:
                _writer.WriteError("ERR " + _server.Checkpoints.LastError);
                break;
            default:
                _writer.WriteError("ERR Background save already in progress"u8);
                break;
        }
    }

    /// <summary>BGSAVE [SCHEDULE]: a checkpoint in the background.</summary>
    private void BackgroundSave()
    {
        bool schedule = false;
        if (_argCount > 2 || (_argCount == 2 && !(schedule = _args[1].EqualsUpper("SCHEDULE"u8))))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        switch (_server.Checkpoints.SaveInBackground(schedule))
        {
            case CheckpointStart.Started:
                _writer.WriteSimpleString("Background saving started"u8);
                break;
            case CheckpointStart.Scheduled:
                _writer.WriteSimpleString("Background saving scheduled"u8);
                break;
            default:
                _writer.WriteError(_server.Checkpoints.RewriteInProgress
                    ? "ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE SCHEDULE in order to schedule a BGSAVE whenever possible."u8
                    : "ERR Background save already in progress"u8);
                break;
        }
    }

    /// <summary>BGREWRITEAOF: a checkpoint, after which the AOF files before it are removed (scheduled after a running save).</summary>
    private void BackgroundRewriteAof()
    {
        switch (_server.Checkpoints.RewriteAofInBackground())
        {
            case CheckpointStart.Started:
                _writer.WriteSimpleString("Background append only file rewriting started"u8);
                break;
            case CheckpointStart.Scheduled:
                _writer.WriteSimpleString("Background append only file rewriting scheduled"u8);
                break;
            default:
                _writer.WriteError("ERR Background append only file rewriting already in progress"u8);
                break;
        }
    }

    /// <summary>
    /// COMMITAOF [dbid] (Garnet's): makes every write logged so far durable, then +OK. There is one log for all databases, so
    /// a database id, checked, commits it all.
    /// </summary>
    private void CommitAof()
    {
        if (_argCount > 2)
        {
            WriteWrongArity("commitaof");
            return;
        }
        if (_argCount == 2 && !TryReadDatabaseIndex(in _args[1], out _))
            return;
        var log = _server.OperationLog;
        if (log == null)
        {
            _writer.WriteError("ERR the append-only file is off (start the server with --aof, or CONFIG SET appendonly yes)"u8);
            return;
        }
        _commitAofAddress = log.Tail;
        if (CanBlock)
        {
            // The commit is waited for as a blocked client waits, so this connection's event loop serves the others
            // meanwhile: in cluster mode a commit also waits for the replicas in sync and the write lease.
            BlockUntilCommitted(log, _commitAofAddress, deadline: 0, replicasNeeded: 0);
            return;
        }
        log.WaitForCommit(_commitAofAddress);
        WriteCommitAofReply(log);
    }

    /// <summary>COMMITAOF's reply once its wait ended: +OK only if what was logged when it came is durable.</summary>
    private void WriteCommitAofReply(OperationLog log)
    {
        if (log.Failure is { } failure)
            _writer.WriteError("MISCONF Errors writing to the AOF file: " + failure.Message);
        else if (!log.IsCommitted(_commitAofAddress))
            _writer.WriteError("ERR the AOF commit did not complete: this node stopped acknowledging writes (demoted or stopping) before it"u8);
        else
            _writer.WriteOk();
    }

    /// <summary>
    /// WAITAOF numlocal numreplicas timeout: [1 if this connection's writes so far are durable in the AOF, else 0, how many
    /// replicas hold them durably in their own logs (see ReplicaLogMirror; a replica without the operation log never
    /// does)]. The writes are committed first when they are not yet (one fsync; in cluster mode the replicas in sync and the
    /// lease too), since replicas are sent what the files hold; then it waits until enough replicas reported them durable
    /// (REPLFACK) or the timeout (0: none) passed, as Redis's does.
    /// </summary>
    private void WaitAof()
    {
        if (!TryReadWaitCount(1, out long numLocal) || !TryReadWaitCount(2, out long numReplicas) || !TryReadWaitTimeout(3, out long deadline))
            return;
        var log = _server.OperationLog;
        if (numLocal > 0 && log == null)
        {
            _writer.WriteError("ERR WAITAOF cannot be used when numlocal is set but appendonly is disabled."u8);
            return;
        }
        if (log != null && _oplog is { } pending && !log.IsCommitted(pending.AppendedUntil) && (numLocal > 0 || numReplicas > 0))
        {
            if (CanBlock)
            {
                // Blocked until the commit, then until enough replicas hold it (OnCommitAwaited), while this connection's
                // event loop serves the others. No replica counts before the commit.
                _replicaWaitOffset = long.MaxValue;
                BlockUntilCommitted(log, pending.AppendedUntil, deadline, numReplicas);
                return;
            }
            // Inside EXEC or a script this thread waits for one fsync itself, outside its batch so that nothing waits for
            // it meanwhile (at most the timeout).
            EndBatch();
            try
            {
                log.WaitForCommit(pending.AppendedUntil, deadline: deadline);
            }
            finally
            {
                BeginBatch();
            }
        }
        // Committed (or nothing to commit): replicas are counted from where the files end.
        _replicaWaitOffset = log?.WrittenOut ?? 0;
        var replication = _server.Replication;
        if (numReplicas <= 0 || !CanBlock || replication.ReplicasAt(_replicaWaitOffset, durable: true) >= numReplicas)
        {
            WriteReplicaWaitReply(RespCommand.WAITAOF);
            return;
        }
        BlockOnKeys(0, 0, deadline);
        if (Volatile.Read(ref _blockedOn) is { } waiter)
            replication.AddWaiter(this, waiter, _replicaWaitOffset, numReplicas, durable: true);
    }

    /// <summary>
    /// WAIT numreplicas timeout: how many replicas acknowledged this connection's writes (Replication/), waiting until
    /// enough did or the timeout passed (0: no timeout), as Redis's does.
    /// </summary>
    private void WaitForReplicas()
    {
        if (!TryReadWaitCount(1, out long numReplicas) || !TryReadWaitTimeout(2, out long deadline))
            return;
        var replication = _server.Replication;
        if (_server.OperationLog is { } log && _oplog is { } pending && !log.IsCommitted(pending.AppendedUntil) && CanBlock)
        {
            // This connection's writes reach the files, from which replicas are sent, with their commit: blocked until it
            // comes, then until enough replicas acknowledged them (see OnCommitAwaited). No replica counts before.
            _replicaWaitOffset = long.MaxValue;
            BlockUntilCommitted(log, pending.AppendedUntil, deadline, numReplicas);
            return;
        }
        // Committed already (or inside EXEC or a script, which do not wait): replicas are counted from where the files end.
        _replicaWaitOffset = _server.OperationLog?.WrittenOut ?? 0;
        if (numReplicas <= 0 || _inExec || _inScriptCommand || _replaying || replication.ReplicasAt(_replicaWaitOffset) >= numReplicas)
        {
            WriteReplicaWaitReply(RespCommand.WAIT);
            return;
        }
        BlockOnKeys(0, 0, deadline);
        if (Volatile.Read(ref _blockedOn) is { } waiter)
            replication.AddWaiter(this, waiter, _replicaWaitOffset, numReplicas, durable: false);
    }

    /// <summary>The reply of WAIT (replicas that acknowledged) or WAITAOF ([local fsync, replicas]) now.</summary>
    private void WriteReplicaWaitReply(RespCommand command)
    {
        if (command == RespCommand.WAIT)
        {
            _writer.WriteInteger(_server.Replication.ReplicasAt(_replicaWaitOffset));
            return;
        }
        var log = _server.OperationLog;
        bool durable = log != null && (_oplog == null || log.IsCommitted(_oplog.AppendedUntil));
        _writer.WriteArrayHeader(2);
        _writer.WriteInteger(durable ? 1 : 0);
        _writer.WriteInteger(_server.Replication.ReplicasAt(_replicaWaitOffset, durable: true));
    }

    private bool TryReadWaitCount(int index, out long count)
    {
        if (!NumberFormat.TryParseLong(_args[index].Span, out count))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return false;
        }
        if (count < 0)
        {
            _writer.WriteError("ERR value is out of range, must be positive"u8);
            return false;
        }
        return true;
    }

    /// <summary>A timeout in milliseconds (0: none), as a deadline on <see cref="Environment.TickCount64"/>.</summary>
    private bool TryReadWaitTimeout(int index, out long deadline)
    {
        deadline = 0;
        if (!NumberFormat.TryParseLong(_args[index].Span, out long milliseconds))
        {
            _writer.WriteError("ERR timeout is not an integer or out of range"u8);
            return false;
        }
        if (milliseconds < 0)
        {
            _writer.WriteError("ERR timeout is negative"u8);
            return false;
        }
        if (milliseconds > 0)
            deadline = Environment.TickCount64 + milliseconds;
        return true;
    }
}
