using NUnit.Framework;

namespace Garnet.test.Acl;

/// <summary>What a restricted user may run: commands and subcommands, read and write keys, channels, selectors, MULTI, scripts, DRYRUN.</summary>
[TestFixture]
public sealed class AclPermissionTests : ServerTestBase
{
    private const string KeyDenied = "-NOPERM No permissions to access a key\r\n";
    private const string ChannelDenied = "-NOPERM No permissions to access a channel\r\n";

    private static string CommandDenied(string user, string command) => $"-NOPERM User {user} has no permissions to run the '{command}' command\r\n";

    /// <summary>Defines <paramref name="user"/> (password "p") from an admin connection and returns a connection logged in as it.</summary>
    private RawClient LoginAs(string user, params string[] rules)
    {
        using (var admin = ConnectRaw())
        {
            var arguments = new string[rules.Length + 5];
            arguments[0] = "ACL";
            arguments[1] = "SETUSER";
            arguments[2] = user;
            arguments[3] = "on";
            arguments[4] = ">p";
            rules.CopyTo(arguments, 5);
            Assert.That(admin.Execute(arguments), Is.EqualTo("+OK\r\n"));
        }
        var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", user, "p"), Is.EqualTo("+OK\r\n"));
        return client;
    }

    [Test]
    public void CommandsAndSubcommands()
    {
        using var client = LoginAs("u", "~*", "+get", "+client|id", "+acl|whoami");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo(CommandDenied("u", "set")));
        Assert.That(client.Execute("CLIENT", "ID"), Does.StartWith(":"));
        Assert.That(client.Execute("CLIENT", "LIST"), Is.EqualTo(CommandDenied("u", "client|list")));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("$1\r\nu\r\n"));
        Assert.That(client.Execute("ACL", "LIST"), Is.EqualTo(CommandDenied("u", "acl|list")));
        // As in Redis, a logged-in user needs +auth to log in again (only a connection not logged in may run it regardless).
        Assert.That(client.Execute("AUTH", "u", "p"), Is.EqualTo(CommandDenied("u", "auth")));
    }

    [Test]
    public void CategoriesAndExclusions()
    {
        using var client = LoginAs("u", "~*", "+@all", "-@dangerous", "+flushdb", "-client|kill");
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("KEYS", "*"), Is.EqualTo(CommandDenied("u", "keys")));
        Assert.That(client.Execute("FLUSHDB"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CLIENT", "KILL", "ID", "999999"), Is.EqualTo(CommandDenied("u", "client|kill")));
        Assert.That(client.Execute("CLIENT", "GETNAME"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void ReadAndWriteKeyPatterns()
    {
        using var client = LoginAs("u", "+@all", "%R~r:*", "%W~w:*", "~rw:*");
        Assert.That(client.Execute("GET", "r:1"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("SET", "r:1", "v"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("SET", "w:1", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("LPUSH", "w:2", "v"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("GET", "w:1"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("LRANGE", "w:2", "0", "-1"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("SET", "rw:1", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "rw:1"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("MGET", "r:1", "rw:1"), Is.EqualTo("*2\r\n$-1\r\n$1\r\nv\r\n"));
        Assert.That(client.Execute("MGET", "r:1", "w:1"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("MSET", "w:1", "a", "r:1", "b"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("GET", "other"), Is.EqualTo(KeyDenied));
        // Commands without key arguments are not limited by key patterns.
        Assert.That(client.Execute("DBSIZE"), Does.StartWith(":"));
    }

    [Test]
    public void ChannelPatterns()
    {
        using var client = LoginAs("u", "+@all", "~*", "&news.*");
        Assert.That(client.Execute("PUBLISH", "news.1", "m"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("PUBLISH", "sport", "m"), Is.EqualTo(ChannelDenied));
        Assert.That(client.Execute("SUBSCRIBE", "news.a", "sport"), Is.EqualTo(ChannelDenied));
        // PSUBSCRIBE's pattern must be one of the user's patterns, literally.
        Assert.That(client.Execute("PSUBSCRIBE", "news.a*"), Is.EqualTo(ChannelDenied));
        Assert.That(client.Execute("PSUBSCRIBE", "news.*"), Does.StartWith("*3\r\n$10\r\npsubscribe\r\n"));
    }

    [Test]
    public void AnySelectorMayAllowTheCommand()
    {
        using var client = LoginAs("u", "~a*", "+get", "(~b* +set)");
        Assert.That(client.Execute("GET", "a1"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("SET", "b1", "v"), Is.EqualTo("+OK\r\n"));
        // Each selector must allow the whole command: the root allows GET but not b1, the selector b1 but not GET.
        Assert.That(client.Execute("GET", "b1"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("SET", "a1", "v"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("DEL", "a1"), Is.EqualTo(CommandDenied("u", "del")));
    }

    [Test]
    public void PermissionChangesApplyToConnectedUsers()
    {
        using var client = LoginAs("u", "~*", "+get");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "u", "-get"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(CommandDenied("u", "get")));
    }

    [Test]
    public void SubscribersLosingTheirChannelAreDisconnected()
    {
        using var losing = LoginAs("u", "+@all", "~*", "&a", "&b");
        using var keeping = LoginAs("v", "+@all", "~*", "&a", "&b");
        Assert.That(losing.Execute("SUBSCRIBE", "a"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
        Assert.That(keeping.Execute("SUBSCRIBE", "b"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "u", "resetchannels", "&b"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "SETUSER", "v", "resetchannels", "&b"), Is.EqualTo("+OK\r\n"));
        Assert.That(losing.IsClosedByServer(), Is.True);
        Assert.That(admin.Execute("PUBLISH", "b", "m"), Is.EqualTo(":1\r\n"));
        Assert.That(keeping.ReadReply(), Is.EqualTo("*3\r\n$7\r\nmessage\r\n$1\r\nb\r\n$1\r\nm\r\n"));
    }

    [Test]
    public void TransactionsCheckWhenQueuedAndAtExec()
    {
        using var client = LoginAs("u", "~*", "+@transaction", "+get", "+set");
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("DEL", "k"), Is.EqualTo(CommandDenied("u", "del")));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("-EXECABORT Transaction discarded because of previous errors.\r\n"));

        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("+QUEUED\r\n"));
        using (var admin = ConnectRaw())
            Assert.That(admin.Execute("ACL", "SETUSER", "u", "-set"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n" + CommandDenied("u", "set") + "$-1\r\n"));
        using var other = ConnectRaw();
        Assert.That(other.Execute("ACL", "LOG", "1"), Does.Contain("$7\r\ncontext\r\n$5\r\nmulti\r\n"));
    }

    [Test]
    public void ScriptsAreChecked()
    {
        using var client = LoginAs("u", "~*", "+eval", "+get");
        Assert.That(client.Execute("EVAL", "return redis.call('get', KEYS[1])", "1", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.call('set', KEYS[1], 'v')", "1", "k"),
            Does.StartWith("-ERR ACL failure in script: User u has no permissions to run the 'set' command"));
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "LOG", "1"), Does.Contain("$7\r\ncontext\r\n$3\r\nlua\r\n"));
    }

    [Test]
    public void DryRun()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ACL", "SETUSER", "u", "on", "%R~r*", "&c", "+get", "+set", "+publish", "+client|id"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "GET", "r1"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "SET", "r1", "v"), Is.EqualTo(Bulk("No permissions to access the 'r1' key")));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "PUBLISH", "x", "m"), Is.EqualTo(Bulk("No permissions to access the 'x' channel")));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "DEL", "r1"), Is.EqualTo(Bulk("User u has no permissions to run the 'del' command")));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "CLIENT", "ID"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "CLIENT", "LIST"), Is.EqualTo(Bulk("User u has no permissions to run the 'client|list' command")));
        Assert.That(client.Execute("ACL", "DRYRUN", "nosuch", "GET", "k"), Is.EqualTo("-ERR User 'nosuch' not found\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "NOSUCH", "k"), Is.EqualTo("-ERR Command 'NOSUCH' not found\r\n"));
        Assert.That(client.Execute("ACL", "DRYRUN", "u", "GET", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'get' command\r\n"));
        // DRYRUN logs nothing.
        Assert.That(client.Execute("ACL", "LOG"), Is.EqualTo("*0\r\n"));
    }

    private static string Bulk(string text) => $"${text.Length}\r\n{text}\r\n";

    [Test]
    public void LogEntriesAndStatistics()
    {
        using var client = LoginAs("u", "%R~r*", "&c", "+get", "+set", "+publish", "+auth");
        Assert.That(client.Execute("DEL", "x"), Is.EqualTo(CommandDenied("u", "del")));
        Assert.That(client.Execute("DEL", "x"), Is.EqualTo(CommandDenied("u", "del")));
        Assert.That(client.Execute("SET", "r1", "v"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("PUBLISH", "z", "m"), Is.EqualTo(ChannelDenied));
        Assert.That(client.Execute("AUTH", "u", "wrong"), Is.EqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n"));

        using var admin = ConnectRaw();
        string log = admin.Execute("ACL", "LOG");
        Assert.That(log, Does.StartWith("*4\r\n*20\r\n$5\r\ncount\r\n:1\r\n$6\r\nreason\r\n$4\r\nauth\r\n$7\r\ncontext\r\n$8\r\ntoplevel\r\n$6\r\nobject\r\n$4\r\nAUTH\r\n$8\r\nusername\r\n$1\r\nu\r\n$11\r\nage-seconds\r\n"));
        Assert.That(log, Does.Contain("$6\r\nreason\r\n$7\r\nchannel\r\n$7\r\ncontext\r\n$8\r\ntoplevel\r\n$6\r\nobject\r\n$1\r\nz\r\n"));
        Assert.That(log, Does.Contain("$6\r\nreason\r\n$3\r\nkey\r\n$7\r\ncontext\r\n$8\r\ntoplevel\r\n$6\r\nobject\r\n$2\r\nr1\r\n"));
        // The two DEL refusals are one entry counted twice.
        Assert.That(log, Does.Contain("$5\r\ncount\r\n:2\r\n$6\r\nreason\r\n$7\r\ncommand\r\n$7\r\ncontext\r\n$8\r\ntoplevel\r\n$6\r\nobject\r\n$3\r\ndel\r\n"));
        Assert.That(log, Does.Contain("$11\r\nclient-info\r\n").And.Contain(" user=u ").And.Contain("$8\r\nentry-id\r\n:0\r\n$17\r\ntimestamp-created\r\n:"));
        Assert.That(log, Does.Contain("$22\r\ntimestamp-last-updated\r\n:"));
        Assert.That(admin.Execute("ACL", "LOG", "1"), Does.StartWith("*1\r\n"));
        Assert.That(admin.Execute("ACL", "LOG", "-1"), Is.EqualTo("-ERR value is out of range, must be positive\r\n"));
        Assert.That(admin.Execute("ACL", "LOG", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));

        string info = admin.Execute("INFO", "stats");
        Assert.That(info, Does.Contain("acl_access_denied_auth:1\r\n").And.Contain("acl_access_denied_cmd:2\r\n")
            .And.Contain("acl_access_denied_key:1\r\n").And.Contain("acl_access_denied_channel:1\r\n"));

        Assert.That(admin.Execute("ACL", "LOG", "RESET"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "LOG"), Is.EqualTo("*0\r\n"));
    }
}
