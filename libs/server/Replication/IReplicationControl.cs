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
}
