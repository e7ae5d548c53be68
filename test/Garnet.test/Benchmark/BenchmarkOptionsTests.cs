using System.IO;
using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>The command-line names are a compatibility contract; the defaults are documented.</summary>
public class BenchmarkOptionsTests
{
    [Test]
    public void DefaultsWithoutArguments()
    {
        var options = BenchmarkOptions.FromCommandLine([], TextWriter.Null)!;
        Assert.That(options, Is.Not.Null);
        Assert.That(options.Threads, Is.EqualTo(new[] { 1 }));
        Assert.That(options.OpWorkload, Is.EqualTo(new[] { "GET", "SET" }));
        Assert.That(options.OpPercent, Is.EqualTo(new[] { 80, 20 }));
        Assert.That((options.Op, options.BatchSize, options.DbSize, options.KeyLength, options.ValueLength), Is.EqualTo(("GET", 4096, 1024L, 8, 8)));
        Assert.That(options.Validate(), Is.Empty);
    }

    [Test]
    public void OfflineCommandLine()
    {
        var options = BenchmarkOptions.FromCommandLine(
            ["--host", "localhost", "--port", "7000", "--op", "pfadd", "--keylength", "8", "--valuelength", "1048576", "--threads", "1,2,4,8",
             "--batchsize", "4096", "--dbsize", "1048576", "--totalops", "1048576", "--skipload", "--zipf", "0.99", "--csv", "out.csv",
             "--tls", "--tls-insecure", "--auth", "pw"],
            TextWriter.Null)!;
        Assert.That(options, Is.Not.Null);
        Assert.That(options.Threads, Is.EqualTo(new[] { 1, 2, 4, 8 }));
        Assert.That((options.Host, options.Port, options.Op), Is.EqualTo(("localhost", 7000, "pfadd")));
        Assert.That((options.ValueLength, options.BatchSize, options.DbSize, options.TotalOps), Is.EqualTo((1048576, 4096, 1048576L, 1048576L)));
        Assert.That((options.SkipLoad, options.Zipf, options.Csv), Is.EqualTo((true, 0.99, "out.csv")));
        Assert.That((options.Tls, options.TlsInsecure, options.Auth), Is.EqualTo((true, true, "pw")));
        Assert.That(options.Validate(), Is.Empty);
    }

    [Test]
    public void OnlineCommandLineAsTheGarnetDocsWriteIt()
    {
        var options = BenchmarkOptions.FromCommandLine(
            ["--batchsize", "1", "--threads", "16", "--client", "GarnetClientSession", "--runtime", "35", "--op-workload", "GET,SET",
             "--op-percent", "80,20", "--online", "--valuelength", "8", "--keylength", "8", "--dbsize", "1024", "--itp", "64"],
            TextWriter.Null)!;
        Assert.That(options, Is.Not.Null);
        Assert.That(options.Online, Is.True);
        Assert.That(options.OpWorkload, Is.EqualTo(new[] { "GET", "SET" }));
        Assert.That(options.OpPercent, Is.EqualTo(new[] { 80, 20 }));
        Assert.That((options.Itp, options.Runtime, options.Threads), Is.EqualTo((64, 35.0, new[] { 16 })));
        Assert.That(options.Validate(), Is.Empty);
    }

    [Test]
    public void UnknownOptionDoesNotParse() =>
        Assert.That(BenchmarkOptions.FromCommandLine(["--no-such-option"], TextWriter.Null), Is.Null);

    [Test]
    public void Validation()
    {
        Assert.That(new BenchmarkOptions().Validate(), Is.Empty);
        Assert.That(new BenchmarkOptions { DbSize = 63, KeyLength = 1 }.Validate(), Has.Some.Contains("--keylength"));
        Assert.That(new BenchmarkOptions { Op = "NOPE" }.Validate(), Has.Some.Contains("NOPE"));
        Assert.That(new BenchmarkOptions { Online = true, OpPercent = new[] { 50, 40 } }.Validate(), Has.Some.Contains("100"));
        Assert.That(new BenchmarkOptions { Online = true, OpWorkload = new[] { "SETGET" }, OpPercent = new[] { 100 } }.Validate(), Has.Some.Contains("SETGET"));
        Assert.That(new BenchmarkOptions { Zipf = 1.5 }.Validate(), Has.Some.Contains("--zipf"));
        Assert.That(new BenchmarkOptions { Threads = new[] { 0 } }.Validate(), Has.Some.Contains("--threads"));
        Assert.That(new BenchmarkOptions { BitOp = "NAND" }.Validate(), Has.Some.Contains("--bitop"));
    }
}
