using Garnet.server;
using Garnet.test.Host;
using NUnit.Framework;

namespace Garnet.test.PubSub;

/// <summary>--pubsub-output-limit, the subscribers' output bound.</summary>
[TestFixture]
public sealed class PubSubOptionsTests
{
    [Test]
    public void DefaultsAreRedisPubSubClientOutputLimits()
    {
        var options = OptionsParserTests.Settings().Server;
        Assert.That(options.PubSubOutputLimit, Is.EqualTo(new Garnet.networking.OutputLimit(32L << 20, 8L << 20, 60)));
    }

    [TestCase("64k", 64L << 10)]
    [TestCase("1g", 1L << 30)]
    [TestCase("0", 0L)]
    public void OutputLimitIsASize(string value, long expected)
        => Assert.That(OptionsParserTests.Settings("--pubsub-output-limit", value).Server.PubSubOutputLimit.HardBytes, Is.EqualTo(expected));

    [Test]
    public void BadOutputLimitIsAnError()
        => Assert.That(OptionsParserTests.Error("--pubsub-output-limit", "lots"), Does.Contain("--pubsub-output-limit"));
}
