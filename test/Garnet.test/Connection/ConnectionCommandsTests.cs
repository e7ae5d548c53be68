using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>PING, ECHO, QUIT, SELECT, SWAPDB and RESET.</summary>
[TestFixture]
public sealed class ConnectionCommandsTests : ServerTestBase
{
    [Test]
    public void PingRepliesPongOrEchoesItsArgument()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.Execute("ping", "hello world"), Is.EqualTo("$11\r\nhello world\r\n"));
        Assert.That(client.Execute("PING", ""), Is.EqualTo("$0\r\n\r\n"));
        Assert.That(client.Execute("PING", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'ping' command\r\n"));
    }

    [Test]
    public void PingIsTheSameInResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.Execute("PING", "x"), Is.EqualTo("$1\r\nx\r\n"));
    }

    [Test]
    public void PingInlineWorks()
    {
        using var client = ConnectRaw();
        client.SendRaw("PING\r\n");
        Assert.That(client.ReadReply(), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void EchoReturnsItsArgumentAsBulk()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ECHO", "hi"), Is.EqualTo("$2\r\nhi\r\n"));
        Assert.That(client.Execute("ECHO", "a\r\nb"), Is.EqualTo("$4\r\na\r\nb\r\n"));
        Assert.That(client.Execute("ECHO"), Is.EqualTo("-ERR wrong number of arguments for 'echo' command\r\n"));
        Assert.That(client.Execute("ECHO", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'echo' command\r\n"));
    }

    [Test]
    public void EchoThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That((string?)db.Execute("ECHO", "value"), Is.EqualTo("value"));
        Assert.That(db.Ping().TotalMilliseconds, Is.GreaterThanOrEqualTo(0));
    }

    [Test]
    public void QuitRepliesOkAndClosesTheConnection()
    {
        using var client = ConnectRaw();
        client.Send("QUIT");
        Assert.That(client.ReadToEnd(), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void QuitDropsCommandsPipelinedAfterIt()
    {
        using var client = ConnectRaw();
        client.SendRaw(RawClient.Encode("PING") + RawClient.Encode("QUIT") + RawClient.Encode("PING"));
        Assert.That(client.ReadToEnd(), Is.EqualTo("+PONG\r\n+OK\r\n"));
    }

    [Test]
    public void SelectValidatesTheIndex()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SELECT", "15"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SELECT", "16"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("SELECT", "-1"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("SELECT", "abc"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("SELECT", "1.5"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("SELECT", "99999999999"), Is.EqualTo("-ERR value is out of range, value must between -2147483648 and 2147483647\r\n"));
        Assert.That(client.Execute("SELECT", "99999999999999999999"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("SELECT"), Is.EqualTo("-ERR wrong number of arguments for 'select' command\r\n"));
        Assert.That(client.Execute("SELECT", "0"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void SelectedDatabasesAreIsolated()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "key", "zero"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SELECT", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "key"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("SET", "key", "one"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SELECT", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "key"), Is.EqualTo("$4\r\nzero\r\n"));

        using var other = ConnectRaw();
        Assert.That(other.Execute("GET", "key"), Is.EqualTo("$4\r\nzero\r\n"));
        other.Execute("SELECT", "1");
        Assert.That(other.Execute("GET", "key"), Is.EqualTo("$3\r\none\r\n"));
    }

    [Test]
    public void SelectInsideAPipelineAppliesToTheFollowingCommands()
    {
        using var client = ConnectRaw();
        client.SendRaw(RawClient.Encode("SELECT", "2") + RawClient.Encode("SET", "k", "v") + RawClient.Encode("SELECT", "0") + RawClient.Encode("GET", "k"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("$-1\r\n"));
        client.Execute("SELECT", "2");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void SelectThroughStackExchangeRedis()
    {
        using var redis = Connect();
        redis.GetDatabase(3).StringSet("k", "three");
        Assert.That((string?)redis.GetDatabase(3).StringGet("k"), Is.EqualTo("three"));
        Assert.That(redis.GetDatabase(4).StringGet("k").IsNull, Is.True);
    }

    [Test]
    public void SwapDbExchangesContentsForEveryConnection()
    {
        using var client = ConnectRaw();
        using var bystander = ConnectRaw();
        Assert.That(bystander.Execute("SELECT", "1"), Is.EqualTo("+OK\r\n"));
        client.Execute("SET", "a", "zero");
        client.Execute("SELECT", "1");
        client.Execute("SET", "a", "one");
        client.Execute("SET", "only-in-one", "x");
        client.Execute("SELECT", "0");

        Assert.That(client.Execute("SWAPDB", "0", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$3\r\none\r\n"));
        Assert.That(client.Execute("GET", "only-in-one"), Is.EqualTo("$1\r\nx\r\n"));
        Assert.That(bystander.Execute("GET", "a"), Is.EqualTo("$4\r\nzero\r\n"));
        Assert.That(bystander.Execute("GET", "only-in-one"), Is.EqualTo("$-1\r\n"));

        Assert.That(client.Execute("SWAPDB", "1", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "a"), Is.EqualTo("$4\r\nzero\r\n"));
        Assert.That(bystander.Execute("GET", "a"), Is.EqualTo("$3\r\none\r\n"));
    }

    [Test]
    public void SwapDbWithAnEmptyDatabaseAndWithItself()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        Assert.That(client.Execute("SWAPDB", "0", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("SWAPDB", "0", "9"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        client.Execute("SELECT", "9");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void SwapDbErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SWAPDB", "x", "1"), Is.EqualTo("-ERR invalid first DB index\r\n"));
        Assert.That(client.Execute("SWAPDB", "0", "y"), Is.EqualTo("-ERR invalid second DB index\r\n"));
        Assert.That(client.Execute("SWAPDB", "0", "16"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("SWAPDB", "-1", "0"), Is.EqualTo("-ERR DB index is out of range\r\n"));
        Assert.That(client.Execute("SWAPDB", "0"), Is.EqualTo("-ERR wrong number of arguments for 'swapdb' command\r\n"));
    }

    [Test]
    public void ResetRestoresAFreshConnectionState()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3", "SETNAME", "named");
        client.Execute("SELECT", "5");
        client.Execute("CLIENT", "NO-EVICT", "on");
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));

        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$-1\r\n"));
        string info = ReplyText.Payload(client.Execute("CLIENT", "INFO"));
        Assert.That(ReplyText.ClientField(info, "db"), Is.EqualTo("0"));
        Assert.That(ReplyText.ClientField(info, "resp"), Is.EqualTo("2"));
        Assert.That(ReplyText.ClientField(info, "flags"), Is.EqualTo("N"));
        Assert.That(client.Execute("RESET", "extra"), Is.EqualTo("-ERR wrong number of arguments for 'reset' command\r\n"));
    }
}

/// <summary>RESET when the server has a password: the connection must authenticate again.</summary>
[TestFixture]
public sealed class ResetWithPasswordTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { Password = "secret" };

    [Test]
    public void ResetDeauthenticates()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "secret"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
    }
}
