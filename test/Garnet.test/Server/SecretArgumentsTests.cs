using System.Collections.Generic;
using System.Linq;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Server;

/// <summary>
/// The secrets a command's table entry declares are what both the slow log and MONITOR hide, as Redis hides them
/// (AUTH, HELLO ... AUTH, CONFIG SET of a password, ACL SETUSER's rules).
/// </summary>
[TestFixture]
public sealed class SecretArgumentsTests : ServerTestBase
{
    [Test]
    public void TheTableDeclaresRedisRedactedCommands()
    {
        // Subcommands (CONFIG SET, ACL SETUSER) declare theirs in the subcommand table: see ConfigAndAclSecretsStayOutOfTheSlowLog.
        var declared = CommandTable.All.Where(info => info.Secrets != SecretArguments.None).ToDictionary(info => info.Name, info => info.Secrets);
        Assert.That(declared, Is.EquivalentTo(new Dictionary<string, SecretArguments>
        {
            ["AUTH"] = SecretArguments.All,
            ["HELLO"] = SecretArguments.HelloAuth,
            ["MIGRATE"] = SecretArguments.MigrateAuth,
        }));
    }

    [Test]
    public void SlowLogAndMonitorHideTheSameArguments()
    {
        using var monitor = ConnectRaw();
        Assert.That(monitor.Execute("MONITOR"), Is.EqualTo(Ok));
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.Execute("SLOWLOG", "RESET");
        string[][] commands =
        [
            ["AUTH", "pass1"],
            ["AUTH", "default", "pass2"],
            ["HELLO", "2", "AUTH", "default", "pass3", "SETNAME", "AUTH"],
            ["HELLO", "2", "SETNAME", "AUTH", "AUTH", "default", "pass4"],
            ["HELLO", "2", "AUTH", "default", "pass5", "AUTH", "default", "pass6"],
            ["PING", "AUTH"],
        ];
        string[][] expected =
        [
            ["AUTH", "(redacted)"],
            ["AUTH", "(redacted)", "(redacted)"],
            ["HELLO", "2", "AUTH", "(redacted)", "(redacted)", "SETNAME", "AUTH"],
            ["HELLO", "2", "SETNAME", "AUTH", "AUTH", "(redacted)", "(redacted)"],
            ["HELLO", "2", "AUTH", "(redacted)", "(redacted)", "AUTH", "(redacted)", "(redacted)"],
            ["PING", "AUTH"],
        ];
        foreach (var command in commands)
            client.Execute(command);

        for (int i = 0; i < commands.Length; i++)
        {
            string line = monitor.ReadReply();
            string arguments = line.Substring(line.IndexOf("] ", System.StringComparison.Ordinal) + 2).TrimEnd('\r', '\n');
            Assert.That(arguments, Is.EqualTo(string.Join(' ', expected[i].Select(a => $"\"{a}\""))), "MONITOR");
        }
        var logged = SlowLogArguments(client);
        foreach (var command in expected)
            Assert.That(logged, Does.Contain(command), "SLOWLOG " + string.Join(' ', command));
        Assert.That(string.Join(' ', logged.SelectMany(a => a)), Does.Not.Contain("pass"));
    }

    [Test]
    public void ConfigAndAclSecretsStayOutOfTheSlowLog()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.Execute("CONFIG", "SET", "requirepass", "topsecret", "maxmemory-policy", "noeviction");
        client.Execute("AUTH", "topsecret");
        client.Execute("CONFIG", "SET", "requirepass", "");
        client.Execute("ACL", "SETUSER", "alice", "on", ">alicepass", "+get");
        var logged = SlowLogArguments(client);
        Assert.That(logged, Does.Contain(new[] { "CONFIG", "SET", "requirepass", "(redacted)", "maxmemory-policy", "noeviction" }));
        Assert.That(logged, Does.Contain(new[] { "ACL", "SETUSER", "alice", "(redacted)", "(redacted)", "(redacted)" }));
        Assert.That(string.Join(' ', logged.SelectMany(a => a)), Does.Not.Contain("topsecret").And.Not.Contain("alicepass"));
    }

    /// <summary>Each slow log entry's arguments (SLOWLOG GET -1: entries of id, time, duration, arguments, address, name).</summary>
    private List<string[]> SlowLogArguments(RawClient client)
    {
        using var connection = Connect();
        var entries = (StackExchange.Redis.RedisResult[])connection.GetDatabase().Execute("SLOWLOG", "GET", "-1")!;
        return entries.Select(e => ((StackExchange.Redis.RedisResult[])((StackExchange.Redis.RedisResult[])e!)[3]!).Select(a => (string)a!).ToArray()).ToList();
    }
}
