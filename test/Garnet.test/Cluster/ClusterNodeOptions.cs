using Garnet.server;

namespace Garnet.test.Cluster;

/// <summary>The options of a small cluster node for tests: loopback, a free port, little memory, its files in <c>directory</c>.</summary>
internal static class ClusterNodeOptions
{
    public static ServerOptions For(string directory) => new()
    {
        Address = "127.0.0.1",
        Port = 0,
        IndexSize = 1L << 20,
        MemorySize = 1L << 26,
        PageSize = 1L << 20,
        CheckpointDir = directory,
        EnableCluster = true,
    };
}
