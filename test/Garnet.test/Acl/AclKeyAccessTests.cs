using System.Collections.Generic;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Acl;

/// <summary>
/// Key permissions per key, as Redis 7 decides them from each key spec's flags: ACCESS (the command returns or uses the
/// stored value) needs %R~, INSERT, DELETE or UPDATE needs %W~, and a key with neither (EXISTS, TYPE) needs only a
/// pattern that matches it. The expected answers are redis-server 7.0's ACL DRYRUN answers for the same lines; each is
/// checked through DRYRUN (the full checker) and by running the line as the user (the dispatcher's inline check).
/// </summary>
[TestFixture]
public sealed class AclKeyAccessTests : ServerTestBase
{
    private const string KeyDenied = "-NOPERM No permissions to access a key\r\n";

    /// <summary>A command line and whether a user with only %R~* and one with only %W~* may run it.</summary>
    private static readonly (string[] Line, bool Read, bool Write)[] s_readOrWriteOnly =
    [
        (["GET", "k"], true, false),
        (["SET", "k", "v"], false, true),
        (["SET", "k", "v", "GET"], false, false),
        (["SET", "k", "v", "NX", "GET"], false, false),
        (["SET", "k", "v", "EX", "10"], false, true),
        (["APPEND", "k", "v"], false, true),
        (["SETRANGE", "k", "0", "v"], false, true),
        (["INCR", "k"], false, false),
        (["GETSET", "k", "v"], false, false),
        (["GETDEL", "k"], false, false),
        (["GETEX", "k"], false, false),
        (["STRLEN", "k"], true, true),
        (["DEL", "k"], false, true),
        (["UNLINK", "k"], false, true),
        (["EXISTS", "k", "j"], true, true),
        (["TYPE", "k"], true, true),
        (["TOUCH", "k"], true, true),
        (["TTL", "k"], true, false),
        (["EXPIRE", "k", "10"], false, true),
        (["PERSIST", "k"], false, true),
        (["OBJECT", "ENCODING", "k"], true, true),
        (["MEMORY", "USAGE", "k"], true, true),
        (["LPUSH", "k", "v"], false, true),
        (["LPOP", "k"], false, false),
        (["LLEN", "k"], true, true),
        (["LRANGE", "k", "0", "-1"], true, false),
        (["LMOVE", "s", "d", "LEFT", "RIGHT"], false, false),
        (["RPOPLPUSH", "s", "d"], false, false),
        (["SADD", "k", "m"], false, true),
        (["SISMEMBER", "k", "m"], true, true),
        (["SCARD", "k"], true, true),
        (["SPOP", "k"], false, false),
        (["HSET", "k", "f", "v"], false, true),
        (["HEXISTS", "k", "f"], true, true),
        (["HINCRBY", "k", "f", "1"], false, false),
        (["ZADD", "k", "1", "m"], false, true),
        (["ZINCRBY", "k", "1", "m"], false, false),
        (["ZCARD", "k"], true, true),
        (["PFADD", "k", "e"], false, true),
        (["PFCOUNT", "k"], true, false),
        (["SETBIT", "k", "0", "1"], false, false),
        (["BITFIELD", "k", "GET", "u8", "0"], true, false),
        (["BITFIELD", "k", "OVERFLOW", "SAT", "GET", "u8", "0"], true, false),
        (["BITFIELD", "k", "SET", "u8", "0", "1"], false, false),
        (["BITFIELD", "k", "GET", "u8"], false, false),
        (["BITFIELD_RO", "k", "GET", "u8", "0"], true, false),
        (["COPY", "s", "d"], false, false),
        (["RENAME", "s", "d"], false, false),
        (["MOVE", "k", "1"], false, false),
        (["SUNIONSTORE", "d", "s1", "s2"], false, false),
        (["GEORADIUS", "k", "0", "0", "1", "km"], true, false),
        (["GEORADIUS", "k", "0", "0", "1", "km", "STORE", "d"], false, false),
        (["SORT", "k"], true, false),
        (["EVAL", "return 1", "1", "k"], false, false),
        (["EVAL_RO", "return 1", "1", "k"], true, false),
        (["WATCH", "k"], true, true),
    ];

