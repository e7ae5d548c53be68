using System;
using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>FUNCTION LIST / DUMP / RESTORE / STATS / KILL / HELP, arity and unknown subcommands.</summary>
public class FunctionAdminTests : ServerTestBase
{
    private const string TwoFunctions = "#!lua name=mylib\n"
        + "redis.register_function('f1', function() return 1 end)\n"
        + "redis.register_function{function_name='f2', description='second', flags={'allow-stale', 'NO-WRITES'}, callback=function() return 2 end}";

    private const string OtherLibrary = "#!lua name=other\nredis.register_function('o1', function() return 'o' end)";

    private static string Map(params string[] pairs) => "*" + pairs.Length + "\r\n" + string.Concat(pairs);

    private static readonly string s_twoFunctionsResp2 =
        Map(Bulk("name"), Bulk("f1"), Bulk("description"), "$-1\r\n", Bulk("flags"), "*0\r\n")
        + Map(Bulk("name"), Bulk("f2"), Bulk("description"), Bulk("second"), Bulk("flags"), "*2\r\n+no-writes\r\n+allow-stale\r\n");

    [Test]
    public void ListResp2()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("FUNCTION", "LIST"), Is.EqualTo("*0\r\n"));
        client.Execute("FUNCTION", "LOAD", TwoFunctions);
        Assert.That(client.Execute("FUNCTION", "LIST"), Is.EqualTo("*1\r\n"
            + Map(Bulk("library_name"), Bulk("mylib"), Bulk("engine"), Bulk("LUA"), Bulk("functions"), "*2\r\n" + s_twoFunctionsResp2)));
        Assert.That(client.Execute("FUNCTION", "LIST", "WITHCODE"), Is.EqualTo("*1\r\n"
            + Map(Bulk("library_name"), Bulk("mylib"), Bulk("engine"), Bulk("LUA"), Bulk("functions"), "*2\r\n" + s_twoFunctionsResp2, Bulk("library_code"), Bulk(TwoFunctions))));
    }

    [Test]
    public void ListResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("FUNCTION", "LOAD", TwoFunctions);
        string functions = "*2\r\n"
            + "%3\r\n" + Bulk("name") + Bulk("f1") + Bulk("description") + "_\r\n" + Bulk("flags") + "~0\r\n"
            + "%3\r\n" + Bulk("name") + Bulk("f2") + Bulk("description") + Bulk("second") + Bulk("flags") + "~2\r\n+no-writes\r\n+allow-stale\r\n";
        Assert.That(client.Execute("FUNCTION", "LIST"), Is.EqualTo("*1\r\n%3\r\n"
            + Bulk("library_name") + Bulk("mylib") + Bulk("engine") + Bulk("LUA") + Bulk("functions") + functions));
        Assert.That(client.Execute("FUNCTION", "STATS"), Is.EqualTo("%2\r\n" + Bulk("running_script") + "_\r\n"
            + Bulk("engines") + "%1\r\n" + Bulk("LUA") + "%2\r\n" + Bulk("libraries_count") + ":1\r\n" + Bulk("functions_count") + ":2\r\n"));
    }

    [Test]
    public void ListFiltersByLibraryName()
    {
        using var client = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", TwoFunctions);
        client.Execute("FUNCTION", "LOAD", OtherLibrary);
        Assert.That(client.Execute("FUNCTION", "LIST"), Does.StartWith("*2\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST", "LIBRARYNAME", "oth*"), Is.EqualTo("*1\r\n"
            + Map(Bulk("library_name"), Bulk("other"), Bulk("engine"), Bulk("LUA"), Bulk("functions"),
                "*1\r\n" + Map(Bulk("name"), Bulk("o1"), Bulk("description"), "$-1\r\n", Bulk("flags"), "*0\r\n"))));
        // The pattern ignores case; WITHCODE may come first.
        Assert.That(client.Execute("FUNCTION", "LIST", "withcode", "libraryname", "MYLIB"), Does.StartWith("*1\r\n*8\r\n" + Bulk("library_name") + Bulk("mylib")).And.EndWith(Bulk("library_code") + Bulk(TwoFunctions)));
        Assert.That(client.Execute("FUNCTION", "LIST", "LIBRARYNAME", "none*"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST", "LIBRARYNAME"), Is.EqualTo("-ERR library name argument was not given\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST", "BOGUS"), Is.EqualTo("-ERR Unknown argument BOGUS\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST", "WITHCODE", "WITHCODE"), Is.EqualTo("-ERR Unknown argument WITHCODE\r\n"));
    }

    /// <summary>The bytes of a bulk-string reply read as Latin-1 text (how the raw client sends arguments back).</summary>
    private static string BulkPayload(string reply)
    {
        Assert.That(reply, Does.StartWith("$"));
        int headerEnd = reply.IndexOf("\r\n", StringComparison.Ordinal);
        int length = int.Parse(reply.AsSpan(1, headerEnd - 1));
        return reply.Substring(headerEnd + 2, length);
    }

    [Test]
    public void DumpFlushRestoreRoundTrip()
    {
        using var client = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", TwoFunctions);
        client.Execute("FUNCTION", "LOAD", OtherLibrary);
        string listing = client.Execute("FUNCTION", "LIST", "WITHCODE");
        string payload = BulkPayload(client.Execute("FUNCTION", "DUMP"));

        Assert.That(client.Execute("FUNCTION", "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FCALL", "f2", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST", "WITHCODE"), Is.EqualTo(listing));
        Assert.That(client.Execute("FCALL_RO", "f2", "0"), Is.EqualTo(":2\r\n"));
        using (var other = ConnectRaw())
            Assert.That(other.Execute("FCALL", "o1", "0"), Is.EqualTo(Bulk("o")));

        // APPEND (the default) refuses a library that exists; REPLACE and FLUSH take it.
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload), Is.EqualTo("-ERR Library mylib already exists\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "APPEND"), Is.EqualTo("-ERR Library mylib already exists\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "replace"), Is.EqualTo("+OK\r\n"));
        client.Execute("FUNCTION", "LOAD", "#!lua name=extra\nredis.register_function('x', function() return 'x' end)");
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST", "WITHCODE"), Is.EqualTo(listing));
        Assert.That(client.Execute("FCALL", "x", "0"), Is.EqualTo("-ERR Function not found\r\n"));

        // A function name taken by a library that stays fails every policy but FLUSH, and changes nothing.
        client.Execute("FUNCTION", "FLUSH");
        client.Execute("FUNCTION", "LOAD", "#!lua name=clash\nredis.register_function('f1', function() return 'clash' end)");
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload), Is.EqualTo("-ERR Function f1 already exists\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "REPLACE"), Is.EqualTo("-ERR Function f1 already exists\r\n"));
        Assert.That(client.Execute("FCALL", "f1", "0"), Is.EqualTo(Bulk("clash")));
        Assert.That(client.Execute("FCALL", "o1", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FCALL", "f1", "0"), Is.EqualTo(":1\r\n"));

        // An empty dump restores to nothing.
        client.Execute("FUNCTION", "FLUSH");
        string empty = BulkPayload(client.Execute("FUNCTION", "DUMP"));
        client.Execute("FUNCTION", "LOAD", OtherLibrary);
        Assert.That(client.Execute("FUNCTION", "RESTORE", empty, "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FUNCTION", "LIST"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void RestoreErrors()
    {
        using var client = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", TwoFunctions);
        string payload = BulkPayload(client.Execute("FUNCTION", "DUMP"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", "bad payload"), Is.EqualTo("-ERR DUMP payload version or checksum are wrong\r\n"));
        // One flipped byte breaks the checksum.
        char[] corrupt = payload.ToCharArray();
        corrupt[10] = (char)(corrupt[10] ^ 1);
        Assert.That(client.Execute("FUNCTION", "RESTORE", new string(corrupt), "FLUSH"), Is.EqualTo("-ERR DUMP payload version or checksum are wrong\r\n"));
        // A key's DUMP payload is not a functions payload.
        client.Execute("SET", "k", "v");
        string keyPayload = BulkPayload(client.Execute("DUMP", "k"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", keyPayload), Is.EqualTo("-ERR given type is not a function\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "MERGE"), Is.EqualTo("-ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE", payload, "FLUSH", "x"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'RESTORE'. Try FUNCTION HELP.\r\n"));
        Assert.That(client.Execute("FUNCTION", "RESTORE"), Is.EqualTo("-ERR wrong number of arguments for 'function|restore' command\r\n"));
        // Nothing changed.
        Assert.That(client.Execute("FCALL", "f1", "0"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void StatsCountsLibrariesAndFunctions()
    {
        using var client = ConnectRaw();
        string Stats(int libraries, int functions) => Map(Bulk("running_script"), "$-1\r\n", Bulk("engines"),
            Map(Bulk("LUA"), Map(Bulk("libraries_count"), $":{libraries}\r\n", Bulk("functions_count"), $":{functions}\r\n")));
        Assert.That(client.Execute("FUNCTION", "STATS"), Is.EqualTo(Stats(0, 0)));
        client.Execute("FUNCTION", "LOAD", TwoFunctions);
        client.Execute("FUNCTION", "LOAD", OtherLibrary);
        Assert.That(client.Execute("FUNCTION", "STATS"), Is.EqualTo(Stats(2, 3)));
        client.Execute("FUNCTION", "DELETE", "mylib");
        Assert.That(client.Execute("FUNCTION", "STATS"), Is.EqualTo(Stats(1, 1)));
    }

    [Test]
    public void ArityHelpAndUnknownSubcommands()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("FUNCTION"), Is.EqualTo("-ERR wrong number of arguments for 'function' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "NOPE"), Is.EqualTo("-ERR unknown subcommand 'NOPE'. Try FUNCTION HELP.\r\n"));
        Assert.That(client.Execute("FUNCTION", "LOAD"), Is.EqualTo("-ERR wrong number of arguments for 'function|load' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "DELETE"), Is.EqualTo("-ERR wrong number of arguments for 'function|delete' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "DELETE", "a", "b"), Is.EqualTo("-ERR wrong number of arguments for 'function|delete' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "DUMP", "x"), Is.EqualTo("-ERR wrong number of arguments for 'function|dump' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "KILL", "x"), Is.EqualTo("-ERR wrong number of arguments for 'function|kill' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "STATS", "x"), Is.EqualTo("-ERR wrong number of arguments for 'function|stats' command\r\n"));
        Assert.That(client.Execute("FUNCTION", "HELP", "x"), Is.EqualTo("-ERR wrong number of arguments for 'function|help' command\r\n"));
        string help = client.Execute("FUNCTION", "HELP");
        Assert.That(help, Does.StartWith("*24\r\n+FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n")
            .And.Contain("+LOAD [REPLACE] <library code>\r\n").And.Contain("+RESTORE <payload> [FLUSH|APPEND|REPLACE]\r\n").And.EndWith("+HELP\r\n+    Print this help.\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "function|load"), Does.Contain("function|load").And.Contain("noscript"));
        Assert.That(client.Execute("FUNCTION", "KILL"), Is.EqualTo("-NOTBUSY No scripts in execution right now.\r\n"));
        // Unknown subcommands are refused when queued, too.
        client.Execute("MULTI");
        Assert.That(client.Execute("FUNCTION", "NOPE"), Is.EqualTo("-ERR unknown subcommand 'NOPE'. Try FUNCTION HELP.\r\n"));
        Assert.That(client.Execute("EXEC"), Does.StartWith("-EXECABORT"));
    }

    [Test]
    public void LongRunningReadOnlyFunctionIsBusyUntilKilled()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "lua-time-limit", "100"), Is.EqualTo("+OK\r\n"));
        const string Library = "#!lua name=slow\n"
            + "redis.register_function{function_name='spin', flags={'no-writes'}, callback=function()\n"
            + "  local i = 0\n"
            + "  while true do i = i + 1 end\n"
            + "end}";
        Assert.That(admin.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("slow")));
        using var runner = ConnectRaw();
        runner.Send("FCALL_RO", "spin", "0");

        Assert.That(ScriptConcurrencyTests.WaitForBusy(admin), Is.EqualTo("-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n"));
        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n"));
        Assert.That(admin.Execute("FUNCTION", "STATS"), Does.StartWith("*4\r\n" + Bulk("running_script") + "*6\r\n" + Bulk("name") + Bulk("spin")
            + Bulk("command") + "*3\r\n" + Bulk("FCALL_RO") + Bulk("spin") + Bulk("0") + Bulk("duration_ms") + ":"));
        Assert.That(admin.Execute("FUNCTION", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Is.EqualTo("-ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:4.\r\n"));
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(admin.Execute("FUNCTION", "KILL"), Is.EqualTo("-NOTBUSY No scripts in execution right now.\r\n"));
        // The killed session calls functions again.
        Assert.That(runner.Execute("FUNCTION", "LOAD", "#!lua name=quick\nredis.register_function('quick', function() return 5 end)"), Is.EqualTo(Bulk("quick")));
        Assert.That(runner.Execute("FCALL", "quick", "0"), Is.EqualTo(":5\r\n"));
    }

    [Test]
    public void FunctionKillDoesNotStopScripts()
    {
        using var admin = ConnectRaw();
        admin.Execute("CONFIG", "SET", "lua-time-limit", "100");
        using var runner = ConnectRaw();
        runner.Send("EVAL", "local i = 0 while true do i = i + 1 end", "0");
        const string ScriptBusy = "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
        Assert.That(ScriptConcurrencyTests.WaitForBusy(admin), Is.EqualTo(ScriptBusy));
        Assert.That(admin.Execute("FUNCTION", "KILL"), Is.EqualTo(ScriptBusy));
        Assert.That(admin.Execute("FUNCTION", "STATS"), Is.EqualTo(ScriptBusy));
        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Does.StartWith("-ERR Script killed by user with SCRIPT KILL..."));
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }
}
