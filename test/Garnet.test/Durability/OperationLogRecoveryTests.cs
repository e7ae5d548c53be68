using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Durability.OperationLogTestServer;

namespace Garnet.test.Durability;

/// <summary>The operation log (AOF): what is logged comes back, exactly, when the server starts again with recovery.</summary>
[TestFixture]
public sealed class OperationLogRecoveryTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    [Test]
    public void WritesOfEveryFamilyComeBackExactlyAfterARestart()
    {
        _server.Start();
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "s1", "v");
            Ok(c, "SET", "s2", "10", "EX", "1000");
            Ok(c, "INCRBY", "s2", "5");
            Ok(c, "APPEND", "s1", "xyz");
            Ok(c, "SETRANGE", "s1", "1", "AB");
            Ok(c, "MSET", "m1", "a", "m2", "b", "m3", "c");
            Ok(c, "GETDEL", "m2");
            Ok(c, "EXPIRE", "m1", "500");
            Ok(c, "PEXPIREAT", "m3", (DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 900_000).ToString());
            Ok(c, "PERSIST", "s2");
            Ok(c, "SETEX", "gone", "1", "soon"); // expires before the restart: replayed at its clock, gone alike
            Ok(c, "INCRBYFLOAT", "f", "1.5");
            Ok(c, "HSET", "h", "f1", "v1", "f2", "v2", "n", "1");
            Ok(c, "HDEL", "h", "f2");
            Ok(c, "HINCRBY", "h", "n", "41");
            Ok(c, "LPUSH", "l", "a", "b", "c", "d");
            Ok(c, "RPOP", "l");
            Ok(c, "LMOVE", "l", "l2", "LEFT", "RIGHT");
            Ok(c, "LSET", "l", "0", "zz");
            var members = new List<string> { "SADD", "st" };
            for (int i = 0; i < 40; i++)
                members.Add("member" + i);
            Ok(c, members.ToArray());
            Ok(c, "SPOP", "st", "5"); // random: replayed with the same seed, the same members go
            Ok(c, "SPOP", "st");
            Ok(c, "SREM", "st", "member1", "member2");
            Ok(c, "ZADD", "z", "1", "a", "2", "b", "3", "c");
            Ok(c, "ZINCRBY", "z", "5", "a");
            Ok(c, "ZPOPMIN", "z");
            Ok(c, "PFADD", "hll", "a", "b", "c");
            Ok(c, "SETBIT", "bits", "7", "1");
            Ok(c, "BITOP", "NOT", "bits2", "bits");
            Ok(c, "XADD", "x", "*", "f", "1");
            Ok(c, "XADD", "x", "*", "f", "2");
            Ok(c, "XGROUP", "CREATE", "x", "g", "0");
            Ok(c, "XREADGROUP", "GROUP", "g", "c1", "COUNT", "1", "STREAMS", "x", ">");
            Ok(c, "GEOADD", "geo", "13.361389", "38.115556", "Palermo");
            Ok(c, "RENAME", "s1", "s1r");
            Ok(c, "COPY", "h", "hcopy");
            Ok(c, "SUNIONSTORE", "st2", "st", "st");
            Ok(c, "SORT", "l2", "ALPHA", "STORE", "sorted");
            Ok(c, "MOVE", "m3", "5");
            Ok(c, "SELECT", "2");
            Ok(c, "SET", "in2", "two");
            Ok(c, "SELECT", "4");
            Ok(c, "SET", "flushed", "x");
            Ok(c, "FLUSHDB");
            Ok(c, "SET", "after-flush", "y");
            Ok(c, "SWAPDB", "2", "3");
            Ok(c, "SELECT", "0");
            Ok(c, "DEL", "m1", "nothing");
            Ok(c, "EVAL", "redis.call('SET', KEYS[1], '1'); redis.call('INCRBY', KEYS[1], ARGV[1]); return redis.call('SPOP', KEYS[2])", "2", "script", "st", "9");
            Ok(c, "FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('bump', function(keys, args) return redis.call('INCR', keys[1]) end)");
            Ok(c, "FCALL", "bump", "1", "fn");
            Ok(c, "MULTI");
            c.Execute("SET", "t1", "a");
            c.Execute("SELECT", "6");
            c.Execute("SET", "t2", "b");
            c.Execute("SPOP", "nothere");
            Assert.That(c.Execute("EXEC"), Does.StartWith("*4\r\n"));
            Ok(c, "SELECT", "0");
            string dump = c.Execute("DUMP", "z");
            Ok(c, "RESTORE", "zrestored", "0", Encoding.Latin1.GetString(Convert.FromHexString(HexOfBulk(dump))));
        }
        Thread.Sleep(1100); // "gone" expires
        var before = _server.Snapshot();
        Assert.That(before.Keys, Does.Contain("3/in2").And.Contain("4/after-flush").And.Contain("6/t2").And.Contain("5/m3"));
        Assert.That(before.Keys, Does.Not.Contain("0/gone").And.Not.Contain("4/flushed"));

        var server = _server.Restart();
        Assert.That(server.RecoveryReport, Is.Not.Null);
        Assert.That(server.RecoveryReport!.FailedCommands, Is.Zero);
        Assert.That(server.RecoveryReport.CutBytes, Is.Zero);
        Assert.That(_server.Snapshot(), Is.EqualTo(before));
        using (var c = _server.Connect())
            Assert.That(c.Execute("FCALL", "bump", "1", "fn"), Is.EqualTo(":2\r\n"), "the library loaded with FUNCTION LOAD came back too");
    }

    /// <summary>The payload of a bulk string reply, as hex (DUMP payloads are binary).</summary>
    private static string HexOfBulk(string reply)
    {
        int line = reply.IndexOf("\r\n", StringComparison.Ordinal);
        int length = int.Parse(reply.AsSpan(1, line - 1));
        return Convert.ToHexString(Encoding.Latin1.GetBytes(reply.Substring(line + 2, length)));
    }

    private static void RegisterExtensions(GarnetServer server)
    {
        server.Register.NewCommand(new Extensions.SetIfPrefixMatch());
        server.Register.NewProcedure(new Extensions.SetAndReadBack());
        server.Register.NewTransactionProcedure(new Extensions.Transfer());
        server.Register.NewObjectCommand(new Extensions.DictSet());
        server.Register.NewObjectCommand(new Extensions.DictGet());
        server.Register.NewObjectCommand(new Extensions.DictDel());
    }

    [Test]
    public void CustomCommandsProceduresAndObjectTypesComeBackThroughTheirRegistrations()
    {
        _server.Start(register: RegisterExtensions);
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "k", "prefix-value");
            Assert.That(c.Execute("SETIFPM", "k", "prefix-new", "pre"), Is.EqualTo("+OK\r\n"));
            Ok(c, "MSETGET", "p1", "one", "p2", "two");
            Ok(c, "SET", "from", "100");
            Assert.That(c.Execute("TRANSFER", "from", "to", "30"), Is.EqualTo(":1\r\n"));
            Assert.That(c.Execute("TRANSFER", "from", "to", "300"), Is.EqualTo(":0\r\n"));
            Assert.That(c.Execute("MYDICTSET", "d", "f1", "v1"), Is.EqualTo(":1\r\n"));
            Assert.That(c.Execute("MYDICTSET", "d", "f2", "v2"), Is.EqualTo(":1\r\n"));
            Assert.That(c.Execute("MYDICTDEL", "d", "f1"), Is.EqualTo(":1\r\n"));
        }
        var before = _server.Snapshot();
        var server = _server.Restart(register: RegisterExtensions);
        Assert.That(server.RecoveryReport!.FailedCommands, Is.Zero);
        Assert.That(_server.Snapshot(), Is.EqualTo(before));
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$10\r\nprefix-new\r\n"));
        Assert.That(client.Execute("MGET", "from", "to", "p2"), Is.EqualTo("*3\r\n$2\r\n70\r\n$2\r\n30\r\n$3\r\ntwo\r\n"));
        Assert.That(client.Execute("MYDICTGET", "d", "f2"), Is.EqualTo("$2\r\nv2\r\n"));
        Assert.That(client.Execute("MYDICTGET", "d", "f1"), Is.EqualTo("$-1\r\n"));
        _server.Stop();

        // Without the registrations the log names commands this server does not have: the start fails and says which.
        var e = Assert.Throws<RecoveryException>(() => _server.Start(recover: true));
        Assert.That(e!.Message, Does.Contain("SETIFPM").And.Contain("not registered"));
    }

    [Test]
    public void FailedWritesAreNotLoggedAndABlockedPopIsLoggedWhenServed()
    {
        _server.Start();
        using (var c = _server.Connect())
        using (var blocked = _server.Connect())
        {
            Ok(c, "SET", "k", "v");
            Assert.That(c.Execute("LPUSH", "k", "x"), Does.StartWith("-WRONGTYPE"));
            Assert.That(c.Execute("INCR", "k"), Does.StartWith("-ERR"));
            Assert.That(c.Execute("SET", "k", "v", "NX", "XX"), Does.StartWith("-ERR syntax"));
            blocked.Send("BLPOP", "q", "0");
            Thread.Sleep(200);
            Ok(c, "RPUSH", "q", "first", "second");
            Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$1\r\nq\r\n$5\r\nfirst\r\n"));
        }
        var server = _server.Restart();
        // SET, RPUSH, and BLPOP once it was served: three commands, none failing when replayed.
        Assert.That(server.RecoveryReport!.Commands, Is.EqualTo(3));
        Assert.That(server.RecoveryReport.FailedCommands, Is.Zero);
        using var client = _server.Connect();
        Assert.That(client.Execute("LRANGE", "q", "0", "-1"), Is.EqualTo("*1\r\n$6\r\nsecond\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void WithoutRecoverTheServerRefusesToStartOverALogWithCommands()
    {
        _server.Start();
        using (var c = _server.Connect())
            Ok(c, "SET", "k", "v");
        _server.Stop();
        var e = Assert.Throws<RecoveryException>(() => _server.Start(recover: false));
        Assert.That(e!.Message, Does.Contain("--recover"));
        // Nothing was lost by the refusal.
        _server.Start(recover: true);
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void ATornEndIsCutAndTheLogGoesOnAfterIt()
    {
        _server.Start();
        using (var c = _server.Connect())
        {
            for (int i = 0; i < 100; i++)
                Ok(c, "SET", "key" + i, "value" + i);
        }
        _server.Stop();
        // A crash in the middle of a write: an entry header that promises more bytes than were written.
        string file = Path.Combine(_server.AofDirectory, "aof.000000");
        var torn = new byte[20];
        BitConverter.TryWriteBytes(torn, 4096);
        File.AppendAllBytes(file, torn);

        var server = _server.Start(recover: true);
        Assert.That(server.RecoveryReport!.CutBytes, Is.EqualTo(20));
        Assert.That(server.StartWarnings, Has.Some.Contains("cut 20 bytes"));
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("GET", "key99"), Is.EqualTo("$7\r\nvalue99\r\n"));
            Ok(c, "SET", "later", "x");
        }
        server = _server.Restart();
        Assert.That(server.RecoveryReport!.CutBytes, Is.Zero);
        Assert.That(server.RecoveryReport.Commands, Is.EqualTo(101));
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "later"), Is.EqualTo("$1\r\nx\r\n"));
    }

    [Test]
    public void DamageBeforeTheLastFileFailsTheStartUnlessRecoveryMayCutIt()
    {
        _server.Start(configure: o => o.AofSegmentSize = 1 << 16);
        using (var c = _server.Connect())
        {
            for (int i = 0; i < 2000; i++)
                Ok(c, "SET", "key" + i, new string('v', 100));
        }
        _server.Stop();
        Assert.That(File.Exists(Path.Combine(_server.AofDirectory, "aof.000002")), Is.True, "the log spans several files");
        string first = Path.Combine(_server.AofDirectory, "aof.000000");
        var bytes = File.ReadAllBytes(first);
        bytes[bytes.Length / 2] ^= 0x5A;
        File.WriteAllBytes(first, bytes);

        var e = Assert.Throws<RecoveryException>(() => _server.Start(recover: true, o => o.AofSegmentSize = 1 << 16));
        Assert.That(e!.Message, Does.Contain("damaged at offset"));

        var server = _server.Start(recover: true, o =>
        {
            o.AofSegmentSize = 1 << 16;
            o.FailOnRecoveryError = false;
        });
        var report = server.RecoveryReport!;
        Assert.That(report.CutBytes, Is.GreaterThan(0));
        Assert.That(report.Commands, Is.GreaterThan(100).And.LessThan(2000));
        using var client = _server.Connect();
        Assert.That(client.Execute("EXISTS", "key0"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{report.Commands}\r\n"), "exactly the commands before the damage");
    }

    [Test]
    public void EntriesLargerThanTheRingAndManyTimesItsSizeComeBack()
    {
        _server.Start(configure: o => o.AofMemorySize = 1 << 16);
        string large = new('L', 100_000);
        using (var c = _server.Connect())
        {
            Ok(c, "SET", "large", large);
            for (int i = 0; i < 3000; i++)
                Ok(c, "RPUSH", "list", "element-" + i);
            Ok(c, "APPEND", "large", "!");
        }
        _server.Restart(o => o.AofMemorySize = 1 << 16);
        using var client = _server.Connect();
        Assert.That(client.Execute("STRLEN", "large"), Is.EqualTo(":100001\r\n"));
        Assert.That(client.Execute("LLEN", "list"), Is.EqualTo(":3000\r\n"));
        Assert.That(client.Execute("LINDEX", "list", "2999"), Is.EqualTo("$12\r\nelement-2999\r\n"));
    }

    /// <summary>
    /// The log's end is written in whole blocks past the page cache, the last block again with what follows it: runs that
    /// each start where the last ended (mid-block, the file cut there at the clean stop) and cross several files keep
    /// every entry; so with pages (the largest write, and the buffer gathering it) smaller than many of the entries.
    /// </summary>
    [TestCase(4L << 20)]
    [TestCase(4096L)]
    public void RunsThatEndMidBlockAndCrossFilesKeepEveryEntry(long pageSize)
    {
        const int Rounds = 4, KeysPerRound = 90;
        static string ValueOf(int round, int i) => $"{round}:{i}:" + new string((char)('a' + (i % 26)), (i * 37 % 6001) + 1);
        void Configure(ServerOptions o)
        {
            o.AofSegmentSize = 1 << 16;
            o.AofPageSize = pageSize;
        }
        _server.Start(configure: Configure);
        for (int round = 0; round < Rounds; round++)
        {
            using (var c = _server.Connect())
            {
                for (int i = 0; i < KeysPerRound; i++)
                    Ok(c, "SET", $"r{round}k{i}", ValueOf(round, i));
                Ok(c, "APPEND", $"r{round}k0", "!");
            }
            var server = _server.Restart(Configure);
            Assert.That(server.RecoveryReport!.CutBytes, Is.Zero);
            Assert.That(server.RecoveryReport.Commands, Is.EqualTo((round + 1) * (KeysPerRound + 1)));
        }
        Assert.That(Directory.GetFiles(_server.AofDirectory, "aof.*"), Has.Length.GreaterThan(3));
        using var client = _server.Connect();
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{Rounds * KeysPerRound}\r\n"));
        for (int round = 0; round < Rounds; round++)
        {
            for (int i = 1; i < KeysPerRound; i++)
            {
                string value = ValueOf(round, i);
                Assert.That(client.Execute("GET", $"r{round}k{i}"), Is.EqualTo($"${value.Length}\r\n{value}\r\n"));
            }
            string first = ValueOf(round, 0) + "!";
            Assert.That(client.Execute("GET", $"r{round}k0"), Is.EqualTo($"${first.Length}\r\n{first}\r\n"));
        }
    }

    /// <summary>
    /// A ring filled exactly (entries of 128 bytes in a 64 KB ring, commits left to COMMITAOF so only full rings make the
    /// writer write): every entry reaches the files once, in order.
    /// </summary>
    [Test]
    public void AFullRingWritesEveryEntryOnce()
    {
        _server.Start(configure: o =>
        {
            o.AofMemorySize = 1 << 16;
            o.AofCommitFrequencyMs = -1;
        });
        const int Keys = 5000;
        using (var c = _server.Connect())
        {
            for (int i = 0; i < Keys; i += 100)
            {
                // SET k00000 <40 bytes>: a 128-byte entry.
                for (int j = i; j < i + 100; j++)
                    c.Send("SET", $"k{j:D5}", $"{j:D5}" + new string('v', 35));
                for (int j = i; j < i + 100; j++)
                    Assert.That(c.ReadReply(), Is.EqualTo("+OK\r\n"));
            }
            Ok(c, "SET", "k00000", "last");
        }
        var server = _server.Restart(o => o.AofMemorySize = 1 << 16);
        Assert.That(server.RecoveryReport!.Commands, Is.EqualTo(Keys + 1));
        Assert.That(server.RecoveryReport.FailedCommands, Is.Zero);
        using var client = _server.Connect();
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{Keys}\r\n"));
        Assert.That(client.Execute("GET", "k00000"), Is.EqualTo("$4\r\nlast\r\n"));
        Assert.That(client.Execute("GET", "k04999"), Is.EqualTo("$40\r\n04999" + new string('v', 35) + "\r\n"));
        Assert.That(client.Execute("GET", "k02047"), Is.EqualTo("$40\r\n02047" + new string('v', 35) + "\r\n"));
    }

    [Test]
    public void ConcurrentWritersAndTransactionsKeepTheirTotals()
    {
        _server.Start();
        const int Writers = 4, Rounds = 300;
        var tasks = new Task[Writers];
        for (int w = 0; w < Writers; w++)
        {
            int writer = w;
            tasks[w] = Task.Run(() =>
            {
                using var c = _server.Connect();
                for (int i = 0; i < Rounds; i++)
                {
                    c.Execute("INCR", "counter" + (i % 8));
                    c.Send("MULTI");
                    c.Send("INCRBY", "from", "-1");
                    c.Send("INCRBY", "to", "1");
                    c.Send("RPUSH", "order", writer + ":" + i);
                    c.Send("EXEC");
                    for (int r = 0; r < 5; r++)
                        c.ReadReply();
                }
            });
        }
        Task.WaitAll(tasks);
        var before = _server.Snapshot();
        _server.Restart();
        Assert.That(_server.Snapshot(), Is.EqualTo(before));
        using var client = _server.Connect();
        Assert.That(client.Execute("GET", "to"), Is.EqualTo($"${(Writers * Rounds).ToString().Length}\r\n{Writers * Rounds}\r\n"));
        Assert.That(client.Execute("GET", "from"), Is.EqualTo($"${(Writers * Rounds).ToString().Length + 1}\r\n-{Writers * Rounds}\r\n"));
    }

    [Test]
    public void CommitAofCommitsEverythingLoggedAndInfoReportsTheLog()
    {
        _server.Start(configure: o => o.AofCommitFrequencyMs = -1);
        using var c = _server.Connect();
        Ok(c, "SET", "k", "v");
        Assert.That(c.Execute("COMMITAOF"), Is.EqualTo("+OK\r\n"));
        Assert.That(_server.Server.Store.OperationLog!.UncommittedBytes, Is.Zero);
        Assert.That(c.Execute("COMMITAOF", "3"), Is.EqualTo("+OK\r\n"));
        Assert.That(c.Execute("COMMITAOF", "16"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(c.Execute("COMMITAOF", "1", "2"), Is.EqualTo("-ERR wrong number of arguments for 'commitaof' command\r\n"));
        string info = c.Execute("INFO", "persistence");
        Assert.That(info, Does.Contain("aof_enabled:1\r\n").And.Contain("aof_last_write_status:ok\r\n").And.Contain("aof_buffer_length:0\r\n"));
        Assert.That(info, Does.Match("aof_current_size:[1-9][0-9]*\r\n"));
    }

    [Test]
    public void CommitAofWithoutTheLogIsAnError()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using var c = _server.Connect();
        Assert.That(c.Execute("COMMITAOF"), Is.EqualTo("-ERR the append-only file is off (start the server with --aof, or CONFIG SET appendonly yes)\r\n"));
        Assert.That(c.Execute("INFO", "persistence"), Does.Contain("aof_enabled:0\r\n").And.Not.Contain("aof_current_size"));
    }
}
