using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Host.OptionsParserTests;

namespace Garnet.test.Host;

/// <summary>The checkpoint options (--checkpoint-freq, --save, --aof-size-limit, --aof-segment-size): defaults, values, bad values.</summary>
[TestFixture]
public sealed class CheckpointOptionsTests
{
    [Test]
    public void WithoutThemNothingIsSavedByItself()
    {
        ServerOptions server = Settings().Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.CheckpointFrequencySecs, Is.Zero);
            Assert.That(server.SavePoints, Is.Null);
            Assert.That(server.AofSizeLimit, Is.Zero);
            Assert.That(server.AofSegmentSize, Is.EqualTo(1L << 30));
            Assert.That(server.EffectiveAofSegmentSize, Is.EqualTo(1L << 30));
        });
    }

    [Test]
    public void EachOptionSetsItsSetting()
    {
        ServerOptions server = Settings("--checkpoint-freq", "60", "--save", "3600 1 300 100", "--aof", "--aof-size-limit", "64m", "--aof-segment-size", "256m").Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.CheckpointFrequencySecs, Is.EqualTo(60));
            Assert.That(server.SavePoints, Is.EqualTo(new[] { new SavePoint(3600, 1), new SavePoint(300, 100) }));
            Assert.That(server.AofSizeLimit, Is.EqualTo(64L << 20));
            Assert.That(server.AofSegmentSize, Is.EqualTo(256L << 20));
            Assert.That(server.EffectiveAofSegmentSize, Is.EqualTo(16L << 20), "a quarter of the limit");
        });
        Assert.That(Settings("--save", "").Server.SavePoints, Is.Empty);
    }

    [TestCase(new[] { "--checkpoint-freq", "-1" }, "--checkpoint-freq: -1 is out of range")]
    [TestCase(new[] { "--save", "3600" }, "--save: '3600' is not pairs of <seconds> <changes>")]
    [TestCase(new[] { "--save", "abc 1" }, "is not pairs")]
    [TestCase(new[] { "--aof", "--aof-size-limit", "1k" }, "--aof-size-limit: 1k is out of range")]
    public void BadValuesAreRefused(string[] args, string expected) => Assert.That(Error(args), Does.Contain(expected));
}
