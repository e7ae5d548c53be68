using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>
/// What a session's Lua state keeps from one script to the next: the KEYS and ARGV tables (refilled
/// in place), the last EVALSHA digest, the compiled scripts (without tail calls), and redis.call
/// after errors. Each run must see exactly its own arguments whatever the previous one did.
/// </summary>
public class ScriptReuseTests : ServerTestBase
{
    private const string Shape = "return {#KEYS, #ARGV, KEYS[1] or '-', KEYS[3] or '-', ARGV[1] or '-', ARGV[2] or '-'}";

    private static string ShapeReply(int keys, int args, string key1, string key3, string arg1, string arg2)
        => Array(":" + keys + "\r\n", ":" + args + "\r\n", Bulk(key1), Bulk(key3), Bulk(arg1), Bulk(arg2));

    [Test]
    public void FewerArgumentsAfterMore()
    {
        using var client = ConnectRaw();
        string sha = Sha1(Shape);
        Assert.That(client.Execute("EVAL", Shape, "3", "a", "b", "c", "x", "y"), Is.EqualTo(ShapeReply(3, 2, "a", "c", "x", "y")));
        Assert.That(client.Execute("EVALSHA", sha, "1", "d"), Is.EqualTo(ShapeReply(1, 0, "d", "-", "-", "-")));
        Assert.That(client.Execute("EVALSHA", sha, "0", "z"), Is.EqualTo(ShapeReply(0, 1, "-", "-", "z", "-")));
        Assert.That(client.Execute("EVALSHA", sha, "0"), Is.EqualTo(ShapeReply(0, 0, "-", "-", "-", "-")));
        Assert.That(client.Execute("EVALSHA", sha, "3", "e", "f", "g", "1", "2"), Is.EqualTo(ShapeReply(3, 2, "e", "g", "1", "2")));
    }

