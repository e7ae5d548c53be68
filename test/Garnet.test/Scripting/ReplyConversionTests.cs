using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>Redis's conversions between replies and Lua values, both ways, in RESP2 and RESP3, table-driven.</summary>
public class ReplyConversionTests : ServerTestBase
{
    /// <summary>Lua value returned by a script → the reply a RESP2 client gets.</summary>
    private static readonly object[] s_luaToResp2 =
    [
        new object[] { "return 42", ":42\r\n" },
        new object[] { "return 3.99", ":3\r\n" },
        new object[] { "return -3.99", ":-3\r\n" },
        new object[] { "return 'text'", "$4\r\ntext\r\n" },
        new object[] { "return ''", "$0\r\n\r\n" },
        new object[] { "return true", ":1\r\n" },
        new object[] { "return false", "$-1\r\n" },
        new object[] { "return nil", "$-1\r\n" },
        new object[] { "return", "$-1\r\n" },
        new object[] { "return {}", "*0\r\n" },
        new object[] { "return {1, 'two', {3}}", "*3\r\n:1\r\n$3\r\ntwo\r\n*1\r\n:3\r\n" },
        new object[] { "return {1, 2, nil, 4}", "*2\r\n:1\r\n:2\r\n" },
        new object[] { "return {1, false, 3}", "*3\r\n:1\r\n$-1\r\n:3\r\n" },
        new object[] { "return {ok='FINE'}", "+FINE\r\n" },
        new object[] { "return {ok='a\\r\\nb'}", "+a  b\r\n" },
        new object[] { "return {err='MY error'}", "-MY error\r\n" },
        new object[] { "return redis.status_reply('DONE')", "+DONE\r\n" },
        new object[] { "return redis.error_reply('CODE text')", "-CODE text\r\n" },
        new object[] { "return redis.error_reply('oops')", "-ERR oops\r\n" },
        new object[] { "return redis.error_reply('-WRONG x')", "-WRONG x\r\n" },
        new object[] { "return {double=3.5}", "$3\r\n3.5\r\n" },
        new object[] { "return {big_number='123456789012345678901234567890'}", "$30\r\n123456789012345678901234567890\r\n" },
        new object[] { "return {map={a=1}}", "*2\r\n$1\r\na\r\n:1\r\n" },
        new object[] { "return {set={x=true}}", "*1\r\n$1\r\nx\r\n" },
        new object[] { "redis.setresp(3); return true", ":1\r\n" },
        new object[] { "redis.setresp(3); return false", ":0\r\n" },
        new object[] { "return {1, {ok='nested'}, {err='E nested'}}", "*3\r\n:1\r\n+nested\r\n-E nested\r\n" },
    ];

    /// <summary>Lua value → the reply a RESP3 client gets.</summary>
    private static readonly object[] s_luaToResp3 =
    [
        new object[] { "return nil", "_\r\n" },
        new object[] { "return false", "_\r\n" },
        new object[] { "return true", ":1\r\n" },
        new object[] { "redis.setresp(3); return true", "#t\r\n" },
        new object[] { "redis.setresp(3); return false", "#f\r\n" },
        new object[] { "return {double=3.5}", ",3.5\r\n" },
        new object[] { "return {big_number='12345678901234567890'}", "(12345678901234567890\r\n" },
        new object[] { "return {map={a=1}}", "%1\r\n$1\r\na\r\n:1\r\n" },
        new object[] { "return {set={x=true}}", "~1\r\n$1\r\nx\r\n" },
    ];

