using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>CONFIG GET / SET / RESETSTAT / REWRITE / HELP.</summary>
[TestFixture]
public sealed class ConfigTests : ServerTestBase
{
    /// <summary>Parses a RESP2 CONFIG GET reply (a flat array of bulk strings) into name → value.</summary>
    internal static Dictionary<string, string> ConfigGet(RawClient client, params string[] patterns)
    {
        string reply = client.Execute(["CONFIG", "GET", .. patterns]);
        Assert.That(reply, Does.StartWith("*"));
        var lines = reply.Split("\r\n");
        int count = int.Parse(lines[0].Substring(1));
        var values = new Dictionary<string, string>();
        for (int i = 0; i < count; i += 2)
            values.Add(lines[2 + (2 * i)], lines[4 + (2 * i)]);
        return values;
    }

    [Test]
    public void GetExactNamesByteExact()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "databases"), Is.EqualTo("*2\r\n$9\r\ndatabases\r\n$2\r\n16\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "save"), Is.EqualTo("*2\r\n$4\r\nsave\r\n$0\r\n\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "appendonly"), Is.EqualTo("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "timeout"), Is.EqualTo("*2\r\n$7\r\ntimeout\r\n$1\r\n0\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "maxmemory"), Is.EqualTo("*2\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "nonexistent"), Is.EqualTo("*0\r\n"));
        // An exact name comes back as it was asked for; a pattern's matches under their own names.
        Assert.That(client.Execute("CONFIG", "GET", "DataBases"), Is.EqualTo("*2\r\n$9\r\nDataBases\r\n$2\r\n16\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "DATABASE?"), Is.EqualTo("*2\r\n$9\r\ndatabases\r\n$2\r\n16\r\n"));
    }

    [Test]
    public void GetReportsTheServerOptions()
    {
        using var client = ConnectRaw();
        var values = ConfigGet(client, "port", "bind", "enable-debug-command", "memory", "page", "index", "index-max-size");
        Assert.That(values["port"], Is.EqualTo(Port.ToString()));
        Assert.That(values["bind"], Is.EqualTo("127.0.0.1"));
        Assert.That(values["enable-debug-command"], Is.EqualTo("yes"));
        Assert.That(values["memory"], Is.EqualTo((1L << 28).ToString()));
        Assert.That(values["page"], Is.EqualTo((1L << 22).ToString()));
        Assert.That(values["index"], Is.EqualTo((1L << 20).ToString()));
        Assert.That(values["index-max-size"], Is.EqualTo((1L << 32).ToString()));
    }

    [Test]
    public void GetMatchesGlobPatternsCaseInsensitively()
    {
        using var client = ConnectRaw();
        Assert.That(ConfigGet(client, "max*").Keys, Is.EquivalentTo(new[] { "maxmemory", "maxmemory-policy", "maxclients", "maxmemory-samples", "maxmemory-eviction-tenacity", "maxmemory-clients" }));
        Assert.That(ConfigGet(client, "MAXMEMORY").Keys, Is.EquivalentTo(new[] { "MAXMEMORY" }), "an exact name is echoed as given");
        Assert.That(ConfigGet(client, "p?rt").Keys, Is.EquivalentTo(new[] { "port" }));
        Assert.That(ConfigGet(client, "*read-only").Keys, Is.EquivalentTo(new[] { "replica-read-only", "slave-read-only" }));
        Assert.That(ConfigGet(client, "p[ao]*").Keys, Is.EquivalentTo(new[] { "port", "page" }));

        var all = ConfigGet(client, "*");
        Assert.That(all.Keys, Is.SupersetOf(new[] { "port", "bind", "databases", "maxmemory", "save", "appendonly", "timeout", "requirepass", "dir" }));
    }

    [Test]
    public void GetWithSeveralPatternsListsEachParameterOnce()
    {
        using var client = ConnectRaw();
        var values = ConfigGet(client, "port", "p*", "databases");
        Assert.That(values.Keys.Count(k => k == "port"), Is.EqualTo(1));
        Assert.That(values.Keys, Does.Contain("databases").And.Contain("page"));
    }

    [Test]
    public void GetIsAMapInResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("CONFIG", "GET", "timeout", "appendonly"), Is.EqualTo("%2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n$7\r\ntimeout\r\n$1\r\n0\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "nothing"), Is.EqualTo("%0\r\n"));
    }

    [Test]
    public void SetRequirePassChangesAuthentication()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "requirepass", "pw"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"), "this connection stays authenticated");
        Assert.That(ConfigGet(client, "requirepass")["requirepass"], Is.EqualTo("pw"));

        using (var fresh = ConnectRaw())
        {
            Assert.That(fresh.Execute("PING"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
            Assert.That(fresh.Execute("AUTH", "pw"), Is.EqualTo("+OK\r\n"));
            Assert.That(fresh.Execute("CONFIG", "SET", "requirepass", ""), Is.EqualTo("+OK\r\n"));
        }
        using var after = ConnectRaw();
        Assert.That(after.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void SetAcceptsTheOnlySupportedValueOfFixedParameters()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "save", ""), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "replica-read-only", "yes", "maxmemory", "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "REPLICA-READ-ONLY", "YES"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "replica-read-only", "no"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'replica-read-only') - this server only supports 'yes'\r\n"));
        // appendonly changes at runtime (Durability/AppendOnlyToggleTests.cs); turning it off while off changes nothing.
        Assert.That(client.Execute("CONFIG", "SET", "appendonly", "no"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void SetErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "no-such-thing", "1"), Is.EqualTo("-ERR Unknown option or number of arguments for CONFIG SET - 'no-such-thing'\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "unixsocket", "/tmp/x"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'unixsocket') - can't set immutable config\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "Databases", "2"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'Databases') - can't set immutable config\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "save", "", "save", ""), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'save') - duplicate parameter\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "timeout"), Is.EqualTo("-ERR wrong number of arguments for 'config|set' command\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "timeout", "0", "save"), Is.EqualTo("-ERR wrong number of arguments for 'config|set' command\r\n"));
    }

    [Test]
    public void SetRefusesMalformedValuesInRedissWords()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "timeout", "abc"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'timeout') - argument couldn't be parsed into an integer\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "lua-time-limit", "abc"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'lua-time-limit') - argument couldn't be parsed into an integer\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "abc"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory", "99999999999999999999"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "maxmemory-policy", "lru"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "lfu-log-factor", "-1"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'lfu-log-factor') - argument must be between 0 and 2147483647 inclusive\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "protected-mode", "maybe"), Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'protected-mode') - argument must be 'yes' or 'no'\r\n"));
        // Nothing was applied: a malformed value fails the whole command.
        Assert.That(client.Execute("CONFIG", "SET", "lua-time-limit", "123", "timeout", "x"), Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'timeout')"));
        Assert.That(client.Execute("CONFIG", "GET", "lua-time-limit"), Does.Not.Contain("123"));
        Assert.That(client.Execute("CONFIG", "SET", "lua-time-limit", "5000"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void SetIsAllOrNothing()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "SET", "requirepass", "pw", "databases", "1"), Does.StartWith("-ERR CONFIG SET failed"));
        Assert.That(ConfigGet(client, "requirepass")["requirepass"], Is.EqualTo(""));
        using var fresh = ConnectRaw();
        Assert.That(fresh.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void ResetStatClearsCounters()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        client.Execute("GET", "k");
        Assert.That(client.Execute("CONFIG", "RESETSTAT"), Is.EqualTo("+OK\r\n"));
        var stats = ReplyText.InfoFields(client.Execute("INFO", "stats", "commandstats"));
        Assert.That(stats.ContainsKey("cmdstat_get"), Is.False);
        Assert.That(stats["keyspace_hits"], Is.EqualTo("0"));
        Assert.That(long.Parse(stats["total_commands_processed"]), Is.LessThanOrEqualTo(1), "at most the RESETSTAT's own batch");
    }

    [Test]
    public void RewriteHelpAndErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "REWRITE"), Is.EqualTo("-ERR The server is running without a config file\r\n"));
        string help = client.Execute("CONFIG", "HELP");
        Assert.That(help, Does.StartWith("*").And.Contain("+CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"));
        Assert.That(help, Does.Contain("\r\n+GET <pattern>").And.Contain("\r\n+SET <directive>").And.Contain("\r\n+RESETSTAT\r\n"));
        Assert.That(client.Execute("CONFIG", "GET"), Is.EqualTo("-ERR wrong number of arguments for 'config|get' command\r\n"));
        Assert.That(client.Execute("CONFIG", "RESETSTAT", "x"), Is.EqualTo("-ERR wrong number of arguments for 'config|resetstat' command\r\n"));
        Assert.That(client.Execute("CONFIG", "FOO"), Is.EqualTo("-ERR unknown subcommand 'FOO'. Try CONFIG HELP.\r\n"));
        Assert.That(client.Execute("CONFIG"), Is.EqualTo("-ERR wrong number of arguments for 'config' command\r\n"));
    }

    [Test]
    public void StackExchangeRedisConfigGet()
    {
        using var redis = Connect();
        var server = redis.GetServer("127.0.0.1", Port);
        var values = server.ConfigGet("databases");
        Assert.That(values.Single().Value, Is.EqualTo("16"));
        Assert.That(server.ConfigGet("*").Length, Is.GreaterThan(10));
    }
}
