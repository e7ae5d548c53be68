using System.Diagnostics;
using NUnit.Framework;

namespace Garnet.test.Durability;

/// <summary>WAITAOF and WAIT on a server without replicas: the local fsync of a connection's writes (with replicas: ReplicationTests).</summary>
[TestFixture]
public sealed class WaitAofTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    [Test]
    public void WithoutTheAofOnlyReplicasCanBeAwaited()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using var c = _server.Connect();
        Assert.That(c.Execute("WAIT", "0", "0"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("WAITAOF", "0", "0", "0"), Is.EqualTo("*2\r\n:0\r\n:0\r\n"));
        Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("-ERR WAITAOF cannot be used when numlocal is set but appendonly is disabled.\r\n"));
        Assert.That(c.Execute("WAIT", "x", "0"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(c.Execute("WAIT", "1", "-1"), Is.EqualTo("-ERR timeout is negative\r\n"));
        Assert.That(c.Execute("WAITAOF", "-1", "0", "0"), Is.EqualTo("-ERR value is out of range, must be positive\r\n"));
        Assert.That(c.Execute("WAITAOF", "0", "0"), Is.EqualTo("-ERR wrong number of arguments for 'waitaof' command\r\n"));

        // A replica asked for never answers: the wait lasts its timeout.
        var watch = Stopwatch.StartNew();
        Assert.That(c.Execute("WAIT", "1", "200"), Is.EqualTo(":0\r\n"));
        Assert.That(watch.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(190));
        Assert.That(c.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection goes on");
    }

    [TestCase(0)]
    [TestCase(1000)]
    public void TheLocalCountIsOneOnceTheConnectionsWritesAreDurable(int commitFrequency)
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = commitFrequency);
        using var c = _server.Connect();
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        // At 1000 ms the write is not durable yet: WAITAOF asks for the commit and waits for it, not for the second.
        var watch = Stopwatch.StartNew();
        Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
        Assert.That(_server.Server.Store.OperationLog!.UncommittedBytes, Is.Zero);
        Assert.That(c.Execute("WAITAOF", "1", "1", "100"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
        Assert.That(watch.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(90));
        c.Execute("MULTI");
        c.Execute("WAIT", "5", "0");
        Assert.That(c.Execute("EXEC"), Is.EqualTo("*1\r\n:0\r\n"), "inside a transaction it does not block");
    }

    [Test]
    public void ACommitThatDoesNotComeEndsTheWaitAtItsTimeout()
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = 1000);
        var log = _server.Server.Store.OperationLog!;
        using var c = _server.Connect();
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        // A gate no replica ever opens (in cluster mode: a replica in sync that stopped answering, or a lost lease) holds
        // every commit: WAITAOF and WAIT answer at their timeout with what counted, as Redis's do.
        log.ReplicaGate = new ClosedGate();
        var watch = Stopwatch.StartNew();
        Assert.That(c.Execute("WAITAOF", "1", "0", "200"), Is.EqualTo("*2\r\n:0\r\n:0\r\n"));
        Assert.That(watch.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(190));
        Assert.That(c.Execute("WAIT", "0", "100"), Is.EqualTo(":0\r\n"));
        Assert.That(c.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection goes on");

        log.ReplicaGate = null;
        Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
    }

    [Test]
    public void AWaitForACommitThatHoldsLeavesTheOtherConnectionsOfItsThreadServed()
    {
        // One event loop: every connection shares the thread a waiting command would hold if it waited on it.
        _server.Start(configure: o =>
        {
            o.AofCommitFrequencyMs = 1000;
            o.EventLoops = 1;
        });
        var log = _server.Server.Store.OperationLog!;
        using var waitAof = _server.Connect();
        using var wait = _server.Connect();
        using var commitAof = _server.Connect();
        using var other = _server.Connect();
        Assert.That(waitAof.Execute("SET", "a", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(wait.Execute("SET", "b", "1"), Is.EqualTo("+OK\r\n"));
        log.ReplicaGate = new ClosedGate();

        // With no timeout, each waits until the commit comes.
        waitAof.Send("WAITAOF", "1", "0", "0");
        wait.Send("WAIT", "0", "0");
        commitAof.Send("COMMITAOF");
        // All three are blocked, and the thread they share serves this connection meanwhile.
        var watch = Stopwatch.StartNew();
        while (!other.Execute("INFO", "clients").Contains("blocked_clients:3", System.StringComparison.Ordinal))
            Assert.That(watch.ElapsedMilliseconds, Is.LessThan(10_000), "the three waits did not block");
        Assert.That(other.Execute("GET", "a"), Is.EqualTo("$1\r\n1\r\n"));

        log.ReplicaGate = null;
        Assert.That(waitAof.ReadReply(), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
        Assert.That(wait.ReadReply(), Is.EqualTo(":0\r\n"));
        Assert.That(commitAof.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(log.UncommittedBytes, Is.Zero);
        Assert.That(waitAof.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection goes on");
    }

    [Test]
    public void WaitsWhoseWritesAreGivenUpAnswerThatTheyAreNotDurable()
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = 1000);
        var log = _server.Server.Store.OperationLog!;
        using var c = _server.Connect();
        using var waitAof = _server.Connect();
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(waitAof.Execute("SET", "k2", "v"), Is.EqualTo("+OK\r\n"));
        log.ReplicaGate = new ClosedGate();
        c.Send("COMMITAOF");
        waitAof.Send("WAITAOF", "1", "0", "0");
        WaitForBlockedClients(2, "the waits did not block");

        // A primary that becomes a replica never counts what it had not committed with its replicas.
        log.AbandonUncommitted();
        Assert.That(c.ReadReply(), Is.EqualTo("-ERR the AOF commit did not complete: this node stopped acknowledging writes (demoted or stopping) before it\r\n"));
        Assert.That(waitAof.ReadReply(), Is.EqualTo("*2\r\n:0\r\n:0\r\n"));
        log.StopAbandoning();
        log.ReplicaGate = null;
        Assert.That(c.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection goes on");
    }

    /// <summary>
    /// While commits are held (a primary's gate stays shut), clients that wait for one and leave do not grow the log's
    /// list of waiters without bound: past 1,024 the waiters of clients that left are dropped. The log still commits
    /// and answers once the gate opens.
    /// </summary>
    [Test]
    public void WaitersOfClientsThatLeftAreDroppedWhileCommitsAreHeld()
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = 1000);
        var log = _server.Server.Store.OperationLog!;
        using var c = _server.Connect();
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        log.ReplicaGate = new ClosedGate();

        const int Batches = 12, PerBatch = 100;
        for (int batch = 0; batch < Batches; batch++)
        {
            var clients = new RawClient[PerBatch];
            for (int i = 0; i < PerBatch; i++)
            {
                clients[i] = _server.Connect();
                clients[i].Send("COMMITAOF");
            }
            // This batch waits, and the one before has left.
            WaitForBlockedClients(PerBatch, $"batch {batch} did not block");
            foreach (var client in clients)
                client.Dispose();
        }
        WaitForBlockedClients(0, "the last batch did not leave");
        Assert.That(log.CommitWaiters, Is.LessThan(Batches * PerBatch / 2), "1,200 waits registered, those of clients that left dropped");

        log.ReplicaGate = null;
        Assert.That(c.Execute("COMMITAOF"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("SET", "k", "w"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
    }

    /// <summary>
    /// WAITs for replicas that never come (none is connected) end only by timeout or their client: clients that wait and
    /// leave do not grow the list of replica waiters without bound either.
    /// </summary>
    [Test]
    public void ReplicaWaitersOfClientsThatLeftAreDropped()
    {
        _server.Start();
        var replication = _server.Server.Store.Replication;
        const int Batches = 12, PerBatch = 100;
        for (int batch = 0; batch < Batches; batch++)
        {
            var clients = new RawClient[PerBatch];
            for (int i = 0; i < PerBatch; i++)
            {
                clients[i] = _server.Connect();
                clients[i].Send(i % 2 == 0 ? ["WAIT", "1", "0"] : ["WAITAOF", "0", "1", "0"]);
            }
            WaitForBlockedClients(PerBatch, $"batch {batch} did not block");
            foreach (var client in clients)
                client.Dispose();
        }
        WaitForBlockedClients(0, "the last batch did not leave");
        Assert.That(replication.ReplicaWaiters, Is.LessThan(Batches * PerBatch / 2), "1,200 waits registered, those of clients that left dropped");

        using var c = _server.Connect();
        Assert.That(c.Execute("WAIT", "1", "100"), Is.EqualTo(":0\r\n"), "a wait still answers at its timeout");
    }

    /// <summary>Polls until exactly <paramref name="count"/> clients are blocked, for up to 10 seconds.</summary>
    private void WaitForBlockedClients(int count, string failure)
    {
        var watch = Stopwatch.StartNew();
        while (_server.Server.Store.Blocking.BlockedClients != count)
            Assert.That(watch.ElapsedMilliseconds, Is.LessThan(10_000), failure);
    }

    /// <summary>A commit gate that never opens.</summary>
    private sealed class ClosedGate : Garnet.server.IReplicaCommitGate
    {
        public long ReplicatedOffset => 0;
    }

    [Test]
    public void AReadOfAWriteNotYetDurableWaitsForItsCommit()
    {
        _server.Start(configure: o =>
        {
            o.AofCommitFrequencyMs = 1000;
            o.AofCommitWait = true;
        });
        var log = _server.Server.Store.OperationLog!;
        using var writer = _server.Connect();
        using var reader = _server.Connect();
        for (int attempt = 0; attempt < 3; attempt++)
        {
            string value = "v" + attempt;
            writer.Send("SET", "k", value);
            // Until the write ran (its reply waits for the periodic commit, so only the value tells).
            string reply;
            do
            {
                reply = reader.Execute("GET", "k");
            }
            while (!reply.Contains(value, System.StringComparison.Ordinal));
            // The read saw the write, and its reply went only once the write was durable.
            Assert.That(log.UncommittedBytes, Is.Zero, "the reply of the read came before the write it saw was durable");
            Assert.That(writer.ReadReply(), Is.EqualTo("+OK\r\n"));
        }
        // A key no unsaved write touched is read at once (not held for the periodic commit).
        Assert.That(reader.Execute("GET", "other"), Is.EqualTo("$-1\r\n"));
    }
}
