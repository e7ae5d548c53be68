using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>The libraries scripts use: redis.* helpers, cjson, bit, struct and cmsgpack.</summary>
public class ScriptLibraryTests : ServerTestBase
{
    [TestCase("return redis.sha1hex('')", "da39a3ee5e6b4b0d3255bfef95601890afd80709")]
    [TestCase("return redis.sha1hex('abc')", "a9993e364706816aba3e25717850c26c9cd0d89d")]
    [TestCase("return redis.REDIS_VERSION", "7.2.5")]
    [TestCase("return cjson.encode({1, 2, 'x'})", "[1,2,\"x\"]")]
    [TestCase("return cjson.encode({a = 'b'})", "{\"a\":\"b\"}")]
    [TestCase("return cjson.encode({})", "{}")]
    [TestCase("return cjson.encode('a/\"\\n')", "\"a\\/\\\"\\n\"")]
    [TestCase("return cjson.encode({1.5, true, false, cjson.null})", "[1.5,true,false,null]")]
    [TestCase("return cjson.encode({[1] = 1, [3] = 3})", "[1,null,3]")]
    [TestCase("local t = cjson.decode('{\"a\":[1,2,{\"b\":null}],\"c\":\"\\\\u00e9\"}') return tostring(t.a[2]) .. tostring(t.a[3].b == cjson.null) .. string.byte(t.c, 1) .. ',' .. string.byte(t.c, 2)", "2true195,169")]
    [TestCase("return cjson.decode('\"x\"')", "x")]
    [TestCase("return tostring(cjson.decode('2.5'))", "2.5")]
    [TestCase("return cjson.encode(cjson.decode('{\"k\":[true,{\"n\":-1e3}]}'))", "{\"k\":[true,{\"n\":-1000}]}")]
    [TestCase("return bit.tohex(65535)", "0000ffff")]
    [TestCase("return bit.tohex(-1, -4)", "FFFF")]
    [TestCase("return tostring(bit.band(0xff, 0x0f)) .. ',' .. bit.bor(1, 2, 4) .. ',' .. bit.bxor(5, 3) .. ',' .. bit.bnot(0)", "15,7,6,-1")]
    [TestCase("return tostring(bit.lshift(1, 31)) .. ',' .. bit.rshift(-1, 28) .. ',' .. bit.arshift(-256, 4) .. ',' .. bit.tobit(4294967297)", "-2147483648,15,-16,1")]
    [TestCase("return tostring(bit.rol(0x80000001, 1)) .. ',' .. bit.ror(1, 1) .. ',' .. bit.tohex(bit.bswap(0x12345678))", "3,-2147483648,78563412")]
    public void Returns(string script, string expected)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", script, "0"), Is.EqualTo(Bulk(expected)));
    }

    [Test]
    public void JsonErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "return cjson.decode('{bad')", "0"), Does.StartWith("-ERR Expected object key string but found invalid token at character 2"));
        Assert.That(client.Execute("EVAL", "return cjson.decode('[1,2')", "0"), Does.StartWith("-ERR Expected comma or array end but found T_END at character 5"));
        Assert.That(client.Execute("EVAL", "return cjson.encode({1, 2, [100] = 3})", "0"), Does.StartWith("-ERR Cannot serialise table: excessively sparse array"));
        Assert.That(client.Execute("EVAL", "return cjson.encode(function() end)", "0"), Does.StartWith("-ERR Cannot serialise function: type not supported"));
    }

    [Test]
    public void RedisHelpers()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", "redis.log(redis.LOG_WARNING, 'hello', 'world') return redis.LOG_DEBUG + redis.LOG_VERBOSE + redis.LOG_NOTICE", "0"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("EVAL", "redis.log(9, 'x')", "0"), Does.StartWith("-ERR Invalid debug level."));
        Assert.That(client.Execute("EVAL", "redis.log(1)", "0"), Does.StartWith("-ERR redis.log() requires two arguments or more."));
        Assert.That(client.Execute("EVAL", "return redis.sha1hex()", "0"), Does.StartWith("-ERR wrong number of arguments"));
        Assert.That(client.Execute("EVAL", "return redis.error_reply(1)", "0"), Is.EqualTo("-ERR wrong number or type of arguments\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.status_reply()", "0"), Is.EqualTo("-ERR wrong number or type of arguments\r\n"));
        Assert.That(client.Execute("EVAL", "return redis.REDIS_VERSION_NUM", "0"), Is.EqualTo(":459269\r\n"));
        Assert.That(client.Execute("EVAL", "redis.set_repl(redis.REPL_ALL) return tostring(redis.replicate_commands())", "0"), Is.EqualTo(Bulk("true")));
    }

    [TestCase("return cmsgpack.unpack(cmsgpack.pack({1, 2, 3}))[3]", ":3\r\n")]
    [TestCase("local a, b, c = cmsgpack.unpack(cmsgpack.pack(-5, 'text', {k = 'v'})) return {a, b, c.k}", "*3\r\n:-5\r\n$4\r\ntext\r\n$1\r\nv\r\n")]
    [TestCase("return redis.sha1hex(cmsgpack.pack({1, -1, 300, 70000, 5000000000, 'abc', true, false}))", "$40\r\n")]
    [TestCase("return #cmsgpack.pack(1.5) .. ',' .. #cmsgpack.pack(0.1) .. ',' .. tostring(cmsgpack.unpack(cmsgpack.pack(0.1)))", "$7\r\n5,9,0.1\r\n")]
    [TestCase("return cmsgpack.pack({1, 2}) == '\\x92\\x01\\x02' and cmsgpack.pack('a') == '\\xa1a'", ":1\r\n")]
    [TestCase("return struct.unpack('>I2', struct.pack('>I2', 258))", ":258\r\n")]
    [TestCase("local s, n = struct.unpack('s', struct.pack('s', 'hi')) return {s, n, struct.size('>iH')}", "*3\r\n$2\r\nhi\r\n:4\r\n:6\r\n")]
    public void MessagePackAndStruct(string script, string expected)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("EVAL", script, "0"), Does.StartWith(expected));
    }
}
