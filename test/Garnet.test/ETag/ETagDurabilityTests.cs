using Garnet.test.Durability;
using NUnit.Framework;
using static Garnet.test.Durability.OperationLogTestServer;

namespace Garnet.test.ETag;

/// <summary>ETags come back exactly from a checkpoint, from the AOF replayed, and from both.</summary>
[TestFixture]
public sealed class ETagDurabilityTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    /// <summary>ETag writes of every kind, leaving known ETags: a=3, b=12 (with a TTL), c=0 (dropped), n=3 (INCR'd), gone deleted.</summary>
    private static void WriteETags(RawClient c)
    {
        Ok(c, "SET", "a", "1", "WITHETAG");
        Ok(c, "SETIFMATCH", "a", "2", "1");
        Ok(c, "SETIFMATCH", "a", "never", "1");
        Ok(c, "SET", "a", "3", "WITHETAG");
        Ok(c, "SETIFGREATER", "b", "x", "12", "EX", "1000");
        Ok(c, "SETIFGREATER", "b", "lower", "5");
        Ok(c, "SET", "c", "1", "WITHETAG");
        Ok(c, "SET", "c", "plain");
        Ok(c, "SET", "n", "1", "WITHETAG");
        Ok(c, "INCR", "n");
        Ok(c, "APPEND", "n", "0");
        Ok(c, "SET", "gone", "x", "WITHETAG");
        Ok(c, "DELIFGREATER", "gone", "2");
    }

    private static void AssertETags(RawClient c)
    {
        Assert.That(c.Execute("GETWITHETAG", "a"), Is.EqualTo("*2\r\n:3\r\n$1\r\n3\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "b"), Is.EqualTo("*2\r\n:12\r\n$1\r\nx\r\n"));
        Assert.That(int.Parse(c.Execute("TTL", "b").Trim(':', '\r', '\n')), Is.InRange(990, 1000));
        Assert.That(c.Execute("GETWITHETAG", "c"), Is.EqualTo("*2\r\n:0\r\n$5\r\nplain\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "n"), Is.EqualTo("*2\r\n:3\r\n$2\r\n20\r\n"));
        Assert.That(c.Execute("EXISTS", "gone"), Is.EqualTo(":0\r\n"));
        // The ETags go on from where they were.
        Assert.That(c.Execute("SETIFMATCH", "a", "4", "3"), Is.EqualTo("*2\r\n:4\r\n$-1\r\n"));
    }

    [Test]
    public void ETagsComeBackFromACheckpoint()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using (var c = _server.Connect())
        {
            WriteETags(c);
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        _server.Restart(configure: o => o.EnableAof = false);
        using (var c = _server.Connect())
            AssertETags(c);
    }

    [Test]
    public void ETagsComeBackFromTheAofReplayed()
    {
        _server.Start();
        using (var c = _server.Connect())
            WriteETags(c);
        _server.Restart();
        using (var c = _server.Connect())
            AssertETags(c);
    }

    [Test]
    public void ETagsComeBackFromACheckpointAndTheAofAfterIt()
    {
        _server.Start();
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "a", "0", "WITHETAG");
            Ok(c, "SET", "a", "0", "WITHETAG");
            Ok(c, "SET", "n", "0", "WITHETAG");
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            // After the checkpoint: the AOF carries on from the ETags it holds.
            Ok(c, "SETIFMATCH", "a", "3", "2");
            Ok(c, "INCRBY", "n", "20");
        }
        _server.Restart();
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("GETWITHETAG", "a"), Is.EqualTo("*2\r\n:3\r\n$1\r\n3\r\n"));
            Assert.That(c.Execute("GETWITHETAG", "n"), Is.EqualTo("*2\r\n:2\r\n$2\r\n20\r\n"));
        }
    }
}

/// <summary>ETags of records that left memory for the log device: read back, and kept by the copies updates make.</summary>
[TestFixture]
public sealed class ETagStorageTierTests : ServerTestBase
{
    private const long Memory = 4L << 20;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        MaxMemory = Memory,
        Databases = 1,
        StorageTier = true,
    };

    [Test]
    public void ETagsOfRecordsOnTheDeviceReadBackAndUpdate()
    {
        using var c = ConnectRaw();
        for (int i = 0; i < 20; i++)
        {
            c.Execute("SET", "e" + i, "10", "WITHETAG");
            c.Execute("SET", "e" + i, "10", "WITHETAG");
        }
        Garnet.test.Storage.DeviceKeys.Fill(c, Memory);
        // Read from the device, and each kind of update copying an on-disk (or read-only) record to the tail.
        Assert.That(c.Execute("GETWITHETAG", "e0"), Is.EqualTo("*2\r\n:2\r\n$2\r\n10\r\n"));
        Assert.That(c.Execute("GETIFNOTMATCH", "e1", "2"), Is.EqualTo("*2\r\n:2\r\n$-1\r\n"));
        Assert.That(c.Execute("INCR", "e2"), Is.EqualTo(":11\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "e2"), Is.EqualTo("*2\r\n:3\r\n$2\r\n11\r\n"));
        Assert.That(c.Execute("EXPIRE", "e3", "1000"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "e3"), Is.EqualTo("*2\r\n:2\r\n$2\r\n10\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "e4", "x", "1"), Is.EqualTo("*2\r\n:2\r\n$2\r\n10\r\n"));
        Assert.That(c.Execute("SETIFMATCH", "e4", "x", "2"), Is.EqualTo("*2\r\n:3\r\n$-1\r\n"));
        Assert.That(c.Execute("SET", "e5", "y", "WITHETAG"), Is.EqualTo(":3\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "e6", "2"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("DELIFGREATER", "e6", "3"), Is.EqualTo(":1\r\n"));
        Assert.That(c.Execute("APPEND", "e7", "z"), Is.EqualTo(":3\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "e7"), Is.EqualTo("*2\r\n:3\r\n$3\r\n10z\r\n"));
        Assert.That(c.Execute("SET", "e8", "plain"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("GETWITHETAG", "e8"), Is.EqualTo("*2\r\n:0\r\n$5\r\nplain\r\n"));
    }
}
