using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>MOVE key db.</summary>
public class MoveTests : ServerTestBase
{
    [Test]
    public void MovesAStringWithItsExpiration()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "mv:s", "va\0lue", "PX", "500000");
        Assert.That(client.Execute("MOVE", "mv:s", "3"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "mv:s"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SELECT", "3"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "mv:s"), Is.EqualTo("$6\r\nva\0lue\r\n"));
        long ttl = long.Parse(client.Execute("PTTL", "mv:s").TrimStart(':').TrimEnd());
        Assert.That(ttl, Is.InRange(1, 500000));
        // And back again, without an expiration this time.
        client.Execute("PERSIST", "mv:s");
        Assert.That(client.Execute("MOVE", "mv:s", "0"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("SELECT", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("TTL", "mv:s"), Is.EqualTo(":-1\r\n"));
    }

    [Test]
    public void MovesAnObject()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "mv:l", "a", "b", "c");
        client.Execute("EXPIRE", "mv:l", "1000");
        Assert.That(client.Execute("MOVE", "mv:l", "4"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("TYPE", "mv:l"), Is.EqualTo("+none\r\n"));
        client.Execute("SELECT", "4");
        Assert.That(client.Execute("LRANGE", "mv:l", "0", "-1"), Is.EqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n"));
        Assert.That(client.Execute("TTL", "mv:l"), Does.Match(@"^:(99\d|1000)\r\n$"));
        // The moved list is the target database's own now: changing it there leaves nothing behind in the source.
        Assert.That(client.Execute("LPOP", "mv:l"), Is.EqualTo("$1\r\na\r\n"));
        client.Execute("SELECT", "0");
        Assert.That(client.Execute("EXISTS", "mv:l"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void NothingMovesWhenTheKeyIsMissingOrTheTargetHasIt()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("MOVE", "mv:missing", "1"), Is.EqualTo(":0\r\n"));
        client.Execute("SET", "mv:both", "here");
        client.Execute("SELECT", "5");
        client.Execute("SET", "mv:both", "there");
        client.Execute("SELECT", "0");
        Assert.That(client.Execute("MOVE", "mv:both", "5"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("GET", "mv:both"), Is.EqualTo("$4\r\nhere\r\n"));
        client.Execute("SELECT", "5");
        Assert.That(client.Execute("GET", "mv:both"), Is.EqualTo("$5\r\nthere\r\n"));
        client.Execute("SELECT", "0");
        client.Execute("SET", "mv:gone", "v", "PX", "1");
        Thread.Sleep(20);
        Assert.That(client.Execute("MOVE", "mv:gone", "1"), Is.EqualTo(":0\r\n"), "an expired key is missing");
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "mv:e", "v");
        Assert.That(client.Execute("MOVE", "mv:e", "0"), Is.EqualTo("-ERR source and destination objects are the same\r\n"));
        Assert.That(client.Execute("MOVE", "mv:e", "16"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("MOVE", "mv:e", "-1"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("MOVE", "mv:e", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("MOVE", "mv:e", "99999999999"), Is.EqualTo("-ERR value is out of range, value must between -2147483648 and 2147483647\r\n"));
        Assert.That(client.Execute("MOVE", "mv:e"), Is.EqualTo("-ERR wrong number of arguments for 'move' command\r\n"));
        Assert.That(client.Execute("MOVE", "mv:missing", "0"), Is.EqualTo("-ERR source and destination objects are the same\r\n"), "the index is checked first");
        Assert.That(client.Execute("GET", "mv:e"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void AClientBlockedOnTheTargetKeyGetsTheMovedList()
    {
        using var waiter = ConnectRaw();
        using var mover = ConnectRaw();
        waiter.Execute("SELECT", "6");
        waiter.Send("BLPOP", "mv:b", "10");
        // Give the BLPOP time to block before the list arrives.
        Task.Delay(100).Wait();
        mover.Execute("RPUSH", "mv:b", "x");
        Assert.That(mover.Execute("MOVE", "mv:b", "6"), Is.EqualTo(":1\r\n"));
        Assert.That(waiter.ReadReply(), Is.EqualTo("*2\r\n$4\r\nmv:b\r\n$1\r\nx\r\n"));
    }

    [Test]
    public void InsideATransactionAndAScript()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "mv:t", "1");
        client.Execute("MULTI");
        client.Execute("MOVE", "mv:t", "7");
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n:1\r\n"));
        client.Execute("SET", "mv:script", "2");
        Assert.That(client.Execute("EVAL", "return redis.call('MOVE', KEYS[1], '7')", "1", "mv:script"), Is.EqualTo(":1\r\n"));
        client.Execute("SELECT", "7");
        Assert.That(client.Execute("MGET", "mv:t", "mv:script"), Is.EqualTo("*2\r\n$1\r\n1\r\n$1\r\n2\r\n"));
    }
}
