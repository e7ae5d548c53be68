using System.Threading.Tasks;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Strings;

/// <summary>INCR, DECR, INCRBY, DECRBY and INCRBYFLOAT, with the replies Redis 7 gives on x86-64.</summary>
[TestFixture]
public sealed class IncrCommandTests : ServerTestBase
{
    private const string Overflow = "-ERR increment or decrement would overflow\r\n";
    private const string NaNOrInfinity = "-ERR increment would produce NaN or Infinity\r\n";

    [Test]
    public void CountersStartAtZero()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("INCR", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("INCR", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("DECR", "b"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("INCRBY", "c", "10"), Is.EqualTo(Integer(10)));
        Assert.That(client.Execute("INCRBY", "c", "-15"), Is.EqualTo(Integer(-5)));
        Assert.That(client.Execute("DECRBY", "d", "7"), Is.EqualTo(Integer(-7)));
        Assert.That(client.Execute("DECRBY", "d", "-10"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("GET", "c"), Is.EqualTo(Bulk("-5")), "the value is stored as text");
    }

    [Test]
    public void IncrementsAnExistingDecimalString()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "41");
        Assert.That(client.Execute("INCR", "k"), Is.EqualTo(Integer(42)));
        client.Execute("SET", "k", "-9223372036854775807");
        Assert.That(client.Execute("DECR", "k"), Is.EqualTo(Integer(long.MinValue)));
        client.Execute("SET", "k", "0");
        Assert.That(client.Execute("INCRBY", "k", "0"), Is.EqualTo(Integer(0)));
    }

