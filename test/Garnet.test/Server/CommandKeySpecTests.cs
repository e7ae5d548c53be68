using System.Linq;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>COMMAND INFO's key specifications (Redis 7.2's, byte for byte) and COMMAND GETKEYS / GETKEYSANDFLAGS finding keys with them.</summary>
[TestFixture]
public sealed class CommandKeySpecTests : ServerTestBase
{
    private static string B(string s) => $"${s.Length}\r\n{s}\r\n";

    private static string Flags(params string[] flags) => $"*{flags.Length}\r\n" + string.Concat(flags.Select(f => $"+{f}\r\n"));

    private static string Index(int index)
        => B("begin_search") + "*4\r\n" + B("type") + B("index") + B("spec") + "*2\r\n" + B("index") + $":{index}\r\n";

    private static string Keyword(string keyword, int startFrom)
        => B("begin_search") + "*4\r\n" + B("type") + B("keyword") + B("spec") + "*4\r\n" + B("keyword") + B(keyword) + B("startfrom") + $":{startFrom}\r\n";

    private static string Range(int lastKey, int step = 1, int limit = 0)
        => B("find_keys") + "*4\r\n" + B("type") + B("range") + B("spec") + "*6\r\n" + B("lastkey") + $":{lastKey}\r\n" + B("keystep") + $":{step}\r\n" + B("limit") + $":{limit}\r\n";

    private static string KeyNum()
        => B("find_keys") + "*4\r\n" + B("type") + B("keynum") + B("spec") + "*6\r\n" + B("keynumidx") + ":0\r\n" + B("firstkey") + ":1\r\n" + B("keystep") + ":1\r\n";

    private static string Unknown(string which) => B(which) + "*4\r\n" + B("type") + B("unknown") + B("spec") + "*0\r\n";

    private static string Spec(string flags, string begin, string find, string? notes = null)
        => (notes == null ? "*6\r\n" : "*8\r\n" + B("notes") + B(notes)) + B("flags") + flags + begin + find;

    private static string Specs(params string[] specs) => $"*{specs.Length}\r\n" + string.Concat(specs);

    /// <summary>The key specs of <paramref name="command"/>, then its (empty) subcommands, end its COMMAND INFO reply.</summary>
    private static void AssertSpecs(RawClient client, string command, string specs)
        => Assert.That(client.Execute("COMMAND", "INFO", command), Does.EndWith("*0\r\n" + specs + "*0\r\n"), command);

    [Test]
    public void InfoHasRedisKeySpecs()
    {
        using var client = ConnectRaw();
        AssertSpecs(client, "SET", Specs(Spec(Flags("RW", "access", "update", "variable_flags"), Index(1), Range(0), "RW and ACCESS due to the optional `GET` argument")));
        AssertSpecs(client, "DEL", Specs(Spec(Flags("RM", "delete"), Index(1), Range(-1))));
        AssertSpecs(client, "RENAME", Specs(Spec(Flags("RW", "access", "delete"), Index(1), Range(0)), Spec(Flags("OW", "update"), Index(2), Range(0))));
        AssertSpecs(client, "LMOVE", Specs(Spec(Flags("RW", "access", "delete"), Index(1), Range(0)), Spec(Flags("RW", "insert"), Index(2), Range(0))));
        AssertSpecs(client, "EVAL", Specs(Spec(Flags("RW", "access", "update"), Index(2), KeyNum(), "We cannot tell how the keys will be used so we assume the worst, RW and UPDATE")));
        AssertSpecs(client, "ZUNIONSTORE", Specs(Spec(Flags("OW", "update"), Index(1), Range(0)), Spec(Flags("RO", "access"), Index(2), KeyNum())));
        AssertSpecs(client, "XREAD", Specs(Spec(Flags("RO", "access"), Keyword("STREAMS", 1), Range(-1, 1, 2))));
        AssertSpecs(client, "MSET", Specs(Spec(Flags("OW", "update"), Index(1), Range(-1, 2))));
        AssertSpecs(client, "GEORADIUS", Specs(
            Spec(Flags("RO", "access"), Index(1), Range(0)),
            Spec(Flags("OW", "update"), Keyword("STORE", 6), Range(0)),
            Spec(Flags("OW", "update"), Keyword("STOREDIST", 6), Range(0))));
        AssertSpecs(client, "SORT", Specs(
            Spec(Flags("RO", "access"), Index(1), Range(0)),
            Spec(Flags("RO", "access"), Unknown("begin_search"), Unknown("find_keys"),
                "For the optional BY/GET keyword. It is marked 'unknown' because the key names derive from the content of the key we sort"),
            Spec(Flags("OW", "update"), Unknown("begin_search"), Unknown("find_keys"),
                "For the optional STORE keyword. It is marked 'unknown' because the keyword can appear anywhere in the argument array")));
        AssertSpecs(client, "SPUBLISH", Specs(Spec(Flags("not_key"), Index(1), Range(0))));
        AssertSpecs(client, "PING", Specs());
    }

