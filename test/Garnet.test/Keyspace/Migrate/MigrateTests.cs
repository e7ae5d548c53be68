using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>MIGRATE moving keys to another instance of this server: values, TTLs, COPY, REPLACE, KEYS, databases, events.</summary>
public class MigrateTests : MigrateTestBase
{
    [Test]
    public void AKeyMovesWithItsTimeToLive()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "forever", "v1");
        source.Execute("SET", "expiring", "v2", "PX", "100000");
        Assert.That(Migrate(source, target, "forever", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "expiring", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("EXISTS", "forever", "expiring"), Is.EqualTo(":0\r\n"));
        Assert.That(destination.Execute("GET", "forever"), Is.EqualTo("$2\r\nv1\r\n"));
        Assert.That(destination.Execute("PTTL", "forever"), Is.EqualTo(":-1\r\n"));
        Assert.That(destination.Execute("GET", "expiring"), Is.EqualTo("$2\r\nv2\r\n"));
        Assert.That(Resp.Integer(destination.Execute("PTTL", "expiring")), Is.InRange(90_000, 100_000));
    }

    [Test]
    public void NoKeyWhenNoneOfTheKeysExistsWithoutContactingTheTarget()
    {
        using var source = ConnectRaw();
        // Port 1 would fail to connect: NOKEY comes first.
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", "1", "missing", "0", "1000"), Is.EqualTo("+NOKEY\r\n"));
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", "1", "", "0", "1000", "KEYS", "m1", "m2"), Is.EqualTo("+NOKEY\r\n"));
        Assert.That(source.Execute("MIGRATE", "127.0.0.1", "1", "", "0", "1000", "COPY", "KEYS"), Is.EqualTo("+NOKEY\r\n"));
    }

    [Test]
    public void TheKeysFormMovesTheKeysThatExist()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "a", "1");
        source.Execute("RPUSH", "b", "x", "y");
        Assert.That(Migrate(source, target, "", "0", "5000", "KEYS", "a", "missing", "b"), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(destination.Execute("GET", "a"), Is.EqualTo("$1\r\n1\r\n"));
        Assert.That(destination.Execute("LRANGE", "b", "0", "-1"), Is.EqualTo("*2\r\n$1\r\nx\r\n$1\r\ny\r\n"));
        Assert.That(destination.Execute("EXISTS", "missing"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void EveryTypeMigratesAsItsDumpPayload()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "string", "hello\0world");
        source.Execute("SET", "number", "12345");
        source.Execute("RPUSH", "list", "a", "b\0c", "");
        source.Execute("HSET", "hash", "f1", "v1", "f2", "");
        source.Execute("SADD", "set", "m1", "m2", "m3");
        source.Execute("ZADD", "zset", "1.5", "a", "-inf", "b", "3", "c");
        source.Execute("PFADD", "hll", "x", "y", "z");
        source.Execute("XADD", "stream", "1-1", "field", "value");
        source.Execute("MYDICTSET", "dict", "f", "v");
        string[] keys = ["string", "number", "list", "hash", "set", "zset", "hll", "stream", "dict"];
        var dumps = new string[keys.Length];
        for (int i = 0; i < keys.Length; i++)
            dumps[i] = source.Execute("DUMP", keys[i]);

        var arguments = new string[] { "", "0", "5000", "KEYS" };
        Assert.That(Migrate(source, target, [.. arguments, .. keys]), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        for (int i = 0; i < keys.Length; i++)
            Assert.That(destination.Execute("DUMP", keys[i]), Is.EqualTo(dumps[i]), keys[i]);
        Assert.That(destination.Execute("PFCOUNT", "hll"), Is.EqualTo(":3\r\n"));
        Assert.That(destination.Execute("MYDICTGET", "dict", "f"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(destination.Execute("XLEN", "stream"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void CopyKeepsTheSourceKey()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "k", "v", "EX", "1000");
        Assert.That(Migrate(source, target, "k", "0", "5000", "COPY"), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(Resp.Integer(source.Execute("TTL", "k")), Is.InRange(990, 1000));
        Assert.That(destination.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(Resp.Integer(destination.Execute("TTL", "k")), Is.InRange(990, 1000));
    }

    [Test]
    public void AnExistingTargetKeyNeedsReplace()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        destination.Execute("SET", "k", "old");
        source.Execute("SET", "k", "new");
        Assert.That(Migrate(source, target, "k", "0", "5000"), Is.EqualTo(TargetError("BUSYKEY Target key name already exists.")));
        Assert.That(source.Execute("GET", "k"), Is.EqualTo("$3\r\nnew\r\n"), "a refused key stays");
        Assert.That(destination.Execute("GET", "k"), Is.EqualTo("$3\r\nold\r\n"));

        Assert.That(Migrate(source, target, "k", "0", "5000", "REPLACE"), Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(destination.Execute("GET", "k"), Is.EqualTo("$3\r\nnew\r\n"));
    }

    [Test]
    public void AKeyTheTargetRefusesStaysWhileTheOthersMove()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        destination.Execute("SET", "b", "taken");
        source.Execute("MSET", "a", "1", "b", "2", "c", "3");
        Assert.That(Migrate(source, target, "", "0", "5000", "KEYS", "a", "b", "c"), Is.EqualTo(TargetError("BUSYKEY Target key name already exists.")));
        Assert.That(source.Execute("EXISTS", "a"), Is.EqualTo(":0\r\n"));
        Assert.That(source.Execute("GET", "b"), Is.EqualTo("$1\r\n2\r\n"));
        Assert.That(source.Execute("EXISTS", "c"), Is.EqualTo(":0\r\n"));
        Assert.That(destination.Execute("MGET", "a", "b", "c"), Is.EqualTo("*3\r\n$1\r\n1\r\n$5\r\ntaken\r\n$1\r\n3\r\n"));
    }

    [Test]
    public void TheDestinationDatabaseIsSelected()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("MSET", "in3", "x", "in0", "y", "in5", "z");
        Assert.That(Migrate(source, target, "in3", "3", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "in0", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "in5", "5", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(destination.Execute("KEYS", "*"), Is.EqualTo("*1\r\n$3\r\nin0\r\n"));
        destination.Execute("SELECT", "3");
        Assert.That(destination.Execute("KEYS", "*"), Is.EqualTo("*1\r\n$3\r\nin3\r\n"));
        destination.Execute("SELECT", "5");
        Assert.That(destination.Execute("KEYS", "*"), Is.EqualTo("*1\r\n$3\r\nin5\r\n"));

        source.Execute("SET", "far", "v");
        Assert.That(Migrate(source, target, "far", "99", "5000"), Is.EqualTo(TargetError("ERR DB index is out of range")));
        Assert.That(source.Execute("GET", "far"), Is.EqualTo("$1\r\nv\r\n"), "not acknowledged: the SELECT failed");
        // As in Redis the pipelined RESTORE still ran, in the database the connection had (5).
        Assert.That(destination.Execute("GET", "far"), Is.EqualTo("$1\r\nv\r\n"));
        // After the target's error the connection's database is unknown: SELECT is sent again.
        Assert.That(Migrate(source, target, "far", "0", "5000"), Is.EqualTo("+OK\r\n"));
        destination.Execute("SELECT", "0");
        Assert.That(destination.Execute("GET", "far"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void DeletedSourceKeysRaiseDel()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var subscriber = ConnectRaw();
        source.Execute("CONFIG", "SET", "notify-keyspace-events", "Eg");
        Assert.That(subscriber.Execute("SUBSCRIBE", "__keyevent@0__:del"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
        source.Execute("SET", "copied", "1");
        source.Execute("SET", "moved", "2");
        Assert.That(Migrate(source, target, "copied", "0", "5000", "COPY"), Is.EqualTo("+OK\r\n"));
        Assert.That(Migrate(source, target, "moved", "0", "5000"), Is.EqualTo("+OK\r\n"));
        Assert.That(subscriber.ReadReply(), Is.EqualTo("*3\r\n$7\r\nmessage\r\n$18\r\n__keyevent@0__:del\r\n$5\r\nmoved\r\n"));
        source.Execute("DEL", "copied");
        Assert.That(subscriber.ReadReply(), Does.EndWith("$6\r\ncopied\r\n"), "no event for the copy came before");
    }

    [Test]
    public void MigrateRunsInsideATransaction()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("MSET", "a", "1", "b", "2");
        source.Execute("MULTI");
        Assert.That(Migrate(source, target, "a", "0", "5000"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(Migrate(source, target, "", "0", "5000", "KEYS", "b", "none"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(source.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n+OK\r\n"));
        Assert.That(destination.Execute("MGET", "a", "b"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
        Assert.That(source.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void CommandGetKeysFindsTheMigratedKeys()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MIGRATE", "h", "1", "k", "0", "10"), Is.EqualTo("*1\r\n$1\r\nk\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MIGRATE", "h", "1", "", "0", "10", "AUTH", "keys", "KEYS", "a", "b"),
            Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MIGRATE", "h", "1", "k", "0", "10", "KEYS", "a"), Is.EqualTo("-ERR Invalid arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "MIGRATE"), Does.StartWith("*1\r\n*10\r\n$7\r\nmigrate\r\n:-6\r\n*2\r\n+write\r\n+movablekeys\r\n:3\r\n:3\r\n:1\r\n"));
    }

    [Test]
    public void MigrateRunsFromAScript()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "k", "v");
        Assert.That(source.Execute("EVAL", "return redis.call('MIGRATE', '127.0.0.1', ARGV[1], KEYS[1], '0', '5000')", "1", "k", target.Port.ToString()),
            Is.EqualTo("+OK\r\n"));
        Assert.That(source.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        Assert.That(destination.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void AKeyGivenTwiceIsRestoredTwice()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        source.Execute("SET", "k", "v");
        // As in Redis: the second RESTORE finds the first's key.
        Assert.That(Migrate(source, target, "", "0", "5000", "KEYS", "k", "k"), Is.EqualTo(TargetError("BUSYKEY Target key name already exists.")));
        Assert.That(source.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
        source.Execute("SET", "r", "w");
        Assert.That(Migrate(source, target, "", "0", "5000", "REPLACE", "KEYS", "r", "r"), Is.EqualTo("+OK\r\n"));
        Assert.That(destination.Execute("MGET", "k", "r"), Is.EqualTo("*2\r\n$1\r\nv\r\n$1\r\nw\r\n"));
    }

    [Test]
    public void TrackingClientsHearOfTheDeletedKeysEvenWhenTheReplyIsAnError()
    {
        var target = StartTarget();
        using var source = ConnectRaw();
        using var destination = new RawClient(target.Port);
        using var tracker = ConnectRaw();
        Assert.That(tracker.Execute("HELLO", "3"), Does.StartWith("%"));
        Assert.That(tracker.Execute("CLIENT", "TRACKING", "ON"), Is.EqualTo("+OK\r\n"));
        source.Execute("MSET", "a", "1", "b", "2");
        tracker.Execute("GET", "a");
        tracker.Execute("GET", "b");
        destination.Execute("SET", "b", "taken");
        Assert.That(Migrate(source, target, "", "0", "5000", "KEYS", "a", "b"), Is.EqualTo(TargetError("BUSYKEY Target key name already exists.")));
        Assert.That(tracker.ReadReply(), Is.EqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\na\r\n"));
        Assert.That(tracker.Execute("PING"), Is.EqualTo("+PONG\r\n"), "b, still here, was not invalidated");
    }

    [Test]
    public void ConcurrentMigrationsToOneTargetMoveEveryKey()
    {
        const int Clients = 4;
        const int KeysEach = 50;
        var target = StartTarget();
        using (var setup = ConnectRaw())
        {
            for (int c = 0; c < Clients; c++)
            {
                for (int i = 0; i < KeysEach; i++)
                    setup.Execute("SET", $"k{c}-{i}", i.ToString());
            }
        }
        var failures = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var workers = new System.Threading.Tasks.Task[Clients];
        for (int c = 0; c < Clients; c++)
        {
            int client = c;
            workers[c] = System.Threading.Tasks.Task.Run(() =>
            {
                using var source = ConnectRaw();
                for (int i = 0; i < KeysEach; i++)
                {
                    string reply = Migrate(source, target, $"k{client}-{i}", "0", "5000");
                    if (reply != "+OK\r\n")
                        failures.Enqueue(reply);
                }
            });
        }
        System.Threading.Tasks.Task.WaitAll(workers);
        Assert.That(failures, Is.Empty);
        using var check = ConnectRaw();
        using var destination = new RawClient(target.Port);
        Assert.That(check.Execute("DBSIZE"), Is.EqualTo(":0\r\n"));
        Assert.That(destination.Execute("DBSIZE"), Is.EqualTo($":{Clients * KeysEach}\r\n"));
        Assert.That(destination.Execute("GET", "k3-49"), Is.EqualTo("$2\r\n49\r\n"));
    }
}
