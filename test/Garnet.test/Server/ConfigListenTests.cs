using System.Net;
using System.Net.Sockets;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>CONFIG SET port and bind move the server's listeners while it runs; open connections stay.</summary>
[TestFixture]
public sealed class ConfigListenTests : ServerTestBase
{
    private static int FreePort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }

    private static bool Accepts(int port)
    {
        try
        {
            using var client = new RawClient(port);
            return client.Execute("PING") == "+PONG\r\n";
        }
        catch (SocketException)
        {
            return false;
        }
    }

    [Test]
    public void PortMovesTheListenerAndKeepsOpenConnections()
    {
        int oldPort = Port;
        using var client = ConnectRaw();
        int newPort = FreePort();
        Assert.That(client.Execute("CONFIG", "SET", "port", newPort.ToString()), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection that asked goes on");
        Assert.That(Accepts(newPort), Is.True);
        Assert.That(Accepts(oldPort), Is.False, "the old port is closed");
        Assert.That(ConfigTests.ConfigGet(client, "port")["port"], Is.EqualTo(newPort.ToString()));
        Assert.That(client.Execute("INFO", "server"), Does.Contain($"tcp_port:{newPort}\r\n"));
        Assert.That(Server.Port, Is.EqualTo(newPort));
    }

    [Test]
    public void APortInUseIsRefusedAndTheOldOneKept()
    {
        using var holder = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        holder.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        holder.Listen();
        int taken = ((IPEndPoint)holder.LocalEndPoint!).Port;
        using var client = ConnectRaw();
        string maxclients = ConfigTests.ConfigGet(client, "maxclients")["maxclients"];
        Assert.That(client.Execute("CONFIG", "SET", "maxclients", "77", "port", taken.ToString()),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port\r\n"));
        Assert.That(ConfigTests.ConfigGet(client, "maxclients")["maxclients"], Is.EqualTo(maxclients), "the change before it is undone, as Redis restores it");
        Assert.That(Accepts(Port), Is.True, "still listening where it was");
        Assert.That(client.Execute("CONFIG", "SET", "port", "65536"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'port') - argument must be between 0 and 65535 inclusive\r\n"));
    }

    [Test]
    public void PortZeroStopsListeningUntilAPortIsSetAgain()
    {
        int oldPort = Port;
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "port", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(Accepts(oldPort), Is.False);
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(ConfigTests.ConfigGet(client, "port")["port"], Is.EqualTo("0"));
        int newPort = FreePort();
        Assert.That(client.Execute("CONFIG", "SET", "port", newPort.ToString()), Is.EqualTo("+OK\r\n"));
        Assert.That(Accepts(newPort), Is.True);
    }

    [Test]
    public void BindTakesRedissListWithOptionalAddresses()
    {
        using var client = ConnectRaw();
        // ::1 may be missing on this host: optional, so it does not fail the change.
        Assert.That(client.Execute("CONFIG", "SET", "bind", "localhost -::1"), Is.EqualTo("+OK\r\n"));
        Assert.That(ConfigTests.ConfigGet(client, "bind")["bind"], Is.EqualTo("127.0.0.1 -::1"));
        Assert.That(Accepts(Port), Is.True);

        // An address this host does not have, required: refused, and the listeners stay as they were.
        Assert.That(client.Execute("CONFIG", "SET", "bind", "192.0.2.1"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind to specified addresses.\r\n"));
        Assert.That(ConfigTests.ConfigGet(client, "bind")["bind"], Is.EqualTo("127.0.0.1 -::1"));
        Assert.That(Accepts(Port), Is.True);

        string seventeen = string.Join(' ', System.Linq.Enumerable.Repeat("127.0.0.1", 17));
        Assert.That(client.Execute("CONFIG", "SET", "bind", seventeen),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'bind') - Too many bind addresses specified.\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "bind", "not-an-address"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'bind') - 'not-an-address' is not an IP address\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }
}
