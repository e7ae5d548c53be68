using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;

namespace Garnet.test.Connection;

/// <summary>CLIENT and its subcommands.</summary>
[TestFixture]
public sealed class ClientCommandTests : ServerTestBase
{
    private static long ClientId(RawClient client)
    {
        string reply = client.Execute("CLIENT", "ID");
        Assert.That(reply, Does.Match(@"^:\d+\r\n$"));
        return long.Parse(reply.AsSpan(1, reply.Length - 3));
    }

    private static string Info(RawClient client) => ReplyText.Payload(client.Execute("CLIENT", "INFO"));

    [Test]
    public void IdsAreUniqueAndIncreasing()
    {
        using var first = ConnectRaw();
        using var second = ConnectRaw();
        long a = ClientId(first);
        long b = ClientId(second);
        Assert.That(b, Is.GreaterThan(a));
        Assert.That(ClientId(first), Is.EqualTo(a));
    }

    [Test]
    public void IdsFollowConnectionOrderAcrossEventLoops()
    {
        // Connections are spread over several event loops; ids are still handed out in accept order.
        var clients = new RawClient[16];
        try
        {
            for (int i = 0; i < clients.Length; i++)
                clients[i] = ConnectRaw();
            long previous = 0;
            for (int i = 0; i < clients.Length; i++)
            {
                long id = ClientId(clients[i]);
                Assert.That(id, Is.GreaterThan(previous), $"client {i}");
                previous = id;
            }
        }
        finally
        {
            foreach (var client in clients)
                client?.Dispose();
        }
    }

    [Test]
    public void SetNameAndGetName()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("CLIENT", "SETNAME", "my-conn"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("client", "getname"), Is.EqualTo("$7\r\nmy-conn\r\n"));
        Assert.That(client.Execute("CLIENT", "SETNAME", ""), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$-1\r\n"));
    }

    [TestCase("has space")]
    [TestCase("new\nline")]
    [TestCase("tab\t")]
    [TestCase("caf\u00e9")]
    public void SetNameRejectsSpecialCharacters(string name)
    {
        using var client = ConnectRaw();
        client.Execute("CLIENT", "SETNAME", "kept");
        Assert.That(client.Execute("CLIENT", "SETNAME", name), Is.EqualTo("-ERR Client names cannot contain spaces, newlines or special characters.\r\n"));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$4\r\nkept\r\n"));
    }

