using Garnet.test.Durability;
using NUnit.Framework;

namespace Garnet.test.Replication;

/// <summary>A primary and a replica, in-process servers over directories of their own, made afresh for each test.</summary>
public abstract class PrimaryAndReplicaTestBase
{
    private protected OperationLogTestServer Primary { get; private set; } = null!;

    private protected OperationLogTestServer Replica { get; private set; } = null!;

    [SetUp]
    public void CreateServers()
    {
        Primary = new OperationLogTestServer();
        Replica = new OperationLogTestServer();
    }

    [TearDown]
    public void DisposeServers()
    {
        Replica.Dispose();
        Primary.Dispose();
    }

    /// <summary>Waits until the replica's link is up and its offset is the primary's.</summary>
    private protected void WaitUntilCaughtUp() => ReplicationTestSupport.WaitUntilCaughtUp(Primary, Replica);
}
