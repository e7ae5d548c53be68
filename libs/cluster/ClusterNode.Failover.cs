using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.cluster;

/// <summary>
/// Automatic failover, as the Redis Cluster specification has it, with MemoryDB's rule for acknowledged writes: a replica
/// whose primary the cluster marked FAIL asks the primaries for their votes in a new epoch, and with a majority takes the
/// primary's slots. A replica that holds less of the primary's log than another one known asks later (rank), and a
/// primary votes only for a replica that holds at least as much as every replica of that primary it knows of, so the
/// promoted replica has every write its primary acknowledged (under commit-before-ack, commits wait for the replicas in
/// sync: see <see cref="Garnet.server.IReplicaCommitGate"/>). A primary that cannot see a majority of the primaries for
/// half the node timeout stops taking writes (its lease ended) before any replica can be promoted in its place, which
/// takes at least the node timeout.
/// </summary>
public sealed partial class ClusterNode
{
    // The election this replica runs, under _lock: when it asks (0: none scheduled), the epoch it asks in (0: not asking),
    // until when it waits for votes, the primaries that voted, whether CLUSTER FAILOVER FORCE started it, and before when
    // it does not try again.
    private long _electionAtMs;
    private long _electionEpoch;
    private long _electionDeadlineMs;
    private bool _electionForced;
    private bool _electionWon;
    private long _nextElectionMs;
    private readonly HashSet<string> _votes = new(StringComparer.Ordinal);

    // Until when (Environment.TickCount64 ms) this primary holds its write lease: LeaseMs after the answer that completed
    // a majority of the primaries (itself among them); long.MaxValue when it is not a primary serving slots, or needs no
    // one else. Computed under _lock as answers come and on each tick; read by Route and the commit gate without it, on
    // a clock that neither steps nor waits for the bus's thread.
    private long _leaseUntil;
    // RenewLease's scratch: the other serving primaries' latest answer times.
    private long[] _answerTimes = new long[16];

    /// <summary>
    /// How long a primary takes writes after it last heard from a majority of the primaries: half the node timeout, at
    /// most 5 s (a replica is promoted no sooner than the node timeout). The server takes a replica out of sync only later
    /// than this (<see cref="Garnet.server.Replication"/>), so a primary cut off stops acknowledging first.
    /// </summary>
    private long LeaseMs => Math.Min(TimeoutMs / 2, 5000);

    public bool WriteLeaseHeld => Environment.TickCount64 <= Volatile.Read(ref _leaseUntil);

    /// <summary>CLUSTER FAILOVER FORCE: an election now, whether or not the primary is failed; under <c>_lock</c>.</summary>
    private void StartForcedElection(long now)
    {
        ResetElection();
        _electionForced = true;
        _electionAtMs = now;
        _nextElectionMs = 0;
    }

    private void ResetElection()
    {
        _electionAtMs = 0;
        _electionEpoch = 0;
        _electionForced = false;
        _electionWon = false;
        _votes.Clear();
    }

    /// <summary>On each tick, under <c>_lock</c>: a replica of a failed primary schedules, starts or ends its election.</summary>
    private void ConsiderElection(long now)
    {
        if (_myself.IsPrimary || _myself.PrimaryId == null || !_nodes.TryGetValue(_myself.PrimaryId, out var primary) || _replication == null)
        {
            if (_electionAtMs != 0 || _electionEpoch != 0)
                ResetElection();
            return;
        }
        bool failed = (primary.Flags & NodeFlags.Fail) != 0 && primary.SlotCount > 0;
        // A replica that does not hold its primary's history (never synced, or loading a checkpoint) does not stand.
        if ((!failed && !_electionForced) || !_replication.HoldsPrimaryHistory)
        {
            if (_electionAtMs != 0 || _electionEpoch != 0)
                ResetElection();
            return;
        }
        if (_electionEpoch != 0)
        {
            if (now > _electionDeadlineMs)
            {
                LastFailoverError = $"the election in epoch {_electionEpoch} got {_votes.Count} of the {ClusterSize() / 2 + 1} votes it needed";
                ResetElection();
                // Redis's retry delay: twice the election's own timeout.
                _nextElectionMs = now + ElectionTimeoutMs * 2;
            }
            return;
        }
        if (now < _nextElectionMs)
            return;
        if (_electionAtMs == 0)
        {
            // Redis's delay: the FAIL reaches every node first, and replicas that hold more ask a second earlier each.
            _electionAtMs = now + 500 + Random.Shared.Next(500) + Rank(primary) * 1000L;
            return;
        }
        if (now < _electionAtMs)
            return;
        _currentEpoch++;
        _electionEpoch = _currentEpoch;
        _electionDeadlineMs = now + ElectionTimeoutMs;
        _votes.Clear();
        _dirty = true;
        _bus?.RequestVotes();
    }

    private long ElectionTimeoutMs => Math.Max(TimeoutMs * 2, 2000);

    /// <summary>How many other replicas of <paramref name="primary"/> not failed hold more of its log than this one.</summary>
    private int Rank(KnownNode primary)
    {
        long mine = _replication?.Offset ?? 0;
        int rank = 0;
        foreach (var node in _nodes.Values)
        {
            if (node != _myself && !node.IsPrimary && node.PrimaryId == primary.Id && (node.Flags & NodeFlags.Fail) == 0
                && node.ReplicationId == _replication?.ReplicationId && node.ReplicationOffset > mine)
                rank++;
        }
        return rank;
    }

