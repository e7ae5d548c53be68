using System.Collections.Generic;
using Garnet.server;
using Garnet.test.Extensions;
using NUnit.Framework;

namespace Garnet.test.Acl;

/// <summary>
/// Over the whole command table (subcommands and a registered custom command included): every command
/// has a category, and for each category a user given only it may run each of its commands while a user
/// given everything but it may not, as ACL DRYRUN (the dispatcher's checker) judges them.
/// </summary>
[TestFixture]
public sealed class AclCommandTableTests : ServerTestBase
{
    private static readonly string[] s_categories =
    [
        "keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap", "hyperloglog", "geo",
        "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous", "connection", "transaction", "scripting",
    ];

    /// <summary>The bulk strings of a flat RESP array reply.</summary>
    private static List<string> Bulks(string reply)
    {
        var items = new List<string>();
        string[] lines = reply.Split("\r\n");
        for (int i = 1; i < lines.Length - 1; i += 2)
            items.Add(lines[i + 1]);
        return items;
    }

    /// <summary>A command line for DRYRUN: the name ("parent|sub" split), padded with arguments to the arity.</summary>
    private static string[] Invocation(string name, int arity)
    {
        var words = new List<string>(name.Split('|'));
        int wanted = System.Math.Max(System.Math.Abs(arity), words.Count);
        while (words.Count < wanted)
            words.Add("1");
        return words.ToArray();
    }

    private static string[] DryRun(string user, string[] invocation)
    {
        var arguments = new string[invocation.Length + 3];
        arguments[0] = "ACL";
        arguments[1] = "DRYRUN";
        arguments[2] = user;
        invocation.CopyTo(arguments, 3);
        return arguments;
    }

    [Test]
    public void EveryCommandHasACategory()
    {
        Server.Register.NewCommand(new GetLength());
        foreach (var info in CommandTable.All)
            Assert.That(info.AclCategories, Is.Not.EqualTo(AclCategories.None), info.Name);
        foreach (var info in Server.Store.Extensions.All)
            Assert.That(info.AclCategories, Is.Not.EqualTo(AclCategories.None), info.Name);
    }

    [Test]
    public void ACategoryAllowsExactlyItsCommands()
    {
        Server.Register.NewCommand(new GetLength());
        var arities = new Dictionary<string, int>();
        foreach (var info in CommandTable.All)
            arities[info.LowerName] = info.Arity;
        foreach (var info in Server.Store.Extensions.All)
            arities[info.LowerName] = info.Arity;

        using var client = ConnectRaw();
        Assert.That(Bulks(client.Execute("ACL", "CAT")), Is.EqualTo(s_categories));
        var seen = new HashSet<string>();
        int checkedCommands = 0;
        foreach (string category in s_categories)
        {
            Assert.That(client.Execute("ACL", "SETUSER", "in", "reset", "on", "nopass", "~*", "&*", "+@" + category), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("ACL", "SETUSER", "out", "reset", "on", "nopass", "~*", "&*", "+@all", "-@" + category), Is.EqualTo("+OK\r\n"));
            foreach (string name in Bulks(client.Execute("ACL", "CAT", category)))
            {
                seen.Add(name);
                int arity = name.Contains('|') ? 2 : arities[name];
                var invocation = Invocation(name, arity);
                Assert.That(client.Execute(DryRun("in", invocation)), Is.EqualTo("+OK\r\n"), $"+@{category} {name}");
                string denied = $"User out has no permissions to run the '{name}' command";
                Assert.That(client.Execute(DryRun("out", invocation)), Is.EqualTo($"${denied.Length}\r\n{denied}\r\n"), $"-@{category} {name}");
                checkedCommands++;
            }
        }
        // Every command of the table, and the custom one, belongs to some category that ACL CAT lists.
        foreach (string name in arities.Keys)
            Assert.That(seen, Does.Contain(name));
        Assert.That(seen, Does.Contain("client|kill").And.Contain("acl|setuser").And.Contain("getlen"));
        Assert.That(checkedCommands, Is.GreaterThan(CommandTable.All.Count));
    }

    [Test]
    public void CustomCommandsFollowTheRulesInOrder()
    {
        Server.Register.NewCommand(new GetLength());
        using var client = ConnectRaw();
        Assert.That(client.Execute("ACL", "SETUSER", "u", "on", "nopass", "~*", "+@all", "-getlen"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "GETLEN", "k"), Is.EqualTo("$53\r\nUser u has no permissions to run the 'getlen' command\r\n"));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "+@read"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "GETLEN", "k"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "SETUSER", "v", "on", "nopass", "~*", "+getlen"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "v", "GETLEN", "k"), Is.EqualTo("+OK\r\n"));
    }
}
