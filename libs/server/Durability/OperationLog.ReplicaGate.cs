using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// What a commit waits for besides this node's disk: in cluster mode a primary's replicas in sync (see
/// <see cref="Replication"/>), so that a reply held for its write's commit (commit-before-ack) goes only once every replica
/// that could be promoted has the write too, and a failover loses no acknowledged write (the MemoryDB design, with the
/// shard's replicas as the durable log).
/// </summary>
public interface IReplicaCommitGate
{
    /// <summary>
    /// The file offset of the log up to which every replica in sync applied the stream, or <see cref="long.MaxValue"/>
    /// when no replica gates commits.
    /// </summary>
    long ReplicatedOffset { get; }
}

public sealed unsafe partial class OperationLog
{
    // The address the flusher made durable on this node's disk; _committed follows it once replicas have it too.
    private long _durableHere;

    // Each commit's end as a log address and as the file offset replicas acknowledge, oldest first (under the lock).
    private readonly Queue<(long Address, long FileOffset)> _commitPoints = new();
    private readonly object _commitPointsLock = new();
    private volatile IReplicaCommitGate? _replicaGate;

    /// <summary>What commits wait for besides the disk (null: the disk alone); a gate that opens further calls <see cref="OnReplicated"/>.</summary>
    public IReplicaCommitGate? ReplicaGate
    {
        get => _replicaGate;
        set
        {
            _replicaGate = value;
            AdvanceCommitted();
        }
    }

    /// <summary>A replica acknowledged more, or left the gate: commits it held may count now.</summary>
    public void OnReplicated() => AdvanceCommitted();

    private void NoteCommitPoint(long address, long fileOffset)
    {
        lock (_commitPointsLock)
            _commitPoints.Enqueue((address, fileOffset));
    }

    /// <summary>
    /// Moves the committed address to the furthest commit that is durable here and, when a gate is set, replicated: the
    /// commit points map log addresses (where sessions' entries end) to the file offsets replicas count in.
    /// </summary>
    private void AdvanceCommitted()
    {
        long target;
        lock (_commitPointsLock)
        {
            long durable = Volatile.Read(ref _durableHere);
            long replicated = _replicaGate?.ReplicatedOffset ?? long.MaxValue;
            target = Volatile.Read(ref _committed);
            while (_commitPoints.TryPeek(out var point) && point.Address <= durable && point.FileOffset <= replicated)
            {
                target = point.Address;
                _commitPoints.Dequeue();
            }
        }
        PublishCommitted(target);
    }
}
