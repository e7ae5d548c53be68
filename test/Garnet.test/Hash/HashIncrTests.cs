using NUnit.Framework;
using static Garnet.test.Hash.HashTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Hash;

/// <summary>HINCRBY and HINCRBYFLOAT.</summary>
[TestFixture]
public sealed class HashIncrTests : ServerTestBase
{
    private const string NotHashInteger = "-ERR hash value is not an integer\r\n";
    private const string NotHashFloat = "-ERR hash value is not a float\r\n";
    private const string Overflow = "-ERR increment or decrement would overflow\r\n";

    [Test]
    public void HIncrByCreatesAndAdds()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("HINCRBY", "h", "n", "5"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("HINCRBY", "h", "n", "-12"), Is.EqualTo(Integer(-7)));
        Assert.That(client.Execute("HINCRBY", "h", "n", "0"), Is.EqualTo(Integer(-7)));
        Assert.That(client.Execute("HGET", "h", "n"), Is.EqualTo(Bulk("-7")));
        Assert.That(client.Execute("HINCRBY", "h", "m", "-3"), Is.EqualTo(Integer(-3)));
        Assert.That(client.Execute("HLEN", "h"), Is.EqualTo(Integer(2)));
        client.Execute("HSET", "h", "s", "100");
        Assert.That(client.Execute("HINCRBY", "h", "s", "1"), Is.EqualTo(Integer(101)));
    }

    [Test]
    public void HIncrByErrors()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "text", "abc", "float", "1.5", "spaced", " 1", "plus", "+1", "big", "9223372036854775808", "zero", "007");
        foreach (var field in new[] { "text", "float", "spaced", "plus", "big", "zero" })
            Assert.That(client.Execute("HINCRBY", "h", field, "1"), Is.EqualTo(NotHashInteger), field);
        Assert.That(client.Execute("HINCRBY", "h", "n", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("HINCRBY", "h", "n", "1.0"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("HINCRBY", "h", "n", "9223372036854775808"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("HEXISTS", "h", "n"), Is.EqualTo(Integer(0)));

        client.Execute("SET", "s", "1");
        Assert.That(client.Execute("HINCRBY", "s", "n", "x"), Is.EqualTo(NotInteger), "the increment is checked before the type");
        Assert.That(client.Execute("HINCRBY", "nokey", "n", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("EXISTS", "nokey"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void HIncrByOverflow()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "max", "9223372036854775807", "min", "-9223372036854775808");
        Assert.That(client.Execute("HINCRBY", "h", "max", "1"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("HINCRBY", "h", "min", "-1"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("HGET", "h", "max"), Is.EqualTo(Bulk("9223372036854775807")));
        Assert.That(client.Execute("HINCRBY", "h", "max", "-9223372036854775808"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("HINCRBY", "h", "min", "9223372036854775807"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("HINCRBY", "h", "new", "-9223372036854775808"), Is.EqualTo(Integer(long.MinValue)));
        Assert.That(client.Execute("HINCRBY", "h", "new", "-1"), Is.EqualTo(Overflow));
    }

    [Test]
    public void HIncrByFloatFormatsLikeRedis()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "f", "10.50");
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "f", "0.1"), Is.EqualTo(Bulk("10.6")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "f", "-5"), Is.EqualTo(Bulk("5.6")));
        client.Execute("HSET", "h", "f", "5.0e3");
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "f", "2.0e2"), Is.EqualTo(Bulk("5200")));
        Assert.That(client.Execute("HGET", "h", "f"), Is.EqualTo(Bulk("5200")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "new", "3"), Is.EqualTo(Bulk("3")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "new", "-3"), Is.EqualTo(Bulk("0")));

        // Long double arithmetic and "%.17Lf": the same text INCRBYFLOAT gives.
        client.Execute("SET", "s", "1000");
        client.Execute("HSET", "h", "g", "1000");
        string expected = client.Execute("INCRBYFLOAT", "s", "0.1");
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "g", "0.1"), Is.EqualTo(expected));
        Assert.That(expected, Is.EqualTo(Bulk("1000.09999999999999998")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "hex", "0x10"), Is.EqualTo(Bulk("16")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "tiny", "1e-20"), Is.EqualTo(Bulk("0")));
        Assert.That(client.Execute("HGET", "h", "tiny"), Is.EqualTo(Bulk("0")));
    }

    [Test]
    public void HIncrByFloatErrors()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "text", "abc", "spaced", "1.0 ", "nan", "nan", "inf", "inf");
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "text", "1"), Is.EqualTo(NotHashFloat));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "spaced", "1"), Is.EqualTo(NotHashFloat));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "nan", "1"), Is.EqualTo(NotHashFloat));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "inf", "1"), Is.EqualTo(Error("ERR increment would produce NaN or Infinity")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "n", "abc"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "n", "nan"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "n", ""), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "n", "inf"), Is.EqualTo(Error("ERR value is NaN or Infinity")));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "n", "-Infinity"), Is.EqualTo(Error("ERR value is NaN or Infinity")));
        Assert.That(client.Execute("HEXISTS", "h", "n"), Is.EqualTo(Integer(0)));

        client.Execute("SET", "s", "1");
        Assert.That(client.Execute("HINCRBYFLOAT", "s", "n", "abc"), Is.EqualTo(NotFloat), "the increment is checked before the type");
        Assert.That(client.Execute("HINCRBYFLOAT", "s", "n", "1"), Is.EqualTo(WrongType));
    }

    [Test]
    public void HIncrByFloatOverflowToInfinity()
    {
        using var client = ConnectRaw();
        // Long doubles reach about 1.19e4932: far past double's range, still finite.
        string big = client.Execute("HINCRBYFLOAT", "h", "f", "1e4932");
        Assert.That(big[0], Is.EqualTo('$'));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "f", "1e4932"), Is.EqualTo(Error("ERR increment would produce NaN or Infinity")));
        Assert.That(client.Execute("HGET", "h", "f"), Is.EqualTo(big), "the value is unchanged after the error");
    }

    [Test]
    public void Resp3IncrReplies()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("HINCRBY", "h", "n", "2"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("HINCRBYFLOAT", "h", "n", "0.5"), Is.EqualTo(Bulk("2.5")), "a bulk string, not a RESP3 double");
    }
}
