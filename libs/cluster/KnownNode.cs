using System;
using System.Collections.Generic;

namespace Garnet.cluster;

/// <summary>What this node believes about another node's health and membership (Redis's node flags).</summary>
[Flags]
internal enum NodeFlags : byte
{
    None = 0,

    /// <summary>Met by address only: its id is not known until it answers (CLUSTER MEET, or a node heard of in gossip).</summary>
    Handshake = 1,

    /// <summary>The first message sent to it is a MEET, which makes it add this node.</summary>
    Meet = 2,

    /// <summary>It has not answered a ping for the node timeout (Redis's "fail?"): this node's opinion only.</summary>
    PFail = 4,

    /// <summary>A majority of the primaries found it failing (Redis's "fail"): the whole cluster's verdict.</summary>
    Fail = 8,
}

/// <summary>
/// A node of the cluster as this node knows it: identity, address, role, configuration epoch and health. Read and written
/// under <see cref="ClusterNode"/>'s lock, except the fields a session reads to write a redirection (the address, which
/// is replaced whole).
/// </summary>
internal sealed class KnownNode(string id, string ip, int port, long nowMs)
{
    public string Id = id;
    public string ShardId = "";

    // The address clients and nodes reach it at; replaced together as one record so a redirection reads a consistent pair.
    private volatile NodeAddress _address = new(ip, port);

    public NodeAddress Address
    {
        get => _address;
        set => _address = value;
    }

    public bool IsPrimary = true;

    /// <summary>The primary's id when this node is a replica.</summary>
    public string? PrimaryId;

    public long ConfigEpoch;
    public NodeFlags Flags;

    /// <summary>When the unanswered ping was sent (0: none outstanding), and when the last answer came (ms since the epoch).</summary>
    public long PingSentMs;
    public long PongReceivedMs;
    public long FailTimeMs;
    public readonly long CreatedMs = nowMs;

    /// <summary>The primaries that reported it failing, and when each last did.</summary>
    public readonly Dictionary<string, long> FailureReports = new(StringComparer.Ordinal);

    /// <summary>Whether this node's link to it is connected now.</summary>
    public bool LinkConnected;

    /// <summary>How many slots the cluster's table gives it.</summary>
    public int SlotCount;

    /// <summary>Its replication offset and history as it last said (gossip).</summary>
    public long ReplicationOffset;
    public string ReplicationId = "";

    /// <summary>A primary's: the most it said it acknowledged under commit-before-ack, in its history.</summary>
    public long AcknowledgedOffset;

    /// <summary>When this node last had an answer from it, in <see cref="System.Environment.TickCount64"/> ms (the lease's clock).</summary>
    public long PongReceivedTicks;

    /// <summary>When this node (a primary) last voted for a replica of it to take its place (ms since the epoch; 0: never).</summary>
    public long VotedForReplicaMs;

    public bool InHandshake => (Flags & NodeFlags.Handshake) != 0;
}

/// <summary>An address a node is reached at; an empty IP means not known yet (this node before anyone met it).</summary>
internal sealed record NodeAddress(string Ip, int Port);