    [TestCase("abc")]
    [TestCase("")]
    [TestCase(" 1")]
    [TestCase("1 ")]
    [TestCase("+1")]
    [TestCase("01")]
    [TestCase("-0")]
    [TestCase("1.5")]
    [TestCase("1e3")]
    [TestCase("9223372036854775808")]
    [TestCase("-9223372036854775809")]
    [TestCase("123456789012345678901234")]
    [TestCase("1\u0000")]
    public void NonIntegerValuesAreRefused(string value)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", value);
        Assert.That(client.Execute("INCR", "k"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("DECR", "k"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("INCRBY", "k", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("DECRBY", "k", "1"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(value)), "the value is untouched");
    }

    [TestCase("abc")]
    [TestCase("")]
    [TestCase("1.0")]
    [TestCase("+5")]
    [TestCase("05")]
    [TestCase("9223372036854775808")]
    public void NonIntegerIncrementsAreRefused(string increment)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("INCRBY", "k", increment), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("DECRBY", "k", increment), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil));
    }

    [Test]
    public void OverflowIsRefusedAndChangesNothing()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "max", "9223372036854775807");
        Assert.That(client.Execute("INCR", "max"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("INCRBY", "max", "1"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("DECRBY", "max", "-1"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("GET", "max"), Is.EqualTo(Bulk("9223372036854775807")));
        Assert.That(client.Execute("INCRBY", "max", "-1"), Is.EqualTo(Integer(long.MaxValue - 1)));

        client.Execute("SET", "min", "-9223372036854775808");
        Assert.That(client.Execute("DECR", "min"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("DECRBY", "min", "1"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("INCRBY", "min", "-9223372036854775808"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("GET", "min"), Is.EqualTo(Bulk("-9223372036854775808")));

        client.Execute("SET", "big", "1");
        Assert.That(client.Execute("INCRBY", "big", "9223372036854775807"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("INCRBY", "big", "9223372036854775806"), Is.EqualTo(Integer(long.MaxValue)));
    }

    [Test]
    public void DecrByTheSmallestLongIsRefused()
    {
        using var client = ConnectRaw();
        // Negating -9223372036854775808 overflows before the value is even read (Redis 7's message).
        Assert.That(client.Execute("DECRBY", "k", "-9223372036854775808"), Is.EqualTo(Error("ERR decrement would overflow")));
        client.Execute("SET", "k", "-1");
        Assert.That(client.Execute("DECRBY", "k", "-9223372036854775808"), Is.EqualTo(Error("ERR decrement would overflow")));
        Assert.That(client.Execute("INCRBY", "k", "-9223372036854775808"), Is.EqualTo(Overflow));
        Assert.That(client.Execute("DECRBY", "k", "9223372036854775807"), Is.EqualTo(Integer(long.MinValue)));
    }

    [Test]
    public void ConcurrentIncrementsAreNotLost()
    {
        const int Clients = 4;
        const int Increments = 500;
        Parallel.For(0, Clients, _ =>
        {
            using var client = ConnectRaw();
            var commands = new string[Increments][];
            for (int i = 0; i < Increments; i++)
                commands[i] = i % 2 == 0 ? new[] { "INCR", "counter" } : new[] { "INCRBY", "counter", "3" };
            foreach (var reply in client.Pipeline(commands))
                Assert.That(reply, Does.StartWith(":"));
        });
        using var check = ConnectRaw();
        Assert.That(check.Execute("GET", "counter"), Is.EqualTo(Bulk((Clients * Increments / 2 * 4).ToString())));
    }

    [Test]
    public void IncrByFloatDocumentedExamples()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "mykey", "10.50");
        Assert.That(client.Execute("INCRBYFLOAT", "mykey", "0.1"), Is.EqualTo(Bulk("10.6")));
        Assert.That(client.Execute("INCRBYFLOAT", "mykey", "-5"), Is.EqualTo(Bulk("5.6")));
        client.Execute("SET", "mykey", "5.0e3");
        Assert.That(client.Execute("INCRBYFLOAT", "mykey", "2.0e2"), Is.EqualTo(Bulk("5200")));
        Assert.That(client.Execute("GET", "mykey"), Is.EqualTo(Bulk("5200")), "the stored text is the reply");
    }

    // Replies recorded from Redis 7.0 on x86-64: it adds in 80-bit long double and prints "%.17Lf",
    // so the last digits show that format's rounding.
    [TestCase("0.1", "0.2", "0.3")]
    [TestCase("1000", "0.1", "1000.09999999999999998")]
    [TestCase("10000000000", "0.1", "10000000000.09999999962747097")]
    [TestCase("0", "1234567.891", "1234567.89099999999996271")]
    [TestCase("0", "3.14159265358979323846", "3.14159265358979324")]
    [TestCase("3.14159265358979324", "1e17", "100000000000000003.140625")]
    [TestCase("0", "123456789012345678", "123456789012345678")]
    [TestCase("0", "1e20", "100000000000000000000")]
    [TestCase("1e20", "-1e20", "0")]
    [TestCase("0", "1e-20", "0")]
    [TestCase("0", "7.5e-18", "0.00000000000000001")]
    [TestCase("0", "2.5e-18", "0")]
    [TestCase("0", "-2.5e-18", "0")]
    [TestCase("0", "-0", "0")]
    [TestCase("0", "1.5e-5", "0.000015")]
    [TestCase("0.000015", ".5", "0.500015")]
    [TestCase("0.500015", "5.", "5.500015")]
    [TestCase("5.500015", "0x10", "21.500015")]
    [TestCase("0", "0x1.8p1", "3")]
    [TestCase("0", "0X1P-2", "0.25")]
    [TestCase("0", "+.5", "0.5")]
    [TestCase("0", "-.5e1", "-5")]
    [TestCase("0", "00012.5", "12.5")]
    [TestCase("10.0", "0", "10")]
    [TestCase("1e5", "0", "100000")]
    [TestCase("0", "99999999999999999.5", "99999999999999999.5")]
    [TestCase("0", "1e-4940", "0")]
    public void IncrByFloatFormatsAsRedis(string start, string increment, string expected)
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", start);
        Assert.That(client.Execute("INCRBYFLOAT", "k", increment), Is.EqualTo(Bulk(expected)));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(expected)));
    }

    [Test]
    public void IncrByFloatReachesTheLongDoubleRange()
    {
        using var client = ConnectRaw();
        string reply = client.Execute("INCRBYFLOAT", "k", "1e400");
        Assert.That(reply, Does.StartWith("$401\r\n1000000000000000000028188068394758651458645343362905203862591069353968553400862986"));
        Assert.That(reply, Does.EndWith("64138176309734806343732497430221946880\r\n"));
        client.Execute("SET", "k", "1e308");
        reply = client.Execute("INCRBYFLOAT", "k", "1e308");
        Assert.That(reply, Does.StartWith("$309\r\n19999999999999999999337175931169129132112019969483113441559409598984346973767612374420025384377707864089"));
        Assert.That(reply, Does.EndWith("14636284849020905456510092687857156096\r\n"));
        reply = client.Execute("INCRBYFLOAT", "max", "1.18973149535723176502e4932");
        Assert.That(reply, Does.StartWith("$4933\r\n11897314953572317650212638530309702051690633222946242004403237338917370055229707226164102903365288828535456978074"));
        Assert.That(reply, Does.EndWith("0031762345960769508849149662444156604419552086811989770240\r\n"));
        Assert.That(client.Execute("INCRBYFLOAT", "max", "1e4932"), Is.EqualTo(NaNOrInfinity), "past the largest long double");
    }

    [TestCase("inf")]
    [TestCase("-inf")]
    [TestCase("+Infinity")]
    [TestCase("INF")]
    [TestCase("1e5000")]
    public void IncrByFloatRefusesInfiniteResults(string increment)
    {
        using var client = ConnectRaw();
        string expected = increment == "1e5000" ? NotFloat : NaNOrInfinity;
        Assert.That(client.Execute("INCRBYFLOAT", "k", increment), Is.EqualTo(expected));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Nil), "a missing key stays missing");
        client.Execute("SET", "k", "1");
        Assert.That(client.Execute("INCRBYFLOAT", "k", increment), Is.EqualTo(expected));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk("1")));
    }

    [Test]
    public void IncrByFloatOnAnInfiniteValue()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "inf");
        Assert.That(client.Execute("INCRBYFLOAT", "k", "1"), Is.EqualTo(NaNOrInfinity));
        client.Execute("SET", "k", "infinity");
        Assert.That(client.Execute("INCRBYFLOAT", "k", "-inf"), Is.EqualTo(NaNOrInfinity), "inf - inf is NaN");
    }

    [TestCase("abc")]
    [TestCase("")]
    [TestCase(" 1")]
    [TestCase("1 ")]
    [TestCase("nan")]
    [TestCase("NaN")]
    [TestCase("nan(123)")]
    [TestCase("infin")]
    [TestCase("1e")]
    [TestCase("1e+")]
    [TestCase("e5")]
    [TestCase(".")]
    [TestCase("+")]
    [TestCase("-")]
    [TestCase("0x")]
    [TestCase("0x1p")]
    [TestCase("1..2")]
    [TestCase("--1")]
    [TestCase("1_0")]
    [TestCase("1e-5000")]
    [TestCase("1\u0000")]
    [TestCase("\u0000")]
    public void NonFloatsAreRefused(string text)
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("INCRBYFLOAT", "k", text), Is.EqualTo(NotFloat));
        client.Execute("SET", "k", text);
        Assert.That(client.Execute("INCRBYFLOAT", "k", "1"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo(Bulk(text)));
    }

    [Test]
    public void IncrByFloatRefusesTextLongerThanRedisBuffer()
    {
        using var client = ConnectRaw();
        string longest = "0." + new string('1', 5117);
        Assert.That(client.Execute("INCRBYFLOAT", "k", longest), Is.EqualTo(Bulk("0.11111111111111111")));
        Assert.That(client.Execute("INCRBYFLOAT", "k2", longest + "1"), Is.EqualTo(NotFloat));
    }

    [Test]
    public void AFloatIsNotAnInteger()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("INCRBYFLOAT", "k", "1.5"), Is.EqualTo(Bulk("1.5")));
        Assert.That(client.Execute("INCR", "k"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("INCRBYFLOAT", "k", "0.5"), Is.EqualTo(Bulk("2")));
        Assert.That(client.Execute("INCR", "k"), Is.EqualTo(Integer(3)), "a whole result is stored without a point");
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.StringIncrement("n"), Is.EqualTo(1));
        Assert.That(db.StringIncrement("n", 41), Is.EqualTo(42));
        Assert.That(db.StringDecrement("n", 2), Is.EqualTo(40));
        Assert.That(db.StringIncrement("f", 2.5), Is.EqualTo(2.5));
        Assert.That(db.StringIncrement("f", -0.5), Is.EqualTo(2.0));
    }
}
