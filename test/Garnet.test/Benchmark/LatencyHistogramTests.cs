using System;
using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>Percentiles of the benchmark's latency histogram (HdrHistogram's buckets) on data with known answers.</summary>
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
    public void LongTailedPercentilesAreWithinATenthOfAPercentOfTheExactOnes()
    {
        // A body of 20-90 us and one value in a thousand up to 5 ms more, in nanosecond ticks.
        var random = new Random(7);
        var values = new long[200_000];
        for (int i = 0; i < values.Length; i++)
            values[i] = (long)(20_000 * Math.Exp(random.NextDouble() * 1.5)) + (random.NextDouble() > 0.999 ? random.Next(5_000_000) : 0);
        var histogram = new LatencyHistogram();
        foreach (long value in values)
            histogram.Record(value);
        Array.Sort(values);
        foreach (double percentile in new[] { 50, 90, 99, 99.9, 99.99 })
        {
            // The value of rank round(p% of n), as HdrHistogram counts ranks.
            long exact = values[(int)(percentile / 100 * values.Length + 0.5) - 1];
            Assert.That((double)histogram.ValueAtPercentile(percentile), Is.EqualTo((double)exact).Within(0.1).Percent, $"p{percentile}");
            Assert.That(histogram.ValueAtPercentile(percentile), Is.GreaterThanOrEqualTo(exact), "reports the bucket's upper end");
        }
        Assert.That(histogram.Max, Is.EqualTo(values[^1]));
        Assert.That(histogram.Min, Is.EqualTo(values[0]));
    }

    [Test]
    public void ValuesPastAnHourCountAsAnHour()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(long.MaxValue);
        histogram.Record(-5);
        Assert.That(histogram.Count, Is.EqualTo(2));
        Assert.That(histogram.Min, Is.Zero);
        Assert.That(histogram.Max, Is.EqualTo(System.Diagnostics.Stopwatch.Frequency * 3600));
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