    [Test]
    public void SubcommandArityErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "SETNAME"), Is.EqualTo("-ERR wrong number of arguments for 'client|setname' command\r\n"));
        Assert.That(client.Execute("CLIENT", "SETNAME", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'client|setname' command\r\n"));
        Assert.That(client.Execute("CLIENT", "GETNAME", "x"), Is.EqualTo("-ERR wrong number of arguments for 'client|getname' command\r\n"));
        Assert.That(client.Execute("CLIENT", "ID", "x"), Is.EqualTo("-ERR wrong number of arguments for 'client|id' command\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL"), Is.EqualTo("-ERR wrong number of arguments for 'client|kill' command\r\n"));
        Assert.That(client.Execute("CLIENT", "SETINFO", "LIB-NAME"), Is.EqualTo("-ERR wrong number of arguments for 'client|setinfo' command\r\n"));
        Assert.That(client.Execute("CLIENT", "NO-EVICT"), Is.EqualTo("-ERR wrong number of arguments for 'client|no-evict' command\r\n"));
        Assert.That(client.Execute("CLIENT"), Is.EqualTo("-ERR wrong number of arguments for 'client' command\r\n"));
    }

    [Test]
    public void UnknownSubcommand()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "FOO"), Is.EqualTo("-ERR unknown subcommand 'FOO'. Try CLIENT HELP.\r\n"));
        Assert.That(client.Execute("client", "bar", "baz"), Is.EqualTo("-ERR unknown subcommand 'bar'. Try CLIENT HELP.\r\n"));
    }

    [Test]
    public void InfoDescribesThisConnection()
    {
        using var client = ConnectRaw();
        long id = ClientId(client);
        client.Execute("CLIENT", "SETNAME", "inspector");
        client.Execute("SELECT", "3");
        string reply = client.Execute("CLIENT", "INFO");
        Assert.That(reply, Does.StartWith("$"));
        string info = ReplyText.Payload(reply);
        Assert.That(info, Does.EndWith("\n"));
        Assert.That(info.Count(c => c == '\n'), Is.EqualTo(1));

        string[] names = info.TrimEnd('\n').Split(' ').Select(f => f.Substring(0, f.IndexOf('='))).ToArray();
        Assert.That(names, Is.EqualTo(new[]
        {
            "id", "addr", "laddr", "fd", "name", "age", "idle", "flags", "db", "sub", "psub", "ssub", "multi", "qbuf",
            "qbuf-free", "argv-mem", "multi-mem", "rbs", "rbp", "obl", "oll", "omem", "tot-mem", "events", "cmd", "user",
            "redir", "resp", "lib-name", "lib-ver",
        }));
        Assert.That(ReplyText.ClientField(info, "id"), Is.EqualTo(id.ToString()));
        Assert.That(ReplyText.ClientField(info, "addr"), Does.StartWith("127.0.0.1:"));
        Assert.That(ReplyText.ClientField(info, "laddr"), Is.EqualTo("127.0.0.1:" + Port));
        Assert.That(ReplyText.ClientField(info, "name"), Is.EqualTo("inspector"));
        Assert.That(ReplyText.ClientField(info, "flags"), Is.EqualTo("N"));
        Assert.That(ReplyText.ClientField(info, "db"), Is.EqualTo("3"));
        Assert.That(ReplyText.ClientField(info, "cmd"), Is.EqualTo("client|info"));
        Assert.That(ReplyText.ClientField(info, "user"), Is.EqualTo("default"));
        Assert.That(ReplyText.ClientField(info, "resp"), Is.EqualTo("2"));
        Assert.That(ReplyText.ClientField(info, "lib-name"), Is.EqualTo(""));
    }

    [Test]
    public void InfoReportsThisConnectionsBuffers()
    {
        using var client = ConnectRaw();
        string info = ReplyText.Payload(client.Execute("CLIENT", "INFO"));
        long Field(string name) => long.Parse(ReplyText.ClientField(info, name));

        Assert.That(Field("fd"), Is.GreaterThan(0));
        // The command being run is still in the receive buffer, as in Redis: *2 $6 CLIENT $4 INFO is 26 bytes.
        Assert.That(Field("qbuf"), Is.EqualTo(26));
        Assert.That(Field("rbs"), Is.GreaterThanOrEqualTo(26));
        Assert.That(Field("qbuf-free"), Is.EqualTo(Field("rbs") - 26));
        Assert.That(Field("rbp"), Is.GreaterThanOrEqualTo(26));
        Assert.That(Field("argv-mem"), Is.EqualTo("CLIENT".Length + "INFO".Length));
        Assert.That(Field("multi-mem"), Is.Zero);
        Assert.That(Field("obl"), Is.Zero);
        Assert.That(Field("oll"), Is.Zero);
        Assert.That(Field("omem"), Is.Zero);
        Assert.That(Field("tot-mem"), Is.GreaterThan(Field("rbs")));
        Assert.That(ReplyText.ClientField(info, "events"), Is.EqualTo("r"));

        // Replies already written in the same batch are output not yet sent.
        client.SendRaw(RawClient.Encode("ECHO", "hello") + RawClient.Encode("CLIENT", "INFO"));
        Assert.That(client.ReadReply(), Is.EqualTo("$5\r\nhello\r\n"));
        info = ReplyText.Payload(client.ReadReply());
        Assert.That(Field("obl"), Is.EqualTo("$5\r\nhello\r\n".Length));
    }

    [Test]
    public void ListShowsAnotherClientsPartialCommandAndQueuedTransaction()
    {
        using var observer = ConnectRaw();
        using var client = ConnectRaw();
        client.Execute("CLIENT", "SETNAME", "partial");
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "key", "value"), Is.EqualTo("+QUEUED\r\n"));
        string partial = "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$10\r\nabc";
        client.SendRaw(partial);

        string Line()
        {
            foreach (var line in ReplyText.Payload(observer.Execute("CLIENT", "LIST")).Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                if (line.Contains(" name=partial "))
                    return line;
            }
            throw new AssertionException("No client named partial in CLIENT LIST.");
        }
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        // Until the server has read the partial frame, qbuf is 0, or still the previous command's bytes
        // for the moment after its reply went out.
        string info = Line();
        while (ReplyText.ClientField(info, "qbuf") != partial.Length.ToString() && DateTime.UtcNow < deadline)
        {
            System.Threading.Thread.Sleep(10);
            info = Line();
        }
        Assert.That(ReplyText.ClientField(info, "qbuf"), Is.EqualTo(partial.Length.ToString()));
        Assert.That(ReplyText.ClientField(info, "multi"), Is.EqualTo("1"));
        // The queued SET key value: its three arguments' bytes, and an offset and a length for each.
        Assert.That(ReplyText.ClientField(info, "multi-mem"), Is.EqualTo(((3 + 3 + 5) + (3 * 8)).ToString()));
        Assert.That(ReplyText.ClientField(info, "argv-mem"), Is.EqualTo("0"));

        client.SendRaw("defghij\r\n");
        Assert.That(client.ReadReply(), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n+OK\r\n+OK\r\n"));
        // The reply goes out before the connection lets go of the batch that produced it.
        info = Line();
        while (ReplyText.ClientField(info, "qbuf") != "0" && DateTime.UtcNow < deadline)
        {
            System.Threading.Thread.Sleep(10);
            info = Line();
        }
        Assert.That(ReplyText.ClientField(info, "qbuf"), Is.EqualTo("0"));
        Assert.That(ReplyText.ClientField(info, "multi"), Is.EqualTo("-1"));
        Assert.That(ReplyText.ClientField(info, "multi-mem"), Is.EqualTo("0"));
        Assert.That(long.Parse(ReplyText.ClientField(info, "rbp")), Is.GreaterThanOrEqualTo(partial.Length));
    }

    [Test]
    public void ListShowsEveryConnectionWithItsLastCommand()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        long id = ClientId(client);
        long otherId = ClientId(other);
        other.Execute("GET", "x");

        string list = ReplyText.Payload(client.Execute("CLIENT", "LIST"));
        string[] lines = list.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(list, Does.EndWith("\n"));
        Assert.That(lines.Length, Is.EqualTo(2));
        string mine = lines.Single(l => ReplyText.ClientField(l, "id") == id.ToString());
        string theirs = lines.Single(l => ReplyText.ClientField(l, "id") == otherId.ToString());
        Assert.That(ReplyText.ClientField(mine, "cmd"), Is.EqualTo("client|list"));
        Assert.That(ReplyText.ClientField(theirs, "cmd"), Is.EqualTo("get"));
    }

    [Test]
    public void ListFilters()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        long id = ClientId(client);
        long otherId = ClientId(other);

        string byId = ReplyText.Payload(client.Execute("CLIENT", "LIST", "ID", otherId.ToString(), "999999"));
        Assert.That(byId.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => ReplyText.ClientField(l, "id")), Is.EqualTo(new[] { otherId.ToString() }));

        string normal = ReplyText.Payload(client.Execute("CLIENT", "LIST", "TYPE", "normal"));
        Assert.That(normal.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length, Is.EqualTo(2));
        Assert.That(client.Execute("CLIENT", "LIST", "TYPE", "pubsub"), Is.EqualTo("$0\r\n\r\n"));
        Assert.That(client.Execute("CLIENT", "LIST", "TYPE", "replica"), Is.EqualTo("$0\r\n\r\n"));

        Assert.That(client.Execute("CLIENT", "LIST", "TYPE", "bogus"), Is.EqualTo("-ERR Unknown client type 'bogus'\r\n"));
        Assert.That(client.Execute("CLIENT", "LIST", "ID", "abc"), Is.EqualTo("-ERR Invalid client ID\r\n"));
        Assert.That(client.Execute("CLIENT", "LIST", "ID"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "LIST", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(id, Is.Not.EqualTo(otherId));
    }

    [Test]
    public void ListIsVerbatimInResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        string reply = client.Execute("CLIENT", "LIST");
        Assert.That(reply, Does.StartWith("="));
        Assert.That(reply, Does.Contain("\r\ntxt:id="));
        Assert.That(ReplyText.ClientField(ReplyText.Payload(reply), "resp"), Is.EqualTo("3"));
    }

    [Test]
    public void KillByIdEndsTheOtherConnection()
    {
        using var killer = ConnectRaw();
        using var victim = ConnectRaw();
        long victimId = ClientId(victim);

        Assert.That(killer.Execute("CLIENT", "KILL", "ID", victimId.ToString()), Is.EqualTo(":1\r\n"));
        victim.Send("PING");
        Assert.That(victim.IsClosedByServer(), Is.True);
        Assert.That(killer.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(killer.Execute("CLIENT", "KILL", "ID", victimId.ToString()), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void IdleClientsHoldNoBuffers()
    {
        using var observer = ConnectRaw();
        var idle = new List<RawClient>();
        try
        {
            for (int i = 0; i < 20; i++)
            {
                var client = ConnectRaw();
                idle.Add(client);
                client.Execute("CLIENT", "SETNAME", "idle" + i);
                Assert.That(client.Execute("SET", "k" + i, new string('v', 1000)), Is.EqualTo("+OK\r\n"));
                Assert.That(client.Execute("GET", "k" + i), Does.StartWith("$1000\r\n"));
            }
            // Between batches a connection gives its receive and send buffers back (the event loop lends them again). A
            // client has its reply a moment before its loop finishes the batch, so the last ones may still be on their way.
            string? holding = null;
            var deadline = DateTime.UtcNow.AddSeconds(10);
            do
            {
                holding = null;
                foreach (var line in ReplyText.Payload(observer.Execute("CLIENT", "LIST")).Split('\n', StringSplitOptions.RemoveEmptyEntries))
                {
                    if (line.Contains(" name=idle") && (ReplyText.ClientField(line, "qbuf"), ReplyText.ClientField(line, "rbs"), ReplyText.ClientField(line, "tot-mem")) != ("0", "0", "0"))
                        holding = line;
                }
                if (holding != null)
                    Thread.Sleep(10);
            }
            while (holding != null && DateTime.UtcNow < deadline);
            Assert.That(holding, Is.Null, "an idle client still holds buffers");
        }
        finally
        {
            foreach (var client in idle)
                client.Dispose();
        }
    }

    [Test]
    public void KillClosesAnIdleConnectionAndRemovesItFromTheList()
    {
        using var killer = ConnectRaw();
        using var victim = ConnectRaw();
        long victimId = ClientId(victim);

        Assert.That(killer.Execute("CLIENT", "KILL", "ID", victimId.ToString()), Is.EqualTo(":1\r\n"));
        Assert.That(victim.IsClosedByServer(), Is.True, "closed without the victim sending anything");

        string list = "";
        for (int attempt = 0; attempt < 500; attempt++)
        {
            list = ReplyText.Payload(killer.Execute("CLIENT", "LIST"));
            if (!list.Contains($"id={victimId} "))
                break;
            System.Threading.Thread.Sleep(10);
        }
        Assert.That(list, Does.Not.Contain($"id={victimId} "));
        Assert.That(list.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length, Is.EqualTo(1));
    }

    [Test]
    public void KillByAddressOldForm()
    {
        using var killer = ConnectRaw();
        using var victim = ConnectRaw();
        string address = ReplyText.ClientField(Info(victim), "addr");

        Assert.That(killer.Execute("CLIENT", "KILL", address), Is.EqualTo("+OK\r\n"));
        victim.Send("PING");
        Assert.That(victim.IsClosedByServer(), Is.True);
        Assert.That(killer.Execute("CLIENT", "KILL", address), Is.EqualTo("-ERR No such client\r\n"));
        Assert.That(killer.Execute("CLIENT", "KILL", "1.2.3.4:5"), Is.EqualTo("-ERR No such client\r\n"));
    }

    [Test]
    public void KillByAddrFilterAndSkipMe()
    {
        using var client = ConnectRaw();
        string address = ReplyText.ClientField(Info(client), "addr");
        string local = ReplyText.ClientField(Info(client), "laddr");

        Assert.That(client.Execute("CLIENT", "KILL", "ADDR", address), Is.EqualTo(":0\r\n"), "SKIPME defaults to yes");
        Assert.That(client.Execute("CLIENT", "KILL", "ADDR", address, "SKIPME", "yes"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "LADDR", "1.2.3.4:1"), Is.EqualTo(":0\r\n"));

        using var other = ConnectRaw();
        other.Execute("PING");
        Assert.That(client.Execute("CLIENT", "KILL", "LADDR", local, "TYPE", "normal", "USER", "default"), Is.EqualTo(":1\r\n"));
        other.Send("PING");
        Assert.That(other.IsClosedByServer(), Is.True);

        client.Send("CLIENT", "KILL", "ADDR", address, "SKIPME", "no");
        Assert.That(client.ReadToEnd(), Is.EqualTo(":1\r\n"), "killing itself replies, then closes");
    }

    [Test]
    public void KillFilterErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "KILL", "ID", "0"), Is.EqualTo("-ERR client-id should be greater than 0\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "ID", "x"), Is.EqualTo("-ERR client-id should be greater than 0\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "TYPE", "x"), Is.EqualTo("-ERR Unknown client type 'x'\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "USER", "bob"), Is.EqualTo("-ERR No such user 'bob'\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "SKIPME", "maybe"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "MAXAGE", "old"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "BOGUS", "1"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "ID", "1", "ADDR"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "TYPE", "pubsub", "SKIPME", "no"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void KillOldFormMayEndTheCallerItself()
    {
        using var client = ConnectRaw();
        string address = ReplyText.ClientField(Info(client), "addr");
        // The old form does not spare the caller (there is no SKIPME): it replies, then closes.
        client.Send("CLIENT", "KILL", address);
        Assert.That(client.ReadToEnd(), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void KillByTypeMatchesSubscribersAsPubSubAndNoReplicationClients()
    {
        using var killer = ConnectRaw();
        using var subscriber = ConnectRaw();
        using var normal = ConnectRaw();
        Assert.That(subscriber.Execute("SUBSCRIBE", "ch"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
        normal.Execute("PING");

        foreach (var type in new[] { "master", "replica", "SLAVE" })
            Assert.That(killer.Execute("CLIENT", "KILL", "TYPE", type), Is.EqualTo(":0\r\n"), type);
        Assert.That(killer.Execute("CLIENT", "KILL", "TYPE", "pubsub"), Is.EqualTo(":1\r\n"));
        Assert.That(subscriber.IsClosedByServer(), Is.True);
        Assert.That(normal.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        // Filters are ANDed: a normal client with another client's id matches nothing.
        string normalId = ReplyText.ClientField(Info(normal), "id");
        Assert.That(killer.Execute("CLIENT", "KILL", "ID", normalId, "TYPE", "pubsub"), Is.EqualTo(":0\r\n"));
        Assert.That(killer.Execute("CLIENT", "KILL", "ID", normalId, "TYPE", "normal", "USER", "default"), Is.EqualTo(":1\r\n"));
        Assert.That(normal.IsClosedByServer(), Is.True);
    }

    [Test]
    public void KillByMaxAgeSparesYoungerConnections()
    {
        using var killer = ConnectRaw();
        using var young = ConnectRaw();
        young.Execute("PING");
        Assert.That(killer.Execute("CLIENT", "KILL", "MAXAGE", "3600", "SKIPME", "no"), Is.EqualTo(":0\r\n"));
        Assert.That(young.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void SetInfoRecordsLibraryDetails()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "SETINFO", "LIB-NAME", "redis-py"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "SETINFO", "lib-ver", "5.0.1"), Is.EqualTo("+OK\r\n"));
        string info = Info(client);
        Assert.That(ReplyText.ClientField(info, "lib-name"), Is.EqualTo("redis-py"));
        Assert.That(ReplyText.ClientField(info, "lib-ver"), Is.EqualTo("5.0.1"));

        Assert.That(client.Execute("CLIENT", "SETINFO", "LIB-COLOR", "red"), Is.EqualTo("-ERR Unrecognized option 'LIB-COLOR'\r\n"));
        Assert.That(client.Execute("CLIENT", "SETINFO", "lib-name", "a b"), Is.EqualTo("-ERR lib-name cannot contain spaces, newlines or special characters.\r\n"));
        Assert.That(ReplyText.ClientField(Info(client), "lib-name"), Is.EqualTo("redis-py"));
    }

    [Test]
    public void NoEvictAndNoTouchShowAsFlags()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CLIENT", "NO-EVICT", "on"), Is.EqualTo("+OK\r\n"));
        Assert.That(ReplyText.ClientField(Info(client), "flags"), Is.EqualTo("e"));
        Assert.That(client.Execute("CLIENT", "NO-TOUCH", "ON"), Is.EqualTo("+OK\r\n"));
        Assert.That(ReplyText.ClientField(Info(client), "flags"), Is.EqualTo("eT"));
        Assert.That(client.Execute("CLIENT", "NO-EVICT", "off"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "NO-TOUCH", "Off"), Is.EqualTo("+OK\r\n"));
        Assert.That(ReplyText.ClientField(Info(client), "flags"), Is.EqualTo("N"));
        Assert.That(client.Execute("CLIENT", "NO-EVICT", "maybe"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("CLIENT", "NO-TOUCH", "1"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void HelpListsTheSubcommands()
    {
        using var client = ConnectRaw();
        string help = client.Execute("CLIENT", "HELP");
        Assert.That(help, Does.StartWith("*"));
        Assert.That(help, Does.Contain("+CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"));
        foreach (string subcommand in new[] { "ID", "INFO", "LIST", "KILL", "GETNAME", "SETNAME", "SETINFO", "NO-EVICT", "NO-TOUCH", "HELP" })
            Assert.That(help, Does.Contain("\r\n+" + subcommand), subcommand);
        Assert.That(help, Does.EndWith("+HELP\r\n+    Print this help.\r\n"));
    }

    [Test]
    public void StackExchangeRedisSeesItsConnections()
    {
        using var redis = Connect();
        var server = redis.GetServer("127.0.0.1", Port);
        var clients = server.ClientList();
        Assert.That(clients.Length, Is.GreaterThanOrEqualTo(1));
        Assert.That(clients.All(c => c.Address != null), Is.True);
    }
}