    /// <summary>Defines <paramref name="user"/> (no password) from an admin connection with <paramref name="rules"/>.</summary>
    private static void Define(RawClient admin, string user, params string[] rules)
    {
        var arguments = new List<string> { "ACL", "SETUSER", user, "reset", "on", "nopass", "&*", "+@all" };
        arguments.AddRange(rules);
        Assert.That(admin.Execute(arguments.ToArray()), Is.EqualTo("+OK\r\n"));
    }

    private RawClient LoginAs(string user)
    {
        var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", user, "any"), Is.EqualTo("+OK\r\n"));
        return client;
    }

    private static string DryRun(RawClient admin, string user, string[] line)
    {
        var arguments = new List<string> { "ACL", "DRYRUN", user };
        arguments.AddRange(line);
        return admin.Execute(arguments.ToArray());
    }

    private static string Bulk(string text) => $"${text.Length}\r\n{text}\r\n";

    private static string Denied(string key) => Bulk($"No permissions to access the '{key}' key");

    [Test]
    public void EveryCommandWithKeysDeclaresWhatItsKeysNeed()
    {
        foreach (var info in CommandTable.All)
        {
            bool hasKeys = info.FirstKey > 0 || (info.Flags & CommandFlags.MovableKeys) != 0;
            Assert.That(info.KeyAccess.HasKeys, Is.EqualTo(hasKeys), info.Name);
            // A read-only command locks its keys shared: it must not ask to write one.
            if ((info.Flags & CommandFlags.ReadOnly) != 0)
                Assert.That((info.KeyAccess.First | info.KeyAccess.Rest) & KeyAccess.Write, Is.EqualTo(KeyAccess.None), info.Name);
        }
        Assert.That(CommandTable.Lookup("LMOVE")!.KeyAccess.First, Is.EqualTo(KeyAccess.ReadWrite));
        Assert.That(CommandTable.Lookup("LMOVE")!.KeyAccess.Rest, Is.EqualTo(KeyAccess.Write));
        Assert.That(CommandTable.Lookup("SUNIONSTORE")!.KeyAccess.First, Is.EqualTo(KeyAccess.Write));
        Assert.That(CommandTable.Lookup("SUNIONSTORE")!.KeyAccess.Rest, Is.EqualTo(KeyAccess.Read));
        Assert.That(CommandTable.Lookup("EXISTS")!.KeyAccess.First, Is.EqualTo(KeyAccess.None));
        Assert.That(CommandTable.Lookup("SET")!.KeyAccess.VariesWithArguments, Is.True);
    }

    [Test]
    public void ReadOnlyAndWriteOnlyPatterns()
    {
        using var admin = ConnectRaw();
        Define(admin, "r", "%R~*");
        Define(admin, "w", "%W~*");
        using var reader = LoginAs("r");
        using var writer = LoginAs("w");
        var wrong = new List<string>();
        foreach (var (line, read, write) in s_readOrWriteOnly)
        {
            Check("r", reader, line, read);
            Check("w", writer, line, write);
        }
        Assert.That(wrong, Is.Empty);

        void Check(string user, RawClient client, string[] line, bool allowed)
        {
            string judged = DryRun(admin, user, line);
            if (judged.StartsWith("+OK") != allowed)
                wrong.Add($"DRYRUN {user} {string.Join(' ', line)}: {judged.Trim()}");
            string ran = client.Execute(line);
            if ((ran != KeyDenied) != allowed)
                wrong.Add($"{user} ran {string.Join(' ', line)}: {ran.Trim()}");
            if (line[0] == "WATCH" && allowed)
                client.Execute("UNWATCH");
        }
    }

