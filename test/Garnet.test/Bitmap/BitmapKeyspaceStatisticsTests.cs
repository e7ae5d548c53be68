using NUnit.Framework;

namespace Garnet.test.Bitmap;

/// <summary>Keyspace hits and misses of the bitmap commands: as in Redis, only read lookups count.</summary>
[TestFixture]
public sealed class BitmapKeyspaceStatisticsTests : ServerTestBase
{
    // With "x" existing and "n" missing.
    [TestCase(0, 0, "SETBIT", "x", "1", "1")]
    [TestCase(1, 0, "GETBIT", "x", "1")]
    [TestCase(0, 1, "GETBIT", "n", "1")]
    [TestCase(1, 0, "BITCOUNT", "x")]
    [TestCase(0, 0, "BITCOUNT", "x", "0")]
    [TestCase(0, 1, "BITPOS", "n", "1")]
    [TestCase(1, 1, "BITOP", "OR", "d", "x", "n")]
    [TestCase(1, 0, "BITFIELD_RO", "x", "GET", "u8", "0")]
    [TestCase(0, 0, "BITFIELD", "x", "SET", "u8", "0", "1")]
    public void CountsReadLookups(int hits, int misses, params string[] command)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "x", "1");
        var statistics = Server.Store.Statistics;
        long hitsBefore = statistics.KeyspaceHits;
        long missesBefore = statistics.KeyspaceMisses;
        client.Execute(command);
        Assert.That(statistics.KeyspaceHits - hitsBefore, Is.EqualTo(hits), "hits");
        Assert.That(statistics.KeyspaceMisses - missesBefore, Is.EqualTo(misses), "misses");
    }
}
