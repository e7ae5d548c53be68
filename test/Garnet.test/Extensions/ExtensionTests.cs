using System;
using System.Threading;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Extensions;

/// <summary>Custom commands and procedures registered through the embedding API before Start.</summary>
[TestFixture]
public sealed class ExtensionTests
{
    private GarnetServer _server = null!;
    private Transfer _transfer = null!;

    [SetUp]
    public void StartServer()
    {
        _server = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0 });
        _server.Register.NewCommand(new SetIfPrefixMatch());
        _server.Register.NewCommand(new GetLength());
        _server.Register.NewProcedure(new SetAndReadBack());
        _transfer = new Transfer();
        _server.Register.NewTransactionProcedure(_transfer);
        _server.Register.NewTransactionProcedure(new Sneaky());
        _server.Register.NewObjectCommand(new DictSet());
        _server.Register.NewObjectCommand(new DictGet());
        _server.Register.NewObjectCommand(new DictDel());
        _server.Start();
    }

    [TearDown]
    public void StopServer() => _server.Dispose();

    private RawClient Raw() => new(_server.Port);

    [Test]
    public void RawStringCommandUpdatesOnPrefixMatch()
    {
        using var client = Raw();
        Assert.That(client.Execute("SETIFPM", "k", "new", "pre"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        client.Execute("SET", "k", "prefix-value");
        Assert.That(client.Execute("setifpm", "k", "other", "xyz"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$12\r\nprefix-value\r\n"));
        Assert.That(client.Execute("SETIFPM", "k", "prefix-VALUE", "pre"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$12\r\nprefix-VALUE\r\n"));
        // A different length goes through the copy updater.
        Assert.That(client.Execute("SETIFPM", "k", "pre2", "prefix"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$4\r\npre2\r\n"));
        Assert.That(client.Execute("GETLEN", "k"), Is.EqualTo(":4\r\n"));
        Assert.That(client.Execute("GETLEN", "missing"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void RawStringCommandKeepsTtlAndReportsWrongType()
    {
        using var client = Raw();
        client.Execute("SET", "k", "abc", "EX", "100");
        Assert.That(client.Execute("SETIFPM", "k", "abcd", "a"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("TTL", "k"), Does.Match(@"^:(9\d|100)\r\n$"));
        client.Execute("LPUSH", "list", "x");
        Assert.That(client.Execute("SETIFPM", "list", "v", "p"), Does.StartWith("-WRONGTYPE"));
    }

    [Test]
    public void ArityIsChecked()
    {
        using var client = Raw();
        Assert.That(client.Execute("SETIFPM", "k", "v"), Is.EqualTo("-ERR wrong number of arguments for 'setifpm' command\r\n"));
        Assert.That(client.Execute("TRANSFER", "a"), Is.EqualTo("-ERR wrong number of arguments for 'transfer' command\r\n"));
        Assert.That(client.Execute("MSETGET", "a"), Is.EqualTo("-ERR wrong number of arguments for 'msetget' command\r\n"));
    }

    [Test]
    public void CommandInfoAndCountIncludeCustomCommands()
    {
        using var client = Raw();
        string info = client.Execute("COMMAND", "INFO", "SETIFPM");
        Assert.That(info, Does.StartWith("*1\r\n*"));
        Assert.That(info, Does.Contain("$7\r\nsetifpm\r\n:4\r\n"));
        string count = client.Execute("COMMAND", "COUNT");
        using var plain = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0 });
        plain.Start();
        using var plainClient = new RawClient(plain.Port);
        long builtIn = long.Parse(plainClient.Execute("COMMAND", "COUNT").Trim(':', '\r', '\n'));
        Assert.That(count, Is.EqualTo($":{builtIn + 8}\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SETIFPM", "key1", "v", "p"), Is.EqualTo("*1\r\n$4\r\nkey1\r\n"));
        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "PATTERN", "setifp*"), Is.EqualTo("*1\r\n$7\r\nsetifpm\r\n"));
        Assert.That(client.Execute("COMMAND", "DOCS", "SETIFPM"), Does.StartWith("*2\r\n$7\r\nsetifpm\r\n"));
    }

    [Test]
    public void RegistrationRefusesBuiltInAndDuplicateNames()
    {
        Assert.Throws<ArgumentException>(() => _server.Register.NewCommand(new SetIfPrefixMatch()));
        Assert.Throws<ArgumentException>(() => _server.Register.NewProcedure(new NamedProcedure("get")));
    }

    [Test]
    public void ProcedureRunsCommands()
    {
        using var client = Raw();
        Assert.That(client.Execute("MSETGET", "a", "1", "b", "2"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("MSETGET", "a", "1", "b"), Is.EqualTo("-ERR pairs expected\r\n"));
        Assert.That(client.Execute("GET", "b"), Is.EqualTo("$1\r\n2\r\n"));
    }

    [Test]
    public void CustomCommandsQueueInMulti()
    {
        using var client = Raw();
        client.Execute("SET", "k", "p1");
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SETIFPM", "k", "p2", "p"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n$2\r\np2\r\n"));
    }

    [Test]
    public void TransactionProcedureIsRefusedInsideMultiAndProcedures()
    {
        using var client = Raw();
        client.Execute("MULTI");
        Assert.That(client.Execute("TRANSFER", "a", "b", "1"), Is.EqualTo("-ERR Command not allowed inside a transaction\r\n"));
        Assert.That(client.Execute("EXEC"), Does.StartWith("-EXECABORT"));
    }

    [Test]
    public void TransactionProcedureRefusesUndeclaredKeys()
    {
        using var client = Raw();
        Assert.That(client.Execute("SNEAKY", "k"), Does.Contain("did not declare"));
        Assert.That(client.Execute("EXISTS", "other-k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void TransferKeepsTotalUnderConcurrentClients()
    {
        const int Accounts = 4, Clients = 4, Rounds = 300;
        using (var setup = Raw())
        {
            for (int i = 0; i < Accounts; i++)
                setup.Execute("SET", "acct" + i, "1000");
        }
        var failures = 0;
        var threads = new Thread[Clients];
        for (int t = 0; t < Clients; t++)
        {
            int seed = t;
            threads[t] = new Thread(() =>
            {
                try
                {
                    var random = new Random(seed);
                    using var client = Raw();
                    for (int r = 0; r < Rounds; r++)
                    {
                        int from = random.Next(Accounts), to = (from + 1 + random.Next(Accounts - 1)) % Accounts;
                        string reply = client.Execute("TRANSFER", "acct" + from, "acct" + to, random.Next(1, 300).ToString());
                        if (reply != ":1\r\n" && reply != ":0\r\n")
                            Interlocked.Increment(ref failures);
                    }
                }
                catch
                {
                    Interlocked.Increment(ref failures);
                }
            });
            threads[t].Start();
        }
        long observedBad = 0;
        using (var observer = Raw())
        {
            // A reader taking all keys under MULTI sees a constant total while transfers run.
            for (int i = 0; i < 50; i++)
            {
                observer.Execute("MULTI");
                for (int a = 0; a < Accounts; a++)
                    observer.Execute("GET", "acct" + a);
                string exec = observer.Execute("EXEC");
                if (Total(exec) != Accounts * 1000)
                    observedBad++;
            }
        }
        foreach (var thread in threads)
            thread.Join();
        Assert.That(failures, Is.Zero);
        Assert.That(observedBad, Is.Zero);
        Assert.That(_transfer.Finalized, Is.EqualTo(Clients * Rounds));
        using var check = Raw();
        long total = 0;
        for (int a = 0; a < Accounts; a++)
        {
            string value = check.Execute("GET", "acct" + a);
            total += long.Parse(value.Split("\r\n")[1]);
            Assert.That(long.Parse(value.Split("\r\n")[1]), Is.GreaterThanOrEqualTo(0));
        }
        Assert.That(total, Is.EqualTo(Accounts * 1000));
    }

    [Test]
    public void CustomObjectTypeCommands()
    {
        using var client = Raw();
        Assert.That(client.Execute("MYDICTGET", "d", "f"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("MYDICTSET", "d", "f", "v1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("MYDICTSET", "d", "f", "v2"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("MYDICTGET", "d", "f"), Is.EqualTo("$2\r\nv2\r\n"));
        Assert.That(client.Execute("TYPE", "d"), Is.EqualTo("+mydict\r\n"));
        Assert.That(client.Execute("GET", "d"), Does.StartWith("-WRONGTYPE"));
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("MYDICTSET", "s", "f", "v"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("MYDICTDEL", "d", "f"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "d"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("MYDICTSET", "d", "a", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("DEL", "d"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("MYDICTSET", "d"), Is.EqualTo("-ERR wrong number of arguments for 'mydictset' command\r\n"));
    }

    [Test]
    public void CustomObjectsDumpAndRestoreByTypeName()
    {
        using var connection = StackExchange.Redis.ConnectionMultiplexer.Connect($"127.0.0.1:{_server.Port},allowAdmin=true,protocol=resp3");
        var db = connection.GetDatabase();
        using var client = Raw();
        Assert.That(client.Execute("MYDICTSET", "d", "f1", "v1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("MYDICTSET", "d", "f2", "v2"), Is.EqualTo(":1\r\n"));

        var payload = db.KeyDump("d");
        Assert.That(payload, Is.Not.Null);
        Assert.That(payload![0], Is.EqualTo(63), "custom objects carry their type name, not a server-local type byte");
        db.KeyRestore("copy", payload);

        Assert.That(client.Execute("TYPE", "copy"), Is.EqualTo("+mydict\r\n"));
        Assert.That(client.Execute("MYDICTGET", "copy", "f1"), Is.EqualTo("$2\r\nv1\r\n"));
        Assert.That(client.Execute("MYDICTGET", "copy", "f2"), Is.EqualTo("$2\r\nv2\r\n"));

        // A payload naming a type this server does not know is bad data, as is a damaged one.
        var unknown = (byte[])payload.Clone();
        int nameStart = 2; // after the type byte and the name's length byte
        unknown[nameStart] = (byte)'X';
        Assert.That(() => db.KeyRestore("other", FixCrc(unknown)), Throws.TypeOf<StackExchange.Redis.RedisServerException>().With.Message.Contains("Bad data format"));
        Assert.That(client.Execute("EXISTS", "other"), Is.EqualTo(":0\r\n"));
    }

    /// <summary>Recomputes a DUMP payload's CRC-64 after a test changed its bytes.</summary>
    private static byte[] FixCrc(byte[] payload)
    {
        ulong crc = Garnet.common.Crc64.Compute(payload.AsSpan(0, payload.Length - 8));
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64LittleEndian(payload.AsSpan(payload.Length - 8), crc);
        return payload;
    }

    [Test]
    public void ARegisteredTypeNameKeepsItsTypeByteAcrossServersAndFactories()
    {
        var first = DictFactory.Instance.ObjectType;
        using var other = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0 });
        var again = new DictFactory();
        other.Register.NewObjectCommand(new DictSetWith(again));
        Assert.That(again.ObjectType, Is.EqualTo(first), "same name, same byte");
        other.Start();
        using var client = new RawClient(other.Port);
        Assert.That(client.Execute("MYDICTSET2", "k", "f", "v"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TYPE", "k"), Is.EqualTo("+mydict\r\n"));
    }

    private sealed class DictSetWith(CustomObjectFactory factory) : CustomObjectCommand
    {
        private readonly DictSet _inner = new();
        public override string Name => "MYDICTSET2";
        public override int Arity => 4;
        public override CustomObjectFactory Factory => factory;
        public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply) => _inner.Operate(obj, args, reply);
    }

    [Test]
    public void InfoCommandStatsCountsCustomCommands()
    {
        using var client = Raw();
        client.Execute("MYDICTSET", "d", "f", "v");
        client.Execute("MYDICTGET", "d", "f");
        client.Execute("MYDICTGET", "d", "f");
        string info = client.Execute("INFO", "commandstats");
        Assert.That(info, Does.Contain("cmdstat_mydictset:calls=1,"));
        Assert.That(info, Does.Contain("cmdstat_mydictget:calls=2,"));
        Assert.That(client.Execute("CONFIG", "RESETSTAT"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("INFO", "commandstats"), Does.Not.Contain("cmdstat_mydictget"));
    }

    private static long Total(string execReply)
    {
        var lines = execReply.Split("\r\n");
        long total = 0;
        for (int i = 1; i + 1 < lines.Length; i += 2)
            total += long.Parse(lines[i + 1]);
        return total;
    }

    private sealed class NamedProcedure(string name) : CustomProcedure
    {
        public override string Name => name;
        public override int Arity => -1;
        public override void Execute(IProcedureApi api, CustomArgs args, ICustomReply reply) => reply.WriteOk();
    }
}
