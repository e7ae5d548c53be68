using System;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Host;

/// <summary>
/// The start-up warm-up (--warm-up, <see cref="ServerOptions.WarmUpMilliseconds"/>): its traffic reaches a throwaway
/// server, and the real server starts as empty and unused as without it. What it gains is measured in
/// benchmark/compare/coldstart.sh, never here.
/// </summary>
[TestFixture]
public sealed class StartupWarmUpTests
{
    [Test]
    public void TheWarmUpRunsItsTrafficAndLeavesNothingInTheServer()
    {
        var options = SmallSettings(0).Server;
        options.WarmUpMilliseconds = 2000;
        using var server = new GarnetServer(options);
        server.Start();

        var report = server.WarmUp;
        Assert.That(report, Is.Not.Null);
        Assert.That(report!.Failure, Is.Null, report.ToString());
        // At least one whole round: 42 pipelined batches (64 commands each, 102 in the lists') and 23 single commands on each of two connections.
        Assert.That(report.Requests, Is.GreaterThanOrEqualTo(2 * (41 * 64 + 102 + 21 + 2)), report.ToString());
        Assert.That(report.Elapsed, Is.LessThan(TimeSpan.FromSeconds(2) + TimeSpan.FromSeconds(10)), "it keeps to its budget (one round may run past it)");
        Assert.That(report.ToString(), Does.StartWith("Warmed up in "));
        TestContext.Out.WriteLine(report.ToString());

        using var client = new RawClient(server.Port);
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"), "none of the warm-up's keys");
        string stats = client.Execute("INFO", "stats");
        Assert.That(stats, Does.Contain("total_connections_received:1\r\n"), "only this client connected to this server");
        Assert.That(stats, Does.Contain("keyspace_hits:0\r\n"));
        Assert.That(client.Execute("INFO", "commandstats"), Does.Not.Contain("cmdstat_get:").And.Not.Contain("cmdstat_lpush:"));
        string clients = client.Execute("CLIENT", "LIST");
        Assert.That(clients.Split(" addr=").Length - 1, Is.EqualTo(1), "one client listed: " + clients);
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void APasswordOnTheServerStaysWhileTheWarmUpRunsOpen()
    {
        var options = SmallSettings(0).Server;
        options.WarmUpMilliseconds = 1000;
        options.Password = "secret";
        options.ProtectedMode = true;
        using var server = new GarnetServer(options);
        server.Start();
        Assert.That(server.WarmUp!.Failure, Is.Null, server.WarmUp.ToString());
        Assert.That(server.WarmUp.Requests, Is.GreaterThan(0));

        using var client = new RawClient(server.Port);
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
        Assert.That(client.Execute("AUTH", "secret"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void ZeroSkipsIt()
    {
        using var server = new GarnetServer(SmallSettings(0).Server);
        server.Start();
        Assert.That(server.WarmUp, Is.Null, "an embedded server's default");
        Assert.That(new ServerOptions().WarmUpMilliseconds, Is.Zero);
    }

    [Test]
    public void TheExecutableWarmsUpByDefaultAndTheOptionIsChecked()
    {
        Assert.That(OptionsParserTests.Settings().Server.WarmUpMilliseconds, Is.EqualTo(1500));
        Assert.That(OptionsParserTests.Settings("--warm-up", "0").Server.WarmUpMilliseconds, Is.Zero);
        Assert.That(OptionsParserTests.Settings("--warm-up", "60000").Server.WarmUpMilliseconds, Is.EqualTo(60000));
        Assert.That(OptionsParserTests.Error("--warm-up", "soon"), Is.EqualTo("error: --warm-up: 'soon' is not a whole number"));
        Assert.That(OptionsParserTests.Error("--warm-up", "-1"), Is.EqualTo("error: --warm-up: -1 is out of range (0 to 60000)"));
        Assert.That(OptionsParserTests.Error("--warm-up", "60001"), Is.EqualTo("error: --warm-up: 60001 is out of range (0 to 60000)"));
    }
}