    [Test]
    public void SourcesAndDestinationsAreCheckedApart()
    {
        using var admin = ConnectRaw();
        Define(admin, "u", "%R~src*", "%W~dst*", "~rw*");
        using var client = LoginAs("u");
        // Destinations written, sources read.
        foreach (var line in new[]
        {
            new[] { "COPY", "src", "dst" },
            ["SUNIONSTORE", "dst", "src1", "src2"],
            ["SINTERSTORE", "dst", "src1", "src2"],
            ["SDIFFSTORE", "dst", "src1", "src2"],
            ["ZUNIONSTORE", "dst", "2", "src1", "src2"],
            ["ZRANGESTORE", "dst", "src", "0", "-1"],
            ["BITOP", "AND", "dst", "src1", "src2"],
            ["GEOSEARCHSTORE", "dst", "src", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"],
            ["GEORADIUS", "src", "0", "0", "1", "km", "STORE", "dst"],
            ["SORT", "src", "STORE", "dst"],
            ["LMOVE", "rw1", "dst", "LEFT", "RIGHT"],
            ["SMOVE", "rw1", "dst", "m"],
            ["RENAME", "rw1", "dst"],
            ["PFMERGE", "rw1", "src1", "src2"],
        })
        {
            Assert.That(DryRun(admin, "u", line), Is.EqualTo("+OK\r\n"), string.Join(' ', line));
            Assert.That(client.Execute(line), Is.Not.EqualTo(KeyDenied), string.Join(' ', line));
        }
        // A source moved from is read and written; a destination merged into too.
        Assert.That(DryRun(admin, "u", ["LMOVE", "src", "dst", "LEFT", "RIGHT"]), Is.EqualTo(Denied("src")));
        Assert.That(DryRun(admin, "u", ["RPOPLPUSH", "dst", "rw1"]), Is.EqualTo(Denied("dst")));
        Assert.That(DryRun(admin, "u", ["PFMERGE", "dst", "src"]), Is.EqualTo(Denied("dst")));
        Assert.That(client.Execute("LMOVE", "src", "dst", "LEFT", "RIGHT"), Is.EqualTo(KeyDenied));
        // The wrong way round.
        Assert.That(DryRun(admin, "u", ["COPY", "dst", "src"]), Is.EqualTo(Denied("dst")));
        Assert.That(DryRun(admin, "u", ["SUNIONSTORE", "src", "dst"]), Is.EqualTo(Denied("src")));
        Assert.That(DryRun(admin, "u", ["ZUNIONSTORE", "dst", "2", "src", "dst2"]), Is.EqualTo(Denied("dst2")));
        Assert.That(client.Execute("COPY", "dst", "src"), Is.EqualTo(KeyDenied));
        Assert.That(client.Execute("SUNIONSTORE", "src", "dst"), Is.EqualTo(KeyDenied));
        // Stricter than Redis 7.0, which checks only the first STORE of GEORADIUS and no key of PFMERGE without sources.
        Assert.That(DryRun(admin, "u", ["GEORADIUS", "src", "0", "0", "1", "km", "STORE", "dst", "STORE", "src2"]), Is.EqualTo(Denied("src2")));
        Assert.That(DryRun(admin, "u", ["PFMERGE", "dst"]), Is.EqualTo(Denied("dst")));
    }

    [Test]
    public void SetAndBitfieldNeedWhatTheirArgumentsDo()
    {
        using var admin = ConnectRaw();
        Define(admin, "w", "%W~*");
        Define(admin, "r", "%R~*");
        using var writer = LoginAs("w");
        using var reader = LoginAs("r");
        Assert.That(writer.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.Execute("SET", "k", "GET"), Is.EqualTo("+OK\r\n"));
        Assert.That(writer.Execute("SET", "k", "v", "get"), Is.EqualTo(KeyDenied));
        Assert.That(writer.Execute("SET", "k", "v", "XX", "GET"), Is.EqualTo(KeyDenied));
        Assert.That(reader.Execute("BITFIELD", "k", "GET", "u8", "0"), Is.EqualTo("*1\r\n:71\r\n"));
        Assert.That(reader.Execute("BITFIELD", "k", "INCRBY", "u8", "0", "1"), Is.EqualTo(KeyDenied));
        Assert.That(writer.Execute("BITFIELD", "k", "INCRBY", "u8", "0", "1"), Is.EqualTo(KeyDenied));
    }

    [Test]
    public void WatchedKeysAreChecked()
    {
        using var admin = ConnectRaw();
        Define(admin, "u", "~a*");
        using var client = LoginAs("u");
        Assert.That(DryRun(admin, "u", ["WATCH", "a1", "b1"]), Is.EqualTo(Denied("b1")));
        Assert.That(client.Execute("WATCH", "a1", "b1"), Is.EqualTo(KeyDenied));
        // Allowed keys are watched as before: a change by another client aborts the transaction.
        Assert.That(client.Execute("WATCH", "a1", "a2"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("SET", "a2", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "a1", "v"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*-1\r\n"));
    }
}
