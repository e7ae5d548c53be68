using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Host.OptionsParserTests;

namespace Garnet.test.Host;

/// <summary>The operation log's options (--aof, --aof-commit-freq, --aof-commit-wait, --aof-memory, --aof-page-size, --recover, --fail-on-recovery-error): defaults, values, bad values.</summary>
[TestFixture]
public sealed class AofOptionsTests
{
    [Test]
    public void WithoutThemThereIsNoLog()
    {
        ServerOptions server = Settings().Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.EnableAof, Is.False);
            Assert.That(server.AofCommitFrequencyMs, Is.Zero);
            Assert.That(server.AofCommitWait, Is.False);
            Assert.That(server.AofMemorySize, Is.EqualTo(64L << 20));
            Assert.That(server.Recover, Is.False);
            Assert.That(server.FailOnRecoveryError, Is.True);
        });
    }

    [Test]
    public void EachOptionSetsItsSetting()
    {
        ServerOptions server = Settings("--aof", "--aof-commit-freq", "100", "--aof-commit-wait", "--aof-memory", "100m", "--recover",
            "--fail-on-recovery-error", "false", "--checkpointdir", "/tmp/cp").Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.EnableAof, Is.True);
            Assert.That(server.AofCommitFrequencyMs, Is.EqualTo(100));
            Assert.That(server.AofCommitWait, Is.True);
            Assert.That(server.AofMemorySize, Is.EqualTo(64L << 20), "rounded down to a power of two");
            Assert.That(server.Recover, Is.True);
            Assert.That(server.FailOnRecoveryError, Is.False);
            Assert.That(server.CheckpointDir, Is.EqualTo("/tmp/cp"));
        });
        Assert.That(Settings("--aof", "--aof-commit-freq", "-1").Server.AofCommitFrequencyMs, Is.EqualTo(-1));
        Assert.That(Settings("--aof", "--aof-memory", "4g").Server.AofMemorySize, Is.EqualTo(1L << 30), "at most 1g");
        Assert.That(Settings().Server.AofPageSize, Is.EqualTo(4L << 20), "Garnet's default");
        Assert.That(Settings("--aof", "--aof-page-size", "100k").Server.AofPageSize, Is.EqualTo(64L << 10), "rounded down to a power of two");
        Assert.That(Settings("--aof", "--aof-page-size", "64m").Server.AofPageSize, Is.EqualTo(64L << 20), "up to --aof-memory");
    }

    [Test]
    public void AofSettingsAreTakenWithoutTheAofForCONFIGSETAppendOnly()
    {
        var server = Settings("--aof-commit-freq", "10", "--aof-page-size", "64k", "--aof-segment-size", "16m").Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.EnableAof, Is.False);
            Assert.That(server.AofCommitFrequencyMs, Is.EqualTo(10));
            Assert.That(server.AofPageSize, Is.EqualTo(64L << 10));
            Assert.That(server.EffectiveAofSegmentSize, Is.EqualTo(16L << 20));
        });
    }

    [TestCase(new[] { "--aof", "--aof-commit-freq", "-2" }, "--aof-commit-freq: -2 is out of range")]
    [TestCase(new[] { "--aof", "--aof-commit-freq", "soon" }, "--aof-commit-freq: 'soon' is not a whole number")]
    [TestCase(new[] { "--aof", "--aof-memory", "1k" }, "--aof-memory: 1k is out of range")]
    [TestCase(new[] { "--aof", "--aof-page-size", "1k" }, "--aof-page-size: 1k is out of range")]
    [TestCase(new[] { "--aof", "--aof-memory", "1m", "--aof-page-size", "2m" }, "--aof-page-size (2097152 bytes) must not exceed --aof-memory (1048576 bytes)")]
    [TestCase(new[] { "--aof", "--aof-commit-wait" }, "--aof-commit-wait: replies wait for the periodic commit")]
    [TestCase(new[] { "--aof", "--fail-on-recovery-error", "maybe" }, "--fail-on-recovery-error: 'maybe' is not true or false")]
    public void BadValuesAreRefused(string[] args, string expected) => Assert.That(Error(args), Does.Contain(expected));
}