    /// <summary>Reply of a command called with redis.call → the Lua value (shown through type() and a rendering).</summary>
    private static readonly object[] s_respToLua =
    [
        // RESP2 (the default inside scripts)
        new object[] { "", "return redis.call('SET', 'k', 'v')", "table ok=OK" },
        new object[] { "", "return redis.call('INCR', 'n')", "number 1" },
        new object[] { "", "return redis.call('GET', 'k')", "string v" },
        new object[] { "", "return redis.call('GET', 'missing')", "boolean false" },
        new object[] { "", "return redis.call('LRANGE', 'l', 0, -1)", "table [a,b]" },
        new object[] { "", "return redis.call('LRANGE', 'missing', 0, -1)", "table []" },
        new object[] { "", "return redis.pcall('INCR', 'k')", "table err=ERR value is not an integer or out of range" },
        new object[] { "", "return redis.call('HGETALL', 'h')", "table [f,x]" },
        new object[] { "", "return redis.call('ZSCORE', 'z', 'm')", "string 1.5" },
        new object[] { "", "return redis.call('BLPOP', 'missing', 1)", "boolean false" },
        // RESP3 after redis.setresp(3)
        new object[] { "redis.setresp(3)", "return redis.call('GET', 'missing')", "nil nil" },
        new object[] { "redis.setresp(3)", "return redis.call('HGETALL', 'h')", "table map{f=x}" },
        new object[] { "redis.setresp(3)", "return redis.call('SMEMBERS', 's')", "table set{m=true}" },
        new object[] { "redis.setresp(3)", "return redis.call('ZSCORE', 'z', 'm')", "table double=1.5" },
        new object[] { "redis.setresp(3)", "return redis.call('EXISTS', 'k')", "number 1" },
        new object[] { "redis.setresp(3)", "return redis.call('SET', 'k', 'v')", "table ok=OK" },
    ];

    private const string Render = """
        local function render(v)
          local t = type(v)
          if t ~= 'table' then return tostring(v) end
          if v.ok then return 'ok=' .. v.ok end
          if v.err then return 'err=' .. v.err end
          if v.double then return 'double=' .. v.double end
          if v.map then local s = {} for k, x in pairs(v.map) do s[#s + 1] = k .. '=' .. render(x) end return 'map{' .. table.concat(s, ',') .. '}' end
          if v.set then local s = {} for k, x in pairs(v.set) do s[#s + 1] = k .. '=' .. tostring(x) end return 'set{' .. table.concat(s, ',') .. '}' end
          local s = {} for i = 1, #v do s[i] = render(v[i]) end return '[' .. table.concat(s, ',') .. ']'
        end
        """;

    [TestCaseSource(nameof(s_luaToResp2))]
    public void LuaToResp2(string script, string expected)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", script, "0"), Is.EqualTo(expected));
    }

    [TestCaseSource(nameof(s_luaToResp3))]
    public void LuaToResp3(string script, string expected)
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("EVAL", script, "0"), Is.EqualTo(expected));
    }

    [TestCaseSource(nameof(s_respToLua))]
    public void RespToLua(string setup, string call, string expected)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "v");
        client.Execute("RPUSH", "l", "a", "b");
        client.Execute("HSET", "h", "f", "x");
        client.Execute("SADD", "s", "m");
        client.Execute("ZADD", "z", "1.5", "m");
        string script = Render + "\n" + setup + "\nlocal v = (function() " + call + " end)()\nreturn type(v) .. ' ' .. render(v)";
        string reply = client.Execute("EVAL", script, "0");
        Assert.That(reply, Is.EqualTo(Bulk(expected)), reply);
    }

    [Test]
    public void NumbersPassedToCommands()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "redis.call('SET', 'a', 10 / 2); redis.call('SET', 'b', 0.1); redis.call('SET', 'c', -7); return redis.call('MGET', 'a', 'b', 'c')", "0"),
            Is.EqualTo(Array(Bulk("5"), Bulk("0.1"), Bulk("-7"))));
    }

    [Test]
    public void SetRespArgumentErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "redis.setresp(4)", "0"), Does.StartWith("-ERR RESP version must be 2 or 3."));
        Assert.That(client.Execute("EVAL", "redis.setresp()", "0"), Does.StartWith("-ERR redis.setresp() requires one argument."));
    }
}
