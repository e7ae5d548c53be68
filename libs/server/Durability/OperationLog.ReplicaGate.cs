using System;
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
    private long _committedFileOffset;

    /// <summary>The file offset of the log up to which commits counted (with the replicas in sync when they gate them).</summary>
    public long CommittedFileOffset => Volatile.Read(ref _committedFileOffset);

    /// <summary>
    /// Waits until <see cref="CommittedFileOffset"/> reaches <paramref name="fileOffset"/> or <paramref name="deadline"/>
    /// (<see cref="Environment.TickCount64"/>) passes; asks for no commit. True when it did.
    /// </summary>
    public bool WaitForCommittedFileOffset(long fileOffset, long deadline)
    {
        lock (_commitLock)
        {
            while (CommittedFileOffset < fileOffset && _failure == null && !_writerEnded)
            {
                long left = deadline - Environment.TickCount64;
                if (left <= 0)
                    break;
                Monitor.Wait(_commitLock, (int)Math.Min(left, int.MaxValue));
            }
        }
        return CommittedFileOffset >= fileOffset;
    }

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

    // Log addresses in (_abandonedAfter, _abandonedUntil]: appended by this node as a primary that became a replica before
    // they were committed with its replicas. They never count as committed, so no reply held for them is ever sent (the
    // sessions waiting find their commit failed and close).
    private long _abandonedAfter;
    private long _abandonedUntil;

    /// <summary>Whether <paramref name="address"/> was given up by <see cref="AbandonUncommitted"/>.</summary>
    private bool IsAbandoned(long address) => address <= Volatile.Read(ref _abandonedUntil) && address > Volatile.Read(ref _abandonedAfter);

    /// <summary>
    /// This primary becomes a replica (cluster mode): what it appended and has not committed with its replicas may be
    /// missing on the new primary, so it is never acknowledged, nor is what writes already under way append while it
    /// is a replica (clients' writes are redirected or refused from now on). Call before the gate opens (its replicas
    /// leave it); <see cref="StopAbandoning"/> when it is a primary again.
    /// </summary>
    public void AbandonUncommitted()
    {
        lock (_commitPointsLock)
        {
            Volatile.Write(ref _abandonedUntil, 0);
            Volatile.Write(ref _abandonedAfter, Volatile.Read(ref _committed));
            Volatile.Write(ref _abandonedUntil, long.MaxValue);
        }
        // Reads no longer wait for those writes (as a replica this node's data comes from its new primary).
        Array.Clear(_lastWriteBySlot);
        Volatile.Write(ref _lastUndeclaredWrite, 0);
        lock (_commitLock)
            Monitor.PulseAll(_commitLock);
        RequestNotify();
    }

    /// <summary>This node is a primary again: what it appends from here commits as usual.</summary>
    public void StopAbandoning()
    {
        lock (_commitPointsLock)
        {
            if (Volatile.Read(ref _abandonedUntil) == long.MaxValue)
                Volatile.Write(ref _abandonedUntil, Volatile.Read(ref _tail));
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
                Volatile.Write(ref _committedFileOffset, point.FileOffset);
                _commitPoints.Dequeue();
            }
        }
        PublishCommitted(target);
    }
}
