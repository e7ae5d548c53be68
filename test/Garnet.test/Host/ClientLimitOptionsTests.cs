using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Host;

/// <summary>The host options of the client limits: Redis's names, forms and defaults, and their errors.</summary>
[TestFixture]
public sealed class ClientLimitOptionsTests
{
    [Test]
    public void DefaultsAreRedis()
    {
        var server = OptionsParserTests.Settings().Server;
        Assert.That(server.MaxClients, Is.EqualTo(10000));
        Assert.That(server.TimeoutSeconds, Is.Zero);
        Assert.That(server.TcpKeepAliveSeconds, Is.EqualTo(300));
        Assert.That(server.ProtectedMode, Is.True);
        Assert.That(server.ClientQueryBufferLimit, Is.EqualTo(1L << 30));
        Assert.That(server.ProtoMaxBulkLength, Is.EqualTo(512L << 20));
        Assert.That(server.NormalOutputLimit, Is.EqualTo(OutputLimit.None));
        Assert.That(server.ReplicaOutputLimit, Is.EqualTo(new OutputLimit(256L << 20, 64L << 20, 60)));
    }

    [Test]
    public void OptionsSetTheLimits()
    {
        var server = OptionsParserTests.Settings("--maxclients", "50", "--timeout", "30", "--tcp-keepalive", "0", "--protected-mode", "no",
            "--client-query-buffer-limit", "2mb", "--proto-max-bulk-len", "1mb",
            "--client-output-buffer-limit", "normal 64mb 32mb 10 pubsub 1mb 512kb 5").Server;
        Assert.That(server.MaxClients, Is.EqualTo(50));
        Assert.That(server.TimeoutSeconds, Is.EqualTo(30));
        Assert.That(server.TcpKeepAliveSeconds, Is.Zero);
        Assert.That(server.ProtectedMode, Is.False);
        Assert.That(server.ClientQueryBufferLimit, Is.EqualTo(2L << 20));
        Assert.That(server.ProtoMaxBulkLength, Is.EqualTo(1L << 20));
        Assert.That(server.NormalOutputLimit, Is.EqualTo(new OutputLimit(64L << 20, 32L << 20, 10)));
        Assert.That(server.PubSubOutputLimit, Is.EqualTo(new OutputLimit(1L << 20, 512L << 10, 5)));
        Assert.That(server.ReplicaOutputLimit, Is.EqualTo(new OutputLimit(256L << 20, 64L << 20, 60)), "a class not named keeps its default");
    }

    [TestCase("--maxclients", "0")]
    [TestCase("--timeout", "-1")]
    [TestCase("--protected-mode", "maybe")]
    [TestCase("--proto-max-bulk-len", "2gb")]
    [TestCase("--client-output-buffer-limit", "normal 1mb 1mb")]
    [TestCase("--client-output-buffer-limit", "everyone 1mb 1mb 1")]
    public void MalformedValuesAreErrorsNamingTheOption(string option, string value)
        => Assert.That(OptionsParserTests.Error(option, value), Does.Contain(option));
}
