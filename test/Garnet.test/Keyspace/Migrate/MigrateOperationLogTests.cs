using Garnet.server;
using Garnet.test.Durability;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>
/// MIGRATE in the operation log: logged as the DEL of the keys the target took (as Redis propagates it), so recovery
/// neither transfers again nor brings back the moved keys.
/// </summary>
[TestFixture]
public sealed class MigrateOperationLogTests
{
    [Test]
    public void RecoveryReplaysTheDeletesNotTheTransfer()
    {
        using var source = new OperationLogTestServer();
        source.Start();
        var targetOptions = Garnet.test.Host.HostTestHelpers.SmallSettings(0).Server;
        using (var target = new GarnetServer(targetOptions))
        {
            target.Start();
            string port = target.Port.ToString();
            using var destination = new RawClient(target.Port);
            destination.Execute("SET", "busy", "theirs");
            using var client = source.Connect();
            OperationLogTestServer.Ok(client, "MSET", "moved", "1", "copied", "2", "busy", "3", "alongside", "4");
            Assert.That(client.Execute("MIGRATE", "127.0.0.1", port, "moved", "0", "5000"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("MIGRATE", "127.0.0.1", port, "copied", "0", "5000", "COPY"), Is.EqualTo("+OK\r\n"));
            // One key refused, one taken: the reply is the target's error, and the taken key's delete is logged all the same.
            Assert.That(client.Execute("MIGRATE", "127.0.0.1", port, "", "0", "5000", "KEYS", "alongside", "busy"),
                Is.EqualTo("-ERR Target instance replied with error: BUSYKEY Target key name already exists.\r\n"));
            Assert.That(client.Execute("MIGRATE", "127.0.0.1", port, "nothing", "0", "5000"), Is.EqualTo("+NOKEY\r\n"));
            // Inside a transaction and a script, each MIGRATE is logged as its deletes too.
            OperationLogTestServer.Ok(client, "MSET", "in-multi", "5", "in-script", "6");
            client.Execute("MULTI");
            client.Execute("MIGRATE", "127.0.0.1", port, "in-multi", "0", "5000");
            Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
            Assert.That(client.Execute("EVAL", "return redis.call('MIGRATE', '127.0.0.1', ARGV[1], KEYS[1], '0', '5000')", "1", "in-script", port),
                Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("MGET", "moved", "copied", "busy", "alongside"), Is.EqualTo("*4\r\n$-1\r\n$1\r\n2\r\n$1\r\n3\r\n$-1\r\n"));
        }

        // The target is gone: a replayed MIGRATE could not even connect.
        source.Restart();
        using var recovered = source.Connect();
        Assert.That(recovered.Execute("MGET", "moved", "copied", "busy", "alongside"), Is.EqualTo("*4\r\n$-1\r\n$1\r\n2\r\n$1\r\n3\r\n$-1\r\n"));
        Assert.That(recovered.Execute("EXISTS", "in-multi", "in-script"), Is.EqualTo(":0\r\n"));
        Assert.That(recovered.Execute("DBSIZE"), Is.EqualTo(":2\r\n"));
    }
}
