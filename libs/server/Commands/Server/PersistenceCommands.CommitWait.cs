using System.Threading;

namespace Garnet.server;

/// <summary>
/// WAIT, WAITAOF and COMMITAOF waiting for a commit of the operation log as blocked clients wait (Blocking/), not on
/// their event loop's thread: in cluster mode a commit also waits for the replicas in sync and the write lease, which
/// may not come for long, and every other connection of that thread would wait with it.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    // The log address COMMITAOF waits to see durable (everything logged when it came).
    private long _commitAofAddress;

    /// <summary>Whether this command may block: not inside EXEC or a script, nor while the log is replayed.</summary>
    private bool CanBlock => !_inExec && !_inScriptCommand && !_replaying;

    /// <summary>
    /// Blocks this client until everything up to <paramref name="address"/> is durable, or until <paramref name="deadline"/>
    /// (0: none). For WAIT, <paramref name="replicasNeeded"/> replicas must then acknowledge it too; for WAITAOF, hold it
    /// durably in their own logs.
    /// </summary>
    private void BlockUntilCommitted(OperationLog log, long address, long deadline, long replicasNeeded)
    {
        BlockOnKeys(0, 0, deadline);
        if (Volatile.Read(ref _blockedOn) is not { } waiter)
            return;
        // A log that failed or stopped takes no waiter: the reply tells what counted (WAITAOF 0 local, COMMITAOF MISCONF).
        if (!log.OnCommitted(address, new CommitAwaited(this, waiter, replicasNeeded), request: true))
            TimeOutBlocked(waiter);
    }

    /// <summary>The commit a blocked WAIT, WAITAOF or COMMITAOF waited for came (on a pool thread).</summary>
    private void OnCommitAwaited(BlockedWaiter waiter, long replicasNeeded)
    {
        if (waiter.Command.Command is RespCommand.WAIT or RespCommand.WAITAOF && _server.OperationLog is { } log)
        {
            // The files hold the writes now: replicas are counted from where they end.
            long target = log.WrittenOut;
            lock (_gate)
            {
                if (!IsBlockedOn(waiter))
                    return;
                _replicaWaitOffset = target;
            }
            var replication = _server.Replication;
            // WAITAOF counts replicas whose own logs hold the writes durably; WAIT, those that applied them.
            bool durable = waiter.Command.Command == RespCommand.WAITAOF;
            if (replicasNeeded > 0 && replication.ReplicasAt(target, durable) < replicasNeeded)
            {
                replication.AddWaiter(this, waiter, target, replicasNeeded, durable);
                return;
            }
        }
        TimeOutBlocked(waiter);
    }

    /// <summary>Told by the log's notifier thread, which must not wait behind the session's batch: a pool thread answers.</summary>
    private sealed class CommitAwaited(RespServerSession session, BlockedWaiter waiter, long replicasNeeded) : ICommitWaiter
    {
        private readonly RespServerSession _session = session;
        private readonly BlockedWaiter _waiter = waiter;
        private readonly long _replicasNeeded = replicasNeeded;

        public void OnCommitted()
            => ThreadPool.UnsafeQueueUserWorkItem(static awaited => awaited._session.OnCommitAwaited(awaited._waiter, awaited._replicasNeeded), this, preferLocal: false);

        /// <summary>The client left, timed out or was unblocked (its waiter left the registry): its wake would find nothing to answer.</summary>
        public bool Abandoned => !Volatile.Read(ref _waiter.Registered);
    }
}
