using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>Percentiles of the log-bucketed histogram on data with known answers.</summary>
public class LatencyHistogramTests
{
    [Test]
    public void SmallValuesAreExact()
    {
        var histogram = new LatencyHistogram();
        for (int v = 1; v <= 100; v++)
            histogram.Record(v);
        Assert.That(histogram.Count, Is.EqualTo(100));
        Assert.That(histogram.ValueAtPercentile(50), Is.EqualTo(50));
        Assert.That(histogram.ValueAtPercentile(90), Is.EqualTo(90));
        Assert.That(histogram.ValueAtPercentile(99), Is.EqualTo(99));
        Assert.That(histogram.ValueAtPercentile(99.9), Is.EqualTo(100));
        Assert.That(histogram.ValueAtPercentile(100), Is.EqualTo(100));
        Assert.That(histogram.ValueAtPercentile(0), Is.EqualTo(1));
        Assert.That(histogram.Min, Is.EqualTo(1));
        Assert.That(histogram.Max, Is.EqualTo(100));
        Assert.That(histogram.Mean, Is.EqualTo(50.5));
    }

    [Test]
    public void LargeValuesAreWithinOnePercent()
    {
        var histogram = new LatencyHistogram();
        for (long v = 1; v <= 1_000_000; v++)
            histogram.Record(v * 1000);
        Assert.That(histogram.ValueAtPercentile(50), Is.EqualTo(500_000_000L).Within(1).Percent);
        Assert.That(histogram.ValueAtPercentile(90), Is.EqualTo(900_000_000L).Within(1).Percent);
        Assert.That(histogram.ValueAtPercentile(99), Is.EqualTo(990_000_000L).Within(1).Percent);
        Assert.That(histogram.ValueAtPercentile(99.9), Is.EqualTo(999_000_000L).Within(1).Percent);
        Assert.That(histogram.ValueAtPercentile(50), Is.GreaterThanOrEqualTo(500_000_000L), "reports the bucket's upper end");
        Assert.That(histogram.Max, Is.EqualTo(1_000_000_000L));
    }

    [Test]
    public void SkewedDataFindsTheTail()
    {
        // 990 fast requests and 10 slow ones: p99 is still fast, p99.9 is slow.
        var histogram = new LatencyHistogram();
        for (int i = 0; i < 990; i++)
            histogram.Record(20_000);
        for (int i = 0; i < 10; i++)
            histogram.Record(5_000_000);
        Assert.That(histogram.ValueAtPercentile(50), Is.EqualTo(20_000).Within(1).Percent);
        Assert.That(histogram.ValueAtPercentile(99), Is.EqualTo(20_000).Within(1).Percent);
        Assert.That(histogram.ValueAtPercentile(99.9), Is.EqualTo(5_000_000));
    }

    [Test]
    public void BucketsCoverEveryValueWithBoundedWidth()
    {
        int previous = -1;
        foreach (long value in new long[] { 0, 1, 255, 256, 257, 511, 512, 1000, 123_456, 1L << 40, (1L << 40) + 12345, long.MaxValue / 3, long.MaxValue })
        {
            int bucket = LatencyHistogram.BucketOf(value);
            Assert.That(bucket, Is.GreaterThanOrEqualTo(previous), $"buckets never shrink as the value grows ({value})");
            previous = bucket;
            long upper = LatencyHistogram.UpperBound(bucket);
            Assert.That(upper, Is.GreaterThanOrEqualTo(value));
            long lower = bucket == 0 ? 0 : LatencyHistogram.UpperBound(bucket - 1) + 1;
            Assert.That(lower, Is.LessThanOrEqualTo(value));
            Assert.That((double)(upper - lower), Is.LessThanOrEqualTo((value / 128.0) + 1));
        }
    }

    [Test]
    public void MergingAddsCounts()
    {
        var a = new LatencyHistogram();
        var b = new LatencyHistogram();
        for (int v = 1; v <= 50; v++)
            a.Record(v);
        for (int v = 51; v <= 100; v++)
            b.Record(v);
        var merged = new LatencyHistogram();
        merged.Add(a);
        merged.Add(b);
        merged.Add(new LatencyHistogram());
        Assert.That(merged.Count, Is.EqualTo(100));
        Assert.That(merged.Min, Is.EqualTo(1));
        Assert.That(merged.Max, Is.EqualTo(100));
        Assert.That(merged.ValueAtPercentile(50), Is.EqualTo(50));
    }

    [Test]
    public void EmptyHistogramReportsZero()
    {
        var histogram = new LatencyHistogram();
        Assert.That(histogram.ValueAtPercentile(99), Is.Zero);
        Assert.That(histogram.Mean, Is.Zero);
    }
}
