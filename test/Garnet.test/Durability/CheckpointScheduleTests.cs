using System;
using System.IO;
using System.Linq;
using System.Threading;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Durability;

/// <summary>Checkpoints nobody asks for (save points, --checkpoint-freq, --aof-size-limit) and the saves of stopping (SHUTDOWN, a graceful stop).</summary>
[TestFixture]
public sealed class CheckpointScheduleTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    private string[] Checkpoints()
    {
        string directory = Path.Combine(_server.Directory, "checkpoints");
        return Directory.Exists(directory) ? Directory.GetFiles(directory, "checkpoint.*").Where(f => !f.EndsWith(".tmp", StringComparison.Ordinal)).ToArray() : [];
    }

    private static void WaitUntil(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!condition())
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(deadline), what);
            Thread.Sleep(20);
        }
    }

    [Test]
    public void ASavePointReachedSavesInTheBackground()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "GET", "save"), Is.EqualTo("*2\r\n$4\r\nsave\r\n$0\r\n\r\n"));
        Assert.That(c.Execute("CONFIG", "SET", "save", "3600"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters\r\n"));
        Assert.That(c.Execute("CONFIG", "SET", "save", "1 2"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("CONFIG", "GET", "save"), Is.EqualTo("*2\r\n$4\r\nsave\r\n$3\r\n1 2\r\n"));
        c.Execute("SET", "a", "1");
        Thread.Sleep(2500);
        Assert.That(Checkpoints(), Is.Empty, "one change of the two the point asks for");
        c.Execute("SET", "b", "2");
        WaitUntil(() => Checkpoints().Length == 1, "the save point's checkpoint");
        Assert.That(c.Execute("CONFIG", "SET", "save", ""), Is.EqualTo("+OK\r\n"));
        _server.Restart(o => o.EnableAof = false);
        using var client = _server.Connect();
        Assert.That(client.Execute("MGET", "a", "b"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
    }

    [Test]
    public void PeriodicCheckpointsFollowEachOther()
    {
        _server.Start(configure: o =>
        {
            o.EnableAof = false;
            o.CheckpointFrequencySecs = 1;
        });
        using var c = _server.Connect();
        c.Execute("SET", "a", "1");
        WaitUntil(() => c.Execute("INFO", "persistence").Contains("rdb_saves:2\r\n", StringComparison.Ordinal), "two periodic checkpoints");
        // The previous one goes once the newer is in place.
        WaitUntil(() => Checkpoints().Length == 1, "only the newest is kept");
    }

    [Test]
    public void AnAofPastItsLimitIsCheckpointedAndCut()
    {
        _server.Start(configure: o => o.AofSizeLimit = 4L << 20);
        Assert.That(_server.Server.Options.EffectiveAofSegmentSize, Is.EqualTo(1L << 20));
        using (var c = _server.Connect())
        {
            string value = new('v', 10_000);
            for (int i = 0; i < 600; i++)
                c.Execute("SET", "k" + (i % 50), value + i);
            WaitUntil(() => c.Execute("INFO", "persistence").Contains("aof_rewrites:1", StringComparison.Ordinal), "the limit's checkpoint");
            WaitUntil(() => !c.Execute("INFO", "persistence").Contains("aof_rewrite_in_progress:1", StringComparison.Ordinal), "its end");
            c.Execute("SET", "last", "x");
        }
        long kept = Directory.GetFiles(_server.AofDirectory, "aof.*").Sum(f => new FileInfo(f).Length);
        Assert.That(kept, Is.LessThan(4L << 20), "the files before the checkpoint were removed");
        _server.Restart(o => o.AofSizeLimit = 4L << 20);
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "k49"), Does.EndWith("v599\r\n"));
        Assert.That(client.Execute("GET", "last"), Is.EqualTo("$1\r\nx\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":51\r\n"));
    }

    [Test]
    public void ShutdownSavesWhenAskedOrConfiguredAndNoSaveDoesNot()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using (var c = _server.Connect())
        {
            c.Execute("SET", "a", "1");
            Assert.That(c.Execute("SHUTDOWN", "SAVE", "NOSAVE"), Is.EqualTo("-ERR syntax error\r\n"));
            c.Send("SHUTDOWN", "SAVE");
            Assert.That(c.ReadToEnd(), Is.Empty, "no reply: the connection closes");
        }
        Assert.That(Checkpoints(), Has.Length.EqualTo(1));
        _server.Restart(o =>
        {
            o.EnableAof = false;
            o.SavePoints = [new SavePoint(3600, 1)];
        });
        using (var c = _server.Connect())
        {
            c.Execute("SET", "b", "2");
            c.Send("SHUTDOWN", "NOSAVE");
            c.ReadToEnd();
        }
        _server.Restart(o =>
        {
            o.EnableAof = false;
            o.SavePoints = [new SavePoint(3600, 1)];
        });
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("MGET", "a", "b"), Is.EqualTo("*2\r\n$1\r\n1\r\n$-1\r\n"), "NOSAVE kept the save before it");
            c.Execute("SET", "c", "3");
        }
        // A graceful stop (disposing the server) saves when save points are configured.
        _server.Restart(o => o.EnableAof = false);
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "c"), Is.EqualTo("$1\r\n3\r\n"));
    }
}
