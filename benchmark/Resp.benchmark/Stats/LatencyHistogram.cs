using System;
using System.Numerics;

namespace Resp.benchmark;

/// <summary>
/// A log-bucketed histogram of non-negative values in the style of HdrHistogram: values below 256
/// are counted exactly, and every power of two above is split into 128 sub-buckets, so a reported
/// percentile is within 1/128 (0.8%) of the true value. Recording is an index computation and an
/// increment, with no allocation; one instance per thread, merged at the end.
/// </summary>
public sealed class LatencyHistogram
{
    private const int SubBucketBits = 7;
    private const int SubBuckets = 1 << SubBucketBits;
    private const int BucketCount = ((64 - SubBucketBits) * SubBuckets) + SubBuckets;

    private readonly long[] _counts = new long[BucketCount];

    /// <summary>Number of recorded values.</summary>
    public long Count { get; private set; }

    /// <summary>Smallest recorded value (0 if none).</summary>
    public long Min { get; private set; } = long.MaxValue;

    /// <summary>Largest recorded value (0 if none).</summary>
    public long Max { get; private set; }

    /// <summary>Sum of all recorded values.</summary>
    public double Sum { get; private set; }

    /// <summary>Average of the recorded values (0 if none).</summary>
    public double Mean => Count == 0 ? 0 : Sum / Count;

    /// <summary>Records <paramref name="value"/> (negative values count as 0).</summary>
    public void Record(long value)
    {
        if (value < 0)
            value = 0;
        _counts[BucketOf(value)]++;
        Count++;
        Sum += value;
        if (value > Max)
            Max = value;
        if (value < Min)
            Min = value;
    }

    /// <summary>Adds the counts of <paramref name="other"/> to this histogram.</summary>
    public void Add(LatencyHistogram other)
    {
        for (int i = 0; i < BucketCount; i++)
            _counts[i] += other._counts[i];
        if (other.Count > 0)
        {
            Max = Math.Max(Max, other.Max);
            Min = Math.Min(Min, other.Min);
        }
        Count += other.Count;
        Sum += other.Sum;
    }

    /// <summary>Forgets all values.</summary>
    public void Clear()
    {
        Array.Clear(_counts);
        Count = 0;
        Sum = 0;
        Max = 0;
        Min = long.MaxValue;
    }

    /// <summary>
    /// The value at or below which <paramref name="percentile"/> percent of the values lie: the
    /// upper end of the bucket holding that rank, capped at the largest value recorded.
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        if (Count == 0)
            return 0;
        long rank = (long)Math.Ceiling(Math.Clamp(percentile, 0, 100) / 100.0 * Count);
        rank = Math.Clamp(rank, 1, Count);
        long seen = 0;
        for (int bucket = 0; bucket < BucketCount; bucket++)
        {
            seen += _counts[bucket];
            if (seen >= rank)
                return Math.Max(Math.Min(UpperBound(bucket), Max), Min);
        }
        return Max;
    }

    /// <summary>The bucket <paramref name="value"/> falls into.</summary>
    public static int BucketOf(long value)
    {
        if (value < 2 * SubBuckets)
            return (int)value;
        int highestBit = 63 - BitOperations.LeadingZeroCount((ulong)value);
        int shift = highestBit - SubBucketBits;
        return (shift * SubBuckets) + (int)(value >> shift);
    }

    /// <summary>The largest value that falls into <paramref name="bucket"/>.</summary>
    public static long UpperBound(int bucket)
    {
        if (bucket < 2 * SubBuckets)
            return bucket;
        int shift = (bucket / SubBuckets) - 1;
        long top = (bucket % SubBuckets) + SubBuckets;
        return ((top + 1) << shift) - 1;
    }
}
