using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>Streams as keys: TYPE, SCAN TYPE, OBJECT ENCODING, WRONGTYPE both ways, DEL, COPY, RENAME, MOVE, expiry, DUMP/RESTORE.</summary>
public class StreamKeyspaceTests : ServerTestBase
{
    private const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

    [Test]
    public void TypeScanAndEncoding()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("TYPE", "s"), Is.EqualTo("+stream\r\n"));
        Assert.That(client.Execute("OBJECT", "ENCODING", "s"), Is.EqualTo("$6\r\nstream\r\n"));
        Assert.That(client.Execute("SCAN", "0", "TYPE", "stream"), Is.EqualTo("*2\r\n$1\r\n0\r\n*1\r\n$1\r\ns\r\n"));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void WrongTypeBothWays()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("LPUSH", "l", "a");
        Assert.That(client.Execute("XADD", "l", "1-1", "a", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LPUSH", "s", "x"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("HSET", "s", "a", "b"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("SADD", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("ZADD", "s", "1", "a"), Is.EqualTo(WrongType));
    }

    [Test]
    public void DeleteCopyRenameMoveAndExpire()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "1-2", "b", "2");
        const string range = "*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n";
        Assert.That(client.Execute("COPY", "s", "c"), Is.EqualTo(":1\r\n"));
        client.Execute("XADD", "c", "2-0", "z", "z");
        Assert.That(client.Execute("XRANGE", "s", "-", "+"), Is.EqualTo(range), "the copy is deep");
        Assert.That(client.Execute("RENAME", "s", "r"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("XRANGE", "r", "-", "+"), Is.EqualTo(range));
        Assert.That(client.Execute("MOVE", "r", "1"), Is.EqualTo(":1\r\n"));
        client.Execute("SELECT", "1");
        Assert.That(client.Execute("XRANGE", "r", "-", "+"), Is.EqualTo(range));
        Assert.That(client.Execute("PEXPIRE", "r", "50"), Is.EqualTo(":1\r\n"));
        System.Threading.Thread.Sleep(120);
        Assert.That(client.Execute("EXISTS", "r"), Is.EqualTo(":0\r\n"));
        client.Execute("SELECT", "0");
        Assert.That(client.Execute("DEL", "c"), Is.EqualTo(":1\r\n"));
        client.Execute("XADD", "u", "1-1", "a", "1");
        Assert.That(client.Execute("UNLINK", "u"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "u"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void DumpAndRestoreKeepEverything()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1", "b", "2");
        client.Execute("XADD", "s", "1-2", "a", "3", "b", "4");
        client.Execute("XADD", "s", "1-3", "c", "5");
        client.Execute("XDEL", "s", "1-2");
        using var redis = Connect();
        var db = redis.GetDatabase();
        var payload = db.KeyDump("s");
        Assert.That(payload, Is.Not.Null);
        db.KeyRestore("r", payload!);
        Assert.That(client.Execute("XRANGE", "r", "-", "+"), Is.EqualTo(client.Execute("XRANGE", "s", "-", "+")));
        Assert.That(client.Execute("XLEN", "r"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("XADD", "r", "1-3", "x", "y"), Does.StartWith("-ERR The ID specified in XADD is equal or smaller"), "the last ID travels with the payload");
        var corrupt = (byte[])payload!.Clone();
        corrupt[20] ^= 0xFF;
        Assert.That(() => db.KeyRestore("bad", corrupt), Throws.Exception);
    }

    [Test]
    public void MemoryUsageGrowsWithEntries()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        long small = long.Parse(client.Execute("MEMORY", "USAGE", "s").Trim().TrimStart(':'));
        for (int i = 2; i < 1000; i++)
            client.Execute("XADD", "s", $"1-{i}", "field1", "value", "field2", "value", "field3", "value");
        long large = long.Parse(client.Execute("MEMORY", "USAGE", "s").Trim().TrimStart(':'));
        Assert.That(large, Is.GreaterThan(small));
        // Same fields in a node are stored once: values and IDs only, about 25 bytes an entry here.
        Assert.That((large - small) / 1000.0, Is.LessThan(40));
    }
}
