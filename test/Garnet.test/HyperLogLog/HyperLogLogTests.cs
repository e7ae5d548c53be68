using System;
using System.Collections.Generic;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.HyperLogLog;

/// <summary>PFADD, PFCOUNT and PFMERGE: replies, accuracy, encodings and errors.</summary>
[TestFixture]
public sealed class HyperLogLogTests : ServerTestBase
{
    private const string WrongType = "-WRONGTYPE Key is not a valid HyperLogLog string value.\r\n";
    private const int HeaderLength = 16;
    private const int DenseLength = HeaderLength + 12288;

    /// <summary>Three standard errors of 16384 registers (1.04 / √16384 ≈ 0.81%), rounded up.</summary>
    private const double Tolerance = 0.025;

    [Test]
    public void PfAddRepliesWhetherARegisterChanged()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PFADD", "h", "a", "b", "c"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("PFADD", "h", "a", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("PFADD", "h", "c", "c", "c"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("PFADD", "h", "d"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("PFCOUNT", "h"), Is.EqualTo(Integer(4)));
    }

    [Test]
    public void PfAddWithoutElementsCreatesAnEmptyHyperLogLog()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PFADD", "h"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("EXISTS", "h"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("PFADD", "h"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("PFCOUNT", "h"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("PFADD", "h", "x"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("PFADD", "h"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("PFCOUNT", "h"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void PfCountOfMissingKeysIsZero()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PFCOUNT", "missing"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("PFCOUNT", "missing", "other"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "missing"), Is.EqualTo(Integer(0)));
    }

    [TestCase(1_000)]
    [TestCase(10_000)]
    [TestCase(100_000)]
    [TestCase(1_000_000)]
    public void EstimateIsWithinThreeStandardErrors(int distinct)
    {
        using var client = ConnectRaw();
        AddRange(client, "h", 0, distinct);
        AssertNear(Count(client, "h"), distinct);
    }

    [Test]
    public void DuplicatesDoNotChangeTheCount()
    {
        using var client = ConnectRaw();
        AddRange(client, "h", 0, 20_000);
        long count = Count(client, "h");
        foreach (string reply in AddRange(client, "h", 0, 20_000))
            Assert.That(reply, Is.EqualTo(Integer(0)));
        Assert.That(Count(client, "h"), Is.EqualTo(count));
        AssertNear(count, 20_000);
    }

    [Test]
    public void SparseTurnsDenseAndKeepsTheEstimate()
    {
        using var client = ConnectRaw();
        // Small batches: the sparse value grows in place and by copy until it turns dense.
        int added = 0;
        long previousLength = 0;
        bool sawDense = false;
        while (added < 3000)
        {
            AddRange(client, "h", added, 10);
            added += 10;
            long length = StrLen(client, "h");
            Assert.That(length, Is.GreaterThanOrEqualTo(previousLength), "the value only grows");
            previousLength = length;
            if (length == DenseLength)
            {
                sawDense = true;
            }
            else
            {
                Assert.That((length - HeaderLength) % 3, Is.EqualTo(0), "sparse entries are 3 bytes");
                Assert.That(length - HeaderLength, Is.LessThanOrEqualTo(3000));
            }
            AssertNear(Count(client, "h"), added, Math.Max(Tolerance, 2.0 / added));
        }
        Assert.That(sawDense, Is.True);
        Assert.That(StrLen(client, "h"), Is.EqualTo(DenseLength));
    }

    [Test]
    public void SparseEstimatesAreExactForFewElements()
    {
        using var client = ConnectRaw();
        for (int n = 1; n <= 200; n++)
        {
            client.Execute("PFADD", "h", "element-" + n);
            Assert.That(Count(client, "h"), Is.EqualTo(n).Within(1), $"after {n} elements");
        }
    }

    [Test]
    public void PfCountOfSeveralKeysEstimatesTheUnion()
    {
        using var client = ConnectRaw();
        AddRange(client, "a", 0, 50_000);
        AddRange(client, "b", 25_000, 50_000);
        AddRange(client, "small", 0, 100);
        AssertNear(Count(client, "a", "b"), 75_000);
        AssertNear(Count(client, "a", "b", "missing"), 75_000);
        Assert.That(Count(client, "a", "missing"), Is.EqualTo(Count(client, "a")));
        Assert.That(Count(client, "a", "small"), Is.EqualTo(Count(client, "a")), "small is a subset of a");
        AssertNear(Count(client, "b", "small"), 50_100);
    }

    [Test]
    public void PfMergeIntoANewDestination()
    {
        using var client = ConnectRaw();
        AddRange(client, "a", 0, 30_000);
        AddRange(client, "b", 20_000, 30_000);
        Assert.That(client.Execute("PFMERGE", "d", "a", "b", "missing"), Is.EqualTo(Ok));
        Assert.That(Count(client, "d"), Is.EqualTo(Count(client, "a", "b")));
        AssertNear(Count(client, "d"), 50_000);

        Assert.That(client.Execute("PFMERGE", "empty"), Is.EqualTo(Ok));
        Assert.That(client.Execute("EXISTS", "empty"), Is.EqualTo(Integer(1)));
        Assert.That(Count(client, "empty"), Is.EqualTo(0));
        Assert.That(client.Execute("PFMERGE", "empty2", "missing"), Is.EqualTo(Ok));
        Assert.That(Count(client, "empty2"), Is.EqualTo(0));
    }

    [Test]
    public void PfMergeIntoAnExistingDestinationKeepsItsRegisters()
    {
        using var client = ConnectRaw();
        AddRange(client, "dest", 0, 100);
        AddRange(client, "src", 1_000, 100);
        Assert.That(client.Execute("PFMERGE", "dest", "src"), Is.EqualTo(Ok));
        AssertNear(Count(client, "dest"), 200, 0.02);
        Assert.That(StrLen(client, "dest"), Is.LessThan(DenseLength), "small unions stay sparse");

        AddRange(client, "big", 10_000, 40_000);
        Assert.That(client.Execute("PFMERGE", "dest", "big", "dest"), Is.EqualTo(Ok));
        AssertNear(Count(client, "dest"), 40_200);
        Assert.That(StrLen(client, "dest"), Is.EqualTo(DenseLength));
        long count = Count(client, "dest");
        Assert.That(client.Execute("PFMERGE", "dest", "src"), Is.EqualTo(Ok));
        Assert.That(Count(client, "dest"), Is.EqualTo(count), "merging a subset changes nothing");
    }

    [Test]
    public void ConcurrentAddsToOneKeyLoseNothing()
    {
        const int Clients = 4;
        const int PerClient = 25_000;
        System.Threading.Tasks.Parallel.For(0, Clients, c =>
        {
            using var client = ConnectRaw();
            AddRange(client, "shared", c * PerClient, PerClient);
        });
        using var reader = ConnectRaw();
        var separate = ConnectRaw();
        AddRange(separate, "sequential", 0, Clients * PerClient);
        separate.Dispose();
        Assert.That(Count(reader, "shared"), Is.EqualTo(Count(reader, "sequential")), "same registers whatever the interleaving");
    }

    [Test]
    public void UpdatesKeepTheExpiration()
    {
        using var client = ConnectRaw();
        client.Execute("PFADD", "h", "a");
        Assert.That(client.Execute("EXPIRE", "h", "1000"), Is.EqualTo(Integer(1)));
        AddRange(client, "h", 0, 5_000);
        Assert.That(StrLen(client, "h"), Is.EqualTo(DenseLength));
        Assert.That(TimeToLive(client, "h"), Is.InRange(1, 1000));
        client.Execute("PFMERGE", "h", "h");
        Assert.That(TimeToLive(client, "h"), Is.InRange(1, 1000));
    }

    [Test]
    public void RawBytesRoundTripThroughGetAndSet()
    {
        using var client = ConnectRaw();
        AddRange(client, "sparse", 0, 300);
        AddRange(client, "dense", 0, 20_000);
        foreach (string key in new[] { "sparse", "dense" })
        {
            string value = BulkValue(client.Execute("GET", key));
            Assert.That(value, Does.StartWith("HYLL"));
            Assert.That(client.Execute("SET", key + "-copy", value), Is.EqualTo(Ok));
            Assert.That(Count(client, key + "-copy"), Is.EqualTo(Count(client, key)));
            Assert.That(client.Execute("PFADD", key + "-copy", "e0"), Is.EqualTo(Integer(0)));
        }
    }

    [Test]
    public void StringsThatAreNotHyperLogLogsAreWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "hello");
        client.Execute("PFADD", "h", "a");
        Assert.That(client.Execute("PFADD", "s", "x"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("PFADD", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("PFCOUNT", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("PFCOUNT", "h", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("PFMERGE", "s", "h"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("PFMERGE", "d", "h", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(Integer(0)), "a failed merge writes nothing");
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("hello")));

        // Look-alikes: the magic alone, a bad encoding, a truncated dense body, unsorted sparse entries.
        string header = "HYLL\u0001\0\0\0\0\0\0\0\0\0\0\u0080";
        var fakes = new[]
        {
            "HYLL",
            "HYLL\u0007\0\0\0\0\0\0\0\0\0\0\u0080",
            "HYLL\0\0\0\0\0\0\0\0\0\0\0\u0080" + new string('\0', 100),
            header + "\u0005\0\u0001\u0002\0\u0001",
            header + "\u0005\0",
        };
        for (int i = 0; i < fakes.Length; i++)
        {
            client.Execute("SET", "fake", fakes[i]);
            Assert.That(client.Execute("PFCOUNT", "fake"), Is.EqualTo(WrongType), $"fake {i}");
            Assert.That(client.Execute("PFADD", "fake", "x"), Is.EqualTo(WrongType), $"fake {i}");
        }
        client.Execute("SET", "fake", header + "\u0002\0\u0001\u0005\0\u0001");
        Assert.That(client.Execute("PFCOUNT", "fake"), Is.EqualTo(Integer(2)), "a valid hand-written sparse value");
    }

    [Test]
    public void ArityErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PFADD"), Is.EqualTo(WrongArity("pfadd")));
        Assert.That(client.Execute("PFCOUNT"), Is.EqualTo(WrongArity("pfcount")));
        Assert.That(client.Execute("PFMERGE"), Is.EqualTo(WrongArity("pfmerge")));
    }

    [Test]
    public void WorksThroughStackExchangeRedis()
    {
        using var connection = Connect();
        var db = connection.GetDatabase();
        Assert.That(db.HyperLogLogAdd("se", new StackExchange.Redis.RedisValue[] { "a", "b", "c" }), Is.True);
        Assert.That(db.HyperLogLogAdd("se", "a"), Is.False);
        Assert.That(db.HyperLogLogLength("se"), Is.EqualTo(3));
        db.HyperLogLogMerge("se2", "se", "missing");
        Assert.That(db.HyperLogLogLength(new StackExchange.Redis.RedisKey[] { "se", "se2" }), Is.EqualTo(3));
    }

    /// <summary>Adds elements "e{first}".."e{first+count-1}" with pipelined PFADDs of up to 1000 elements each.</summary>
    private static List<string> AddRange(RawClient client, string key, int first, int count)
    {
        const int PerCommand = 1000;
        const int CommandsPerBatch = 50;
        var replies = new List<string>();
        var commands = new List<string[]>();
        for (int start = first; start < first + count; start += PerCommand)
        {
            int n = Math.Min(PerCommand, first + count - start);
            var command = new string[n + 2];
            command[0] = "PFADD";
            command[1] = key;
            for (int i = 0; i < n; i++)
                command[i + 2] = "e" + (start + i);
            commands.Add(command);
            if (commands.Count == CommandsPerBatch)
            {
                replies.AddRange(client.Pipeline(commands.ToArray()));
                commands.Clear();
            }
        }
        if (commands.Count > 0)
            replies.AddRange(client.Pipeline(commands.ToArray()));
        foreach (string reply in replies)
            Assert.That(reply, Is.EqualTo(Integer(0)).Or.EqualTo(Integer(1)));
        return replies;
    }

    private static long Count(RawClient client, params string[] keys)
    {
        var command = new string[keys.Length + 1];
        command[0] = "PFCOUNT";
        keys.CopyTo(command, 1);
        return IntegerValue(client.Execute(command));
    }

    private static long StrLen(RawClient client, string key) => IntegerValue(client.Execute("STRLEN", key));

    private static long TimeToLive(RawClient client, string key) => IntegerValue(client.Execute("TTL", key));

    private static long IntegerValue(string reply)
    {
        Assert.That(reply, Does.StartWith(":"), reply);
        return long.Parse(reply.AsSpan(1, reply.Length - 3));
    }

    private static string BulkValue(string reply)
    {
        int headerEnd = reply.IndexOf("\r\n", StringComparison.Ordinal);
        return reply.Substring(headerEnd + 2, reply.Length - headerEnd - 4);
    }

    private static void AssertNear(long estimate, long actual, double tolerance = Tolerance)
    {
        double error = Math.Abs(estimate - actual) / (double)actual;
        Assert.That(error, Is.LessThanOrEqualTo(tolerance), $"estimate {estimate} for {actual} distinct elements");
    }
}
