using NUnit.Framework;

namespace Garnet.test.Blocking;

/// <summary>BZPOPMIN, BZPOPMAX and BZMPOP.</summary>
public class BlockingSortedSetTests : BlockingTestBase
{
    [Test]
    public void BzpopServesImmediately()
    {
        using var client = ConnectRaw();
        client.Execute("ZADD", "z", "1", "a", "2.5", "b", "3", "c");
        Assert.That(client.Execute("BZPOPMIN", "z", "0"), Is.EqualTo("*3\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\n1\r\n"));
        Assert.That(client.Execute("BZPOPMAX", "missing", "z", "0"), Is.EqualTo("*3\r\n$1\r\nz\r\n$1\r\nc\r\n$1\r\n3\r\n"));
        Assert.That(client.Execute("BZPOPMIN", "z", "1"), Is.EqualTo("*3\r\n$1\r\nz\r\n$1\r\nb\r\n$3\r\n2.5\r\n"));
        Assert.That(client.Execute("EXISTS", "z"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void BzpopScoreIsDoubleInResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("ZADD", "z", "1.5", "a");
        Assert.That(client.Execute("BZPOPMIN", "z", "0"), Is.EqualTo("*3\r\n$1\r\nz\r\n$1\r\na\r\n,1.5\r\n"));
        Assert.That(client.Execute("BZPOPMAX", "z", "0.01"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void BzpopWokenByZadd()
    {
        using var min = BlockedClient(1, "BZPOPMIN", "z", "0");
        using var max = BlockedClient(2, "BZPOPMAX", "z", "0");
        using var writer = ConnectRaw();
        Assert.That(writer.Execute("ZADD", "z", "5", "five", "-1", "minus"), Is.EqualTo(":2\r\n"));
        Assert.That(min.ReadReply(), Is.EqualTo("*3\r\n$1\r\nz\r\n$5\r\nminus\r\n$2\r\n-1\r\n"));
        Assert.That(max.ReadReply(), Is.EqualTo("*3\r\n$1\r\nz\r\n$4\r\nfive\r\n$1\r\n5\r\n"));
        Assert.That(writer.Execute("EXISTS", "z"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void BzpopWokenByStoreCommand()
    {
        using var writer = ConnectRaw();
        writer.Execute("ZADD", "a", "1", "x");
        writer.Execute("ZADD", "b", "2", "y");
        using var blocked = BlockedClient(1, "BZPOPMAX", "dst", "0");
        Assert.That(writer.Execute("ZUNIONSTORE", "dst", "2", "a", "b"), Is.EqualTo(":2\r\n"));
        Assert.That(blocked.ReadReply(), Is.EqualTo("*3\r\n$3\r\ndst\r\n$1\r\ny\r\n$1\r\n2\r\n"));
        Assert.That(writer.Execute("ZRANGE", "dst", "0", "-1"), Is.EqualTo("*1\r\n$1\r\nx\r\n"));
    }

    [Test]
    public void BzpopTimeoutAndErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BZPOPMIN", "z", "0.02"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("BZPOPMAX", "z", "x"), Is.EqualTo("-ERR timeout is not a float or out of range\r\n"));
        Assert.That(client.Execute("BZPOPMAX", "z", "-3"), Is.EqualTo("-ERR timeout is negative\r\n"));
        client.Execute("RPUSH", "list", "a");
        Assert.That(client.Execute("BZPOPMIN", "list", "0"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("BZPOPMIN", "z"), Is.EqualTo("-ERR wrong number of arguments for 'bzpopmin' command\r\n"));
    }

    [Test]
    public void BzmpopServesImmediately()
    {
        using var client = ConnectRaw();
        client.Execute("ZADD", "z", "1", "a", "2", "b", "3", "c");
        Assert.That(client.Execute("BZMPOP", "0", "2", "missing", "z", "MIN", "COUNT", "2"),
            Is.EqualTo("*2\r\n$1\r\nz\r\n*2\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n"));
        Assert.That(client.Execute("BZMPOP", "0", "1", "z", "max"), Is.EqualTo("*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n"));
        Assert.That(client.Execute("BZMPOP", "0.01", "1", "z", "MAX"), Is.EqualTo("*-1\r\n"));
    }

    [Test]
    public void BzmpopErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("BZMPOP", "0", "0", "z", "MIN"), Is.EqualTo("-ERR numkeys should be greater than 0\r\n"));
        Assert.That(client.Execute("BZMPOP", "0", "3", "z", "MIN"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BZMPOP", "0", "1", "z", "LEFT"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BZMPOP", "0", "1", "z", "MIN", "COUNT", "-1"), Is.EqualTo("-ERR count should be greater than 0\r\n"));
        Assert.That(client.Execute("BZMPOP", "0", "1", "z", "MIN", "LIMIT", "1"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("BZMPOP", "bad", "1", "z", "MIN"), Is.EqualTo("-ERR timeout is not a float or out of range\r\n"));
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("BZMPOP", "0", "1", "s", "MIN"), Does.StartWith("-WRONGTYPE"));
    }

    [Test]
    public void BzmpopWokenByZadd()
    {
        using var blocked = BlockedClient(1, "BZMPOP", "0", "2", "z1", "z2", "MAX", "COUNT", "10");
        using var writer = ConnectRaw();
        writer.Execute("ZADD", "z2", "1", "x", "2", "y");
        Assert.That(blocked.ReadReply(), Is.EqualTo("*2\r\n$2\r\nz2\r\n*2\r\n*2\r\n$1\r\ny\r\n$1\r\n2\r\n*2\r\n$1\r\nx\r\n$1\r\n1\r\n"));
    }

    [Test]
    public void BzmpopResp3Shape()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("ZADD", "z", "1", "a");
        Assert.That(client.Execute("BZMPOP", "0", "1", "z", "MIN"), Is.EqualTo("*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\na\r\n,1\r\n"));
    }
}
