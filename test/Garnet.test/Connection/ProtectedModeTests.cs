using System.Linq;
using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>Protected mode: with no password, a server listening beyond loopback refuses clients of other hosts with Redis's DENIED.</summary>
[TestFixture]
public sealed class ProtectedModeTests
{
    /// <summary>An IPv4 address of this machine other than loopback, through which a client is "from another host".</summary>
    private static IPAddress? ExternalAddress()
        => NetworkInterface.GetAllNetworkInterfaces()
            .Where(n => n.OperationalStatus == OperationalStatus.Up && n.NetworkInterfaceType != NetworkInterfaceType.Loopback)
            .SelectMany(n => n.GetIPProperties().UnicastAddresses)
            .Select(a => a.Address)
            .FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork && !IPAddress.IsLoopback(a));

    [Test]
    public void ClientsOfOtherHostsAreDeniedUntilProtectedModeIsOff()
    {
        var external = ExternalAddress();
        if (external == null)
            Assert.Ignore("This machine has no non-loopback IPv4 address to connect through.");
        using var server = new GarnetServer(new ServerOptions { Address = "0.0.0.0", Port = 0, MemorySize = 1L << 26, PageSize = 1L << 22 });
        server.Start();
        Assert.That(server.StartWarnings, Has.Some.Contains("protected mode refuses clients from other hosts"));

        using (var remote = new RawClient(new IPEndPoint(external, server.Port)))
            Assert.That(remote.ReadToEnd(), Does.StartWith("-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user.").And.EndWith("accepting connections from the outside.\r\n"));

        using var local = new RawClient(server.Port);
        Assert.That(local.Execute("CONFIG", "SET", "protected-mode", "no"), Is.EqualTo("+OK\r\n"));
        using var allowed = new RawClient(new IPEndPoint(external, server.Port));
        Assert.That(allowed.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    /// <summary>
    /// On a dual-mode listener (::), loopback clients of either family are local, and each is reported in CLIENT INFO by
    /// its own address: IPv4 ones as a.b.c.d (not ::ffff:a.b.c.d), IPv6 ones as [addr]:port.
    /// </summary>
    [Test]
    public void LoopbackClientsOfBothFamiliesAreLocalAndReportedByTheirAddress()
    {
        using var server = new GarnetServer(new ServerOptions { Address = "::", Port = 0, MemorySize = 1L << 26, PageSize = 1L << 22 });
        server.Start();

        using var v4 = new RawClient(new IPEndPoint(IPAddress.Loopback, server.Port));
        Assert.That(v4.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(v4.Execute("CLIENT", "INFO"), Does.Contain($" addr=127.0.0.1:{v4.LocalEndPoint.Port} "));

        using var v6 = new RawClient(new IPEndPoint(IPAddress.IPv6Loopback, server.Port));
        Assert.That(v6.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(v6.Execute("CLIENT", "INFO"), Does.Contain($" addr=[::1]:{v6.LocalEndPoint.Port} "));

        // laddr is the address each client reached, as Redis reports it (getsockname), not the wildcard listened on.
        Assert.That(v4.Execute("CLIENT", "INFO"), Does.Contain($" laddr=127.0.0.1:{server.Port} "));
        Assert.That(v6.Execute("CLIENT", "INFO"), Does.Contain($" laddr=[::1]:{server.Port} "));
        using var alias = new RawClient(new IPEndPoint(IPAddress.Parse("127.0.0.9"), server.Port));
        Assert.That(alias.Execute("CLIENT", "INFO"), Does.Contain($" laddr=127.0.0.9:{server.Port} "));
        Assert.That(v4.Execute("CLIENT", "KILL", "LADDR", $"127.0.0.9:{server.Port}"), Is.EqualTo(":1\r\n"), "LADDR filters on the reached address");
    }
}