    /// <summary>
    /// A replica's request for this node's vote (under <c>_lock</c>, its state applied already): the election's epoch when
    /// the vote is given, else 0. Redis's rules (a primary serving slots; one vote per epoch; the replica's primary failed
    /// unless FORCE; one replica of a primary per twice the node timeout; the primary still serves its slots), and
    /// MemoryDB's: no replica of that primary known here holds more of its log than the candidate.
    /// </summary>
    private long GrantVote(KnownNode candidate, GossipMessage request, long now)
    {
        long epoch = request.VoteEpoch;
        if (!_myself.IsPrimary || _myself.SlotCount == 0 || epoch < _currentEpoch || _lastVoteEpoch >= epoch)
            return 0;
        if (request.IsPrimary || candidate.PrimaryId == null || !_nodes.TryGetValue(candidate.PrimaryId, out var primary))
            return 0;
        if (!request.Forced && (primary.Flags & NodeFlags.Fail) == 0)
            return 0;
        if (primary.SlotCount == 0 || now - primary.VotedForReplicaMs < TimeoutMs * 2)
            return 0;
        // It must follow the primary's history, and hold at least what the primary last said it acknowledged.
        if ((primary.ReplicationId.Length > 0 && request.ReplicationId != primary.ReplicationId) || request.ReplicationOffset < primary.AcknowledgedOffset)
            return 0;
        foreach (var node in _nodes.Values)
        {
            if (node != candidate && !node.IsPrimary && node.PrimaryId == primary.Id && (node.Flags & NodeFlags.Fail) == 0
                && node.ReplicationId == request.ReplicationId && node.ReplicationOffset > request.ReplicationOffset)
                return 0;
        }
        _lastVoteEpoch = epoch;
        primary.VotedForReplicaMs = now;
        _dirty = true;
        // The vote is saved before it is given (SaveIfChanged runs before the reply), so a restart cannot vote twice.
        return epoch;
    }

    /// <summary>A pong from <paramref name="voter"/>, under <c>_lock</c>: counts its vote for this replica's election.</summary>
    private void CountVote(KnownNode voter, GossipMessage pong)
    {
        if (_electionEpoch == 0 || pong.VoteEpoch != _electionEpoch || !voter.IsPrimary || voter.SlotCount == 0)
            return;
        _votes.Add(voter.Id);
        if (_votes.Count >= ClusterSize() / 2 + 1)
            _electionWon = true;
    }

    /// <summary>After a message (outside <c>_lock</c>): a replica that won its election takes its primary's place.</summary>
    private void TakeOverIfElected()
    {
        string? primaryId = null;
        long epoch = 0;
        lock (_lock)
        {
            if (_electionWon && _myself.PrimaryId != null)
            {
                primaryId = _myself.PrimaryId;
                epoch = _electionEpoch;
                LastFailoverError = null;
            }
            if (_electionWon)
                ResetElection();
        }
        // On a thread of its own: it stops the replication link (waiting for its thread), which a message's session or
        // link must not wait for.
        if (primaryId != null)
            new Thread(() => TakeOver(primaryId, epoch)) { IsBackground = true, Name = "Garnet cluster takeover" }.Start();
    }

    /// <summary>The request for votes this link's next message carries, or null (under <c>_lock</c>).</summary>
    private (long Epoch, bool Forced)? PendingVoteRequest => _electionEpoch == 0 ? null : (_electionEpoch, _electionForced);

    /// <summary>
    /// Under <c>_lock</c>, on each tick and each answer: a primary serving slots holds its lease until
    /// <see cref="LeaseMs"/> after the latest time a majority of the primaries serving slots (itself among them) had
    /// answered it. A lease that comes back lets the commits it held count (the server's commit gate).
    /// </summary>
    private void RenewLease()
    {
        long now = Environment.TickCount64;
        long before = Volatile.Read(ref _leaseUntil);
        // A node serving no slots needs no lease, but one that lost it keeps it lost: a primary whose slots went to its
        // replica must not count the commits it held (without that replica) before it gives them up as a replica.
        long until = now > before ? before : long.MaxValue;
        if (_myself.IsPrimary && _myself.SlotCount > 0)
        {
            until = long.MaxValue;
            int othersNeeded = ClusterSize() / 2;
            if (othersNeeded > 0)
            {
                // Runs on every cluster message: the answer times go in an array kept for it (under the lock).
                if (_answerTimes.Length < _nodes.Count)
                    _answerTimes = new long[Math.Max(_nodes.Count, _answerTimes.Length * 2)];
                int heard = 0;
                foreach (var node in _nodes.Values)
                {
                    if (node != _myself && node.IsPrimary && node.SlotCount > 0)
                        _answerTimes[heard++] = node.PongReceivedTicks;
                }
                Array.Sort(_answerTimes, 0, heard);
                long completed = heard < othersNeeded ? 0 : _answerTimes[heard - othersNeeded];
                until = completed == 0 ? 0 : completed + LeaseMs;
            }
        }
        Volatile.Write(ref _leaseUntil, until);
        if (now > before && now <= until)
            _replication?.OnLeaseChanged();
    }
}
