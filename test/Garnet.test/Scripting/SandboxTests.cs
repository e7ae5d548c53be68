using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>The script sandbox: no system access, read-only globals and libraries, text-only loading.</summary>
public class SandboxTests : ServerTestBase
{
    [TestCase("os.exit(1)", "attempt to call a nil value (field 'exit')")]
    [TestCase("io.write('x')", "Script attempted to access nonexistent global variable 'io'")]
    [TestCase("require('os')", "Script attempted to access nonexistent global variable 'require'")]
    [TestCase("dofile('/etc/passwd')", "Script attempted to access nonexistent global variable 'dofile'")]
    [TestCase("loadfile('/etc/passwd')", "Script attempted to access nonexistent global variable 'loadfile'")]
    [TestCase("debug.getinfo(1)", "Script attempted to access nonexistent global variable 'debug'")]
    [TestCase("print('x')", "Script attempted to access nonexistent global variable 'print'")]
    [TestCase("package.loaded.x = 1", "Script attempted to access nonexistent global variable 'package'")]
    [TestCase("return undefined_variable", "Script attempted to access nonexistent global variable 'undefined_variable'")]
    [TestCase("my_global = 1", "Attempt to modify a readonly table")]
    [TestCase("function my_function() end", "Attempt to modify a readonly table")]
    [TestCase("KEYS = {}", "Attempt to modify a readonly table")]
    [TestCase("redis.call = nil", "Attempt to modify a readonly table")]
    [TestCase("string.upper = nil", "Attempt to modify a readonly table")]
    [TestCase("cjson.encode = nil", "Attempt to modify a readonly table")]
    [TestCase("rawset(_G, 'x', 1)", "Attempt to modify a readonly table")]
    [TestCase("rawset(redis, 'call', 1)", "Attempt to modify a readonly table")]
    [TestCase("setmetatable(_G, nil)", "Attempt to modify a readonly table")]
    [TestCase("getmetatable('').__index = {}", "attempt to index a boolean value")]
    [TestCase("_ENV.x = 1", "Attempt to modify a readonly table")]
    [TestCase("local e = _ENV e.redis = nil", "Attempt to modify a readonly table")]
    [TestCase("rawset(_ENV, 'KEYS', {})", "Attempt to modify a readonly table")]
    [TestCase("local function f() g = 1 end f()", "Attempt to modify a readonly table")]
    [TestCase("local function f() return function() KEYS = 1 end end f()()", "Attempt to modify a readonly table")]
    [TestCase("local function f() return missing end return f()", "Script attempted to access nonexistent global variable 'missing'")]
    public void Refused(string script, string message)
    {
        using var client = ConnectRaw();
        string reply = client.Execute("EVAL", script, "0");
        Assert.That(reply, Does.StartWith("-ERR ").And.Contain(message).And.EndWith($"script: {Sha1(script)}, on @user_script:1.\r\n"));
    }

    [Test]
    public void AssigningAGlobalNamesTheLine()
    {
        using var client = ConnectRaw();
        const string Script = "local a = 1\nb = 2";
        Assert.That(client.Execute("EVAL", Script, "0"), Is.EqualTo($"-ERR user_script:2: Attempt to modify a readonly table script: {Sha1(Script)}, on @user_script:2.\r\n"));
    }

    [Test]
    public void LoadStringTakesTextOnly()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return loadstring('return 5')()", "0"), Is.EqualTo(":5\r\n"));
        Assert.That(client.Execute("EVAL", "local f, e = loadstring(string.dump(function() return 1 end)); return {tostring(f), e}", "0"),
            Does.StartWith("*2\r\n$3\r\nnil\r\n").And.Contain("binary chunk"));
        // Loaded chunks are sandboxed too.
        Assert.That(client.Execute("EVAL", "return loadstring('x = 1')()", "0"), Does.Contain("Attempt to modify a readonly table"));
    }

    [Test]
    public void AllowedLibrariesWork()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return string.upper('abc') .. ('x'):rep(3) .. table.concat({1, 2}, '-') .. math.floor(2.7)", "0"), Is.EqualTo(Bulk("ABCxxx1-22")));
        Assert.That(client.Execute("EVAL", "return unpack({1, 2, 3})", "0"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EVAL", "return type(os.clock())", "0"), Is.EqualTo(Bulk("number")));
        Assert.That(client.Execute("EVAL", "local ok, e = pcall(error, 'x'); return tostring(ok)", "0"), Is.EqualTo(Bulk("false")));
        Assert.That(client.Execute("EVAL", "local t = {} for k in pairs(_G) do t[#t + 1] = k end return #t > 10", "0"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EVAL", "local co = coroutine.wrap(function() coroutine.yield(1) end) return co()", "0"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void ScriptsDoNotLeakStateIntoEachOther()
    {
        using var client = ConnectRaw();
        client.Execute("EVAL", "local x = 5 return x", "0");
        Assert.That(client.Execute("EVAL", "return x", "0"), Does.Contain("nonexistent global variable 'x'"));
        // KEYS and ARGV are the current script's.
        client.Execute("EVAL", "return 1", "2", "a", "b", "c");
        Assert.That(client.Execute("EVAL", "return #KEYS .. ',' .. #ARGV", "0"), Is.EqualTo(Bulk("0,0")));
    }
}
