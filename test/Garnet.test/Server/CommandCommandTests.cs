using System.Linq;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>COMMAND, COMMAND COUNT / INFO / DOCS / GETKEYS / LIST / HELP.</summary>
[TestFixture]
public sealed class CommandCommandTests : ServerTestBase
{
    /// <summary>GET's key spec as Redis gives it: RO access, the key at index 1, a range of one.</summary>
    private const string GetKeySpec =
        "*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RO\r\n+access\r\n$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
        + "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n";

    private const string GetInfo =
        "*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@read\r\n+@string\r\n+@fast\r\n*0\r\n" + GetKeySpec + "*0\r\n";

    [Test]
    public void InfoGetHasRedisShape()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "INFO", "GET"), Is.EqualTo("*1\r\n" + GetInfo));
        Assert.That(client.Execute("command", "info", "get"), Is.EqualTo("*1\r\n" + GetInfo));
    }

    [Test]
    public void InfoGetInResp3UsesSets()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("COMMAND", "INFO", "get"), Is.EqualTo(
            "*1\r\n*10\r\n$3\r\nget\r\n:2\r\n~2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n~3\r\n+@read\r\n+@string\r\n+@fast\r\n~0\r\n"
            + "*1\r\n%3\r\n$5\r\nflags\r\n~2\r\n+RO\r\n+access\r\n$12\r\nbegin_search\r\n%2\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n%1\r\n$5\r\nindex\r\n:1\r\n"
            + "$9\r\nfind_keys\r\n%2\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n%3\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n~0\r\n"));
    }

    [Test]
    public void InfoOfSeveralCommandsWithUnknownOnesAsNull()
    {
        using var client = ConnectRaw();
        string reply = client.Execute("COMMAND", "INFO", "get", "nosuchcommand", "mset");
        Assert.That(reply, Does.StartWith("*3\r\n" + GetInfo + "$-1\r\n*10\r\n$4\r\nmset\r\n:-3\r\n*2\r\n+write\r\n+denyoom\r\n:1\r\n:-1\r\n:2\r\n*3\r\n+@write\r\n+@string\r\n+@slow\r\n"));
    }

    [Test]
    public void InfoOfAContainerListsItsSubcommands()
    {
        using var client = ConnectRaw();
        string reply = client.Execute("COMMAND", "INFO", "memory");
        Assert.That(reply, Does.StartWith("*1\r\n*10\r\n$6\r\nmemory\r\n:-2\r\n*0\r\n:0\r\n:0\r\n:0\r\n*1\r\n+@slow\r\n*0\r\n*0\r\n*6\r\n*10\r\n$12\r\nmemory|usage\r\n:-3\r\n*1\r\n+readonly\r\n:2\r\n:2\r\n:1\r\n*2\r\n+@read\r\n+@slow\r\n*0\r\n*1\r\n*6\r\n$5\r\nflags\r\n*1\r\n+RO\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "client|setname"), Does.StartWith("*1\r\n*10\r\n$14\r\nclient|setname\r\n:3\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "client|nope"), Is.EqualTo("*1\r\n$-1\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "client"), Does.StartWith("*1\r\n*10\r\n$6\r\nclient\r\n:-2\r\n*0\r\n:0\r\n:0\r\n:0\r\n*1\r\n+@slow\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "echo"), Does.StartWith("*1\r\n*10\r\n$4\r\necho\r\n:2\r\n*3\r\n+loading\r\n+stale\r\n+fast\r\n"));
    }

    [Test]
    public void CountEqualsTheTableSize()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "COUNT"), Is.EqualTo($":{CommandTable.All.Count}\r\n"));
    }

    [Test]
    public void CommandAndInfoWithoutNamesListEveryCommand()
    {
        using var client = ConnectRaw();
        string all = client.Execute("COMMAND");
        Assert.That(all, Does.StartWith($"*{CommandTable.All.Count}\r\n*10\r\n"));
        foreach (var command in CommandTable.All)
            Assert.That(all, Does.Contain($"*10\r\n${command.LowerName.Length}\r\n{command.LowerName}\r\n:{command.Arity}\r\n"), command.Name);
        Assert.That(client.Execute("COMMAND", "INFO"), Is.EqualTo(all));
    }

    [Test]
    public void StackExchangeRedisReadsCommandReplies()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        var count = (long)db.Execute("COMMAND", "COUNT");
        Assert.That(count, Is.EqualTo(CommandTable.All.Count));
        var entries = (StackExchange.Redis.RedisResult[])db.Execute("COMMAND")!;
        Assert.That(entries.Length, Is.EqualTo(CommandTable.All.Count));
    }

    [Test]
    public void GetKeysUsesTheTableKeyPositions()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MSET", "a", "1", "b", "2"), Is.EqualTo(ReplyText.BulkArray("a", "b")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "rename", "old", "new"), Is.EqualTo(ReplyText.BulkArray("old", "new")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "GET", "k"), Is.EqualTo(ReplyText.BulkArray("k")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SET", "k", "v", "EX", "10"), Is.EqualTo(ReplyText.BulkArray("k")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "DEL", "a", "b", "c"), Is.EqualTo(ReplyText.BulkArray("a", "b", "c")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "LCS", "x", "y", "LEN"), Is.EqualTo(ReplyText.BulkArray("x", "y")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MEMORY", "USAGE", "key"), Is.EqualTo(ReplyText.BulkArray("key")));
    }

    [Test]
    public void GetKeysOfCommandsWhoseKeysMove()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "GETKEYS", "EVAL", "return 1", "2", "k1", "k2", "a1"), Is.EqualTo(ReplyText.BulkArray("k1", "k2")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "evalsha", "abc", "1", "k"), Is.EqualTo(ReplyText.BulkArray("k")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "FCALL", "f", "1", "k", "arg"), Is.EqualTo(ReplyText.BulkArray("k")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2", "a", "b", "WEIGHTS", "1", "2"), Is.EqualTo(ReplyText.BulkArray("d", "a", "b")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "LMPOP", "2", "l1", "l2", "LEFT"), Is.EqualTo(ReplyText.BulkArray("l1", "l2")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SORT", "k", "STORE", "d"), Is.EqualTo(ReplyText.BulkArray("k", "d")));
        // Scripts may name no keys (no-mandatory-keys): an empty list, also when numkeys is impossible.
        Assert.That(client.Execute("COMMAND", "GETKEYS", "EVAL", "return 1", "0"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "EVAL", "return 1", "3", "k1"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "EVAL", "return 1", "-1"), Is.EqualTo("*0\r\n"));
        // Other commands must name theirs.
        Assert.That(client.Execute("COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "3", "a", "b"), Is.EqualTo("-ERR Invalid arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "LMPOP", "x", "l1", "LEFT"), Is.EqualTo("-ERR Invalid arguments specified for command\r\n"));
    }

    [Test]
    public void GetKeysErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "GETKEYS", "NOSUCH", "a"), Is.EqualTo("-ERR Invalid command specified\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "PING", "a"), Is.EqualTo("-ERR The command has no key arguments\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "CLIENT", "LIST"), Is.EqualTo("-ERR The command has no key arguments\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MEMORY", "NOPE"), Is.EqualTo("-ERR Invalid command specified\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "GET"), Is.EqualTo("-ERR Invalid number of arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "MSET", "a"), Is.EqualTo("-ERR Invalid number of arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS"), Is.EqualTo("-ERR wrong number of arguments for 'command|getkeys' command\r\n"));
    }

    [Test]
    public void DocsMapsNamesToSummarySinceAndGroup()
    {
        using var client = ConnectRaw();
        var get = CommandTable.Lookup("GET")!;
        string expected = "*2\r\n$3\r\nget\r\n*6\r\n$7\r\nsummary\r\n" + ReplyText.Bulk(get.Summary) + "$5\r\nsince\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n";
        Assert.That(client.Execute("COMMAND", "DOCS", "get"), Is.EqualTo(expected));
        Assert.That(client.Execute("COMMAND", "DOCS", "nosuch"), Is.EqualTo("*0\r\n"));

        string getex = client.Execute("COMMAND", "DOCS", "getex", "del", "ping");
        Assert.That(getex, Does.StartWith("*6\r\n$5\r\ngetex\r\n"));
        Assert.That(getex, Does.Contain("$5\r\nsince\r\n$5\r\n6.2.0\r\n"));
        Assert.That(getex, Does.Contain("$3\r\ndel\r\n*6\r\n").And.Contain("$5\r\ngroup\r\n$7\r\ngeneric\r\n"));
        Assert.That(getex, Does.Contain("$5\r\ngroup\r\n$10\r\nconnection\r\n"));
    }

    [Test]
    public void DocsInResp3AndForContainers()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        string reply = client.Execute("COMMAND", "DOCS", "config");
        Assert.That(reply, Does.StartWith("%1\r\n$6\r\nconfig\r\n%4\r\n$7\r\nsummary\r\n"));
        Assert.That(reply, Does.Contain("$11\r\nsubcommands\r\n%5\r\n$10\r\nconfig|get\r\n%3\r\n"));
        Assert.That(reply, Does.Contain("$5\r\ngroup\r\n$6\r\nserver\r\n"));

        string all = client.Execute("COMMAND", "DOCS");
        Assert.That(all, Does.StartWith($"%{CommandTable.All.Count}\r\n"));
    }

    [Test]
    public void ListNamesCommandsAndSubcommands()
    {
        using var client = ConnectRaw();
        string list = client.Execute("COMMAND", "LIST");
        Assert.That(list, Does.Contain("\r\n$3\r\nget\r\n").And.Contain("\r\n$11\r\nclient|list\r\n").And.Contain("\r\n$10\r\nconfig|get\r\n"));
        int count = int.Parse(list.Substring(1, list.IndexOf('\r') - 1));
        Assert.That(count, Is.GreaterThan(CommandTable.All.Count));
    }

    [Test]
    public void ListFilters()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "PATTERN", "get*"), Is.EqualTo(ReplyText.BulkArray("get", "getset", "getdel", "getex", "getrange", "getbit", "getwithetag", "getifnotmatch")));
        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "pattern", "CLIENT|SET*"), Is.EqualTo(ReplyText.BulkArray("client|setname", "client|setinfo")));
        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "MODULE", "json"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuchcategory"), Is.EqualTo("*0\r\n"));

        string connection = client.Execute("COMMAND", "LIST", "FILTERBY", "ACLCAT", "connection");
        // A container has only @slow (as in Redis); its subcommands carry the family's category.
        Assert.That(connection, Does.Contain("$4\r\nping\r\n").And.Contain("$9\r\nclient|id\r\n").And.Not.Contain("$6\r\nclient\r\n").And.Not.Contain("$3\r\nget\r\n"));
        string strings = client.Execute("COMMAND", "LIST", "FILTERBY", "aclcat", "STRING");
        int expected = CommandTable.All.Count(c => (c.AclCategories & AclCategories.String) != 0);
        Assert.That(strings, Does.StartWith($"*{expected}\r\n"));

        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "COLOR", "x"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("COMMAND", "LIST", "FILTERBY", "PATTERN"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("COMMAND", "LIST", "BOGUS"), Is.EqualTo("-ERR syntax error\r\n"));
    }

    [Test]
    public void HelpAndUnknownSubcommands()
    {
        using var client = ConnectRaw();
        string help = client.Execute("COMMAND", "HELP");
        Assert.That(help, Does.Contain("+COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"));
        Assert.That(help, Does.Contain("\r\n+COUNT\r\n").And.Contain("\r\n+GETKEYS <full-command>\r\n"));
        Assert.That(client.Execute("COMMAND", "NOPE"), Is.EqualTo("-ERR unknown subcommand 'NOPE'. Try COMMAND HELP.\r\n"));
        Assert.That(client.Execute("COMMAND", "COUNT", "x"), Is.EqualTo("-ERR wrong number of arguments for 'command|count' command\r\n"));
    }
}
