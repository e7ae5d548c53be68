using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>FUNCTION LOAD and FCALL / FCALL_RO: registration, calling, errors, and libraries seen by other sessions.</summary>
public class FunctionTests : ServerTestBase
{
    internal const string EchoLibrary = "#!lua name=mylib\nredis.register_function('echo', function(keys, args) return table.concat(keys, ',') .. '|' .. table.concat(args, ',') end)";

    [Test]
    public void LoadReplyIsTheLibraryNameAndFcallRunsTheFunction()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("FUNCTION", "LOAD", EchoLibrary), Is.EqualTo(Bulk("mylib")));
        Assert.That(client.Execute("FCALL", "echo", "1", "key", "arg"), Is.EqualTo(Bulk("key|arg")));
        Assert.That(client.Execute("FCALL", "echo", "2", "k1", "k2", "a1", "a2"), Is.EqualTo(Bulk("k1,k2|a1,a2")));
        // Function names are looked up ignoring case, as in Redis.
        Assert.That(client.Execute("fcall", "ECHO", "0", "arg"), Is.EqualTo(Bulk("|arg")));
    }

    [Test]
    public void KeysAndArgsArePassedAsParametersNotGlobals()
    {
        using var client = ConnectRaw();
        const string Library = "#!lua name=counts\n"
            + "redis.register_function('count', function(keys, args) return #keys + #args * 10 end)\n"
            + "redis.register_function('globalkeys', function() return KEYS[1] end)";
        Assert.That(client.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("counts")));
        Assert.That(client.Execute("FCALL", "count", "0"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("FCALL", "count", "2", "a", "b", "x", "y", "z"), Is.EqualTo(":32\r\n"));
        // An EVAL before does not leak its KEYS into functions.
        client.Execute("EVAL", "return 1", "1", "k");
        Assert.That(client.Execute("FCALL", "globalkeys", "1", "k"),
            Is.EqualTo("-ERR user_function:3: Script attempted to access nonexistent global variable 'KEYS' script: globalkeys, on @user_function:3.\r\n"));
    }

    [Test]
    public void FunctionThatWrites()
    {
        using var client = ConnectRaw();
        const string Library = "#!lua name=writer\n"
            + "redis.register_function('setget', function(keys, args)\n"
            + "  redis.call('SET', keys[1], args[1])\n"
            + "  return redis.call('GET', keys[1])\n"
            + "end)";
        Assert.That(client.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("writer")));
        Assert.That(client.Execute("FCALL", "setget", "1", "k", "v"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void FcallArgumentErrors()
    {
        using var client = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", EchoLibrary);
        Assert.That(client.Execute("FCALL", "nope", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(client.Execute("FCALL", "echo", "x"), Is.EqualTo("-ERR Bad number of keys provided\r\n"));
        Assert.That(client.Execute("FCALL", "echo", "2", "a"), Is.EqualTo("-ERR Number of keys can't be greater than number of args\r\n"));
        Assert.That(client.Execute("FCALL", "echo", "-1"), Is.EqualTo("-ERR Number of keys can't be negative\r\n"));
        Assert.That(client.Execute("FCALL_RO", "echo", "2", "a"), Is.EqualTo("-ERR Number of keys can't be greater than number of args\r\n"));
        Assert.That(client.Execute("FCALL", "echo"), Is.EqualTo("-ERR wrong number of arguments for 'fcall' command\r\n"));
        Assert.That(client.Execute("FCALL_RO", "echo"), Is.EqualTo("-ERR wrong number of arguments for 'fcall_ro' command\r\n"));
        // The connection keeps working.
        Assert.That(client.Execute("FCALL", "echo", "0", "ok"), Is.EqualTo(Bulk("|ok")));
    }

    [Test]
    public void ReadOnlyRules()
    {
        using var client = ConnectRaw();
        const string Library = "#!lua name=rw\n"
            + "redis.register_function('writes', function(keys) return redis.call('SET', keys[1], 'w') end)\n"
            + "redis.register_function{function_name='reads', flags={'no-writes'}, callback=function(keys) return redis.call('GET', keys[1]) end}\n"
            + "redis.register_function{function_name='sneaky', flags={'no-writes'}, callback=function(keys)\n"
            + "  return redis.call('SET', keys[1], 's')\n"
            + "end}";
        Assert.That(client.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("rw")));
        Assert.That(client.Execute("FCALL_RO", "writes", "1", "k"), Is.EqualTo("-ERR Can not execute a script with write flag using *_ro command.\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("FCALL", "writes", "1", "k"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FCALL_RO", "reads", "1", "k"), Is.EqualTo(Bulk("w")));
        Assert.That(client.Execute("FCALL", "reads", "1", "k"), Is.EqualTo(Bulk("w")));
        // A no-writes function may not write, whether called with FCALL or FCALL_RO.
        const string Refused = "-ERR Write commands are not allowed from read-only scripts. script: sneaky, on @user_function:5.\r\n";
        Assert.That(client.Execute("FCALL", "sneaky", "1", "k"), Is.EqualTo(Refused));
        Assert.That(client.Execute("FCALL_RO", "sneaky", "1", "k"), Is.EqualTo(Refused));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("w")));
    }

    [TestCase("return 1", "-ERR Missing library metadata\r\n")]
    [TestCase("#!lua name=nonewline", "-ERR Invalid library metadata\r\n")]
    [TestCase("#!lua name=\"unclosed\nreturn 1", "-ERR Invalid library metadata\r\n")]
    [TestCase("#!js name=lib\nreturn 1", "-ERR Engine 'js' not found\r\n")]
    [TestCase("#!lua\nreturn 1", "-ERR Library name was not given\r\n")]
    [TestCase("#!lua name=bad-name\nreturn 1", "-ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long\r\n")]
    [TestCase("#!lua name=\nreturn 1", "-ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long\r\n")]
    [TestCase("#!lua name=a name=b\nreturn 1", "-ERR Invalid metadata value, name argument was given multiple times\r\n")]
    [TestCase("#!lua name=a foo=bar\nreturn 1", "-ERR Invalid metadata value given: foo=bar\r\n")]
    [TestCase("#!lua name=empty\nlocal x = 1", "-ERR No functions registered\r\n")]
    [TestCase("#!lua name=bad\nlocal t = nil\nt.x = 1", "-ERR Error registering functions: ERR user_function:3: attempt to index a nil value (local 't')\r\n")]
    [TestCase("#!lua name=bad\nerror('boom')", "-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'error'\r\n")]
    [TestCase("#!lua name=bad\nredis.call('PING')", "-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'call'\r\n")]
    [TestCase("#!lua name=bad\nlocal s = string.rep('x', 2)", "-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'string'\r\n")]
    [TestCase("#!lua name=bad\nx = 1", "-ERR Error registering functions: ERR user_function:2: Attempt to modify a readonly table\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function()", "-ERR Error registering functions: ERR wrong number of arguments to redis.register_function\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function('f', 1)", "-ERR Error registering functions: ERR second argument to redis.register_function must be a function\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function('f')",
        "-ERR Error registering functions: ERR calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function('bad-name', function() end)",
        "-ERR Error registering functions: ERR Function names can only contain letters, numbers, or underscores(_) and must be at least one character long\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function('f', function() end)\nredis.register_function('F', function() end)",
        "-ERR Error registering functions: ERR Function already exists in the library\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function{function_name='f', callback=function() end, flags={'bogus'}}",
        "-ERR Error registering functions: ERR unknown flag given\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function{function_name='f', callback=function() end, color='blue'}",
        "-ERR Error registering functions: ERR unknown argument given to redis.register_function\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function{callback=function() end}",
        "-ERR Error registering functions: ERR redis.register_function must get a function name argument\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function{function_name='f'}",
        "-ERR Error registering functions: ERR redis.register_function must get a callback argument\r\n")]
    [TestCase("#!lua name=bad\nredis.register_function('f', function() end)\nwhile true do end",
        "-ERR Error registering functions: ERR FUNCTION LOAD timeout\r\n")]
    public void LoadErrors(string code, string expected)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("FUNCTION", "LOAD", code), Is.EqualTo(expected));
        // A failed load changes nothing, and the connection keeps working.
        Assert.That(client.Execute("FUNCTION", "LIST"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("FCALL", "f", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void LoadCompileErrorAndOptions()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("FUNCTION", "LOAD", "#!lua name=bad\nreturn +"), Does.StartWith("-ERR Error compiling function: user_function:2:"));
        Assert.That(client.Execute("FUNCTION", "LOAD", "BOGUS", EchoLibrary), Is.EqualTo("-ERR Unknown option given: BOGUS\r\n"));
        Assert.That(client.Execute("FUNCTION", "LOAD", "#!lua name=\"quoted\"\nredis.register_function('q', function() return 1 end)"), Is.EqualTo(Bulk("quoted")));
        Assert.That(client.Execute("FCALL", "q", "0"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void NameCollisionsAndReplace()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        const string Version1 = "#!lua name=lib\nredis.register_function('f', function() return 1 end)";
        const string Version2 = "#!lua name=lib\nredis.register_function('f', function() return 2 end)\nredis.register_function('g', function() return 3 end)";
        Assert.That(client.Execute("FUNCTION", "LOAD", Version1), Is.EqualTo(Bulk("lib")));
        Assert.That(other.Execute("FCALL", "f", "0"), Is.EqualTo(":1\r\n"));

        Assert.That(client.Execute("FUNCTION", "LOAD", Version2), Is.EqualTo("-ERR Library 'lib' already exists\r\n"));
        Assert.That(client.Execute("FUNCTION", "LOAD", "#!lua name=lib2\nredis.register_function('F', function() return 9 end)"), Is.EqualTo("-ERR Function F already exists\r\n"));
        // A failed REPLACE keeps the library as it was.
        Assert.That(client.Execute("FUNCTION", "LOAD", "REPLACE", "#!lua name=lib\nerror('no')"), Does.StartWith("-ERR Error registering functions:"));
        Assert.That(client.Execute("FCALL", "f", "0"), Is.EqualTo(":1\r\n"));

        Assert.That(client.Execute("FUNCTION", "LOAD", "replace", Version2), Is.EqualTo(Bulk("lib")));
        Assert.That(client.Execute("FCALL", "f", "0"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("FCALL", "g", "0"), Is.EqualTo(":3\r\n"));
        // The other session had loaded the first version: it now runs the second.
        Assert.That(other.Execute("FCALL", "f", "0"), Is.EqualTo(":2\r\n"));
        Assert.That(other.Execute("FCALL", "g", "0"), Is.EqualTo(":3\r\n"));
        // REPLACE may drop a function of the old version.
        Assert.That(client.Execute("FUNCTION", "LOAD", "REPLACE", "#!lua name=lib\nredis.register_function('g', function() return 4 end)"), Is.EqualTo(Bulk("lib")));
        Assert.That(other.Execute("FCALL", "f", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(other.Execute("FCALL", "g", "0"), Is.EqualTo(":4\r\n"));
    }

    [Test]
    public void FunctionsAreVisibleFromOtherConnections()
    {
        using var loader = ConnectRaw();
        const string Library = "#!lua name=state\n"
            + "local calls = 0\n"
            + "redis.register_function('calls', function() calls = calls + 1 return calls end)";
        Assert.That(loader.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("state")));
        Assert.That(loader.Execute("FCALL", "calls", "0"), Is.EqualTo(":1\r\n"));
        // Another session loads the library into its own Lua state on its first call, with its own
        // top-level locals (per session here, shared in Redis: see scripting.md).
        using var other = ConnectRaw();
        Assert.That(other.Execute("FCALL", "calls", "0"), Is.EqualTo(":1\r\n"));
        Assert.That(other.Execute("FCALL", "calls", "0"), Is.EqualTo(":2\r\n"));
        Assert.That(loader.Execute("FCALL", "calls", "0"), Is.EqualTo(":2\r\n"));

        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That((long)db.Execute("FCALL", "calls", "0"), Is.EqualTo(1));
        Assert.That(() => db.Execute("FCALL", "missing", "0"), Throws.TypeOf<StackExchange.Redis.RedisServerException>().With.Message.EqualTo("ERR Function not found"));
    }

    [Test]
    public void DeleteAndFlushRemoveFunctions()
    {
        using var client = ConnectRaw();
        using var other = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", EchoLibrary);
        Assert.That(other.Execute("FCALL", "echo", "0", "a"), Is.EqualTo(Bulk("|a")));
        Assert.That(client.Execute("FUNCTION", "DELETE", "mylib"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("FCALL", "echo", "0", "a"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(client.Execute("FUNCTION", "DELETE", "mylib"), Is.EqualTo("-ERR Library not found\r\n"));
        // Library names are case-sensitive.
        client.Execute("FUNCTION", "LOAD", EchoLibrary);
        Assert.That(client.Execute("FUNCTION", "DELETE", "MYLIB"), Is.EqualTo("-ERR Library not found\r\n"));

        client.Execute("FUNCTION", "LOAD", "#!lua name=second\nredis.register_function('two', function() return 2 end)");
        Assert.That(other.Execute("FCALL", "two", "0"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("FUNCTION", "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("FCALL", "two", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(other.Execute("FCALL", "echo", "0"), Is.EqualTo("-ERR Function not found\r\n"));
        Assert.That(client.Execute("FUNCTION", "FLUSH", "async"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FUNCTION", "FLUSH", "SYNC"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FUNCTION", "FLUSH", "LATER"), Is.EqualTo("-ERR FUNCTION FLUSH only supports SYNC|ASYNC option\r\n"));
        Assert.That(client.Execute("FUNCTION", "flush", "SYNC", "x"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'flush'. Try FUNCTION HELP.\r\n"));
        // FLUSHALL leaves functions alone.
        client.Execute("FUNCTION", "LOAD", EchoLibrary);
        client.Execute("FLUSHALL");
        Assert.That(other.Execute("FCALL", "echo", "0", "b"), Is.EqualTo(Bulk("|b")));
    }

    [Test]
    public void RuntimeErrorsNameTheFunctionAndLine()
    {
        using var client = ConnectRaw();
        const string Library = "#!lua name=errors\n"
            + "redis.register_function('fail', function()\n"
            + "  error('broken')\n"
            + "end)\n"
            + "redis.register_function('reply', function() return redis.error_reply('MY custom') end)\n"
            + "local lib = redis\n"
            + "redis.register_function('late', function() lib.register_function('x', function() end) end)";
        Assert.That(client.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("errors")));
        Assert.That(client.Execute("FCALL", "fail", "0"), Is.EqualTo("-ERR user_function:3: broken script: fail, on @user_function:3.\r\n"));
        Assert.That(client.Execute("FCALL", "reply", "0"), Is.EqualTo("-MY custom\r\n"));
        // register_function only works while a library loads.
        Assert.That(client.Execute("FCALL", "late", "0"), Is.EqualTo("-ERR redis.register_function can only be called on FUNCTION LOAD command script: late, on @user_function:7.\r\n"));
    }

    [Test]
    public void FunctionCommandsAreNotAllowedFromScripts()
    {
        using var client = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", EchoLibrary);
        Assert.That(client.Execute("EVAL", "return redis.call('FCALL', 'echo', 0)", "0"), Does.StartWith("-ERR This Redis command is not allowed from script"));
        Assert.That(client.Execute("EVAL", "return redis.call('FUNCTION', 'LIST')", "0"), Does.StartWith("-ERR This Redis command is not allowed from script"));
        Assert.That(client.Execute("EVAL", "return redis.call('FUNCTION', 'FLUSH')", "0"), Does.StartWith("-ERR This Redis command is not allowed from script"));
        Assert.That(client.Execute("FCALL", "echo", "0", "still"), Is.EqualTo(Bulk("|still")));
    }

    [Test]
    public void FcallInsideTransaction()
    {
        using var client = ConnectRaw();
        client.Execute("FUNCTION", "LOAD", "#!lua name=tx\nredis.register_function('incr2', function(keys) redis.call('INCR', keys[1]) return redis.call('INCR', keys[1]) end)");
        Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FCALL", "incr2", "1", "n"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("FCALL", "incr2", "1", "n"), Is.EqualTo("+QUEUED\r\n"));
        Assert.That(client.Execute("EXEC"), Is.EqualTo("*2\r\n:2\r\n:4\r\n"));
    }
}
