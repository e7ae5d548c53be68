using System.Security.Cryptography;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Acl;

/// <summary>ACL SETUSER's grammar, each rule and its error, as ACL LIST and GETUSER print the result.</summary>
[TestFixture]
public sealed class AclRuleTests : ServerTestBase
{
    private static string Bulk(string text) => $"${Encoding.Latin1.GetByteCount(text)}\r\n{text}\r\n";

    private static string Sha(string password) => System.Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(password))).ToLowerInvariant();

    private static string ModifierError(string modifier, string reason) => $"-ERR Error in ACL SETUSER modifier '{modifier}': {reason}\r\n";

    private const string Syntax = "Syntax error";
    private const string Unknown = "Unknown command or category name in ACL";

    /// <summary>The ACL LIST line of <paramref name="user"/>.</summary>
    private static string Line(RawClient client, string user)
    {
        string list = client.Execute("ACL", "LIST");
        foreach (string line in list.Split("\r\n"))
        {
            if (line.StartsWith("user " + user + " "))
                return line;
        }
        return "";
    }

    private static void Set(RawClient client, params string[] rules)
    {
        var arguments = new string[rules.Length + 2];
        arguments[0] = "ACL";
        arguments[1] = "SETUSER";
        rules.CopyTo(arguments, 2);
        Assert.That(client.Execute(arguments), Is.EqualTo("+OK\r\n"), string.Join(' ', rules));
    }

    [Test]
    public void DefaultUserIsListedAsRedisPrintsIt()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ACL", "LIST"), Is.EqualTo("*1\r\n" + Bulk("user default on nopass ~* &* +@all")));
        Assert.That(client.Execute("ACL", "USERS"), Is.EqualTo("*1\r\n" + Bulk("default")));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo(Bulk("default")));
    }

    [Test]
    public void NewUserStartsOffWithNothing()
    {
        using var client = ConnectRaw();
        Set(client, "alice");
        Assert.That(Line(client, "alice"), Is.EqualTo("user alice off resetchannels -@all"));
        Assert.That(client.Execute("ACL", "USERS"), Is.EqualTo("*2\r\n" + Bulk("alice") + Bulk("default")));
    }

    [Test]
    public void FlagsAndPasswords()
    {
        using var client = ConnectRaw();
        Set(client, "u", "on", ">p1", ">p2", ">p1");
        Assert.That(Line(client, "u"), Is.EqualTo($"user u on #{Sha("p1")} #{Sha("p2")} resetchannels -@all"));
        Set(client, "u", "<p1");
        Assert.That(Line(client, "u"), Is.EqualTo($"user u on #{Sha("p2")} resetchannels -@all"));
        Set(client, "u", "!" + Sha("p2"), "#" + Sha("p3"));
        Assert.That(Line(client, "u"), Is.EqualTo($"user u on #{Sha("p3")} resetchannels -@all"));
        Set(client, "u", "nopass");
        Assert.That(Line(client, "u"), Is.EqualTo("user u on nopass resetchannels -@all"));
        Set(client, "u", ">x");
        Assert.That(Line(client, "u"), Is.EqualTo($"user u on #{Sha("x")} resetchannels -@all"));
        Set(client, "u", "resetpass", "OFF");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels -@all"));
        Set(client, "u", "skip-sanitize-payload", "sanitize-payload");
    }

    [Test]
    public void PasswordErrors()
    {
        using var client = ConnectRaw();
        const string badHash = "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters";
        Assert.That(client.Execute("ACL", "SETUSER", "u", "#abc"), Is.EqualTo(ModifierError("#abc", badHash)));
        string upper = Sha("a").ToUpperInvariant();
        Assert.That(client.Execute("ACL", "SETUSER", "u", "#" + upper), Is.EqualTo(ModifierError("#" + upper, badHash)));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "!zz"), Is.EqualTo(ModifierError("!zz", badHash)));
        const string missing = "The password you are trying to remove from the user does not exist";
        Assert.That(client.Execute("ACL", "SETUSER", "u", "<nope"), Is.EqualTo(ModifierError("<nope", missing)));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "!" + Sha("nope")), Is.EqualTo(ModifierError("!" + Sha("nope"), missing)));
    }

    [Test]
    public void KeyPatterns()
    {
        using var client = ConnectRaw();
        Set(client, "u", "~a:*", "%R~r:*", "%W~w:*", "%RW~rw:*", "%R~a:*");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off ~a:* %R~r:* %W~w:* ~rw:* resetchannels -@all"));
        Set(client, "u", "%W~r:*");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off ~a:* ~r:* %W~w:* ~rw:* resetchannels -@all"));
        Set(client, "u", "allkeys");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off ~* resetchannels -@all"));
        const string afterAll = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
        Assert.That(client.Execute("ACL", "SETUSER", "u", "~x"), Is.EqualTo(ModifierError("~x", afterAll)));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "%R~x"), Is.EqualTo(ModifierError("%R~x", afterAll)));
        Set(client, "u", "~*");
        Set(client, "u", "resetkeys", "~x");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off ~x resetchannels -@all"));
        Set(client, "u", "resetkeys", "%RW~*");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off ~* resetchannels -@all"));
        Set(client, "u", "resetkeys");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels -@all"));
        foreach (string bad in new[] { "%X~a", "%~a", "%RR~a", "%R", "%" })
            Assert.That(client.Execute("ACL", "SETUSER", "u", bad), Is.EqualTo(ModifierError(bad, Syntax)), bad);
    }

    [Test]
    public void ChannelPatterns()
    {
        using var client = ConnectRaw();
        Set(client, "u", "&news.*", "&chat", "&chat");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels &news.* &chat -@all"));
        Set(client, "u", "allchannels");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off &* -@all"));
        const string afterAll = "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels";
        Assert.That(client.Execute("ACL", "SETUSER", "u", "&x"), Is.EqualTo(ModifierError("&x", afterAll)));
        Set(client, "u", "resetchannels", "&x");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels &x -@all"));
        Set(client, "u", "&*");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off &* -@all"));
    }

    [Test]
    public void CommandRulesKeepTheirOrderCompacted()
    {
        using var client = ConnectRaw();
        Set(client, "u", "+@read", "-get", "+GET", "+@Write", "-@read");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels -@all +get +@write -@read"));
        Set(client, "u", "allcommands", "-debug", "-client|kill");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels +@all -debug -client|kill"));
        Set(client, "u", "nocommands", "+client|list", "+config");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels -@all +client|list +config"));
        Set(client, "u", "+@all");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels +@all"));
        Set(client, "u", "-@all");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels -@all"));
    }

    [Test]
    public void CommandRuleErrors()
    {
        using var client = ConnectRaw();
        foreach (string bad in new[] { "+nosuch", "-nosuch", "+@nosuch", "-@nosuch", "+client|nosuch", "-client|nosuch", "-client|", "-get|x", "+nosuch|x" })
            Assert.That(client.Execute("ACL", "SETUSER", "u", bad), Is.EqualTo(ModifierError(bad, Unknown)), bad);
        Assert.That(client.Execute("ACL", "SETUSER", "u", "+client|"), Is.EqualTo(ModifierError("+client|", Syntax)));
        foreach (string bad in new[] { "bogus", "", "*", "@all" })
            Assert.That(client.Execute("ACL", "SETUSER", "u", bad), Is.EqualTo(ModifierError(bad, Syntax)), bad);
    }

    [Test]
    public void AFailingRuleLeavesTheUserUnchanged()
    {
        using var client = ConnectRaw();
        Set(client, "u", "on", "~a", "+get");
        string before = Line(client, "u");
        Assert.That(client.Execute("ACL", "SETUSER", "u", "off", "~b", "+nosuch"), Is.EqualTo(ModifierError("+nosuch", Unknown)));
        Assert.That(Line(client, "u"), Is.EqualTo(before));
        Assert.That(client.Execute("ACL", "SETUSER", "fresh", "on", "bogus"), Is.EqualTo(ModifierError("bogus", Syntax)));
        Assert.That(client.Execute("ACL", "GETUSER", "fresh"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void ResetAndUsernames()
    {
        using var client = ConnectRaw();
        Set(client, "u", "on", ">p", "~*", "&*", "+@all", "(~x +get)");
        Set(client, "u", "reset");
        Assert.That(Line(client, "u"), Is.EqualTo("user u off resetchannels -@all"));
        Assert.That(client.Execute("ACL", "SETUSER", "a b"), Is.EqualTo("-ERR Usernames can't contain spaces or null characters\r\n"));
    }

    [Test]
    public void Selectors()
    {
        using var client = ConnectRaw();
        Set(client, "u", "on", "+get", "~a", "(~b +set)", "(", "%R~c", "&ch", "+@read", ")");
        Assert.That(Line(client, "u"), Is.EqualTo("user u on ~a resetchannels -@all +get (~b resetchannels -@all +set) (%R~c resetchannels &ch -@all +@read)"));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "(~x", "+get"), Is.EqualTo("-ERR Unmatched parenthesis in acl selector starting at '(~x'.\r\n"));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "(~x +nosuch)"), Is.EqualTo(ModifierError("(~x +nosuch)", Unknown)));
        Assert.That(client.Execute("ACL", "SETUSER", "u", "(on)"), Is.EqualTo(ModifierError("(on)", Syntax)));
        Set(client, "u", "clearselectors");
        Assert.That(Line(client, "u"), Is.EqualTo("user u on ~a resetchannels -@all +get"));
    }

    [Test]
    public void GetUserReplyShape()
    {
        using var client = ConnectRaw();
        Set(client, "u", "on", ">p", "%R~r*", "~k", "&c", "+get", "(~s +set)");
        string expected = "*12\r\n" +
            Bulk("flags") + "*1\r\n" + Bulk("on") +
            Bulk("passwords") + "*1\r\n" + Bulk(Sha("p")) +
            Bulk("commands") + Bulk("-@all +get") +
            Bulk("keys") + Bulk("%R~r* ~k") +
            Bulk("channels") + Bulk("&c") +
            Bulk("selectors") + "*1\r\n" + "*6\r\n" + Bulk("commands") + Bulk("-@all +set") + Bulk("keys") + Bulk("~s") + Bulk("channels") + Bulk("");
        Assert.That(client.Execute("ACL", "GETUSER", "u"), Is.EqualTo(expected));

        Assert.That(client.Execute("HELLO", "3"), Does.StartWith("%"));
        string resp3 = "%6\r\n" +
            Bulk("flags") + "~2\r\n" + Bulk("on") + Bulk("nopass") +
            Bulk("passwords") + "*0\r\n" +
            Bulk("commands") + Bulk("+@all") +
            Bulk("keys") + Bulk("~*") +
            Bulk("channels") + Bulk("&*") +
            Bulk("selectors") + "*0\r\n";
        Assert.That(client.Execute("ACL", "GETUSER", "default"), Is.EqualTo(resp3));
        Assert.That(client.Execute("ACL", "GETUSER", "nosuch"), Is.EqualTo("_\r\n"));
    }

    [Test]
    public void DelUser()
    {
        using var client = ConnectRaw();
        Set(client, "a");
        Set(client, "b");
        Assert.That(client.Execute("ACL", "DELUSER", "a", "b", "c"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("ACL", "DELUSER", "default"), Is.EqualTo("-ERR The 'default' user cannot be removed\r\n"));
        Assert.That(client.Execute("ACL", "USERS"), Is.EqualTo("*1\r\n" + Bulk("default")));
    }

    [Test]
    public void CatGenPassHelpAndErrors()
    {
        using var client = ConnectRaw();
        string categories = client.Execute("ACL", "CAT");
        Assert.That(categories, Does.StartWith("*21\r\n" + Bulk("keyspace") + Bulk("read") + Bulk("write")));
        string strings = client.Execute("ACL", "CAT", "string");
        Assert.That(strings, Does.Contain(Bulk("get")).And.Contain(Bulk("set")).And.Not.Contain(Bulk("lpush")));
        Assert.That(client.Execute("ACL", "CAT", "admin"), Does.Contain(Bulk("client|kill")).And.Contain(Bulk("acl|setuser")));
        Assert.That(client.Execute("ACL", "CAT", "nosuch"), Is.EqualTo("-ERR Unknown category 'nosuch'\r\n"));

        Assert.That(client.Execute("ACL", "GENPASS"), Does.Match("^\\$64\r\n[0-9a-f]{64}\r\n$"));
        Assert.That(client.Execute("ACL", "GENPASS", "5"), Does.Match("^\\$2\r\n[0-9a-f]{2}\r\n$"));
        Assert.That(client.Execute("ACL", "GENPASS", "128"), Does.Match("^\\$32\r\n[0-9a-f]{32}\r\n$"));
        const string genpassError = "-ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096\r\n";
        Assert.That(client.Execute("ACL", "GENPASS", "0"), Is.EqualTo(genpassError));
        Assert.That(client.Execute("ACL", "GENPASS", "4097"), Is.EqualTo(genpassError));
        Assert.That(client.Execute("ACL", "GENPASS", "x"), Is.EqualTo(genpassError));

        Assert.That(client.Execute("ACL", "HELP"), Does.StartWith("*").And.Contain("+ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n").And.Contain("+DRYRUN <username> <command> [<arg> ...]\r\n"));
        Assert.That(client.Execute("ACL", "NOSUCH"), Is.EqualTo("-ERR unknown subcommand 'NOSUCH'. Try ACL HELP.\r\n"));
        Assert.That(client.Execute("ACL"), Is.EqualTo("-ERR wrong number of arguments for 'acl' command\r\n"));
        Assert.That(client.Execute("ACL", "WHOAMI", "x"), Is.EqualTo("-ERR wrong number of arguments for 'acl|whoami' command\r\n"));
        Assert.That(client.Execute("ACL", "SETUSER"), Is.EqualTo("-ERR wrong number of arguments for 'acl|setuser' command\r\n"));
        Assert.That(client.Execute("ACL", "LOAD"), Is.EqualTo("-ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration.\r\n"));
        Assert.That(client.Execute("ACL", "SAVE"), Does.StartWith("-ERR This Redis instance is not configured to use an ACL file."));
    }
}
