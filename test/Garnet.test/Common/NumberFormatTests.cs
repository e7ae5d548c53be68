using System;
using System.Text;
using Garnet.common;
using NUnit.Framework;

namespace Garnet.test.Common;

/// <summary>
/// <see cref="NumberFormat"/>: integers parsed as strictly as Redis's string2ll, doubles as string2d,
/// and doubles printed as Redis prints scores (the cases below are the ones where Redis 7.0's "%.17g"
/// and Redis 7.2's shortest form agree).
/// </summary>
[TestFixture]
public sealed class NumberFormatTests
{
    [TestCase("0", 0L)]
    [TestCase("1", 1L)]
    [TestCase("-1", -1L)]
    [TestCase("42", 42L)]
    [TestCase("9223372036854775807", long.MaxValue)]
    [TestCase("-9223372036854775808", long.MinValue)]
    [TestCase("1000000000000000000", 1000000000000000000L)]
    public void ParsesValidIntegers(string text, long expected)
    {
        Assert.That(NumberFormat.TryParseLong(Encoding.ASCII.GetBytes(text), out long value), Is.True);
        Assert.That(value, Is.EqualTo(expected));
    }

    [TestCase("")]
    [TestCase("-")]
    [TestCase("+1")]
    [TestCase("+0")]
    [TestCase("-0")]
    [TestCase("-00")]
    [TestCase("01")]
    [TestCase("00")]
    [TestCase("007")]
    [TestCase(" 1")]
    [TestCase("1 ")]
    [TestCase("1\t")]
    [TestCase("1a")]
    [TestCase("a1")]
    [TestCase("1.0")]
    [TestCase("1e3")]
    [TestCase("0x10")]
    [TestCase("--1")]
    [TestCase("9223372036854775808")]
    [TestCase("-9223372036854775809")]
    [TestCase("18446744073709551615")]
    [TestCase("18446744073709551616")]
    [TestCase("99999999999999999999")]
    [TestCase("123456789012345678901")]
    [TestCase("1\u0000")]
    public void RefusesWhatRedisRefuses(string text)
    {
        Assert.That(NumberFormat.TryParseLong(Encoding.Latin1.GetBytes(text), out long value), Is.False);
        Assert.That(value, Is.EqualTo(0));
    }

    [Test]
    public void Int32Range()
    {
        Assert.That(NumberFormat.TryParseInt("2147483647"u8, out int max) && max == int.MaxValue, Is.True);
        Assert.That(NumberFormat.TryParseInt("-2147483648"u8, out int min) && min == int.MinValue, Is.True);
        Assert.That(NumberFormat.TryParseInt("2147483648"u8, out _), Is.False);
        Assert.That(NumberFormat.TryParseInt("-2147483649"u8, out _), Is.False);
        Assert.That(NumberFormat.TryParseInt("01"u8, out _), Is.False);
    }

    [TestCase("1.5", 1.5)]
    [TestCase("-1.5", -1.5)]
    [TestCase("0", 0.0)]
    [TestCase(".5", 0.5)]
    [TestCase("5.", 5.0)]
    [TestCase("+3", 3.0)]
    [TestCase("1e3", 1000.0)]
    [TestCase("1E-2", 0.01)]
    [TestCase("00012.5", 12.5)]
    [TestCase("1.7976931348623157e308", double.MaxValue)]
    [TestCase("4.9406564584124654e-324", double.Epsilon)]
    public void ParsesValidDoubles(string text, double expected)
    {
        Assert.That(NumberFormat.TryParseDouble(Encoding.ASCII.GetBytes(text), out double value), Is.True);
        Assert.That(value, Is.EqualTo(expected));
    }

    [TestCase("inf", double.PositiveInfinity)]
    [TestCase("+inf", double.PositiveInfinity)]
    [TestCase("-inf", double.NegativeInfinity)]
    [TestCase("INF", double.PositiveInfinity)]
    [TestCase("Infinity", double.PositiveInfinity)]
    [TestCase("-infinity", double.NegativeInfinity)]
    public void ParsesInfinities(string text, double expected)
    {
        Assert.That(NumberFormat.TryParseDouble(Encoding.ASCII.GetBytes(text), out double value), Is.True);
        Assert.That(value, Is.EqualTo(expected));
    }

    [TestCase("")]
    [TestCase(" 1")]
    [TestCase("1 ")]
    [TestCase("nan")]
    [TestCase("NaN")]
    [TestCase("abc")]
    [TestCase("1e")]
    [TestCase("e1")]
    [TestCase(".")]
    [TestCase("1..2")]
    [TestCase("infin")]
    [TestCase("1e400")]
    [TestCase("-1e400")]
    [TestCase("1e-400")]
    public void RefusesInvalidDoubles(string text)
        => Assert.That(NumberFormat.TryParseDouble(Encoding.ASCII.GetBytes(text), out _), Is.False);

    [TestCase(0.0, "0")]
    [TestCase(-0.0, "0")]
    [TestCase(1.0, "1")]
    [TestCase(100.0, "100")]
    [TestCase(-42.0, "-42")]
    [TestCase(1.5, "1.5")]
    [TestCase(-0.5, "-0.5")]
    [TestCase(0.0009765625, "0.0009765625")]
    [TestCase(9.5367431640625e-07, "9.5367431640625e-07")]
    [TestCase(1e16, "10000000000000000")]
    [TestCase(1e17, "1e+17")]
    [TestCase(1e20, "1e+20")]
    [TestCase(123456789012345678.0, "1.2345678901234568e+17")]
    [TestCase(double.PositiveInfinity, "inf")]
    [TestCase(double.NegativeInfinity, "-inf")]
    public void FormatsDoublesAsRedisScores(double value, string expected)
    {
        Span<byte> buffer = stackalloc byte[NumberFormat.MaxDoubleLength];
        int length = NumberFormat.FormatDouble(value, buffer);
        Assert.That(Encoding.ASCII.GetString(buffer.Slice(0, length)), Is.EqualTo(expected));
    }

    [TestCase(0.1, "0.10000000000000001")]
    [TestCase(10.6, "10.59999999999999964")]
    [TestCase(1e20, "100000000000000000000")]
    [TestCase(-2.5, "-2.5")]
    [TestCase(-1e-20, "0")]
    [TestCase(double.PositiveInfinity, "inf")]
    public void FormatsHumanDoublesAsIncrByFloat(double value, string expected)
    {
        // The double is printed exactly as "%.17Lf" prints it once widened to long double.
        Span<byte> buffer = stackalloc byte[LongDouble.MaxHumanLength];
        int length = NumberFormat.FormatHumanDouble(value, buffer);
        Assert.That(Encoding.ASCII.GetString(buffer.Slice(0, length)), Is.EqualTo(expected));
    }

    [TestCase(0L, 1)]
    [TestCase(9L, 1)]
    [TestCase(10L, 2)]
    [TestCase(-1L, 2)]
    [TestCase(long.MaxValue, 19)]
    [TestCase(long.MinValue, 20)]
    public void DigitCount(long value, int expected) => Assert.That(NumberFormat.DigitCount(value), Is.EqualTo(expected));
}
