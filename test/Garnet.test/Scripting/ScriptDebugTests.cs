using System.Diagnostics;
using System.IO;
using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>
/// SCRIPT DEBUG and the Lua debugger (LDB): the replies of SCRIPT DEBUG, a debugged EVAL's log arrays for each debugger
/// command, its end (&lt;endsession&gt;, the reply, the connection closed) and what the session leaves behind.
/// Expected texts are those Redis's debugger sends.
/// </summary>
public class ScriptDebugTests : ServerTestBase
{
    private const string Script = "local a = 5\nlocal t = {1,2,'x'}\nredis.debug('hi', a, t)\nredis.call('set', KEYS[1], ARGV[1])\nlocal v = redis.call('get', KEYS[1])\nreturn v";

    /// <summary>The log array Redis's debugger sends: status lines.</summary>
    private static string Log(params string[] lines) => "*" + lines.Length + "\r\n" + string.Concat(System.Array.ConvertAll(lines, l => "+" + l + "\r\n"));

    /// <summary>A client with SCRIPT DEBUG SYNC on, stopped at line 1 of <paramref name="script"/>.</summary>
    private RawClient StartSession(string script, params string[] keysAndArgs)
    {
        var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "DEBUG", "SYNC"), Is.EqualTo("+OK\r\n"));
        var eval = new string[3 + keysAndArgs.Length];
        eval[0] = "EVAL";
        eval[1] = script;
        keysAndArgs.CopyTo(eval, 3);
        eval[2] = keysAndArgs.Length == 0 ? "0" : "1";
        client.Send(eval);
        return client;
    }

    [Test]
    public void ScriptDebugRepliesAndErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "DEBUG", "SYNC"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SCRIPT", "DEBUG", "no"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EVAL", "return 1", "0"), Is.EqualTo(":1\r\n"), "NO turns the debugger off");
        Assert.That(client.Execute("SCRIPT", "DEBUG", "MAYBE"), Is.EqualTo("-ERR Use SCRIPT DEBUG YES/SYNC/NO\r\n"));
        Assert.That(client.Execute("SCRIPT", "DEBUG"), Is.EqualTo("-ERR wrong number of arguments for 'script|debug' command\r\n"));
        Assert.That(client.Execute("SCRIPT", "DEBUG", "yes", "x"), Is.EqualTo("-ERR wrong number of arguments for 'script|debug' command\r\n"));

        // Inside a transaction (and behind other pending replies) Redis refuses it.
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SCRIPT", "DEBUG", "SYNC"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*1\r\n-ERR SCRIPT DEBUG must be called outside a pipeline\r\n"));
        client.SendRaw(RawClient.Encode("PING") + RawClient.Encode("SCRIPT", "DEBUG", "SYNC"));
        Assert.That(client.ReadReply(), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.ReadReply(), Is.EqualTo("-ERR SCRIPT DEBUG must be called outside a pipeline\r\n"));
        Assert.That(client.Execute("EVAL", "return 3", "0"), Is.EqualTo(":3\r\n"));

        Assert.That(client.Execute("SCRIPT", "DEBUG", "SYNC"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EVALSHA", Sha1("return 3"), "0"), Is.EqualTo("-ERR Please use EVAL instead of EVALSHA for debugging\r\n"));
        Assert.That(client.Execute("SCRIPT", "HELP"), Does.Contain("DEBUG (YES|SYNC|NO)"));
    }

    [Test]
    public void StepsThroughLinesAndPrintsVariables()
    {
        using var client = StartSession(Script, "k", "val");
        Assert.That(client.ReadReply(), Is.EqualTo(Log("* Stopped at 1, stop reason = step over", "-> 1   local a = 5")));
        Assert.That(client.Execute("p"), Is.EqualTo(Log("No local variables in the current context.")));
        Assert.That(client.Execute("s"), Is.EqualTo(Log("* Stopped at 2, stop reason = step over", "-> 2   local t = {1,2,'x'}")));
        Assert.That(client.Execute("next"), Is.EqualTo(Log("* Stopped at 3, stop reason = step over", "-> 3   redis.debug('hi', a, t)")));
        Assert.That(client.Execute("print"), Is.EqualTo(Log("<value> a = 5", "<value> t = {1; 2; \"x\"}")));
        Assert.That(client.Execute("p", "t"), Is.EqualTo(Log("<value> {1; 2; \"x\"}")));
        Assert.That(client.Execute("p", "nope"), Is.EqualTo(Log("No such variable.")));
        Assert.That(client.Execute("p", "KEYS"), Is.EqualTo(Log("<value> {\"k\"}")));
        Assert.That(client.Execute("s"), Is.EqualTo(Log("<debug> line 3: \"hi\", 5, {1; 2; \"x\"}",
            "* Stopped at 4, stop reason = step over", "-> 4   redis.call('set', KEYS[1], ARGV[1])")));
        Assert.That(client.Execute("t"), Is.EqualTo(Log("In top level:", "-> 4   redis.call('set', KEYS[1], ARGV[1])")));
        // Stepping over a line logs the commands it runs and their replies.
        Assert.That(client.Execute("s"), Is.EqualTo(Log("<redis> set k val", "<reply> \"+OK\"",
            "* Stopped at 5, stop reason = step over", "-> 5   local v = redis.call('get', KEYS[1])")));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(Bulk("val")));
        Assert.That(client.IsClosedByServer(), Is.True, "the session ends the connection, as in Redis");
    }

    [Test]
    public void BreakpointsListingAndContinue()
    {
        using var client = StartSession(Script, "k", "val");
        client.ReadReply();
        Assert.That(client.Execute("b"), Is.EqualTo(Log("No breakpoints set. Use 'b <line>' to add one.")));
        Assert.That(client.Execute("b", "6"), Is.EqualTo(Log("   5   local v = redis.call('get', KEYS[1])", "  #6   return v")));
        Assert.That(client.Execute("b"), Is.EqualTo(Log("1 breakpoints set:", "  #6   return v")));
        Assert.That(client.Execute("b", "99"), Is.EqualTo(Log("Wrong line number.")));
        Assert.That(client.Execute("b", "x"), Is.EqualTo(Log("Invalid argument:'x'")));
        Assert.That(client.Execute("l", "2", "1"), Is.EqualTo(Log("-> 1   local a = 5", "   2   local t = {1,2,'x'}", "   3   redis.debug('hi', a, t)")));
        Assert.That(client.Execute("w"), Does.StartWith("*6\r\n+-> 1   local a = 5\r\n").And.EndWith("+  #6   return v\r\n"));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<debug> line 3: \"hi\", 5, {1; 2; \"x\"}", "* Stopped at 6, stop reason = break point", "->#6   return v")));
        Assert.That(client.Execute("b", "-6"), Is.EqualTo(Log("Breakpoint removed.")));
        Assert.That(client.Execute("b", "-6"), Is.EqualTo(Log("No breakpoint in the specified line.")));
        Assert.That(client.Execute("b", "0"), Is.EqualTo(Log("All breakpoints removed.")));
        Assert.That(client.Execute("zz"), Is.EqualTo(Log("<error> Unknown Redis Lua debugger command or wrong number of arguments.")));
        Assert.That(client.Execute("h"), Does.StartWith("*30\r\n+Redis Lua debugger help:\r\n"));
        Assert.That(client.Execute("continue"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(Bulk("val")));
    }

    [Test]
    public void RedisBreakpointStopsAtTheNextLine()
    {
        using var client = StartSession("local x = 'a'\nredis.breakpoint()\nlocal y = 1\nreturn redis.breakpoint()");
        client.ReadReply();
        Assert.That(client.Execute("c"), Is.EqualTo(Log("* Stopped at 3, stop reason = redis.breakpoint() called", "-> 3   local y = 1")));
        Assert.That(client.Execute("p", "x"), Is.EqualTo(Log("<value> \"a\"")));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"), "redis.breakpoint() returns true while debugging");
        using var other = ConnectRaw();
        Assert.That(other.Execute("EVAL", "return redis.breakpoint()", "0"), Is.EqualTo("$-1\r\n"), "and false otherwise");
    }

    [Test]
    public void RedisCommandsAndEvalFromTheDebugger()
    {
        using var client = StartSession("local a = 1\nreturn a");
        client.ReadReply();
        Assert.That(client.Execute("r", "ping"), Is.EqualTo(Log("<redis> ping", "<reply> \"+PONG\"")));
        Assert.That(client.Execute("redis", "set", "dk", "1"), Is.EqualTo(Log("<redis> set dk 1", "<reply> \"+OK\"")));
        Assert.That(client.Execute("r", "get", "missing"), Is.EqualTo(Log("<redis> get missing", "<reply> NULL")));
        Assert.That(client.Execute("r", "incr", "dk"), Is.EqualTo(Log("<redis> incr dk", "<reply> 2")));
        Assert.That(client.Execute("r", "rpush", "dl", "x", "y"), Is.EqualTo(Log("<redis> rpush dl x y", "<reply> 2")));
        Assert.That(client.Execute("r", "lrange", "dl", "0", "-1"), Is.EqualTo(Log("<redis> lrange dl 0 -1", "<reply> [\"x\",\"y\"]")));
        Assert.That(client.Execute("r", "lpush", "dk", "x"), Is.EqualTo(Log("<redis> lpush dk x", "<error> -WRONGTYPE Operation against a key holding the wrong kind of value",
            "<reply> \"-WRONGTYPE Operation against a key holding the wrong kind of value\"")));
        Assert.That(client.Execute("r", "nosuch"), Is.EqualTo(Log("<redis> nosuch", "<error> Unknown Redis command called from script")));
        Assert.That(client.Execute("r"), Is.EqualTo(Log("<error> Unknown Redis Lua debugger command or wrong number of arguments.")));

        Assert.That(client.Execute("e", "1+1"), Is.EqualTo(Log("<retval> 2")));
        Assert.That(client.Execute("eval", "#KEYS"), Is.EqualTo(Log("<retval> 0")));
        Assert.That(client.Execute("e", "local z = 1"), Is.EqualTo(Log("<retval> nil")));
        Assert.That(client.Execute("e", "a"), Is.EqualTo(Log("<error> ldb_eval:1: Script attempted to access nonexistent global variable 'a'")));
        Assert.That(client.Execute("e", "x="), Is.EqualTo(Log("<error> ldb_eval:1: unexpected symbol near <eof>")));
        Assert.That(client.Execute("e", "error(\"boom\")"), Is.EqualTo(Log("<error> ldb_eval:1: boom")));
        Assert.That(client.Execute("e", "redis.call('get', 'dk')"), Is.EqualTo(Log("<retval> \"2\"")));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"));

        // SYNC keeps what the session wrote.
        using var other = ConnectRaw();
        Assert.That(other.Execute("GET", "dk"), Is.EqualTo(Bulk("2")));
    }

    [Test]
    public void MaxlenTrimsLoggedValues()
    {
        using var client = StartSession("local s = string.rep('z', 300)\nreturn 1");
        client.ReadReply();
        Assert.That(client.Execute("m"), Is.EqualTo(Log("<value> replies are truncated at 256 bytes.")));
        client.Execute("s");
        string trimmed = "<value> s = \"" + new string('z', 243);
        Assert.That(client.Execute("p"), Is.EqualTo(Log(trimmed + " ...", "<hint> The above reply was trimmed. Use 'maxlen 0' to disable trimming.")));
        Assert.That(client.Execute("p"), Is.EqualTo(Log(trimmed + " ...")), "the hint is given once");
        Assert.That(client.Execute("maxlen", "10"), Is.EqualTo(Log("<value> replies are truncated at 60 bytes.")));
        Assert.That(client.Execute("p", "s"), Is.EqualTo(Log("<value> \"" + new string('z', 51) + " ...")));
        Assert.That(client.Execute("m", "0"), Is.EqualTo(Log("<value> replies are unlimited.")));
        Assert.That(client.Execute("p", "s"), Is.EqualTo(Log("<value> \"" + new string('z', 300) + "\"")));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void AbortEndsTheScriptKeepingItsEarlierWrites()
    {
        const string Body = "redis.call('set', 'before', '1')\nredis.call('set', 'after', '1')\nreturn 1";
        using var client = StartSession(Body);
        client.ReadReply();
        client.Execute("s");
        Assert.That(client.Execute("a"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo($"-ERR script aborted for user request script: {Sha1(Body)}, on @user_script:2.\r\n"));
        Assert.That(client.IsClosedByServer(), Is.True);
        using var other = ConnectRaw();
        Assert.That(other.Execute("EXISTS", "before", "after"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void ErrorsBeforeTheScriptRunsEndTheSession()
    {
        using (var client = StartSession("return 1 +"))
        {
            Assert.That(client.ReadReply(), Is.EqualTo(Log("<endsession>")));
            Assert.That(client.ReadReply(), Is.EqualTo("-ERR Error compiling script (new function): user_script:1: unexpected symbol near <eof>\r\n"));
            Assert.That(client.IsClosedByServer(), Is.True);
        }
        using (var client = ConnectRaw())
        {
            client.Execute("SCRIPT", "DEBUG", "SYNC");
            client.Send("EVAL", "return 1", "x");
            Assert.That(client.ReadReply(), Is.EqualTo(Log("<endsession>")));
            Assert.That(client.ReadReply(), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
            Assert.That(client.IsClosedByServer(), Is.True);
        }
    }

    [Test]
    public void MalformedDebuggerInputAbortsTheScript()
    {
        const string Body = "\n\nreturn 1\n\n";
        using var client = StartSession(Body);
        Assert.That(client.ReadReply(), Is.EqualTo(Log("* Stopped at 3, stop reason = step over", "-> 3   return 1")));
        Assert.That(client.Execute("l", "0"), Is.EqualTo(Log("   1   ", "   2   ", "-> 3   return 1")));
        // A command split across packets waits for its end.
        client.SendRaw("*1\r\n$1\r");
        System.Threading.Thread.Sleep(50);
        client.SendRaw("\nt\r\n");
        Assert.That(client.ReadReply(), Is.EqualTo(Log("In top level:", "-> 3   return 1")));
        client.SendRaw("garbage\r\n");
        Assert.That(client.ReadReply(), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo($"-ERR protocol error script: {Sha1(Body)}, on @user_script:3.\r\n"));
    }

    [Test]
    public void TablesNumbersAndFunctionsAreShownAsRedisShowsThem()
    {
        using var client = StartSession("local t = {a=1}\nlocal n = nil\nlocal f = 3.5\nlocal function g() return 1 end\nlocal big = 1e20\nreturn 1");
        client.ReadReply();
        for (int i = 0; i < 5; i++)
            client.Execute("s");
        string locals = client.Execute("p");
        Assert.That(locals, Does.StartWith("*5\r\n+<value> t = {[\"a\"]=1}\r\n+<value> n = nil\r\n+<value> f = 3.5\r\n+<value> g = \"function@0x"));
        Assert.That(locals, Does.EndWith("\"\r\n+<value> big = 1e+20\r\n"));
        Assert.That(client.Execute("e", "'a\\nb\\1'"), Is.EqualTo(Log("<retval> \"a\\nb\\x01\"")));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void AStoppedScriptHoldsNoLocks()
    {
        // Held across the client's think time, the script's locks would make every other script and transaction wait
        // on an idle connection (and deadlock one sharing its event-loop thread): it holds them only while it runs.
        using var client = StartSession("local v = redis.call('get', KEYS[1])\nredis.call('set', KEYS[1], 'script')\nreturn v", "lockkey");
        client.ReadReply();
        using var other = ConnectRaw();
        Assert.That(other.Execute("EVAL", "return redis.call('set', KEYS[1], 'other')", "1", "lockkey"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("MSET", "lockkey", "tx", "k2", "v"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(other.Execute("EXEC"), Is.EqualTo("*1\r\n+OK\r\n"));
        Assert.That(client.Execute("c"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Is.EqualTo(Bulk("tx")));
        Assert.That(other.Execute("GET", "lockkey"), Is.EqualTo(Bulk("script")));
    }

    [Test]
    public void DisconnectingMidSessionLetsTheScriptFinishAndFreesItsLocks()
    {
        var client = StartSession("redis.call('set', KEYS[1], 'first')\nredis.call('set', KEYS[1], 'second')\nreturn 1", "dkey");
        client.ReadReply();
        Assert.That(client.Execute("s"), Does.Contain("Stopped at 2"));
        client.Dispose();

        // As in Redis, the script runs on to its end; its key is writable again by others.
        using var other = ConnectRaw();
        Assert.That(() => other.Execute("GET", "dkey"), Is.EqualTo(Bulk("second")).After(5000, 20));
        Assert.That(other.Execute("SET", "dkey", "mine"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("EVAL", "return redis.call('get', KEYS[1])", "1", "dkey"), Is.EqualTo(Bulk("mine")));
    }

    /// <summary>Runs redis-cli with <paramref name="mode"/> (--ldb or --ldb-sync-mode) on a script setting KEYS[1] to ARGV[1], typing <paramref name="input"/>; returns its output.</summary>
    internal static string RunRedisCli(int port, string mode, string input)
    {
        string file = Path.Combine(Path.GetTempPath(), "ldb-" + System.Guid.NewGuid().ToString("N") + ".lua");
        File.WriteAllText(file, "local a = 1\nredis.call('set', KEYS[1], ARGV[1])\nreturn a\n");
        try
        {
            var info = new ProcessStartInfo("redis-cli")
            {
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            foreach (var argument in new[] { "-p", port.ToString(System.Globalization.CultureInfo.InvariantCulture), mode, "--eval", file, "clikey", ",", "clivalue" })
                info.ArgumentList.Add(argument);
            using var process = Process.Start(info)!;
            process.StandardInput.Write(input);
            process.StandardInput.Close();
            string output = process.StandardOutput.ReadToEnd();
            Assert.That(process.WaitForExit(20_000), Is.True);
            return output;
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Test]
    public void ALoopingScriptStopsAtTheTimeLimit()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "lua-time-limit", "100"), Is.EqualTo("+OK\r\n"));
        using var client = StartSession("local i = 0\nwhile true do\n  i = i + 1\nend");
        client.ReadReply();
        string stop = client.Execute("c");
        Assert.That(stop, Does.StartWith("*2\r\n+* Stopped at ").And.Contain(", stop reason = timeout reached, infinite loop?\r\n"));
        Assert.That(client.Execute("p", "i"), Does.StartWith("*1\r\n+<value> "));
        Assert.That(client.Execute("a"), Is.EqualTo(Log("<endsession>")));
        Assert.That(client.ReadReply(), Does.StartWith("-ERR script aborted for user request script: "));
    }

    [Test]
    public void ALoopingScriptOfADisconnectedClientEndsAtTheTimeLimit()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "lua-time-limit", "100"), Is.EqualTo("+OK\r\n"));
        var client = StartSession("redis.call('set', KEYS[1], 'looping')\nwhile true do end", "loopkey");
        client.ReadReply();
        client.Execute("s");
        client.Dispose();
        Assert.That(() => admin.Execute("GET", "loopkey"), Is.EqualTo(Bulk("looping")).After(5000, 20));
        Assert.That(admin.Execute("EVAL", "return redis.call('set', KEYS[1], 'free')", "1", "loopkey"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void RedisCliDebugsAScriptInSyncMode()
    {
        string output = RunRedisCli(Port, "--ldb-sync-mode", "s\np\nc\n");
        Assert.That(output, Does.Contain("* Stopped at 1, stop reason = step over"));
        Assert.That(output, Does.Contain("-> 2   redis.call('set', KEYS[1], ARGV[1])"));
        Assert.That(output, Does.Contain("<value> a = 1"));
        Assert.That(output, Does.Contain("(integer) 1"));
        Assert.That(output, Does.Contain("(Lua debugging session ended)"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("GET", "clikey"), Is.EqualTo(Bulk("clivalue")), "SYNC keeps the script's changes");
    }
}

/// <summary>
/// The same with one event-loop thread serving every connection: a stopped script must leave that thread free for
/// the other clients and for its own next debugger command.
/// </summary>
public class ScriptDebugOneLoopTests : ScriptDebugTests
{
    protected override TestServerOptions ServerOptions => new() { EventLoops = 1 };
}