    [Test]
    public void SubcommandsHaveTheirKeySpecs()
    {
        using var client = ConnectRaw();
        AssertSpecs(client, "xgroup|create", Specs(Spec(Flags("RW", "insert"), Index(2), Range(0))));
        AssertSpecs(client, "object|encoding", Specs(Spec(Flags("RO"), Index(2), Range(0))));
    }

    [Test]
    public void EveryCommandWithKeysHasSpecsAndOnlySortsAreUnknown()
    {
        foreach (var info in CommandTable.All)
        {
            bool hasKeys = info.FirstKey > 0 || (info.Flags & CommandFlags.MovableKeys) != 0;
            bool keySpecs = info.KeySpecs.Any(s => (s.Flags & KeySpecFlags.NotKey) == 0);
            Assert.That(keySpecs, Is.EqualTo(hasKeys), info.Name);
            bool unknown = info.KeySpecs.Any(s => s.Begin == BeginSearch.Unknown || s.Find == FindKeys.Unknown);
            Assert.That(unknown, Is.EqualTo(info.Name is "SORT" or "SORT_RO"), info.Name);
        }
    }

    [Test]
    public void GetKeysAndFlagsFollowsTheSpecs()
    {
        using var client = ConnectRaw();
        string Key(string key, params string[] flags) => "*2\r\n" + B(key) + Flags(flags);
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "SET", "k", "v"), Is.EqualTo("*1\r\n" + Key("k", "OW", "update")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "SET", "k", "v", "GET"), Is.EqualTo("*1\r\n" + Key("k", "RW", "access", "update")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "BITFIELD", "k", "GET", "u8", "0"), Is.EqualTo("*1\r\n" + Key("k", "RO", "access")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "RENAME", "a", "b"), Is.EqualTo("*2\r\n" + Key("a", "RW", "access", "delete") + Key("b", "OW", "update")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "ZUNIONSTORE", "d", "2", "a", "b", "WEIGHTS", "1", "2"),
            Is.EqualTo("*3\r\n" + Key("d", "OW", "update") + Key("a", "RO", "access") + Key("b", "RO", "access")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "EVAL", "return 1", "2", "a", "b", "x"),
            Is.EqualTo("*2\r\n" + Key("a", "RW", "access", "update") + Key("b", "RW", "access", "update")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "LMPOP", "2", "a", "b", "LEFT"),
            Is.EqualTo("*2\r\n" + Key("a", "RW", "access", "delete") + Key("b", "RW", "access", "delete")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "XREAD", "COUNT", "1", "STREAMS", "s1", "s2", "0", "0"),
            Is.EqualTo("*2\r\n" + Key("s1", "RO", "access") + Key("s2", "RO", "access")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "GEORADIUS", "k", "0", "0", "1", "m", "STORE", "d", "STOREDIST", "e"),
            Is.EqualTo("*3\r\n" + Key("k", "RO", "access") + Key("d", "OW", "update") + Key("e", "OW", "update")));
        Assert.That(client.Execute("COMMAND", "GETKEYSANDFLAGS", "SORT", "k", "BY", "w_*", "GET", "STORE", "STORE", "d1", "STORE", "d2"),
            Is.EqualTo("*2\r\n" + Key("k", "RO", "access") + Key("d2", "OW", "update")));
    }

    [Test]
    public void GetKeysOfKeyNumAndKeywordCommands()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("COMMAND", "GETKEYS", "ZUNION", "2", "a", "b", "WITHSCORES"), Is.EqualTo("*2\r\n" + B("a") + B("b")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "BLMPOP", "0", "2", "a", "b", "LEFT"), Is.EqualTo("*2\r\n" + B("a") + B("b")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SINTERCARD", "1", "a", "LIMIT", "3"), Is.EqualTo("*1\r\n" + B("a")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">"), Is.EqualTo("*1\r\n" + B("s")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SORT_RO", "k", "BY", "nosort"), Is.EqualTo("*1\r\n" + B("k")));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "GEORADIUS", "k", "0", "0", "1", "m"), Is.EqualTo("*1\r\n" + B("k")));
        // numkeys 0: scripts may have no keys; a count the arguments cannot hold is invalid.
        Assert.That(client.Execute("COMMAND", "GETKEYS", "EVAL", "return 1", "0"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "ZUNION", "3", "a", "b"), Is.EqualTo("-ERR Invalid arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "ZUNION", "x", "a"), Is.EqualTo("-ERR Invalid arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "XREAD", "COUNT", "1", "BLOCK", "0"), Is.EqualTo("-ERR Invalid arguments specified for command\r\n"));
        Assert.That(client.Execute("COMMAND", "GETKEYS", "SPUBLISH", "ch", "m"), Is.EqualTo("-ERR The command has no key arguments\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }
}
