using System.IO;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>The streams' command-table entries as ACL and COMMAND see them, and the object's own serialization.</summary>
public class StreamCommandTableTests : ServerTestBase
{
    [Test]
    public void CommandInfoAndAclCategories()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "INFO", "xread"), Does.StartWith("*1\r\n*10\r\n$5\r\nxread\r\n:-4\r\n*3\r\n+readonly\r\n+blocking\r\n+movablekeys\r\n:0\r\n:0\r\n:0\r\n*4\r\n+@read\r\n+@stream\r\n+@slow\r\n+@blocking\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "xadd"), Does.StartWith("*1\r\n*10\r\n$4\r\nxadd\r\n:-5\r\n*3\r\n+write\r\n+denyoom\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@write\r\n+@stream\r\n+@fast\r\n"));
        var streamCommands = client.Execute("ACL", "CAT", "stream");
        foreach (var name in new[] { "xadd", "xlen", "xrange", "xrevrange", "xdel", "xtrim", "xread", "xsetid", "xreadgroup", "xack", "xpending", "xclaim", "xautoclaim", "xgroup|create", "xgroup|destroy", "xinfo|stream", "xinfo|help" })
            Assert.That(streamCommands, Does.Contain($"${name.Length}\r\n{name}\r\n"), name);
        Assert.That(client.Execute("COMMAND", "GETKEYS", "XREAD", "COUNT", "2", "STREAMS", "a", "b", "0", "0"), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
    }

    [Test]
    public void AclLimitsStreamCommandsAndKeys()
    {
        using var admin = ConnectRaw();
        admin.Execute("XADD", "s1", "1-1", "a", "1");
        admin.Execute("XADD", "other", "1-1", "a", "1");
        Assert.That(admin.Execute("ACL", "SETUSER", "reader", "on", "nopass", "+@stream", "-@write", "-@blocking", "~s*"), Is.EqualTo("+OK\r\n"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "reader", "x"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("XLEN", "s1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XADD", "s1", "*", "a", "1"), Does.StartWith("-NOPERM"));
        Assert.That(client.Execute("XREAD", "STREAMS", "s1", "0"), Does.StartWith("-NOPERM"), "XREAD is @blocking");
        Assert.That(client.Execute("XRANGE", "other", "-", "+"), Does.StartWith("-NOPERM"));
    }

    [Test]
    public void SerializationAndCloneKeepNodesAndGroups()
    {
        using var client = ConnectRaw();
        for (int i = 1; i <= 350; i++)
            client.Execute("XADD", "s", $"{i}-0", i % 3 == 0 ? "x" : "f", i.ToString());
        client.Execute("XDEL", "s", "5-0", "150-0");
        client.Execute("XGROUP", "CREATE", "s", "g", "0");
        client.Execute("XREADGROUP", "GROUP", "g", "c", "COUNT", "3", "STREAMS", "s", ">");
        string range = client.Execute("XRANGE", "s", "-", "+");
        string pending = client.Execute("XPENDING", "s", "g");
        var payload = client.Execute("DUMP", "s");
        Assert.That(payload, Does.StartWith("$"));

        Assert.That(client.Execute("COPY", "s", "c"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XRANGE", "c", "-", "+"), Is.EqualTo(range));
        Assert.That(client.Execute("XPENDING", "c", "g"), Is.EqualTo(pending));
        client.Execute("XACK", "c", "g", "1-0");
        Assert.That(client.Execute("XPENDING", "s", "g"), Is.EqualTo(pending), "the copy's groups are its own");

        var stream = new StreamObject();
        var round = (StreamObject)GarnetObjectFactory.Deserialize(GarnetObjectType.Stream, new BinaryReader(new MemoryStream(Serialize(stream))));
        Assert.That(round.Count, Is.EqualTo(0), "an uncreated stream stays uncreated");
        Assert.That(() => GarnetObjectFactory.Deserialize(GarnetObjectType.Stream, new BinaryReader(new MemoryStream(new byte[] { 9 }))), Throws.InstanceOf<InvalidDataException>());
    }

    private static byte[] Serialize(GarnetObject obj)
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream))
            obj.Serialize(writer);
        return stream.ToArray();
    }
}
