using Garnet.networking;
using Garnet.server;
using Microsoft.Extensions.Logging;
using NUnit.Framework;

namespace Garnet.test.Host;

/// <summary>Each command-line option, its default, and every kind of bad value (one-line error, exit code 2).</summary>
[TestFixture]
public sealed class OptionsParserTests
{
    /// <summary>Parses arguments that must be valid and returns the settings.</summary>
    internal static HostSettings Settings(params string[] args)
    {
        OptionsParseResult result = OptionsParser.Parse(args);
        Assert.That(result.Error, Is.Null, "parse error");
        Assert.That(result.Settings, Is.Not.Null);
        return result.Settings!;
    }

    /// <summary>Parses arguments that must be rejected and returns the error line.</summary>
    internal static string Error(params string[] args)
    {
        OptionsParseResult result = OptionsParser.Parse(args);
        Assert.That(result.Settings, Is.Null, "the arguments should have been rejected");
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Output, Is.Null);
        Assert.That(result.Error, Is.Not.Null.And.Not.Empty);
        Assert.That(result.Error, Does.Not.Contain("\n"), "errors are one line");
        Assert.That(result.Error, Does.StartWith("error: "));
        return result.Error!;
    }

    [Test]
    public void NoArgumentsGiveTheDefaults()
    {
        HostSettings settings = Settings();
        var defaults = new ServerOptions();
        ServerOptions server = settings.Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.Port, Is.EqualTo(6379));
            Assert.That(server.Address, Is.EqualTo("127.0.0.1"));
            Assert.That(server.MemorySize, Is.EqualTo(16L << 30));
            Assert.That(server.PageSize, Is.EqualTo(32L << 20));
            Assert.That(server.IndexSize, Is.EqualTo(1L << 20));
            Assert.That(server.IndexMaxSize, Is.EqualTo(4L << 30));
            Assert.That(server.Databases, Is.EqualTo(16));
            Assert.That(server.LogDir, Is.Null);
            Assert.That(server.CheckpointDir, Is.Null);
            Assert.That(server.UnixSocketPath, Is.Null);
            Assert.That(server.Password, Is.Null);
            Assert.That(server.EnableDebugCommand, Is.False);
            Assert.That(server.ExpiredKeyDeletionScanFrequencySecs, Is.EqualTo(defaults.ExpiredKeyDeletionScanFrequencySecs));
            Assert.That(server.NetworkBufferSize, Is.EqualTo(defaults.NetworkBufferSize));
            Assert.That(server.BusyPollMicroseconds, Is.EqualTo(50));
            Assert.That(settings.LogLevel, Is.EqualTo(LogLevel.Information));
            Assert.That(settings.Quiet, Is.False);
            Assert.That(settings.MinThreads, Is.Zero);
            Assert.That(settings.MaxThreads, Is.Zero);
        });
    }

    [Test]
    public void ClusterOptionsSetTheirSettings()
    {
        ServerOptions server = Settings("--cluster", "--clean-cluster-config", "--cluster-announce-ip", "10.0.0.7", "--cluster-announce-port", "7001",
            "--cluster-timeout", "15", "--cluster-username", "bus", "--cluster-password", "secret").Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.EnableCluster, Is.True);
            Assert.That(server.CleanClusterConfig, Is.True);
            Assert.That(server.ClusterAnnounceIp, Is.EqualTo("10.0.0.7"));
            Assert.That(server.ClusterAnnouncePort, Is.EqualTo(7001));
            Assert.That(server.ClusterTimeout, Is.EqualTo(15));
            Assert.That(server.ClusterUsername, Is.EqualTo("bus"));
            Assert.That(server.ClusterPassword, Is.EqualTo("secret"));
        });
        Assert.That(Error("--cluster", "--cluster-timeout", "0"), Does.Contain("cluster-timeout"));
        ServerOptions standalone = Settings().Server;
        Assert.That(standalone.EnableCluster, Is.False);
        Assert.That(standalone.ClusterAnnounceIp, Is.Null);
        Assert.That(standalone.ClusterAnnouncePort, Is.Zero);
        Assert.That(standalone.ClusterTimeout, Is.EqualTo(60));
    }

    [Test]
    public void EachOptionSetsItsSetting()
    {
        HostSettings settings = Settings(
            "--port", "7000", "--bind", "0.0.0.0", "--memory", "2g", "--page", "16m", "--index", "64m", "--index-max-size", "1g",
            "--databases", "4", "--logdir", "/tmp/garnet-log", "--checkpointdir", "/tmp/garnet-cp",
            "--logger-level", "warning", "--quiet", "--minthreads", "8", "--maxthreads", "64",
            "--unixsocket", "/tmp/garnet.sock", "--password", "secret", "--enable-debug-command", "yes",
            "--expired-key-deletion-scan-freq", "5", "--network-buffer", "64k", "--socket-io", "async", "--event-loops", "3", "--busy-poll", "200");
        ServerOptions server = settings.Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.Port, Is.EqualTo(7000));
            Assert.That(server.Address, Is.EqualTo("0.0.0.0"));
            Assert.That(server.MemorySize, Is.EqualTo(2L << 30));
            Assert.That(server.PageSize, Is.EqualTo(16L << 20));
            Assert.That(server.IndexSize, Is.EqualTo(64L << 20));
            Assert.That(server.IndexMaxSize, Is.EqualTo(1L << 30));
            Assert.That(server.Databases, Is.EqualTo(4));
            Assert.That(server.LogDir, Is.EqualTo("/tmp/garnet-log"));
            Assert.That(server.CheckpointDir, Is.EqualTo("/tmp/garnet-cp"));
            Assert.That(settings.LogLevel, Is.EqualTo(LogLevel.Warning));
            Assert.That(settings.Quiet, Is.True);
            Assert.That(settings.MinThreads, Is.EqualTo(8));
            Assert.That(settings.MaxThreads, Is.EqualTo(64));
            Assert.That(server.UnixSocketPath, Is.EqualTo("/tmp/garnet.sock"));
            Assert.That(server.Password, Is.EqualTo("secret"));
            Assert.That(server.EnableDebugCommand, Is.True);
            Assert.That(server.ExpiredKeyDeletionScanFrequencySecs, Is.EqualTo(5));
            Assert.That(server.NetworkBufferSize, Is.EqualTo(64 << 10));
            Assert.That(server.SocketIo, Is.EqualTo(SocketIoModel.AsyncEventArgs));
            Assert.That(server.EventLoops, Is.EqualTo(3));
            Assert.That(server.BusyPollMicroseconds, Is.EqualTo(200));
        });
    }

    [Test]
    public void ShortNamesAndEqualsSyntax()
    {
        HostSettings settings = Settings("-m", "1g", "-p", "8m", "-i", "1m", "-l", "/tmp/l", "-c", "/tmp/c", "-q", "--port=7001");
        Assert.Multiple(() =>
        {
            Assert.That(settings.Server.MemorySize, Is.EqualTo(1L << 30));
            Assert.That(settings.Server.PageSize, Is.EqualTo(8L << 20));
            Assert.That(settings.Server.IndexSize, Is.EqualTo(1L << 20));
            Assert.That(settings.Server.LogDir, Is.EqualTo("/tmp/l"));
            Assert.That(settings.Server.CheckpointDir, Is.EqualTo("/tmp/c"));
            Assert.That(settings.Quiet, Is.True);
            Assert.That(settings.Server.Port, Is.EqualTo(7001));
        });
    }

    [TestCase("0", 0)]
    [TestCase("65535", 65535)]
    [TestCase(" 6380 ", 6380)]
    public void PortRange(string value, int expected) => Assert.That(Settings("--port", value).Server.Port, Is.EqualTo(expected));

    [TestCase("localhost", "127.0.0.1")]
    [TestCase("*", "0.0.0.0")]
    [TestCase("::1", "::1")]
    [TestCase("10.1.2.3", "10.1.2.3")]
    public void BindAddresses(string value, string expected) => Assert.That(Settings("--bind", value).Server.Address, Is.EqualTo(expected));

    [TestCase("Trace", LogLevel.Trace)]
    [TestCase("debug", LogLevel.Debug)]
    [TestCase("INFORMATION", LogLevel.Information)]
    [TestCase("Error", LogLevel.Error)]
    [TestCase("Critical", LogLevel.Critical)]
    [TestCase("None", LogLevel.None)]
    public void LoggerLevels(string value, LogLevel expected) => Assert.That(Settings("--logger-level", value).LogLevel, Is.EqualTo(expected));

    [TestCase("no", "127.0.0.1", false)]
    [TestCase("yes", "127.0.0.1", true)]
    [TestCase("YES", "0.0.0.0", true)]
    [TestCase("local", "127.0.0.1", true)]
    [TestCase("local", "::1", true)]
    [TestCase("local", "0.0.0.0", false)]
    public void DebugCommand(string value, string bind, bool expected)
        => Assert.That(Settings("--enable-debug-command", value, "--bind", bind).Server.EnableDebugCommand, Is.EqualTo(expected));

    [TestCase("0", 0)]
    [TestCase("-1", 0)]
    [TestCase("30", 30)]
    public void ExpirationScanFrequency(string value, int expected)
        => Assert.That(Settings("--expired-key-deletion-scan-freq=" + value).Server.ExpiredKeyDeletionScanFrequencySecs, Is.EqualTo(expected));

    [Test]
    public void AliasesOfGarnetAndRedis()
    {
        Assert.That(Settings("--max-databases", "3").Server.Databases, Is.EqualTo(3));
        Assert.That(Settings("--requirepass", "pw").Server.Password, Is.EqualTo("pw"));
        Assert.That(Settings("--password", "pw", "--requirepass", "pw").Server.Password, Is.EqualTo("pw"));
        Assert.That(Error("--password", "a", "--requirepass", "b"), Does.Contain("--requirepass"));
        Assert.That(Settings("--password", "").Server.Password, Is.Null, "an empty password means none");
    }

    [Test]
    public void AuthenticationModesAndAclFile()
    {
        Assert.That(Settings("--acl-file", "users.acl").Server.AclFile, Is.EqualTo("users.acl"));
        Assert.That(Settings("--aclfile", "users.acl").Server.AclFile, Is.EqualTo("users.acl"));
        Assert.That(Settings("--auth", "Password", "--password", "pw").Server.Password, Is.EqualTo("pw"));
        Assert.That(Settings("--auth", "acl", "--acl-file", "users.acl").Server.AclFile, Is.EqualTo("users.acl"));
        Assert.That(Settings("--auth", "NoAuth").Server.Password, Is.Null);
        Assert.That(Error("--auth", "Password"), Does.Contain("--password is required"));
        Assert.That(Error("--auth", "ACL"), Does.Contain("--acl-file is required"));
        Assert.That(Error("--auth", "Aad"), Does.Contain("not supported"));
        Assert.That(Error("--auth", "bogus"), Does.Contain("not one of NoAuth, Password or ACL"));
    }

    [Test]
    public void MemoryOfExactlyTwoPagesIsAccepted()
    {
        HostSettings settings = Settings("--memory", "8m", "--page", "4m");
        Assert.That(settings.Server.MemorySize, Is.EqualTo(8L << 20));
    }

    [TestCase(new[] { "--foo" }, "unknown option '--foo'")]
    [TestCase(new[] { "-z" }, "unknown option '-z'")]
    [TestCase(new[] { "--port", "abc" }, "--port: 'abc' is not a whole number")]
    [TestCase(new[] { "--port", "65536" }, "--port: 65536 is out of range")]
    [TestCase(new[] { "--port", "-1" }, "--port: -1 is out of range")]
    [TestCase(new[] { "--port" }, "--port needs a value")]
    [TestCase(new[] { "--port", "--quiet" }, "--port needs a value")]
    [TestCase(new[] { "--port", "1", "--port", "2" }, "--port is given more than once")]
    [TestCase(new[] { "--page", "3m" }, "--page: 3m (3145728 bytes) is not a power of two")]
    [TestCase(new[] { "--page", "2k" }, "--page: 2k is out of range (4k to 1g)")]
    [TestCase(new[] { "--page", "2g" }, "--page: 2g is out of range (4k to 1g)")]
    [TestCase(new[] { "--page", "big" }, "--page: 'big' is not a size")]
    [TestCase(new[] { "--memory", "16m", "--page", "32m" }, "--memory: 16m is less than two pages of 32m")]
    [TestCase(new[] { "--memory", "12q" }, "--memory: '12q' is not a size")]
    [TestCase(new[] { "--memory", "0" }, "--memory: 0 is out of range")]
    [TestCase(new[] { "--index", "32" }, "--index: 32 is out of range")]
    [TestCase(new[] { "--databases", "0" }, "--databases: 0 is out of range (1 to 65536)")]
    [TestCase(new[] { "--databases", "x" }, "--databases: 'x' is not a whole number")]
    [TestCase(new[] { "--bind", "1.2.3.4.5" }, "--bind: '1.2.3.4.5' is not an IP address")]
    [TestCase(new[] { "--logger-level", "Loud" }, "--logger-level: 'Loud' is not one of")]
    [TestCase(new[] { "--logger-level", "2" }, "--logger-level: '2' is not one of")]
    [TestCase(new[] { "--enable-debug-command", "maybe" }, "--enable-debug-command: 'maybe' is not one of no, yes, local")]
    [TestCase(new[] { "--expired-key-deletion-scan-freq", "-2" }, "--expired-key-deletion-scan-freq: -2 is out of range")]
    [TestCase(new[] { "--network-buffer", "100" }, "--network-buffer: 100 is out of range (1k to 1g)")]
    [TestCase(new[] { "--socket-io", "uring" }, "--socket-io: 'uring' is not one of auto, epoll, async")]
    [TestCase(new[] { "--event-loops", "-1" }, "--event-loops: -1 is out of range")]
    [TestCase(new[] { "--busy-poll", "-1" }, "--busy-poll: -1 is out of range")]
    [TestCase(new[] { "--busy-poll", "1000001" }, "--busy-poll: 1000001 is out of range")]
    [TestCase(new[] { "--minthreads", "-1" }, "--minthreads: -1 is out of range")]
    [TestCase(new[] { "--minthreads", "8", "--maxthreads", "4" }, "--minthreads: 8 is more than --maxthreads 4")]
    [TestCase(new[] { "--quiet", "yes" }, "unexpected argument 'yes'")]
    [TestCase(new[] { "--port=" }, "malformed argument '--port='")]
    public void BadValuesAreOneLineErrors(string[] args, string expected)
        => Assert.That(Error(args), Does.Contain(expected));

    [Test]
    public void HelpListsEveryOptionAndExitsZero()
    {
        OptionsParseResult result = OptionsParser.Parse(new[] { "--help" });
        Assert.That(result.Settings, Is.Null);
        Assert.That(result.ExitCode, Is.Zero);
        Assert.That(result.Error, Is.Null);
        string help = result.Output!;
        Assert.That(help, Does.Contain("Usage: GarnetServer [options]"));
        foreach (string option in new[]
        {
            "--port", "--bind", "--memory", "--page", "--index", "--databases", "--logdir", "--checkpointdir",
            "--config-import-path", "--logger-level", "--quiet", "--minthreads", "--maxthreads", "--unixsocket",
            "--password", "--enable-debug-command", "--expired-key-deletion-scan-freq", "--network-buffer", "--socket-io", "--event-loops", "--busy-poll", "--metrics-port", "--version",
        })
        {
            Assert.That(help, Does.Contain(option), option);
        }
        Assert.That(help, Does.Contain("(default: 6379)"));
        Assert.That(OptionsParser.HelpText, Is.EqualTo(help));
    }

    [Test]
    public void HelpAndVersionWinAnywhere()
    {
        OptionsParseResult result = OptionsParser.Parse(new[] { "--port", "1", "--help" });
        Assert.That(result.ExitCode, Is.Zero);
        Assert.That(result.Output, Does.Contain("Usage:"));
        Assert.That(OptionsParser.Parse(new[] { "--quiet", "--version" }).Output, Is.EqualTo(OptionsParser.VersionText));
    }

    [Test]
    public void VersionPrintsOneLineAndExitsZero()
    {
        OptionsParseResult result = OptionsParser.Parse(new[] { "--version" });
        Assert.That(result.Settings, Is.Null);
        Assert.That(result.ExitCode, Is.Zero);
        Assert.That(result.Output, Is.EqualTo("GarnetServer " + OptionsParser.Version));
        Assert.That(OptionsParser.Version, Does.Match(@"^\d+\.\d+\.\d+"));
        Assert.That(OptionsParser.Version, Does.Not.Contain("+"), "no source-revision metadata");
    }

    [TestCase("32mb", 32L << 20, 1L << 20)]
    [TestCase("128mb", 128L << 20, 4L << 20)]
    [TestCase("100000000", 100000000L, 2L << 20)]
    [TestCase("4gb", 4L << 30, 32L << 20)]
    public void MaxmemoryWithoutAPageSizeGetsPagesOfAThirtySecondOfIt(string maxmemory, long bytes, long page)
    {
        var server = Settings("--maxmemory", maxmemory).Server;
        Assert.That(server.MaxMemory, Is.EqualTo(bytes));
        Assert.That(server.PageSize, Is.EqualTo(page));
    }

    [Test]
    public void MaxmemoryKeepsAGivenPageSizeAndNeedsEightPagesOfIt()
    {
        Assert.That(Settings("--maxmemory", "64mb", "--page", "4m").Server.PageSize, Is.EqualTo(4L << 20));
        Assert.That(Settings("--maxmemory", "0").Server.MaxMemory, Is.Zero);
        Assert.That(Error("--maxmemory", "16mb", "--page", "4m"), Does.Contain("--maxmemory").And.Contain("8 pages"));
        Assert.That(Error("--maxmemory", "lots"), Does.Contain("maxmemory"));
    }

    [Test]
    public void EvictionPolicyAndLfuSettings()
    {
        var server = Settings("--maxmemory-policy", "allkeys-lfu", "--lfu-log-factor", "20", "--lfu-decay-time", "0").Server;
        Assert.That(server.MaxMemoryPolicy, Is.EqualTo(Tsavorite.EvictionPolicy.AllKeysLfu));
        Assert.That(server.LfuLogFactor, Is.EqualTo(20));
        Assert.That(server.LfuDecayTime, Is.Zero);
        Assert.That(Settings("--maxmemory-policy", "volatile-ttl").Server.MaxMemoryPolicy, Is.EqualTo(Tsavorite.EvictionPolicy.VolatileTtl));
        Assert.That(Settings().Server.MaxMemoryPolicy, Is.EqualTo(Tsavorite.EvictionPolicy.NoEviction));
        Assert.That(Error("--maxmemory-policy", "lru"), Does.Contain("--maxmemory-policy").And.Contain("allkeys-lru"));
        Assert.That(Error("--lfu-log-factor", "-1"), Does.Contain("lfu-log-factor"));
    }
}
