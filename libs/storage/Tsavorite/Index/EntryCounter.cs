using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The number of hash entries in use, counted in stripes so that threads inserting new keys do not
/// all increment one cache line. An entry is counted in the stripe of its tag, when it is created and
/// when it is freed alike, so every stripe is exact on its own and the sum is the total.
/// </summary>
/// <remarks>
/// Growth is checked per stripe: keys spread evenly over tags, so a stripe passing its share of the
/// growth threshold means the total is near it, and only then is the total summed (see
/// <see cref="HashIndex"/>). The per-operation cost is one interlocked add on a line few others touch.
/// </remarks>
internal sealed class EntryCounter
{
    private const int StripeBits = 6;
    private const int Stripes = 1 << StripeBits;

    // Eight longs (64 bytes) apart, so no two stripes share a cache line.
    private const int Spacing = 8;

    private readonly long[] _counts = new long[Stripes * Spacing];
    private long _stripeLimit = long.MaxValue;

    /// <summary>Sets the total at which <see cref="Increment"/> starts reporting (long.MaxValue: never).</summary>
    public void SetLimit(long total) => Volatile.Write(ref _stripeLimit, total == long.MaxValue ? long.MaxValue : (total / Stripes) + 1);

    /// <summary>Counts a new entry for <paramref name="tag"/>; true when its stripe passed its share of the limit.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Increment(int tag) => Interlocked.Increment(ref _counts[StripeOf(tag)]) > Volatile.Read(ref _stripeLimit);

    /// <summary>Counts a freed entry for <paramref name="tag"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Decrement(int tag) => Interlocked.Decrement(ref _counts[StripeOf(tag)]);

    /// <summary>Adds <paramref name="delta"/> entries for <paramref name="tag"/> without checking the limit (a resize moving entries).</summary>
    public void Add(int tag, long delta) => Interlocked.Add(ref _counts[StripeOf(tag)], delta);

    /// <summary>The total number of entries in use.</summary>
    public long Total
    {
        get
        {
            long total = 0;
            for (int i = 0; i < Stripes; i++)
                total += Volatile.Read(ref _counts[i * Spacing]);
            return total;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int StripeOf(int tag) => (tag & (Stripes - 1)) * Spacing;
}