    [TestCase("KEYS[5] = 'x'; ARGV[9] = 'y'")]
    [TestCase("KEYS.name = 'x'; ARGV[0] = 'y'")]
    [TestCase("table.insert(KEYS, 'x'); table.remove(ARGV, 1)")]
    [TestCase("KEYS[1] = nil; KEYS[2] = nil; KEYS.z = 1; KEYS[1] = 'p'")]
    [TestCase("setmetatable(KEYS, { __index = function() return 'meta' end })")]
    [TestCase("rawset(ARGV, 'k', 'v'); rawset(ARGV, 1.5, 'w')")]
    [TestCase("pcall(table.insert, KEYS, 'x')")]
    [TestCase("local g = _G; g.table.insert(ARGV, 'y')")]
    [TestCase("loadstring('KEYS[7] = 1')()")]
    [TestCase("local n = 'tab' .. 'le'; _ENV[n].insert(KEYS, 'x')")]
    [TestCase("coroutine.wrap(table.remove)(ARGV)")]
    public void ChangesToKeysAndArgvDoNotCarryOver(string change)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", change + "; return 1", "2", "a", "b", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EVAL", Shape, "1", "k"), Is.EqualTo(ShapeReply(1, 0, "k", "-", "-", "-")));
        Assert.That(client.Execute("EVAL", "local n = 0 for _ in pairs(KEYS) do n = n + 1 end for _ in pairs(ARGV) do n = n + 1 end return {n, tostring(getmetatable(KEYS))}", "1", "k", "a"),
            Is.EqualTo(Array(":2\r\n", Bulk("nil"))));
    }

    [Test]
    public void EvalShaSwitchesBetweenScripts()
    {
        using var client = ConnectRaw();
        string one = Sha1("return 'one'");
        string two = Sha1("return 'two'");
        client.Execute("SCRIPT", "LOAD", "return 'one'");
        client.Execute("SCRIPT", "LOAD", "return 'two'");
        for (int i = 0; i < 3; i++)
        {
            Assert.That(client.Execute("EVALSHA", one, "0"), Is.EqualTo(Bulk("one")));
            Assert.That(client.Execute("EVALSHA", two, "0"), Is.EqualTo(Bulk("two")));
            Assert.That(client.Execute("EVALSHA", two.ToUpperInvariant(), "0"), Is.EqualTo(Bulk("two")));
        }
        // A digest that differs in its last digit is another script.
        string near = two.Substring(0, 39) + (two[39] == '0' ? '1' : '0');
        Assert.That(client.Execute("EVALSHA", near, "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
        Assert.That(client.Execute("EVALSHA", two.Substring(0, 39) + "g", "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
        Assert.That(client.Execute("SCRIPT", "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EVALSHA", two, "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
    }

    [Test]
    public void EvalSwitchesBetweenScripts()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 3; i++)
        {
            Assert.That(client.Execute("EVAL", "return 'one'", "0"), Is.EqualTo(Bulk("one")));
            Assert.That(client.Execute("EVAL", "return 'one'", "0"), Is.EqualTo(Bulk("one")));
            Assert.That(client.Execute("EVAL", "return 'onf'", "0"), Is.EqualTo(Bulk("onf")));
            Assert.That(client.Execute("EVAL", "return 'one' ", "0"), Is.EqualTo(Bulk("one")));
        }
        Assert.That(client.Execute("EVAL", "return +", "0"), Does.StartWith("-ERR Error compiling script"));
        Assert.That(client.Execute("EVAL", "return +", "0"), Does.StartWith("-ERR Error compiling script"));
        string longer = "return '" + new string('x', 1000) + "'";
        Assert.That(client.Execute("EVAL", longer, "0"), Is.EqualTo(Bulk(new string('x', 1000))));
        Assert.That(client.Execute("EVAL", "return 'one'", "0"), Is.EqualTo(Bulk("one")));
        Assert.That(client.Execute("SCRIPT", "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EVAL", "return 'one'", "0"), Is.EqualTo(Bulk("one")));
        Assert.That(client.Execute("EVALSHA", Sha1("return 'one'"), "0"), Is.EqualTo(Bulk("one")));
    }

    [Test]
    public void CallAfterRaisedErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "abc");
        const string Script = "local r = {}\n"
            + "for i = 1, 3 do\n"
            + "  local ok, e = pcall(redis.call, 'INCR', 's')\n"
            + "  r[#r + 1] = e.err\n"
            + "  r[#r + 1] = redis.call('INCR', 'n')\n"
            + "  r[#r + 1] = redis.pcall('INCR', 's').err\n"
            + "end\n"
            + "return r";
        const string Err = "ERR value is not an integer or out of range";
        Assert.That(client.Execute("EVAL", Script, "0"),
            Is.EqualTo(Array(Bulk(Err), ":1\r\n", Bulk(Err), Bulk(Err), ":2\r\n", Bulk(Err), Bulk(Err), ":3\r\n", Bulk(Err))));
        // A script that died on a call error leaves redis.call working for the next one.
        Assert.That(client.Execute("EVAL", "return redis.call('INCR', 's')", "0"), Does.StartWith("-" + Err));
        Assert.That(client.Execute("EVAL", "return redis.call('INCR', 'n')", "0"), Is.EqualTo(":4\r\n"));
        Assert.That(client.Execute("EVAL", "return type(redis.call) .. type(redis.pcall)", "0"), Is.EqualTo(Bulk("functionfunction")));
    }

    [Test]
    public void TailCallsKeepTheLine()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "abc");
        const string Nested = "local function f()\n  return redis.call('INCR', 's')\nend\nreturn f()";
        Assert.That(client.Execute("EVAL", Nested, "0"),
            Is.EqualTo($"-ERR value is not an integer or out of range script: {Sha1(Nested)}, on @user_script:2.\r\n"));
        const string Method = "local t = {call = redis.call}\nreturn t.call('INCR', 's')";
        Assert.That(client.Execute("EVAL", Method, "0"),
            Is.EqualTo($"-ERR value is not an integer or out of range script: {Sha1(Method)}, on @user_script:2.\r\n"));
        // Calls that were tail calls return all their results.
        Assert.That(client.Execute("EVAL", "local function f(...) return ... end\nreturn {f(1, 2, 3)}", "0"), Is.EqualTo(Array(":1\r\n", ":2\r\n", ":3\r\n")));
        Assert.That(client.Execute("EVAL", "local function f(n, acc) if n == 0 then return acc end return f(n - 1, acc + n) end\nreturn f(10000, 0)", "0"), Is.EqualTo(":50005000\r\n"));
        Assert.That(client.Execute("EVAL", "return select('#', loadstring('return select(2, 1, 2, 3)')())", "0"), Is.EqualTo(":2\r\n"));
    }

    [Test]
    public void GcMetamethodsAreIgnored()
    {
        using var client = ConnectRaw();
        const string Script = "local ran = false\n"
            + "local mt = { __gc = function() ran = true end }\n"
            + "do local t = setmetatable({}, mt) end\n"
            + "collectgarbage() collectgarbage()\n"
            + "return {tostring(ran), type(mt.__gc)}";
        Assert.That(client.Execute("EVAL", Script, "0"), Is.EqualTo(Array(Bulk("false"), Bulk("function"))));
        Assert.That(client.Execute("EVAL", "local t = setmetatable({}, { __index = function() return 7 end }) return t.x", "0"), Is.EqualTo(":7\r\n"));
        // Only the metatable's own __gc counts, as for Lua's finalizers.
        Assert.That(client.Execute("EVAL", "local mt = setmetatable({}, { __index = function() return 1 end }) return {mt.__gc, #setmetatable({}, mt)}", "0"),
            Is.EqualTo(Array(":1\r\n", ":0\r\n")));
        Assert.That(client.Execute("EVAL", "local t = setmetatable({}, { __metatable = 'locked' }) return setmetatable(t, { __gc = 1 })", "0"),
            Does.Contain("cannot change a protected metatable"));
    }
}
