using NUnit.Framework;

namespace Garnet.test.Durability;

/// <summary>CONFIG SET appendfsync / aof-commit-freq while the operation log runs: the new policy governs the next writes.</summary>
[TestFixture]
public sealed class CommitPolicyChangeTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    [Test]
    public void AlwaysMakesEachAcknowledgedWriteDurable()
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = -1);
        var log = _server.Server.Store.OperationLog!;
        using var c = _server.Connect();
        Assert.That(c.Execute("SET", "before", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(log.UncommittedBytes, Is.GreaterThan(0), "appendfsync no: nothing asks for a commit");

        Assert.That(c.Execute("CONFIG", "SET", "appendfsync", "always"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("CONFIG", "GET", "appendfsync"), Is.EqualTo("*2\r\n$11\r\nappendfsync\r\n$6\r\nalways\r\n"));
        Assert.That(c.Execute("CONFIG", "GET", "aof-commit-freq"), Is.EqualTo("*2\r\n$15\r\naof-commit-freq\r\n$1\r\n0\r\n"));
        for (int i = 0; i < 20; i++)
        {
            Assert.That(c.Execute("SET", "k" + i, "v"), Is.EqualTo("+OK\r\n"));
            Assert.That(log.UncommittedBytes, Is.Zero, "the reply came before the write was durable");
        }
    }

    [Test]
    public void NoStopsAskingForCommits()
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = 0);
        var log = _server.Server.Store.OperationLog!;
        using var c = _server.Connect();
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(log.UncommittedBytes, Is.Zero);

        Assert.That(c.Execute("CONFIG", "SET", "aof-commit-freq", "-1"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("CONFIG", "GET", "appendfsync"), Is.EqualTo("*2\r\n$11\r\nappendfsync\r\n$2\r\nno\r\n"));
        Assert.That(c.Execute("SET", "k", "w"), Is.EqualTo("+OK\r\n"));
        Assert.That(log.UncommittedBytes, Is.GreaterThan(0), "the reply did not wait for a commit");
        Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"), "an explicit wait still commits");
        Assert.That(log.UncommittedBytes, Is.Zero);
    }

    [Test]
    public void ARepliesHeldForAPeriodicCommitGoWhenThePolicyDropsIt()
    {
        // Replies wait for a periodic commit a minute away; switching to "no" must not leave them waiting forever.
        _server.Start(configure: o =>
        {
            o.AofCommitFrequencyMs = 60_000;
            o.AofCommitWait = true;
        });
        using var writer = _server.Connect();
        using var admin = _server.Connect();
        writer.Send("SET", "k", "v");
        // The write runs at once; its reply waits. Wait until it ran (DBSIZE is no read of "k", so it does not wait).
        while (admin.Execute("DBSIZE") != ":1\r\n")
            System.Threading.Thread.Sleep(5);
        Assert.That(admin.Execute("CONFIG", "SET", "appendfsync", "no"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.Execute("SET", "k", "w"), Is.EqualTo("+OK\r\n"), "later replies do not wait");
        Assert.That(writer.Execute("GET", "k"), Is.EqualTo("$1\r\nw\r\n"));
    }

    [Test]
    public void BadValuesAreRefusedAndTheSettingIsKeptWithoutTheLog()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "SET", "appendfsync", "sometimes"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'appendfsync') - argument(s) must be one of the following: always, everysec, no\r\n"));
        Assert.That(c.Execute("CONFIG", "SET", "aof-commit-freq", "-2"), Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'aof-commit-freq')"));
        // As Redis: appendfsync is kept while the AOF is off.
        Assert.That(c.Execute("CONFIG", "SET", "appendfsync", "ALWAYS"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("CONFIG", "GET", "appendfsync"), Is.EqualTo("*2\r\n$11\r\nappendfsync\r\n$6\r\nalways\r\n"));
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
    }
}
