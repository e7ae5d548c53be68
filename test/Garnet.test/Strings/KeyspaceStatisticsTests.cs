using NUnit.Framework;

namespace Garnet.test.Strings;

/// <summary>Which string commands count keyspace hits and misses: Redis counts read lookups only.</summary>
[TestFixture]
public sealed class KeyspaceStatisticsTests : ServerTestBase
{
    // Hits and misses each command adds in Redis 7.0, with "x" existing and "n" missing.
    [TestCase(0, 0, "SET", "x", "2")]
    [TestCase(1, 0, "GET", "x")]
    [TestCase(0, 1, "GET", "n")]
    [TestCase(2, 1, "MGET", "x", "n", "x")]
    [TestCase(1, 0, "GETEX", "x")]
    [TestCase(1, 0, "GETEX", "x", "PERSIST")]
    [TestCase(0, 1, "GETEX", "n", "EX", "5")]
    [TestCase(1, 0, "GETEX", "x", "EX", "0")]
    [TestCase(0, 0, "GETEX", "x", "FOO")]
    [TestCase(1, 0, "GETSET", "x", "1")]
    [TestCase(0, 1, "GETSET", "n", "1")]
    [TestCase(1, 0, "SET", "x", "1", "GET")]
    [TestCase(0, 1, "SET", "n", "1", "GET")]
    [TestCase(1, 0, "SET", "x", "1", "NX", "GET")]
    [TestCase(0, 0, "SET", "x", "1", "NX")]
    [TestCase(0, 0, "SETNX", "x", "1")]
    [TestCase(1, 0, "STRLEN", "x")]
    [TestCase(0, 1, "STRLEN", "n")]
    [TestCase(1, 0, "GETRANGE", "x", "0", "1")]
    [TestCase(0, 1, "SUBSTR", "n", "0", "1")]
    [TestCase(1, 1, "LCS", "x", "n")]
    [TestCase(2, 0, "LCS", "x", "x", "LEN")]
    [TestCase(0, 0, "INCR", "x")]
    [TestCase(0, 0, "INCRBYFLOAT", "x", "1")]
    [TestCase(0, 0, "APPEND", "x", "1")]
    [TestCase(0, 0, "SETRANGE", "x", "1", "1")]
    [TestCase(0, 0, "SETRANGE", "x", "1", "")]
    [TestCase(0, 0, "MSETNX", "x", "1")]
    [TestCase(0, 0, "MSET", "x", "1")]
    [TestCase(1, 0, "GETDEL", "x")]
    [TestCase(0, 1, "GETDEL", "n")]
    public void CountsReadLookups(int hits, int misses, params string[] command)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "x", "1");
        var statistics = Server.Store.Statistics;
        long hitsBefore = statistics.KeyspaceHits;
        long missesBefore = statistics.KeyspaceMisses;
        client.Execute(command);
        // The counts are added when the batch ends, before its replies are sent.
        Assert.That(statistics.KeyspaceHits - hitsBefore, Is.EqualTo(hits), "hits");
        Assert.That(statistics.KeyspaceMisses - missesBefore, Is.EqualTo(misses), "misses");
    }
}
