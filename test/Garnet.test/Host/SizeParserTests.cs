using NUnit.Framework;

namespace Garnet.test.Host;

[TestFixture]
public sealed class SizeParserTests
{
    [TestCase("0", 0L)]
    [TestCase("4096", 4096L)]
    [TestCase("100b", 100L)]
    [TestCase("100B", 100L)]
    [TestCase("1k", 1L << 10)]
    [TestCase("1K", 1L << 10)]
    [TestCase("1kb", 1L << 10)]
    [TestCase("1KB", 1L << 10)]
    [TestCase("32m", 32L << 20)]
    [TestCase("32Mb", 32L << 20)]
    [TestCase("16g", 16L << 30)]
    [TestCase("16GB", 16L << 30)]
    [TestCase("2t", 2L << 40)]
    [TestCase("2tb", 2L << 40)]
    [TestCase(" 8 m ", 8L << 20)]
    public void ParsesSizes(string text, long expected)
    {
        Assert.That(SizeParser.TryParse(text, out long bytes), Is.True);
        Assert.That(bytes, Is.EqualTo(expected));
    }

    [TestCase("")]
    [TestCase("m")]
    [TestCase("-1")]
    [TestCase("1.5g")]
    [TestCase("1x")]
    [TestCase("1bb")]
    [TestCase("1kbb")]
    [TestCase("1 k b")]
    [TestCase("9999999999t")]
    [TestCase("99999999999999999999")]
    [TestCase(null)]
    public void RejectsNonSizes(string? text) => Assert.That(SizeParser.TryParse(text, out _), Is.False);

    [TestCase(0L, "0")]
    [TestCase(1000L, "1000")]
    [TestCase(1L << 10, "1k")]
    [TestCase(3L << 20, "3m")]
    [TestCase((1L << 20) + (1L << 10), "1025k")]
    [TestCase(16L << 30, "16g")]
    [TestCase(1L << 40, "1t")]
    public void FormatsWithTheLargestExactUnit(long bytes, string expected) => Assert.That(SizeParser.Format(bytes), Is.EqualTo(expected));
}
