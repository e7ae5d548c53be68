using System;
using System.IO;
using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>
/// Runs the load generator against the in-process server and checks its bookkeeping: every
/// command sent got exactly one counted reply, and none was an error.
/// </summary>
public class BenchmarkSmokeTests : ServerTestBase
{
    private BenchmarkOptions Options(string op = "GET") => new()
    {
        Port = Port,
        Op = op,
        DbSize = 1000,
        KeyLength = 8,
        ValueLength = 16,
        BatchSize = 128,
        KeysPerCommand = 4,
        Threads = new[] { 1 },
        Timeout = 30,
    };

    private static void AssertClean(BenchmarkResult result)
    {
        TestContext.Out.WriteLine(ResultFormatter.Line(result));
        Assert.That(result.Requests, Is.GreaterThan(0));
        Assert.That(result.Replies, Is.EqualTo(result.Requests), "every command's reply was counted");
        Assert.That(result.Errors, Is.Zero, result.FirstError);
        Assert.That(result.OpsPerSecond, Is.GreaterThan(0));
    }

    [Test]
    public void OfflineRunForTwoSeconds()
    {
        var options = Options();
        options.Threads = new[] { 2 };
        options.Clients = 2;
        options.Runtime = 2;
        var result = new BenchmarkRunner(options, TestContext.Out).RunOnce(2);
        AssertClean(result);
        Assert.That(result.ElapsedSeconds, Is.InRange(1.9, 10));
        Assert.That(result.Requests % options.BatchSize, Is.Zero, "only whole batches are counted, each once its replies are in");
    }

    [TestCase("SET")]
    [TestCase("SETEX")]
    [TestCase("MGET")]
    [TestCase("MSET")]
    [TestCase("INCR")]
    [TestCase("DEL")]
    [TestCase("PING")]
    [TestCase("SETGET")]
    [TestCase("MULTIINCR4")]
    [TestCase("EVALSHA3")]
    public void OfflineRunOfTotalOps(string op)
    {
        var options = Options(op);
        // Two connections per thread, each keeping a batch in flight while the other's replies are read;
        // 8192 is a whole number of rounds for 1 and 2 threads (128 commands × 2 connections per thread).
        options.TotalOps = 8192;
        options.Threads = new[] { 1, 2 };
        options.Clients = 2;
        var results = new BenchmarkRunner(options, TestContext.Out).Run();
        Assert.That(results, Has.Count.EqualTo(2));
        foreach (var result in results)
        {
            AssertClean(result);
            Assert.That(result.Requests, Is.EqualTo(8192));
        }
    }

    [Test]
    public void OnlineRunRecordsLatencyPerOperation()
    {
        var options = Options();
        options.Online = true;
        options.OpWorkload = new[] { "GET", "SET" };
        options.OpPercent = new[] { 80, 20 };
        options.Itp = 4;
        options.Runtime = 1;
        var result = new BenchmarkRunner(options, TestContext.Out).RunOnce(2);
        AssertClean(result);
        Assert.That(result.Workload, Is.EqualTo("GET:80,SET:20"));
        Assert.That(result.Latencies, Has.Count.EqualTo(3));
        var get = result.Latencies[0];
        var set = result.Latencies[1];
        var all = result.Latencies[2];
        Assert.That((get.Op, set.Op, all.Op), Is.EqualTo(("GET", "SET", "ALL")));
        Assert.That(get.Count + set.Count, Is.EqualTo(result.Replies));
        Assert.That(all.Count, Is.EqualTo(result.Replies));
        Assert.That(get.Count, Is.GreaterThan(set.Count * 2), "GET is drawn four times as often as SET");
        foreach (var latency in result.Latencies)
        {
            Assert.That(latency.P50, Is.GreaterThan(0));
            Assert.That(latency.P50, Is.LessThanOrEqualTo(latency.P90));
            Assert.That(latency.P90, Is.LessThanOrEqualTo(latency.P99));
            Assert.That(latency.P99, Is.LessThanOrEqualTo(latency.P999));
            Assert.That(latency.P999, Is.LessThanOrEqualTo(latency.Max));
        }
    }

    [TestCase(false)]
    [TestCase(true)]
    public void TimedRunsWithBatchesTouchTheWholeKeyspace(bool online)
    {
        // A timed run asks for endless commands; rounding that up to batches once overflowed, and each connection then
        // sent its first batch over and over (64 keys per connection here): SETs without a preload left a DBSIZE of 128.
        var options = Options("SET");
        options.SkipLoad = true;
        options.BatchSize = 64;
        options.Clients = 2;
        options.Runtime = 1;
        if (online)
        {
            options.Online = true;
            options.OpWorkload = new[] { "SET" };
            options.OpPercent = new[] { 100 };
            options.Itp = 64;
        }
        var result = new BenchmarkRunner(options, TestContext.Out).RunOnce(1);
        AssertClean(result);
        Assert.That(result.Replies, Is.GreaterThan(20_000), "enough SETs to touch each of the 1,000 keys");
        using var client = ConnectRaw();
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1000\r\n"));
    }

