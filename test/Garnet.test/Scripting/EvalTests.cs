using NUnit.Framework;

namespace Garnet.test.Scripting;

/// <summary>EVAL and EVALSHA (and their read-only variants): arguments, KEYS/ARGV, errors, redis.call.</summary>
public class EvalTests : ServerTestBase
{
    internal static string Bulk(string s) => "$" + System.Text.Encoding.UTF8.GetByteCount(s) + "\r\n" + s + "\r\n";

    internal static string Array(params string[] encoded) => "*" + encoded.Length + "\r\n" + string.Concat(encoded);

    [Test]
    public void ReturnsKeysAndArgv()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return {KEYS[1],KEYS[2],ARGV[1],ARGV[2]}", "2", "key1", "key2", "first", "second"),
            Is.EqualTo(Array(Bulk("key1"), Bulk("key2"), Bulk("first"), Bulk("second"))));
        Assert.That(client.Execute("EVAL", "return #KEYS + #ARGV * 10", "0"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EVAL", "return #KEYS + #ARGV * 10", "1", "k", "a", "b"), Is.EqualTo(":21\r\n"));
    }

    [Test]
    public void NumberOfKeysErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return 1", "2", "a"), Is.EqualTo("-ERR Number of keys can't be greater than number of args\r\n"));
        Assert.That(client.Execute("EVAL", "return 1", "-1"), Is.EqualTo("-ERR Number of keys can't be negative\r\n"));
        Assert.That(client.Execute("EVAL", "return 1", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "2", "a"), Is.EqualTo("-ERR Number of keys can't be greater than number of args\r\n"));
        Assert.That(client.Execute("EVAL", "return 1"), Is.EqualTo("-ERR wrong number of arguments for 'eval' command\r\n"));
    }

    [Test]
    public void CallRunsCommands()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return redis.call('SET', KEYS[1], ARGV[1])", "1", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("EVAL", "return redis.call('get', KEYS[1])", "1", "k"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("EVAL", "redis.call('RPUSH', 'l', 1, 2.5, 3.0, 'x'); return redis.call('LRANGE', 'l', 0, -1)", "0"),
            Is.EqualTo(Array(Bulk("1"), Bulk("2.5"), Bulk("3"), Bulk("x"))));
        Assert.That(client.Execute("EVAL", "return redis.call('INCRBY', 'n', 5) + 1", "0"), Is.EqualTo(":6\r\n"));
    }

    [Test]
    public void EvalShaAndNoScript()
    {
        using var client = ConnectRaw();
        const string Script = "return 'hello'";
        string sha = Sha1(Script);
        Assert.That(client.Execute("EVALSHA", sha, "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
        Assert.That(client.Execute("EVALSHA", "not-a-sha", "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
        Assert.That(client.Execute("EVAL", Script, "0"), Is.EqualTo(Bulk("hello")));
        // EVAL caches the script: EVALSHA finds it (digits in any case), also from another connection.
        Assert.That(client.Execute("EVALSHA", sha, "0"), Is.EqualTo(Bulk("hello")));
        Assert.That(client.Execute("EVALSHA", sha.ToUpperInvariant(), "0"), Is.EqualTo(Bulk("hello")));
        using var other = ConnectRaw();
        Assert.That(other.Execute("EVALSHA_RO", sha, "0"), Is.EqualTo(Bulk("hello")));
    }

    [Test]
    public void CallErrorsRaiseWithScriptLocation()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "abc");
        const string Script = "local x = 1\nreturn redis.call('INCR', 's')";
        Assert.That(client.Execute("EVAL", Script, "0"),
            Is.EqualTo($"-ERR value is not an integer or out of range script: {Sha1(Script)}, on @user_script:2.\r\n"));
        const string Unknown = "return redis.call('NOPE')";
        Assert.That(client.Execute("EVAL", Unknown, "0"),
            Is.EqualTo($"-ERR Unknown Redis command called from script script: {Sha1(Unknown)}, on @user_script:1.\r\n"));
        const string Arity = "return redis.call('GET')";
        Assert.That(client.Execute("EVAL", Arity, "0"),
            Is.EqualTo($"-ERR Wrong number of args calling Redis command from script script: {Sha1(Arity)}, on @user_script:1.\r\n"));
        const string NoScript = "return redis.call('EVAL', 'return 1', 0)";
        Assert.That(client.Execute("EVAL", NoScript, "0"),
            Is.EqualTo($"-ERR This Redis command is not allowed from script script: {Sha1(NoScript)}, on @user_script:1.\r\n"));
        const string Multi = "return redis.call('multi')";
        Assert.That(client.Execute("EVAL", Multi, "0"),
            Is.EqualTo($"-ERR This Redis command is not allowed from script script: {Sha1(Multi)}, on @user_script:1.\r\n"));
        const string BadArgument = "return redis.call('GET', {})";
        Assert.That(client.Execute("EVAL", BadArgument, "0"),
            Is.EqualTo($"-ERR Lua redis lib command arguments must be strings or integers script: {Sha1(BadArgument)}, on @user_script:1.\r\n"));
        const string NoArguments = "return redis.call()";
        Assert.That(client.Execute("EVAL", NoArguments, "0"),
            Is.EqualTo($"-ERR Please specify at least one argument for this redis lib call script: {Sha1(NoArguments)}, on @user_script:1.\r\n"));
    }

    [Test]
    public void PcallReturnsErrorTables()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "abc");
        Assert.That(client.Execute("EVAL", "local r = redis.pcall('INCR', 's'); return r.err", "0"), Is.EqualTo(Bulk("ERR value is not an integer or out of range")));
        Assert.That(client.Execute("EVAL", "return redis.pcall('INCR', 's')", "0"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.pcall('NOPE').err", "0"), Is.EqualTo(Bulk("ERR Unknown Redis command called from script")));
        Assert.That(client.Execute("EVAL", "local ok, e = pcall(redis.call, 'INCR', 's'); return {tostring(ok), e.err}", "0"),
            Is.EqualTo(Array(Bulk("false"), Bulk("ERR value is not an integer or out of range"))));
        Assert.That(client.Execute("EVAL", "return redis.pcall('GET', 's')", "0"), Is.EqualTo(Bulk("abc")));
    }

    [Test]
    public void RuntimeAndCompileErrors()
    {
        using var client = ConnectRaw();
        const string Raise = "error('my message')";
        Assert.That(client.Execute("EVAL", Raise, "0"), Is.EqualTo($"-ERR user_script:1: my message script: {Sha1(Raise)}, on @user_script:1.\r\n"));
        const string Table = "\nerror({err='MYCODE custom'})";
        Assert.That(client.Execute("EVAL", Table, "0"), Is.EqualTo($"-MYCODE custom script: {Sha1(Table)}, on @user_script:2.\r\n"));
        const string Arithmetic = "return 1 + nil";
        Assert.That(client.Execute("EVAL", Arithmetic, "0"), Does.StartWith("-ERR user_script:1: attempt to perform arithmetic on a nil value").And.EndWith($"script: {Sha1(Arithmetic)}, on @user_script:1.\r\n"));
        Assert.That(client.Execute("EVAL", "return 1 +", "0"), Does.StartWith("-ERR Error compiling script (new function): user_script:1:"));
        // A script that does not compile is not cached.
        Assert.That(client.Execute("EVALSHA", Sha1("return 1 +"), "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
    }

    [Test]
    public void ReadOnlyScriptsRefuseWrites()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        const string Write = "return redis.call('SET', 'k', 'w')";
        Assert.That(client.Execute("EVAL_RO", Write, "0"),
            Is.EqualTo($"-ERR Write commands are not allowed from read-only scripts. script: {Sha1(Write)}, on @user_script:1.\r\n"));
        Assert.That(client.Execute("EVAL_RO", "return redis.pcall('DEL', 'k').err", "0"), Is.EqualTo(Bulk("ERR Write commands are not allowed from read-only scripts.")));
        Assert.That(client.Execute("EVAL_RO", "return redis.call('GET', 'k')", "0"), Is.EqualTo(Bulk("v")));
        Assert.That(client.Execute("EVALSHA_RO", Sha1(Write), "0"), Does.StartWith("-ERR Write commands are not allowed from read-only scripts."));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("v")));
        // The same script through EVALSHA may write.
        Assert.That(client.Execute("EVALSHA", Sha1(Write), "0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("w")));
        // A no-writes shebang makes EVAL read-only too.
        Assert.That(client.Execute("EVAL", "#!lua flags=no-writes\nreturn redis.call('DEL', 'k')", "0"), Does.StartWith("-ERR Write commands are not allowed from read-only scripts."));
        Assert.That(client.Execute("EVAL", "#!lua\nreturn redis.call('GET', 'k')", "0"), Is.EqualTo(Bulk("w")));
        Assert.That(client.Execute("EVAL", "#!python\nreturn 1", "0"), Is.EqualTo("-ERR Could not find engine 'python'\r\n"));
    }

    [Test]
    public void BlockingCommandsDoNotBlockInScripts()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return redis.call('BLPOP', 'none', 0)", "0"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.call('BLMOVE', 'none', 'x', 'LEFT', 'LEFT', 0)", "0"), Is.EqualTo("$-1\r\n"));
        client.Execute("RPUSH", "l", "a");
        Assert.That(client.Execute("EVAL", "return redis.call('BLPOP', 'l', 0)", "0"), Is.EqualTo(Array(Bulk("l"), Bulk("a"))));
        // As Redis 7.2: WAIT answers at once in a script (0 replicas); WAITAOF and XREAD ... BLOCK stay refused.
        Assert.That(client.Execute("EVAL", "return redis.call('WAIT', 1, 0)", "0"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.call('WAITAOF', 0, 0, 0)", "0"), Does.StartWith("-ERR This Redis command is not allowed from script"));
        Assert.That(client.Execute("EVAL", "return redis.call('XREAD', 'BLOCK', 0, 'STREAMS', 's', 0)", "0"),
            Does.StartWith("-ERR XREAD command is not allowed with BLOCK option from scripts"));
    }

    [Test]
    public void SelectInsideScriptDoesNotChangeTheCaller()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "redis.call('SELECT', 3); redis.call('SET', 'k', 'in3'); return redis.call('GET', 'k')", "0"), Is.EqualTo(Bulk("in3")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        client.Execute("SELECT", "3");
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("in3")));
    }

    internal static string Sha1(string script)
        => System.Convert.ToHexString(System.Security.Cryptography.SHA1.HashData(System.Text.Encoding.UTF8.GetBytes(script))).ToLowerInvariant();
}
