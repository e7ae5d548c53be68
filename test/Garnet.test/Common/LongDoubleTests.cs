using System.Text;
using Garnet.common;
using NUnit.Framework;

namespace Garnet.test.Common;

/// <summary>
/// <see cref="LongDouble"/>, the x87 80-bit float INCRBYFLOAT computes in. Expected texts were
/// recorded from Redis 7.0 on x86-64 (glibc strtold, long double addition, printf "%.17Lf").
/// </summary>
[TestFixture]
public sealed class LongDoubleTests
{
    private static LongDouble Parse(string text)
    {
        Assert.That(LongDouble.TryParse(Encoding.Latin1.GetBytes(text), out var value), Is.True, text);
        return value;
    }

    private static string Human(LongDouble value)
    {
        var buffer = new byte[LongDouble.MaxHumanLength];
        int length = value.FormatHuman(buffer);
        return Encoding.ASCII.GetString(buffer, 0, length);
    }

    [TestCase("0", "0")]
    [TestCase("-0", "0")]
    [TestCase("-0.0", "0")]
    [TestCase("1", "1")]
    [TestCase("10.50", "10.5")]
    [TestCase("5.0e3", "5000")]
    [TestCase("0.1", "0.1")]
    [TestCase("-0.1", "-0.1")]
    [TestCase("0.3", "0.3")]
    [TestCase("1234567.891", "1234567.89099999999996271")]
    [TestCase("3.14159265358979323846", "3.14159265358979324")]
    [TestCase("99999999999999999.5", "99999999999999999.5")]
    [TestCase("18446744073709551615", "18446744073709551615")]
    [TestCase("18446744073709551617", "18446744073709551616")]
    [TestCase("36893488147419103231", "36893488147419103232")]
    [TestCase("1e19", "10000000000000000000")]
    [TestCase("7.5e-18", "0.00000000000000001")]
    [TestCase("2.5e-18", "0")]
    [TestCase("-2.5e-18", "0")]
    [TestCase("1e-4940", "0")]
    [TestCase("0x1p3", "8")]
    [TestCase("0x.8", "0.5")]
    [TestCase("0X1P-2", "0.25")]
    [TestCase("0x1.8p1", "3")]
    [TestCase("0x10", "16")]
    [TestCase("-0x1p-57", "-0.00000000000000001")]
    [TestCase("0x3p-58", "0.00000000000000001")]
    [TestCase("1.00000000000000000000000000001", "1")]
    public void ParsesAndPrintsAsRedis(string text, string expected) => Assert.That(Human(Parse(text)), Is.EqualTo(expected));

    [TestCase("inf", "inf")]
    [TestCase("+INF", "inf")]
    [TestCase("-inf", "-inf")]
    [TestCase("Infinity", "inf")]
    [TestCase("-iNfInItY", "-inf")]
    public void Infinities(string text, string expected)
    {
        var value = Parse(text);
        Assert.That(value.IsInfinity, Is.True);
        Assert.That(Human(value), Is.EqualTo(expected));
    }

    [TestCase("")]
    [TestCase(" 1")]
    [TestCase("1 ")]
    [TestCase("nan")]
    [TestCase("-NaN")]
    [TestCase("nan(1)")]
    [TestCase("infin")]
    [TestCase("in")]
    [TestCase(".")]
    [TestCase("+")]
    [TestCase("-")]
    [TestCase("e5")]
    [TestCase("1e")]
    [TestCase("1e+")]
    [TestCase("1e5.5")]
    [TestCase("1.2.3")]
    [TestCase("--1")]
    [TestCase("+-1")]
    [TestCase("0x")]
    [TestCase("0x-1")]
    [TestCase("0xg")]
    [TestCase("0x1p")]
    [TestCase("0x1p-3.5")]
    [TestCase("1_0")]
    [TestCase("1\u0000")]
    [TestCase("\u0000")]
    [TestCase("1e4933")]
    [TestCase("-1e4933")]
    [TestCase("0x1p16384")]
    [TestCase("0x1.ffffffffffffffffp16383")]
    [TestCase("1e-4960")]
    [TestCase("1e-5000")]
    [TestCase("0x1p-16446")]
    [TestCase("1.8225997659412373012e-4951")]
    [TestCase("1e99999999999999999999999")]
    [TestCase("0.1e-999999999999999999999")]
    public void RefusesWhatStrtoldRefuses(string text)
        => Assert.That(LongDouble.TryParse(Encoding.Latin1.GetBytes(text), out _), Is.False);

    [Test]
    public void RangeEdges()
    {
        // The largest finite value, and the smallest subnormal (half of it rounds to even, i.e. zero).
        Assert.That(Parse("0x1.fffffffffffffffep16383").IsFinite, Is.True);
        Assert.That(Human(Parse("0x1p16383")), Does.StartWith("59486574767861588254287966331400356538172234354825511873633741061663067909024184345224429773630601995755771874241"));
        Assert.That(Parse("0x1p-16445").IsZero, Is.False);
        Assert.That(Parse("0x1.8p-16446").IsZero, Is.False, "three quarters of the smallest subnormal round up to it");
        Assert.That(Parse("1.8225997659412373013e-4951").IsZero, Is.False);
        Assert.That(Parse("3.6451995318824746025e-4951") == Parse("0x1p-16445"), Is.True);
    }

