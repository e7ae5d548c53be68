using NUnit.Framework;

namespace Garnet.test.List;

/// <summary>Which list commands count keyspace hits and misses: as in Redis, the read-only ones.</summary>
[TestFixture]
public sealed class ListKeyspaceStatisticsTests : ServerTestBase
{
    // Hits and misses each command adds, with "l" a list, "s" a string and "n" missing.
    [TestCase(1, 0, "LLEN", "l")]
    [TestCase(0, 1, "LLEN", "n")]
    [TestCase(1, 0, "LLEN", "s")]
    [TestCase(1, 0, "LRANGE", "l", "0", "-1")]
    [TestCase(0, 1, "LRANGE", "n", "0", "-1")]
    [TestCase(0, 0, "LRANGE", "l", "x", "-1")]
    [TestCase(1, 0, "LINDEX", "l", "0")]
    [TestCase(0, 1, "LINDEX", "n", "0")]
    [TestCase(1, 0, "LPOS", "l", "a")]
    [TestCase(0, 1, "LPOS", "n", "a", "COUNT", "0")]
    [TestCase(0, 0, "LPOS", "l", "a", "RANK", "0")]
    [TestCase(0, 0, "LPUSH", "l", "a")]
    [TestCase(0, 0, "LPOP", "l")]
    [TestCase(0, 0, "LPOP", "n")]
    [TestCase(0, 0, "LSET", "l", "0", "a")]
    [TestCase(0, 0, "LMOVE", "l", "n", "LEFT", "LEFT")]
    [TestCase(0, 0, "LMPOP", "2", "n", "l", "LEFT")]
    public void CountsReadLookups(int hits, int misses, params string[] command)
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b");
        client.Execute("SET", "s", "v");
        var statistics = Server.Store.Statistics;
        long hitsBefore = statistics.KeyspaceHits;
        long missesBefore = statistics.KeyspaceMisses;
        client.Execute(command);
        Assert.That(statistics.KeyspaceHits - hitsBefore, Is.EqualTo(hits), "hits");
        Assert.That(statistics.KeyspaceMisses - missesBefore, Is.EqualTo(misses), "misses");
    }
}
