using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>CLUSTER on a server without cluster mode answers as Redis 7.2 does with cluster-enabled no.</summary>
[TestFixture]
public sealed class ClusterCommandTests : ServerTestBase
{
    private const string Disabled = "-ERR This instance has cluster support disabled\r\n";

    [Test]
    public void EveryKnownSubcommandReportsClusterSupportDisabled()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLUSTER", "NODES"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("CLUSTER", "SLOTS"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("cluster", "info"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("CLUSTER", "SHARDS"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("CLUSTER", "KEYSLOT", "k"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("CLUSTER", "HELP"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("CLUSTER", "SETSLOT", "1", "STABLE"), Is.EqualTo(Disabled));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void UnknownSubcommandAndWrongArityComeFirst()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLUSTER"), Is.EqualTo("-ERR wrong number of arguments for 'cluster' command\r\n"));
        Assert.That(client.Execute("CLUSTER", "NOPE"), Is.EqualTo("-ERR unknown subcommand 'NOPE'. Try CLUSTER HELP.\r\n"));
        Assert.That(client.Execute("CLUSTER", "NODES", "x"), Is.EqualTo("-ERR wrong number of arguments for 'cluster|nodes' command\r\n"));
        Assert.That(client.Execute("CLUSTER", "KEYSLOT"), Is.EqualTo("-ERR wrong number of arguments for 'cluster|keyslot' command\r\n"));
    }

    [Test]
    public void ListedByCommandWithItsSubcommands()
    {
        using var client = ConnectRaw();
        string info = client.Execute("COMMAND", "INFO", "CLUSTER");
        Assert.That(info, Does.StartWith("*1\r\n*10\r\n$7\r\ncluster\r\n:-2\r\n"));
        Assert.That(info, Does.Contain("$13\r\ncluster|nodes\r\n:2\r\n"));
        Assert.That(info, Does.Contain("$13\r\ncluster|slots\r\n:2\r\n"));
    }
}
