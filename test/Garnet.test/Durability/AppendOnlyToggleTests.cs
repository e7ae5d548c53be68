using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Durability;

/// <summary>
/// CONFIG SET appendonly yes|no while the server runs: the log starts (with a base checkpoint holding what came before)
/// or stops at each session's next batch, and recovery brings back every acknowledged write.
/// </summary>
[TestFixture]
public sealed class AppendOnlyToggleTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    private void StartWithoutLog() => _server.Start(configure: o =>
    {
        o.EnableAof = false;
        o.ConfigParameters["enable-protected-configs"] = "yes";
    });

    private static void EnableLog(ServerOptions o)
    {
        o.EnableAof = true;
        o.ConfigParameters["enable-protected-configs"] = "yes";
    }

    private static string Persistence(RawClient client) => client.Execute("INFO", "persistence");

    /// <summary>Waits until the AOF turned on has its base checkpoint (no rewrite running or waiting).</summary>
    private static void WaitForBase(RawClient client)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            string info = Persistence(client);
            Assert.That(info, Does.Contain("aof_enabled:1\r\n"));
            if (info.Contains("aof_rewrite_in_progress:0\r\n", StringComparison.Ordinal) && info.Contains("aof_rewrite_scheduled:0\r\n", StringComparison.Ordinal))
                return;
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(30)), "the base checkpoint did not complete");
            Thread.Sleep(10);
        }
    }

    /// <summary>Waits until the log turned off is closed: only then may the directory change.</summary>
    private void WaitForClose(RawClient client)
    {
        var clock = Stopwatch.StartNew();
        while (client.Execute("CONFIG", "SET", "dir", _server.Directory) != "+OK\r\n")
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(30)), "the log was not closed");
            Thread.Sleep(10);
        }
    }

    private static void WaitUntil(Func<bool> condition, string what)
    {
        var clock = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(30)), what);
            Thread.Sleep(5);
        }
    }

    [Test]
    public void TurnedOnUnderWritersRecoversEveryAcknowledgedWrite()
    {
        StartWithoutLog();
        using (var c = _server.Connect())
        {
            for (int i = 0; i < 200; i++)
                Assert.That(c.Execute("SET", "before:" + i, "v" + i), Is.EqualTo("+OK\r\n"));
        }

        var acknowledged = new ConcurrentDictionary<string, long>();
        using var stop = new CancellationTokenSource();
        var writers = new Task[4];
        for (int w = 0; w < writers.Length; w++)
        {
            string counter = "counter:" + w;
            writers[w] = Task.Factory.StartNew(() =>
            {
                using var client = _server.Connect();
                while (!stop.IsCancellationRequested)
                {
                    // A transaction, a single-key write and a multi-key one: each is logged entirely or not at all.
                    client.Send("MULTI");
                    client.Send("INCR", counter);
                    client.Send("EXEC");
                    Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
                    Assert.That(client.ReadReply(), Is.EqualTo("+QUEUED\r\n"));
                    string exec = client.ReadReply();
                    long value = long.Parse(exec.Substring(exec.IndexOf(':') + 1).TrimEnd('\r', '\n'));
                    Assert.That(client.Execute("SET", counter + ":copy", value.ToString()), Is.EqualTo("+OK\r\n"));
                    Assert.That(client.Execute("MSET", counter + ":a", value.ToString(), counter + ":b", value.ToString()), Is.EqualTo("+OK\r\n"));
                    acknowledged[counter] = value;
                }
            }, TaskCreationOptions.LongRunning);
        }
        WaitUntil(() => acknowledged.Count == writers.Length, "every writer writes before the log is turned on");
        using (var admin = _server.Connect())
        {
            Assert.That(admin.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
            Assert.That(admin.Execute("CONFIG", "GET", "appendonly"), Is.EqualTo("*2\r\n$10\r\nappendonly\r\n$3\r\nyes\r\n"));
            WaitForBase(admin);
            Assert.That(Persistence(admin), Does.Contain("aof_last_bgrewrite_status:ok\r\n"));
        }
        var atBase = new System.Collections.Generic.Dictionary<string, long>(acknowledged);
        WaitUntil(() => atBase.All(b => acknowledged[b.Key] > b.Value + 10), "every writer writes after the base");
        stop.Cancel();
        Task.WaitAll(writers);

        _server.Restart(EnableLog);
        Assert.That(_server.Server.Store.CheckpointRecovery, Is.Not.Null, "the base checkpoint was loaded");
        Assert.That(_server.Server.RecoveryReport, Is.Not.Null.And.Property("Commands").GreaterThan(0), "writes after the base were replayed from the log");
        using var check = _server.Connect();
        for (int i = 0; i < 200; i++)
            Assert.That(check.Execute("GET", "before:" + i), Is.EqualTo($"${("v" + i).Length}\r\nv{i}\r\n"));
        Assert.That(acknowledged, Has.Count.EqualTo(writers.Length));
        foreach (var (counter, value) in acknowledged)
        {
            string expected = $"${value.ToString().Length}\r\n{value}\r\n";
            Assert.That(check.Execute("GET", counter), Is.EqualTo(expected), counter);
            Assert.That(check.Execute("GET", counter + ":copy"), Is.EqualTo(expected), counter);
            Assert.That(check.Execute("GET", counter + ":a"), Is.EqualTo(expected), counter);
            Assert.That(check.Execute("GET", counter + ":b"), Is.EqualTo(expected), counter);
        }
    }

    /// <summary>
    /// The server executable without --aof: four writers pipeline RPUSHes; the AOF is turned on under them, and once its
    /// base is complete the server is killed (SIGKILL). Recovery with --aof brings back every push acknowledged, before
    /// the log was on and after, each writer's in order, none twice.
    /// </summary>
    [Test]
    public void EveryAcknowledgedWriteSurvivesAKillAfterTurningOn()
    {
        const int Writers = 4;
        int port = Host.HostTestHelpers.FreePort();
        var acknowledged = new int[Writers];
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        using (var server = Host.ExternalProcess.Start(dotnet, [Host.HostTestHelpers.ServerDll(), "--warm-up", "0", "--port", port.ToString(), "--memory", "64m", "--page", "1m",
            "--index", "1m", "--checkpointdir", _server.Directory]))
        {
            Assert.That(server.WaitForOutput($"listening on 127.0.0.1:{port}", TimeSpan.FromSeconds(30)), Is.True, server.Output + server.Error);
            using var stop = new CancellationTokenSource();
            var writers = new Thread[Writers];
            for (int w = 0; w < Writers; w++)
            {
                int writer = w;
                writers[w] = new Thread(() =>
                {
                    try
                    {
                        using var client = new RawClient(port);
                        for (int next = 0; !stop.IsCancellationRequested; next += 16)
                        {
                            for (int i = 0; i < 16; i++)
                                client.Send("RPUSH", "list", $"{writer}:{next + i}");
                            for (int i = 0; i < 16; i++)
                            {
                                Assert.That(client.ReadReply(), Does.StartWith(":"));
                                Volatile.Write(ref acknowledged[writer], next + i + 1);
                            }
                        }
                    }
                    catch (Exception e) when (e is IOException or System.Net.Sockets.SocketException or InvalidOperationException)
                    {
                        // The server died under the writer.
                    }
                });
                writers[w].Start();
            }
            WaitUntil(() => !Array.Exists(acknowledged, count => count < 64), "every writer pushes before the log is on");
            using (var admin = new RawClient(port))
            {
                Assert.That(admin.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
                WaitForBase(admin);
            }
            var atBase = (int[])acknowledged.Clone();
            WaitUntil(() =>
            {
                for (int w = 0; w < Writers; w++)
                {
                    if (Volatile.Read(ref acknowledged[w]) < atBase[w] + 64)
                        return false;
                }
                return true;
            }, "every writer pushes after the base");
            server.Kill();
            stop.Cancel();
            foreach (var writer in writers)
                writer.Join();
        }

        _server.Start(recover: true);
        using var reader = _server.Connect();
        var seen = new int[Writers];
        foreach (string element in Keyspace.Resp.Strings(reader.Execute("LRANGE", "list", "0", "-1")))
        {
            int colon = element.IndexOf(':');
            int writer = int.Parse(element.AsSpan(0, colon));
            Assert.That(int.Parse(element.AsSpan(colon + 1)), Is.EqualTo(seen[writer]), $"writer {writer}'s pushes come back in order, once each");
            seen[writer]++;
        }
        for (int w = 0; w < Writers; w++)
            Assert.That(seen[w], Is.GreaterThanOrEqualTo(acknowledged[w]), $"writer {w}: every acknowledged push survived the kill");
    }

    [Test]
    public void ACommandBlockedBeforeTurningOnIsLoggedWhenServed()
    {
        StartWithoutLog();
        using var blocked = _server.Connect();
        using var admin = _server.Connect();
        blocked.Send("BLPOP", "queue", "0");
        WaitUntil(() => admin.Execute("INFO", "clients").Contains("blocked_clients:1\r\n", StringComparison.Ordinal), "BLPOP blocks");
        Assert.That(admin.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
        WaitForBase(admin);
        Assert.That(admin.Execute("RPUSH", "queue", "a", "b"), Is.EqualTo(":2\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$5\r\nqueue\r\n$1\r\na\r\n"));
        Assert.That(admin.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));

        _server.Restart(EnableLog);
        using var check = _server.Connect();
        Assert.That(check.Execute("LRANGE", "queue", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nb\r\n"), "the pop served after the switch was logged");
    }

    [Test]
    public void TurnedOffLogsNothingMore()
    {
        _server.Start(configure: EnableLog);
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("SET", "logged", "1"), Is.EqualTo("+OK\r\n"));
            Assert.That(c.Execute("CONFIG", "SET", "dir", _server.Directory), Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'dir') - can't change the directory while appendonly is on"));
            Assert.That(c.Execute("CONFIG", "SET", "appendonly", "no"), Is.EqualTo("+OK\r\n"));
            Assert.That(c.Execute("CONFIG", "GET", "appendonly"), Is.EqualTo("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n"));
            string info = Persistence(c);
            Assert.That(info, Does.Contain("aof_enabled:0\r\n"));
            Assert.That(info, Does.Not.Contain("aof_current_size:"), "the AOF's sizes are listed only while it is on, as Redis lists them");
            Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("-ERR WAITAOF cannot be used when numlocal is set but appendonly is disabled.\r\n"));
            Assert.That(c.Execute("COMMITAOF"), Does.StartWith("-ERR"));
            Assert.That(c.Execute("SET", "unlogged", "1"), Is.EqualTo("+OK\r\n"));
            WaitForClose(c);
            Assert.That(c.Execute("SET", "unlogged2", "1"), Is.EqualTo("+OK\r\n"));
        }
        // Started again with the log: it has what came before "no", and nothing after.
        _server.Restart(EnableLog);
        using var check = _server.Connect();
        Assert.That(check.Execute("GET", "logged"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(check.Execute("EXISTS", "unlogged", "unlogged2"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void TurnedOffUnderWritersKeepsEveryWriteAcknowledgedBefore()
    {
        // Commit-before-ack: replies wait for their commit as the sessions switch off.
        _server.Start(configure: o =>
        {
            EnableLog(o);
            o.AofCommitFrequencyMs = 0;
        });
        const int Writers = 4;
        var acknowledged = new int[Writers];
        using var stop = new CancellationTokenSource();
        var writers = new Thread[Writers];
        for (int w = 0; w < Writers; w++)
        {
            int writer = w;
            writers[w] = new Thread(() =>
            {
                using var client = _server.Connect();
                for (int next = 0; !stop.IsCancellationRequested; next += 8)
                {
                    for (int i = 0; i < 8; i++)
                        client.Send("RPUSH", "list", $"{writer}:{next + i}");
                    for (int i = 0; i < 8; i++)
                    {
                        Assert.That(client.ReadReply(), Does.StartWith(":"));
                        Volatile.Write(ref acknowledged[writer], next + i + 1);
                    }
                }
            });
            writers[w].Start();
        }
        WaitUntil(() => !Array.Exists(acknowledged, count => count < 32), "every writer pushes while the log is on");
        int[] atOff;
        using (var admin = _server.Connect())
        {
            // Acknowledged before "no" was asked for (a push acknowledged while it runs may already be unlogged).
            atOff = (int[])acknowledged.Clone();
            Assert.That(admin.Execute("CONFIG", "SET", "appendonly", "no"), Is.EqualTo("+OK\r\n"));
            WaitUntil(() =>
            {
                for (int w = 0; w < Writers; w++)
                {
                    if (Volatile.Read(ref acknowledged[w]) < atOff[w] + 32)
                        return false;
                }
                return true;
            }, "every writer pushes after the log is off");
            WaitForClose(admin);
        }
        stop.Cancel();
        foreach (var writer in writers)
            writer.Join();

        // The log holds each writer's pushes up to where its session stopped logging: a prefix, at least what was
        // acknowledged before "no", and not what came after the log closed.
        _server.Restart(EnableLog);
        using var reader = _server.Connect();
        var seen = new int[Writers];
        foreach (string element in Keyspace.Resp.Strings(reader.Execute("LRANGE", "list", "0", "-1")))
        {
            int colon = element.IndexOf(':');
            int writer = int.Parse(element.AsSpan(0, colon));
            Assert.That(int.Parse(element.AsSpan(colon + 1)), Is.EqualTo(seen[writer]), $"writer {writer}'s pushes come back in order, once each");
            seen[writer]++;
        }
        for (int w = 0; w < Writers; w++)
        {
            Assert.That(seen[w], Is.GreaterThanOrEqualTo(atOff[w]), $"writer {w}: every push acknowledged before the log was turned off");
            Assert.That(seen[w], Is.LessThan(acknowledged[w]), $"writer {w}: the pushes after the log closed are not in it");
        }
    }

    [Test]
    public void ToggledRepeatedlyRecoversEverythingFromTheLastBase()
    {
        StartWithoutLog();
        using (var c = _server.Connect())
        {
            for (int i = 0; i < 5; i++)
            {
                Assert.That(c.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
                Assert.That(c.Execute("RPUSH", "on", "x" + i), Is.EqualTo($":{i + 1}\r\n"));
                Assert.That(c.Execute("CONFIG", "SET", "appendonly", "no"), Is.EqualTo("+OK\r\n"));
                Assert.That(c.Execute("RPUSH", "off", "y" + i), Is.EqualTo($":{i + 1}\r\n"));
            }
            Assert.That(c.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
            WaitForBase(c);
            Assert.That(c.Execute("RPUSH", "after", "z"), Is.EqualTo(":1\r\n"));
            Assert.That(c.Execute("WAITAOF", "1", "0", "0"), Is.EqualTo("*2\r\n:1\r\n:0\r\n"));
        }
        _server.Restart(EnableLog);
        using var check = _server.Connect();
        Assert.That(check.Execute("LRANGE", "on", "0", "-1"), Is.EqualTo("*5\r\n$2\r\nx0\r\n$2\r\nx1\r\n$2\r\nx2\r\n$2\r\nx3\r\n$2\r\nx4\r\n"));
        Assert.That(check.Execute("LRANGE", "off", "0", "-1"), Is.EqualTo("*5\r\n$2\r\ny0\r\n$2\r\ny1\r\n$2\r\ny2\r\n$2\r\ny3\r\n$2\r\ny4\r\n"));
        Assert.That(check.Execute("LRANGE", "after", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nz\r\n"));
    }

    [Test]
    public void SameStateIsANoOpAndBadValuesAreRefused()
    {
        StartWithoutLog();
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "SET", "appendonly", "maybe"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'appendonly') - argument must be 'yes' or 'no'\r\n"));
        Assert.That(c.Execute("CONFIG", "SET", "appendonly"), Does.StartWith("-ERR"));
        Assert.That(c.Execute("CONFIG", "SET", "appendonly", "no"), Is.EqualTo("+OK\r\n"));
        Assert.That(Persistence(c), Does.Contain("aof_enabled:0\r\n").And.Contain("aof_rewrites:0\r\n"));
        Assert.That(c.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the connection goes on after the errors");

        Assert.That(c.Execute("CONFIG", "SET", "appendonly", "YES"), Is.EqualTo("+OK\r\n"));
        Assert.That(Persistence(c), Does.Contain("aof_enabled:1\r\n"), "on at once, as Redis's aof_enabled while its rewrite runs");
        WaitForBase(c);
        Assert.That(c.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
        string info = Persistence(c);
        Assert.That(info, Does.Contain("aof_rewrites:1\r\n"), "turning on again while on takes no other base");
        Assert.That(info, Does.Contain("aof_rewrite_scheduled:0\r\n").And.Contain("aof_last_bgrewrite_status:ok\r\n").And.Contain("aof_current_size:"));
        Assert.That(File.Exists(Path.Combine(_server.AofDirectory, "base-pending")), Is.False, "the base is complete");
    }

    [Test]
    public void ALogThatCannotBeOpenedIsAnErrorAndStaysOff()
    {
        StartWithoutLog();
        // A file where the AOF directory would be.
        File.WriteAllBytes(_server.AofDirectory, []);
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "SET", "appendonly", "yes"),
            Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'appendonly') - Unable to turn on AOF: "));
        Assert.That(c.Execute("CONFIG", "GET", "appendonly"), Is.EqualTo("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n"));
        Assert.That(Persistence(c), Does.Contain("aof_enabled:0\r\n").And.Contain("aof_rewrite_scheduled:0\r\n"));
        Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
    }

    [TestCase("{\n  \"EnableAOF\": false\n}\n", "\"EnableAOF\": true", "conf.json")]
    [TestCase("port 0\n", "appendonly yes", "redis.conf")]
    public void ConfigRewriteKeepsItForTheNextStart(string file, string expected, string name)
    {
        string path = Path.Combine(_server.Directory, name);
        File.WriteAllText(path, file);
        _server.Start(configure: o =>
        {
            o.EnableAof = false;
            o.ConfigFile = path;
        });
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "SET", "appendonly", "yes"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("CONFIG", "REWRITE"), Is.EqualTo("+OK\r\n"));
        Assert.That(File.ReadAllText(path), Does.Contain(expected));
    }

    [Test]
    public void ALogWhoseBaseNeverCompletedIsRefusedAtRecovery()
    {
        _server.Start(configure: EnableLog);
        using (var c = _server.Connect())
            Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        _server.Stop();
        // As a server stopped while its base checkpoint was being taken leaves the directory.
        File.WriteAllBytes(Path.Combine(_server.AofDirectory, "base-pending"), []);
        var refused = Assert.Catch(() => _server.Start(recover: true, configure: EnableLog));
        Assert.That(refused!.ToString(), Does.Contain("base checkpoint"));
    }
}
