namespace Garnet.server;

/// <summary>CLUSTER: this server has no cluster mode, so it answers as Redis does with cluster-enabled no.</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>
    /// CLUSTER subcommand: an unknown subcommand or a wrong argument count is reported as for any container;
    /// every known one, HELP included, fails as cluster support is disabled. Clients probe CLUSTER SLOTS and
    /// CLUSTER NODES on connect and take this error to mean a standalone server.
    /// </summary>
    private void ClusterCommand()
    {
        if (ResolveSubcommand(RespCommand.CLUSTER) == null)
            return;
        _writer.WriteError(ServerStrings.ErrClusterDisabled);
    }
}
