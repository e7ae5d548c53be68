using System;
using System.Numerics;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// The bucket layout of the per-command latency histograms (latency-tracking: INFO latencystats, LATENCY HISTOGRAM).
/// Durations in nanoseconds fall in buckets 16 to a power of two (about 6% wide), so a percentile is reported within 6%
/// while a histogram stays a small array of counts that a session adds to without synchronization.
/// </summary>
internal static class LatencyHistogram
{
    private const int SubBucketBits = 4;
    private const int SubBuckets = 1 << SubBucketBits;
    // Below 2 * SubBuckets nanoseconds every value has its own bucket.
    private const int ExactBelow = 2 * SubBuckets;
    private const int ExactBits = 5;
    // Durations past 2^40 ns (about 18 minutes) count in the last bucket.
    private const int MaxBit = 40;

    /// <summary>Buckets per histogram.</summary>
    public const int BucketCount = ExactBelow + (MaxBit - ExactBits + 1) * SubBuckets;

    /// <summary>The bucket of a duration of <paramref name="nanoseconds"/>.</summary>
    public static int BucketOf(long nanoseconds)
    {
        if (nanoseconds < ExactBelow)
            return nanoseconds <= 0 ? 0 : (int)nanoseconds;
        int bit = 63 - BitOperations.LeadingZeroCount((ulong)nanoseconds);
        if (bit > MaxBit)
            return BucketCount - 1;
        int sub = (int)(nanoseconds >> (bit - SubBucketBits)) & (SubBuckets - 1);
        return ExactBelow + (bit - ExactBits) * SubBuckets + sub;
    }

    /// <summary>The smallest duration (nanoseconds) of bucket <paramref name="bucket"/>.</summary>
    public static long LowestOf(int bucket)
    {
        if (bucket < ExactBelow)
            return bucket;
        int bit = ExactBits + (bucket - ExactBelow) / SubBuckets;
        int sub = (bucket - ExactBelow) % SubBuckets;
        return (long)(SubBuckets + sub) << (bit - SubBucketBits);
    }

    /// <summary>The largest duration (nanoseconds) of bucket <paramref name="bucket"/>.</summary>
    public static long HighestOf(int bucket)
    {
        if (bucket < ExactBelow)
            return bucket;
        int bit = ExactBits + (bucket - ExactBelow) / SubBuckets;
        return LowestOf(bucket) + (1L << (bit - SubBucketBits)) - 1;
    }

    /// <summary>Stopwatch ticks in nanoseconds.</summary>
    public static long TicksToNanoseconds(long ticks)
    {
        long frequency = System.Diagnostics.Stopwatch.Frequency;
        return frequency == 1_000_000_000 ? ticks : (long)(ticks * (1_000_000_000.0 / frequency));
    }

    /// <summary>Adds <paramref name="count"/> durations of <paramref name="ticks"/> each to <paramref name="histogram"/> (one thread's).</summary>
    public static void Add(long[] histogram, long ticks, long count)
        => histogram[BucketOf(TicksToNanoseconds(ticks))] += count;

    /// <summary>As <see cref="Add"/>, for a histogram that several threads add to.</summary>
    public static void AddShared(long[] histogram, long ticks, long count)
        => Interlocked.Add(ref histogram[BucketOf(TicksToNanoseconds(ticks))], count);

    /// <summary>Adds <paramref name="source"/>'s counts into <paramref name="total"/>; returns how many it held.</summary>
    public static long AddInto(long[] total, long[]? source)
    {
        if (source == null)
            return 0;
        long count = 0;
        for (int i = 0; i < total.Length; i++)
        {
            long value = Volatile.Read(ref source[i]);
            total[i] += value;
            count += value;
        }
        return count;
    }

    /// <summary>
    /// The duration in microseconds below which <paramref name="percentile"/>% of <paramref name="total"/> durations fall:
    /// the highest value of the bucket that holds that rank.
    /// </summary>
    public static double PercentileMicroseconds(ReadOnlySpan<long> histogram, long total, double percentile)
    {
        if (total == 0)
            return 0;
        long rank = Math.Max(1, (long)Math.Ceiling(percentile / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < histogram.Length; i++)
        {
            seen += histogram[i];
            if (seen >= rank)
                return HighestOf(i) / 1000.0;
        }
        return HighestOf(histogram.Length - 1) / 1000.0;
    }
}