    [Test]
    public void PreloadWritesEveryKey()
    {
        var options = Options();
        new BenchmarkRunner(options).Load();
        using var client = ConnectRaw();
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1000\r\n"));
        Assert.That(client.Execute("GET", KeyFormat.ToText(999, 8)), Is.EqualTo("$16\r\nabcdefghijklmnop\r\n"));
    }

    [Test]
    public void TransactionsCountAsOneOperationEach()
    {
        var options = Options("MULTIINCR4");
        options.TotalOps = 512;
        var result = new BenchmarkRunner(options, TestContext.Out).RunOnce(2);
        AssertClean(result);
        Assert.That(result.Requests, Is.EqualTo(512));
        Assert.That(result.CommandsPerOp, Is.EqualTo(6));
        Assert.That(ResultFormatter.Line(result), Does.Contain("commands/op=6 ops=512 "));

        // Every transaction ran its four INCRs: the counters add up to 4 per transaction.
        using var client = ConnectRaw();
        long sum = 0;
        for (long key = 0; key < options.DbSize; key++)
        {
            string reply = client.Execute("GET", KeyFormat.ToText(key, options.KeyLength));
            sum += long.Parse(reply.Split("\r\n")[1]);
        }
        Assert.That(sum, Is.EqualTo(4 * 512));
    }

    [Test]
    public void ErrorsInsideExecAreCounted()
    {
        // Strings that are not integers make every INCR inside EXEC fail, inside EXEC's array.
        new BenchmarkRunner(Options("GET")).Load();
        var options = Options("MULTIINCR4");
        options.SkipLoad = true;
        options.TotalOps = 256;
        var result = new BenchmarkRunner(options).RunOnce(1);
        Assert.That(result.Replies, Is.EqualTo(256));
        Assert.That(result.Errors, Is.EqualTo(4 * 256));
        Assert.That(result.FirstError, Does.StartWith("ERR"));
    }

    [Test]
    public void ErrorRepliesAreCounted()
    {
        // Strings that are not integers make every INCR fail.
        new BenchmarkRunner(Options("GET")).Load();
        var options = Options("INCR");
        options.SkipLoad = true;
        options.TotalOps = 1024;
        var result = new BenchmarkRunner(options).RunOnce(1);
        Assert.That(result.Replies, Is.EqualTo(1024));
        Assert.That(result.Errors, Is.EqualTo(1024));
        Assert.That(result.FirstError, Does.StartWith("ERR"));
        Assert.That(ResultFormatter.Line(result), Does.Contain("errors=1024"));
    }

    [Test]
    public void UnreachableServerFails()
    {
        var options = Options();
        options.Port = 1;
        options.SkipLoad = true;
        Assert.Throws<InvalidOperationException>(() => new BenchmarkRunner(options).RunOnce(1));
    }

    [Test]
    public void CsvWritesTheHeaderOnce()
    {
        var options = Options();
        options.TotalOps = 256;
        var result = new BenchmarkRunner(options).RunOnce(1);
        string path = Path.Combine(Path.GetTempPath(), "resp-bench-" + Guid.NewGuid().ToString("N") + ".csv");
        try
        {
            ResultFormatter.AppendCsv(path, result);
            ResultFormatter.AppendCsv(path, result);
            var lines = File.ReadAllLines(path);
            Assert.That(lines, Has.Length.EqualTo(3));
            Assert.That(lines[0], Is.EqualTo(ResultFormatter.CsvHeader));
            Assert.That(lines[1].Split(',').Length, Is.EqualTo(lines[0].Split(',').Length));
            Assert.That(lines[1], Does.StartWith("offline,GET,1,1,128,1000,8,16,uniform,256,256,0,"));
        }
        finally
        {
            File.Delete(path);
        }
    }
}

/// <summary>The load generator authenticates each connection when the server wants a password.</summary>
public class BenchmarkAuthTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { Password = "s3cret" };

    [Test]
    public void AuthenticatesBeforeRunning()
    {
        var options = new BenchmarkOptions { Port = Port, Auth = "s3cret", TotalOps = 1000, BatchSize = 100, DbSize = 100 };
        var result = new BenchmarkRunner(options).RunOnce(1);
        Assert.That(result.Replies, Is.EqualTo(1000));
        Assert.That(result.Errors, Is.Zero, result.FirstError);
    }

    [Test]
    public void WrongPasswordFails()
    {
        var options = new BenchmarkOptions { Port = Port, Auth = "wrong", TotalOps = 1000, DbSize = 100 };
        var failure = Assert.Throws<InvalidOperationException>(() => new BenchmarkRunner(options).RunOnce(1));
        Assert.That(failure!.Message, Does.Contain("AUTH"));
    }
}
