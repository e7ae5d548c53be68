using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>The key distributions stay in range and have the intended shape.</summary>
public class KeySamplerTests
{
    private const int Samples = 200_000;

    private static long[] Histogram(IKeySampler sampler, long keys)
    {
        var counts = new long[keys];
        for (int i = 0; i < Samples; i++)
        {
            long key = sampler.Next();
            Assert.That(key, Is.InRange(0, keys - 1));
            counts[key]++;
        }
        return counts;
    }

    private static double ShareOfFirst(long[] counts, int first)
    {
        long sum = 0;
        for (int i = 0; i < first; i++)
            sum += counts[i];
        return (double)sum / Samples;
    }

    [Test]
    public void UniformCoversEveryKeyEvenly()
    {
        var counts = Histogram(new UniformKeySampler(1000, new FastRandom(11)), 1000);
        foreach (long count in counts)
            Assert.That(count, Is.InRange(100, 320));
        Assert.That(ShareOfFirst(counts, 100), Is.InRange(0.09, 0.11));
    }

    [Test]
    public void ZipfIsSkewedTowardsTheFirstKeys()
    {
        var sampler = new ZipfKeySampler(1000, 0.99, new FastRandom(11));
        var counts = Histogram(sampler, 1000);
        // With theta 0.99 over 1000 keys the hottest 10% take about 69% of the accesses.
        Assert.That(ShareOfFirst(counts, 100), Is.InRange(0.6, 0.78));
        Assert.That((double)counts[0] / Samples, Is.EqualTo(sampler.Probability(0)).Within(10).Percent);
        Assert.That((double)counts[1] / Samples, Is.EqualTo(sampler.Probability(1)).Within(10).Percent);
        Assert.That(counts[0], Is.GreaterThan(counts[10] * 5));
    }

    [Test]
    public void ZipfStaysInRangeForHugeKeySpaces()
    {
        const long keys = 256L << 20;
        var sampler = new ZipfKeySampler(keys, 0.99, new FastRandom(5));
        long zeros = 0;
        for (int i = 0; i < Samples; i++)
        {
            long key = sampler.Next();
            Assert.That(key, Is.InRange(0, keys - 1));
            zeros += key == 0 ? 1 : 0;
        }
        Assert.That((double)zeros / Samples, Is.EqualTo(sampler.Probability(0)).Within(15).Percent);
    }

    [Test]
    public void ZetaTailApproximationIsAccurate()
    {
        const long n = 3 << 20;
        double exact = 0;
        for (long i = 1; i <= n; i++)
            exact += 1.0 / System.Math.Pow(i, 0.99);
        Assert.That(ZipfKeySampler.Zeta(n, 0.99), Is.EqualTo(exact).Within(1e-6).Percent);
    }

    [Test]
    public void SameSeedSameStream()
    {
        var a = new ZipfKeySampler(1000, 0.9, new FastRandom(3));
        var b = new ZipfKeySampler(1000, 0.9, new FastRandom(3));
        for (int i = 0; i < 1000; i++)
            Assert.That(a.Next(), Is.EqualTo(b.Next()));
    }
}
