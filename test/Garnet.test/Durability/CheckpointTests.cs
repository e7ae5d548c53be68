using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Durability.OperationLogTestServer;

namespace Garnet.test.Durability;

/// <summary>Checkpoints (SAVE, BGSAVE, BGREWRITEAOF): what one holds comes back at a restart with --recover, alone or with the AOF after it.</summary>
[TestFixture]
public sealed class CheckpointTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    private static void NoAof(ServerOptions options) => options.EnableAof = false;

    private string CheckpointDirectory => Path.Combine(_server.Directory, "checkpoints");

    /// <summary>Writes of every family (strings with TTL, objects, HLL, bitmaps, streams, several databases, functions).</summary>
    private static void WriteEveryFamily(RawClient c)
    {
        Ok(c, "SET", "s1", "v");
        Ok(c, "SET", "s2", "10", "EX", "1000");
        Ok(c, "INCRBY", "s2", "5");
        Ok(c, "APPEND", "s1", "xyz");
        Ok(c, "SET", "n", "12345");
        Ok(c, "INCRBYFLOAT", "f", "1.5");
        Ok(c, "SETEX", "gone", "1", "soon"); // expires before the restart: gone after it
        Ok(c, "HSET", "h", "f1", "v1", "f2", "v2", "n", "1");
        Ok(c, "HDEL", "h", "f2");
        Ok(c, "LPUSH", "l", "a", "b", "c", "d");
        Ok(c, "EXPIRE", "l", "900");
        var members = new List<string> { "SADD", "st" };
        for (int i = 0; i < 200; i++)
            members.Add("member" + i);
        Ok(c, members.ToArray());
        Ok(c, "SADD", "small", "1", "2", "3");
        Ok(c, "ZADD", "z", "1", "a", "2", "b", "3", "c");
        Ok(c, "PFADD", "hll", "a", "b", "c");
        Ok(c, "SETBIT", "bits", "7", "1");
        Ok(c, "XADD", "x", "*", "f", "1");
        Ok(c, "XGROUP", "CREATE", "x", "g", "0");
        Ok(c, "GEOADD", "geo", "13.361389", "38.115556", "Palermo");
        Ok(c, "FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('bump', function(keys, args) return redis.call('INCR', keys[1]) end)");
        Ok(c, "SET", "deleted", "x");
        Ok(c, "DEL", "deleted");
        Ok(c, "SET", "again", "first");
        Ok(c, "DEL", "again");
        Ok(c, "SET", "again", "second");
        Ok(c, "SELECT", "2");
        Ok(c, "SET", "in2", "two");
        Ok(c, "HSET", "h2", "a", "b");
        Ok(c, "SELECT", "15");
        Ok(c, "SET", "in15", "fifteen");
        Ok(c, "SELECT", "0");
    }

    [Test]
    public void EveryFamilyComesBackFromASaveAlone()
    {
        _server.Start(configure: NoAof);
        using (var c = _server.Connect())
        {
            WriteEveryFamily(c);
            Thread.Sleep(1100); // "gone" expires
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            Ok(c, "SET", "after-save", "lost"); // no AOF: what follows the checkpoint is not kept
        }
        var before = _server.Snapshot();
        before.Remove("0/after-save");
        Assert.That(before.Keys, Does.Contain("2/in2").And.Contain("15/in15").And.Contain("0/again"));
        Assert.That(before.Keys, Does.Not.Contain("0/gone").And.Not.Contain("0/deleted"));

        var server = _server.Restart(NoAof);
        Assert.That(server.Store.CheckpointRecovery, Is.Not.Null);
        Assert.That(server.Store.CheckpointRecovery!.Damage, Is.Null);
        Assert.That(_server.Snapshot(), Is.EqualTo(before));
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "again"), Is.EqualTo("$6\r\nsecond\r\n"));
        Assert.That(client.Execute("INFO", "persistence"), Does.Contain($"rdb_last_load_keys_loaded:{before.Count}\r\n"), "keys, not the deleted ones");
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{before.Keys.Count(k => k.StartsWith("0/", StringComparison.Ordinal))}\r\n"));
        Assert.That(client.Execute("OBJECT", "ENCODING", "f"), Is.EqualTo("$6\r\nembstr\r\n"));
        Assert.That(client.Execute("OBJECT", "ENCODING", "small"), Is.EqualTo("$6\r\nintset\r\n"));
        Assert.That(client.Execute("FCALL", "bump", "1", "fn"), Is.EqualTo(":1\r\n"), "the library loaded with FUNCTION LOAD came back");
    }

    [Test]
    public void ACheckpointThenTheAofAfterItComeBackAndTheLogBeforeItIsRemoved()
    {
        _server.Start(configure: o => o.AofSegmentSize = 1 << 16);
        using (var c = _server.Connect())
        {
            WriteEveryFamily(c);
            var value = new string('v', 1000);
            for (int i = 0; i < 300; i++)
                Ok(c, "SET", "filler" + i, value); // several log files
            Assert.That(c.Execute("BGREWRITEAOF"), Is.EqualTo("+Background append only file rewriting started\r\n"));
            WaitForCheckpoints(c, "aof_rewrite_in_progress");
            Assert.That(c.Execute("INFO", "persistence"), Does.Contain("aof_last_bgrewrite_status:ok"));
            Ok(c, "SET", "after", "kept");
            Ok(c, "INCRBY", "s2", "100");
            Ok(c, "LPUSH", "l", "e");
            Ok(c, "DEL", "filler7");
            Ok(c, "SELECT", "2");
            Ok(c, "DEL", "in2");
            Ok(c, "SELECT", "0");
        }
        Assert.That(Directory.GetFiles(_server.AofDirectory, "aof.*").Select(Path.GetFileName), Does.Not.Contain("aof.000000"),
            "the AOF files before the checkpoint were removed");
        var before = _server.Snapshot();
        var server = _server.Restart(o => o.AofSegmentSize = 1 << 16);
        Assert.That(server.Store.CheckpointRecovery, Is.Not.Null);
        Assert.That(server.RecoveryReport!.FailedCommands, Is.Zero);
        Assert.That(_server.Snapshot(), Is.EqualTo(before));
    }

    [Test]
    public void AKeyThatExpiresAfterTheCheckpointIsReplayedAtTheLoggedClock()
    {
        _server.Start();
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "kept", "v", "PX", "1500");
            Ok(c, "SET", "counted", "1", "PX", "1500");
            Ok(c, "SET", "expires", "x", "PX", "1500");
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            Ok(c, "PERSIST", "kept"); // in the log after the checkpoint, at a time the key was alive
            Ok(c, "INCR", "counted");
        }
        _server.Stop();
        Thread.Sleep(2000); // every expiration of the checkpoint has passed
        _server.Start(recover: true);
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "kept"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("TTL", "kept"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("GET", "counted"), Is.EqualTo("$-1\r\n"), "INCR kept its expiration, which has passed");
        Assert.That(client.Execute("GET", "expires"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void RecordsOnTheLogDeviceAreSavedWithTheirValuesAndObjects()
    {
        string logDirectory = Path.Combine(_server.Directory, "log");
        void StorageTier(ServerOptions o)
        {
            o.EnableAof = false;
            o.StorageTier = true;
            o.LogDir = logDirectory;
            o.MemorySize = 4L << 20;
            o.PageSize = 16L << 10;
            o.MaxMemory = 4L << 20;
        }
        _server.Start(configure: StorageTier);
        using (var c = _server.Connect())
        {
            for (int i = 0; i < 3000; i++)
                Ok(c, "SET", "small" + i, new string((char)('a' + (i % 26)), 2000) + i);
            for (int i = 0; i < 60; i++)
                Ok(c, "SET", "large" + i, new string((char)('A' + (i % 26)), 40_000) + i); // out of line
            for (int i = 0; i < 200; i++)
                Ok(c, "HSET", "hash" + i, "f", new string('h', 1000) + i, "g", i.ToString());
            Ok(c, "SET", "small7", "rewritten");
            Ok(c, "DEL", "large3");
            Assert.That(c.Execute("INFO", "memory"), Does.Contain("storage_tier:1"));
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        var before = _server.Snapshot();
        Assert.That(before, Has.Count.EqualTo(3000 + 59 + 200));
        _server.Restart(StorageTier);
        Assert.That(_server.Snapshot(), Is.EqualTo(before));
    }

    [Test]
    public void CustomObjectsComeBackThroughTheirRegistration()
    {
        static void Register(GarnetServer server)
        {
            server.Register.NewObjectCommand(new Extensions.DictSet());
            server.Register.NewObjectCommand(new Extensions.DictGet());
        }
        _server.Start(configure: NoAof, register: Register);
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("MYDICTSET", "d", "f1", "v1"), Is.EqualTo(":1\r\n"));
            Assert.That(c.Execute("MYDICTSET", "d", "f2", "v2"), Is.EqualTo(":1\r\n"));
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        _server.Restart(NoAof, Register);
        using var client = _server.Connect();
        Assert.That(client.Execute("MYDICTGET", "d", "f2"), Is.EqualTo("$2\r\nv2\r\n"));
        Assert.That(client.Execute("MYDICTGET", "d", "f1"), Is.EqualTo("$2\r\nv1\r\n"));
    }

    [Test]
    public void SavingTwiceKeepsTheLastValueAndOnlyTheNewestCheckpoint()
    {
        _server.Start(configure: NoAof);
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "k", "one");
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            long first = long.Parse(c.Execute("LASTSAVE").AsSpan(1).TrimEnd("\r\n"));
            Ok(c, "DEL", "k");
            Ok(c, "SET", "k", "two");
            Ok(c, "SET", "other", "x");
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            Assert.That(long.Parse(c.Execute("LASTSAVE").AsSpan(1).TrimEnd("\r\n")), Is.GreaterThanOrEqualTo(first));
        }
        Assert.That(Directory.GetFiles(CheckpointDirectory), Has.Length.EqualTo(1));
        _server.Restart(NoAof);
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$3\r\ntwo\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":2\r\n"));
        Assert.That(Keyspace.Resp.Strings(client.Execute("KEYS", "*")).OrderBy(k => k, StringComparer.Ordinal), Is.EqualTo(new[] { "k", "other" }));
    }

    [Test]
    public void LargeKeysAndValuesComeBack()
    {
        _server.Start(configure: o =>
        {
            o.EnableAof = false;
            o.MemorySize = 1L << 28;
        });
        var random = new Random(7);
        var values = new Dictionary<string, string>();
        using (var c = _server.Connect())
        {
            foreach (int size in new[] { 100 << 10, 1 << 20, 10 << 20 })
            {
                var bytes = new byte[size];
                random.NextBytes(bytes);
                string value = Convert.ToBase64String(bytes).Substring(0, size);
                string key = "key-" + size + new string('k', 100 << 10);
                values[key] = value;
                Ok(c, "SET", key, value);
            }
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        _server.Restart(o =>
        {
            o.EnableAof = false;
            o.MemorySize = 1L << 28;
        });
        using var client = _server.Connect();
        foreach (var (key, value) in values)
            Assert.That(client.Execute("GET", key), Is.EqualTo($"${value.Length}\r\n{value}\r\n"), $"{value.Length} bytes");
    }

    [Test]
    public void ABackgroundSaveDuringTransfersHoldsAnExactTotal()
    {
        const int Accounts = 20;
        const int Initial = 1000;
        _server.Start(configure: NoAof);
        using (var c = _server.Connect())
        {
            for (int i = 0; i < Accounts; i++)
                Ok(c, "SET", "acct" + i, Initial.ToString());
            Ok(c, "HSET", "ledger", "total", (Accounts * Initial).ToString());
        }
        using var stop = new CancellationTokenSource();
        var transfers = Enumerable.Range(0, 4).Select(t => Task.Run(() =>
        {
            var random = new Random(t);
            using var c = _server.Connect();
            long done = 0;
            while (!stop.IsCancellationRequested)
            {
                int from = random.Next(Accounts), to = random.Next(Accounts);
                c.Execute("MULTI");
                c.Execute("DECRBY", "acct" + from, "3");
                c.Execute("INCRBY", "acct" + to, "3");
                c.Execute("HINCRBY", "ledger", "moves", "1");
                Assert.That(c.Execute("EXEC"), Does.StartWith("*3\r\n"));
                done++;
            }
            return done;
        })).ToArray();
        using (var c = _server.Connect())
        {
            for (int round = 0; round < 5; round++)
            {
                Thread.Sleep(50);
                Assert.That(c.Execute("BGSAVE"), Is.EqualTo("+Background saving started\r\n"));
                WaitForCheckpoints(c, "rdb_bgsave_in_progress");
                Assert.That(c.Execute("INFO", "persistence"), Does.Contain("rdb_last_bgsave_status:ok"));
            }
        }
        stop.Cancel();
        Assert.That(transfers.Sum(t => t.Result), Is.GreaterThan(0));
        _server.Restart(NoAof);
        using var client = _server.Connect();
        long total = 0;
        for (int i = 0; i < Accounts; i++)
            total += long.Parse(client.Execute("GET", "acct" + i).Split("\r\n")[1]);
        Assert.That(total, Is.EqualTo(Accounts * Initial), "every transfer is wholly in the checkpoint or wholly out of it");
    }

    [Test]
    public void ObjectsUpdatedWhileABackgroundSaveRunsAreSavedAsTheyWereAtItsVersion()
    {
        _server.Start(configure: NoAof);
        using (var c = _server.Connect())
        {
            var fields = new List<string> { "HSET", "big" };
            for (int i = 0; i < 5000; i++)
            {
                fields.Add("f" + i);
                fields.Add("0");
            }
            Ok(c, fields.ToArray());
            Ok(c, "SET", "counter", "0");
        }
        using var stop = new CancellationTokenSource();
        // Each transaction moves the hash's field and the string together: a checkpoint holds them equal.
        var writer = Task.Run(() =>
        {
            using var c = _server.Connect();
            int i = 0;
            while (!stop.IsCancellationRequested)
            {
                i++;
                c.Execute("MULTI");
                c.Execute("HSET", "big", "f" + (i % 5000), i.ToString());
                c.Execute("HSET", "big", "last", i.ToString());
                c.Execute("SET", "counter", i.ToString());
                c.Execute("EXEC");
            }
        });
        using (var c = _server.Connect())
        {
            for (int round = 0; round < 4; round++)
            {
                Thread.Sleep(30);
                Assert.That(c.Execute("BGSAVE"), Is.EqualTo("+Background saving started\r\n"));
                WaitForCheckpoints(c, "rdb_bgsave_in_progress");
            }
        }
        stop.Cancel();
        writer.Wait();
        _server.Restart(NoAof);
        using var client = _server.Connect();
        string counter = client.Execute("GET", "counter").Split("\r\n")[1];
        Assert.That(client.Execute("HGET", "big", "last"), Is.EqualTo($"${counter.Length}\r\n{counter}\r\n"));
        Assert.That(client.Execute("HLEN", "big"), Is.EqualTo(":5001\r\n"));
    }

    [Test]
    public void ARestartDuringABackgroundSaveRecoversFromTheLastCompleteOne()
    {
        _server.Start(configure: NoAof);
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "k", "saved");
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
            var value = new string('x', 10_000);
            for (int i = 0; i < 2000; i++)
                Ok(c, "SET", "bulk" + i, value);
            Ok(c, "SET", "k", "later");
            c.Execute("BGSAVE");
        }
        // The server stops at once, whether the background save ended or not: either checkpoint is whole.
        _server.Restart(NoAof);
        using var client = _server.Connect();
        string k = client.Execute("GET", "k");
        Assert.That(k, Is.EqualTo("$5\r\nsaved\r\n").Or.EqualTo("$5\r\nlater\r\n"));
        if (k.Contains("later"))
            Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":2001\r\n"));
        else
            Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":1\r\n"));
        Assert.That(Directory.GetFiles(CheckpointDirectory, "*.tmp"), Is.Empty.Or.Length.EqualTo(1));
    }

    [TestCase(true, false)]
    [TestCase(false, false)]
    [TestCase(true, true)]
    [TestCase(false, true)]
    public void ADamagedCheckpointFailsTheStartOrLoadsWhatPrecedesTheDamage(bool failOnError, bool flipAByte)
    {
        _server.Start(configure: NoAof);
        using (var c = _server.Connect())
        {
            var value = new string('v', 1000);
            for (int i = 0; i < 10_000; i++)
                Ok(c, "SET", "key" + i, value);
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        _server.Stop();
        string path = Directory.GetFiles(CheckpointDirectory).Single();
        using (var file = new FileStream(path, FileMode.Open))
        {
            if (flipAByte)
            {
                // A bit flipped in the middle of the file: its block's checksum no longer matches.
                file.Position = file.Length / 2;
                int b = file.ReadByte();
                file.Position = file.Length / 2;
                file.WriteByte((byte)(b ^ 0x10));
            }
            else
            {
                file.SetLength(file.Length - 6000); // cut short (past the last block's padding), as a torn copy would be
            }
        }
        if (failOnError)
        {
            var e = Assert.Throws<RecoveryException>(() => _server.Start(recover: true, NoAof));
            Assert.That(e!.Message, Does.Contain("damaged").And.Contain("--fail-on-recovery-error"));
            return;
        }
        var server = _server.Start(recover: true, o =>
        {
            o.EnableAof = false;
            o.FailOnRecoveryError = false;
        });
        Assert.That(server.Store.CheckpointRecovery!.Damage, Is.Not.Null);
        Assert.That(server.StartWarnings, Has.Some.Contains("RECOVERY WAS INCOMPLETE"));
        using var client = _server.Connect();
        long keys = long.Parse(client.Execute("DBSIZE").AsSpan(1).TrimEnd("\r\n"));
        Assert.That(keys, Is.GreaterThan(0).And.LessThan(10_000), "the blocks before the damage");
    }

    [Test]
    public void RepliesOfTheCommandsAreRedis()
    {
        _server.Start(configure: NoAof);
        using var c = _server.Connect();
        Assert.That(c.Execute("BGSAVE", "NOW"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(c.Execute("BGSAVE", "SCHEDULE", "x"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(c.Execute("SAVE", "x"), Is.EqualTo("-ERR wrong number of arguments for 'save' command\r\n"));
        Assert.That(c.Execute("BGREWRITEAOF", "x"), Is.EqualTo("-ERR wrong number of arguments for 'bgrewriteaof' command\r\n"));
        Ok(c, "MULTI");
        Assert.That(c.Execute("SAVE"), Does.StartWith("-ERR Command not allowed inside a transaction"));
        Assert.That(c.Execute("EXEC"), Does.StartWith("-EXECABORT"));
        Ok(c, "SET", "a", "1");
        string info = c.Execute("INFO", "persistence");
        Assert.That(info, Does.Contain("rdb_changes_since_last_save:1\r\n").And.Contain("rdb_bgsave_in_progress:0\r\n").And.Contain("rdb_saves:0\r\n"));
        Assert.That(c.Execute("BGSAVE", "SCHEDULE"), Is.EqualTo("+Background saving started\r\n"));
        WaitForCheckpoints(c, "rdb_bgsave_in_progress");
        info = c.Execute("INFO", "persistence");
        Assert.That(info, Does.Contain("rdb_changes_since_last_save:0\r\n").And.Contain("rdb_saves:1\r\n").And.Contain("rdb_last_bgsave_status:ok\r\n"));
        Assert.That(c.Execute("LASTSAVE"), Is.EqualTo($":{_server.Server.Store.LastSaveUnixSeconds}\r\n"));
    }

    [Test]
    public void ASecondBackgroundSaveIsRefusedAndARewriteWaitsForTheRunningSave()
    {
        _server.Start(configure: NoAof);
        using var script = _server.Connect();
        using var c = _server.Connect();
        Ok(c, "SET", "k", "v");
        // A running script holds the key-lock gate, under which alone a checkpoint moves the version: the save waits there.
        script.Send("EVAL", "local i = 0 while i < 100000000 do i = i + 1 end return i", "0");
        // The script runs once its connection's last command is EVAL (on a busy machine that may take a while).
        var started = DateTime.UtcNow.AddSeconds(60);
        while (!c.Execute("CLIENT", "LIST").Contains("cmd=eval", StringComparison.Ordinal))
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(started));
            Thread.Sleep(5);
        }
        Assert.That(c.Execute("BGSAVE"), Is.EqualTo("+Background saving started\r\n"));
        Assert.That(c.Execute("BGSAVE"), Is.EqualTo("-ERR Background save already in progress\r\n"));
        Assert.That(c.Execute("BGSAVE", "SCHEDULE"), Is.EqualTo("-ERR Background save already in progress\r\n"));
        Assert.That(c.Execute("SAVE"), Is.EqualTo("-ERR Background save already in progress\r\n"));
        Assert.That(c.Execute("BGREWRITEAOF"), Is.EqualTo("+Background append only file rewriting scheduled\r\n"));
        Assert.That(c.Execute("INFO", "persistence"), Does.Contain("rdb_bgsave_in_progress:1\r\n").And.Contain("aof_rewrite_scheduled:1\r\n"));
        Assert.That(script.ReadReply(), Is.EqualTo(":100000000\r\n"));
        // The save ends, then the scheduled rewrite runs.
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (!c.Execute("INFO", "persistence").Contains("aof_rewrites:1\r\n", StringComparison.Ordinal)
               || c.Execute("INFO", "persistence").Contains("aof_rewrite_in_progress:1", StringComparison.Ordinal))
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(deadline));
            Thread.Sleep(10);
        }
        string info = c.Execute("INFO", "persistence");
        Assert.That(info, Does.Contain("rdb_saves:1\r\n").And.Contain("aof_rewrite_scheduled:0\r\n").And.Contain("aof_last_bgrewrite_status:ok\r\n"));
    }

    /// <summary>Waits until INFO persistence shows <paramref name="field"/> at 0.</summary>
    private static void WaitForCheckpoints(RawClient c, string field)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (c.Execute("INFO", "persistence").Contains(field + ":1", StringComparison.Ordinal))
        {
            Assert.That(DateTime.UtcNow, Is.LessThan(deadline), field);
            Thread.Sleep(10);
        }
    }
}