    [Test]
    public void LengthLimitIsRedisBuffer()
    {
        Assert.That(LongDouble.TryParse(Encoding.ASCII.GetBytes("0." + new string('1', 5117)), out var value), Is.True);
        Assert.That(Human(value), Is.EqualTo("0.11111111111111111"));
        Assert.That(LongDouble.TryParse(Encoding.ASCII.GetBytes("0." + new string('1', 5118)), out _), Is.False);
        Assert.That(LongDouble.TryParse(Encoding.ASCII.GetBytes(new string('1', 5119)), out _), Is.False, "1.1e5118 overflows");
    }

    [TestCase("10.5", "0.1", "10.6")]
    [TestCase("10.6", "-5", "5.6")]
    [TestCase("5000", "200", "5200")]
    [TestCase("0.1", "0.2", "0.3")]
    [TestCase("1000", "0.1", "1000.09999999999999998")]
    [TestCase("1000.09999999999999998", "128.1", "1128.19999999999999996")]
    [TestCase("10000000000", "0.1", "10000000000.09999999962747097")]
    [TestCase("3.14159265358979324", "1e17", "100000000000000003.140625")]
    [TestCase("1e20", "-1e20", "0")]
    [TestCase("1e-20", "3", "3")]
    [TestCase("3", "-3", "0")]
    [TestCase("5.500015", "16", "21.500015")]
    public void AdditionRoundsAsTheX87Unit(string a, string b, string expected)
        => Assert.That(Human(Parse(a) + Parse(b)), Is.EqualTo(expected));

    [Test]
    public void AdditionSpecialValues()
    {
        var inf = LongDouble.PositiveInfinity;
        Assert.That((inf + LongDouble.NegativeInfinity).IsNaN, Is.True);
        Assert.That((inf + Parse("1")).IsInfinity, Is.True);
        Assert.That((Parse("-1") + LongDouble.NegativeInfinity).IsNegative, Is.True);
        Assert.That((LongDouble.NaN + Parse("1")).IsNaN, Is.True);
        Assert.That((Parse("-0") + Parse("-0")).IsNegative, Is.True, "-0 + -0 is -0");
        Assert.That((Parse("-0") + Parse("0")).IsNegative, Is.False);
        Assert.That((Parse("2") + Parse("-2")).IsNegative, Is.False, "exact cancellation gives +0");
        var max = Parse("0x1.fffffffffffffffep16383");
        Assert.That((max + max).IsInfinity, Is.True, "overflow goes to infinity");
        Assert.That((max + Parse("1")) == max, Is.True, "a tiny addend does not change a huge value");
        Assert.That((-max).IsNegative, Is.True);
    }

    [Test]
    public void SubnormalAddition()
    {
        var tiny = Parse("0x1p-16445");
        Assert.That(tiny + tiny == Parse("0x1p-16444"), Is.True);
        Assert.That((tiny + -tiny).IsZero, Is.True);
    }

    [TestCase(0.1)]
    [TestCase(-2.5)]
    [TestCase(double.Epsilon)]
    [TestCase(double.MaxValue)]
    [TestCase(123456789.0)]
    public void DoublesWidenExactly(double value)
    {
        // The double's exact value written as a hexadecimal float: significand * 2^exponent.
        long bits = System.BitConverter.DoubleToInt64Bits(value);
        int biased = (int)((bits >> 52) & 0x7FF);
        long significand = bits & 0xF_FFFF_FFFF_FFFFL;
        int exponent = biased == 0 ? -1074 : biased - 1075;
        if (biased != 0)
            significand |= 1L << 52;
        string exact = $"{(value < 0 ? "-" : "")}0x{significand:x}p{exponent}";
        Assert.That(LongDouble.FromDouble(value) == Parse(exact), Is.True, exact);
    }

    [Test]
    public void LongsWidenExactly()
    {
        Assert.That(Human(LongDouble.FromLong(long.MaxValue)), Is.EqualTo("9223372036854775807"));
        Assert.That(Human(LongDouble.FromLong(long.MinValue)), Is.EqualTo("-9223372036854775808"));
        Assert.That(LongDouble.FromLong(0).IsZero, Is.True);
    }

    [Test]
    public void EqualityIgnoresTheSignOfZeroAndNeverHoldsForNaN()
    {
        Assert.That(Parse("0") == Parse("-0"), Is.True);
        Assert.That(LongDouble.NaN == LongDouble.NaN, Is.False);
        Assert.That(Parse("1.5") != Parse("1.25"), Is.True);
        Assert.That(Parse("0x1p3").Equals((object)Parse("8")), Is.True);
        Assert.That(Parse("0x1p3").GetHashCode(), Is.EqualTo(Parse("8").GetHashCode()));
        Assert.That(LongDouble.Zero.ToString(), Is.EqualTo("0"));
        Assert.That(Parse("2.5").ToString(), Is.EqualTo("2.5"));
        Assert.That(Human(LongDouble.NaN), Is.EqualTo("nan"));
    }
}
