using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Connection;

/// <summary>HELLO and AUTH on a server without a password.</summary>
[TestFixture]
public sealed class HelloAuthTests : ServerTestBase
{
    private static string HelloReply(int protocol, string id)
    {
        string fields =
            "$6\r\nserver\r\n$5\r\nredis\r\n" +
            "$7\r\nversion\r\n$5\r\n7.2.5\r\n" +
            $"$5\r\nproto\r\n:{protocol}\r\n" +
            $"$2\r\nid\r\n:{id}\r\n" +
            "$4\r\nmode\r\n$10\r\nstandalone\r\n" +
            "$4\r\nrole\r\n$6\r\nmaster\r\n" +
            "$7\r\nmodules\r\n*0\r\n";
        return (protocol == 3 ? "%7\r\n" : "*14\r\n") + fields;
    }

    private static string ClientId(RawClient client) => client.Execute("CLIENT", "ID").Trim(':', '\r', '\n');

    [Test]
    public void HelloWithoutArgumentsReportsTheCurrentProtocol()
    {
        using var client = ConnectRaw();
        string id = ClientId(client);
        Assert.That(client.Execute("HELLO"), Is.EqualTo(HelloReply(2, id)));
    }

    [Test]
    public void Hello2RepliesWithAFlatArray()
    {
        using var client = ConnectRaw();
        string id = ClientId(client);
        Assert.That(client.Execute("HELLO", "2"), Is.EqualTo(HelloReply(2, id)));
    }

    [Test]
    public void Hello3SwitchesToResp3()
    {
        using var client = ConnectRaw();
        string id = ClientId(client);
        Assert.That(client.Execute("HELLO", "3"), Is.EqualTo(HelloReply(3, id)));

        Assert.That(client.Execute("GET", "missing"), Is.EqualTo("_\r\n"));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("_\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "databases"), Is.EqualTo("%1\r\n$9\r\ndatabases\r\n$2\r\n16\r\n"));
        Assert.That(client.Execute("CLIENT", "INFO"), Does.StartWith("=").And.Contains("txt:id=" + id + " ").And.Contains(" resp=3 "));
        Assert.That(client.Execute("HELLO"), Is.EqualTo(HelloReply(3, id)));

        Assert.That(client.Execute("HELLO", "2"), Is.EqualTo(HelloReply(2, id)));
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void HelloRejectsUnknownProtocols()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HELLO", "1"), Is.EqualTo("-NOPROTO unsupported protocol version\r\n"));
        Assert.That(client.Execute("HELLO", "4"), Is.EqualTo("-NOPROTO unsupported protocol version\r\n"));
        Assert.That(client.Execute("HELLO", "three"), Is.EqualTo("-ERR Protocol version is not an integer or out of range\r\n"));
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void HelloSetNameNamesTheConnection()
    {
        using var client = ConnectRaw();
        string id = ClientId(client);
        Assert.That(client.Execute("HELLO", "3", "SETNAME", "worker-1"), Is.EqualTo(HelloReply(3, id)));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$8\r\nworker-1\r\n"));
        Assert.That(client.Execute("HELLO", "3", "SETNAME", "bad name"), Is.EqualTo("-ERR Client names cannot contain spaces, newlines or special characters.\r\n"));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$8\r\nworker-1\r\n"));
    }

    [Test]
    public void HelloOptionSyntaxErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HELLO", "3", "BOGUS"), Is.EqualTo("-ERR Syntax error in HELLO option 'BOGUS'\r\n"));
        Assert.That(client.Execute("HELLO", "3", "AUTH", "default"), Is.EqualTo("-ERR Syntax error in HELLO option 'AUTH'\r\n"));
        Assert.That(client.Execute("HELLO", "3", "SETNAME"), Is.EqualTo("-ERR Syntax error in HELLO option 'SETNAME'\r\n"));
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo("$-1\r\n"), "a failed HELLO keeps RESP2");
    }

    [Test]
    public void HelloAuthWithoutAPasswordAcceptsTheDefaultUserOnly()
    {
        using var client = ConnectRaw();
        string id = ClientId(client);
        Assert.That(client.Execute("HELLO", "2", "AUTH", "default", "anything"), Is.EqualTo(HelloReply(2, id)));
        Assert.That(client.Execute("HELLO", "2", "AUTH", "someone", "anything"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
    }

    [Test]
    public void AuthWithoutAConfiguredPassword()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "pass"), Is.EqualTo("-ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?\r\n"));
        Assert.That(client.Execute("AUTH", "default", "pass"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("AUTH", "other", "pass"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        Assert.That(client.Execute("AUTH", "a", "b", "c"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("AUTH"), Is.EqualTo("-ERR wrong number of arguments for 'auth' command\r\n"));
    }
}

/// <summary>HELLO and AUTH on a server with a password.</summary>
[TestFixture]
public sealed class HelloAuthWithPasswordTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { Password = "s3cret" };

    [Test]
    public void CommandsNeedAuthentication()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
        Assert.That(client.Execute("AUTH", "wrong"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
        Assert.That(client.Execute("AUTH", "s3cret"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void AuthWithUserName()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "nobody", "s3cret"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        Assert.That(client.Execute("AUTH", "default", "wrong"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        Assert.That(client.Execute("AUTH", "default", "s3cret"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void AFailedAuthKeepsAnEarlierSuccess()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "s3cret"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("AUTH", "wrong"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void HelloNeedsAuthenticationOrAuthOption()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HELLO", "3"), Is.EqualTo(
            "-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time\r\n"));
        Assert.That(client.Execute("HELLO", "3", "AUTH", "default", "wrong"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));

        string reply = client.Execute("HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "me");
        Assert.That(reply, Does.StartWith("%7\r\n$6\r\nserver\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("_\r\n"));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$2\r\nme\r\n"));
    }

    [Test]
    public void StackExchangeRedisConnectsWithThePassword()
    {
        var options = ClientOptions();
        options.Password = "s3cret";
        using var redis = Connect(options);
        var db = redis.GetDatabase();
        db.StringSet("k", "v");
        Assert.That((string?)db.StringGet("k"), Is.EqualTo("v"));
    }
}
