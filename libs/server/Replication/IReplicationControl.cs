namespace Garnet.server;

/// <summary>
/// What cluster mode asks of this server's replication (<see cref="Replication"/> implements it; the host hands it to the
/// cluster node): CLUSTER REPLICATE makes this node follow its primary, and a node that becomes a primary again stops.
/// </summary>
public interface IReplicationControl
{
    /// <summary>Follows the primary at <paramref name="host"/>:<paramref name="port"/> (nothing changes when it already does).</summary>
    void Follow(string host, int port);

    /// <summary>Stops following: this node is a primary with a history of its own from here.</summary>
    void StopFollowing();

    /// <summary>
    /// For a manual failover: asks the primary to pause its writers (up to <paramref name="timeoutMs"/>) and say where its
    /// log ends, and waits until this replica applied that much. Null when caught up, else why not.
    /// </summary>
    string? CatchUpWithPrimary(int timeoutMs);

    /// <summary>
    /// The replication offset: as a primary, where its operation log ends; as a replica, how much of its primary's log it
    /// applied. Replicas of one primary compare theirs to find which holds the most (automatic failover).
    /// </summary>
    long Offset { get; }

    /// <summary>The history <see cref="Offset"/> counts in (INFO's master_replid): the primary's own, or the one a replica follows.</summary>
    string ReplicationId { get; }

    /// <summary>Whether this replica holds its primary's history (synced from a checkpoint, not loading one now).</summary>
    bool HoldsPrimaryHistory { get; }

    /// <summary>
    /// As a primary under commit-before-ack: the log offset up to which writes were acknowledged (committed with the
    /// replicas in sync); 0 otherwise. A replica holding less may not be promoted in its place.
    /// </summary>
    long AcknowledgedOffset { get; }

    /// <summary>This primary's write lease changed (cluster mode): commits it held back may count again.</summary>
    void OnLeaseChanged();
}
