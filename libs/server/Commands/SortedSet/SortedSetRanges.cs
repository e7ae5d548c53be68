using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>A score interval as ZRANGEBYSCORE takes it: <c>(</c> makes a bound exclusive; <c>-inf</c>/<c>+inf</c> allowed.</summary>
internal readonly struct ScoreRange : ISortedSetRange
{
    public readonly double Min;
    public readonly double Max;
    public readonly bool MinExclusive;
    public readonly bool MaxExclusive;

    public ScoreRange(double min, bool minExclusive, double max, bool maxExclusive)
    {
        Min = min;
        Max = max;
        MinExclusive = minExclusive;
        MaxExclusive = maxExclusive;
    }

    /// <summary>Parses min and max; false when either is not a float (NaN included).</summary>
    public static bool TryParse(ReadOnlySpan<byte> min, ReadOnlySpan<byte> max, out ScoreRange range)
    {
        range = default;
        if (!TryParseBound(min, out double minValue, out bool minExclusive) || !TryParseBound(max, out double maxValue, out bool maxExclusive))
            return false;
        range = new ScoreRange(minValue, minExclusive, maxValue, maxExclusive);
        return true;
    }

    private static bool TryParseBound(ReadOnlySpan<byte> text, out double value, out bool exclusive)
    {
        exclusive = text.Length > 0 && text[0] == '(';
        if (exclusive)
            text = text.Slice(1);
        return SortedSetScores.TryParse(text, out value);
    }

    public bool IsEmpty => Min > Max || (Min == Max && (MinExclusive || MaxExclusive));

    public bool Contains(double score) => AboveMin(score) && BelowMax(score);

    public bool AboveMin(double score) => MinExclusive ? score > Min : score >= Min;

    public bool BelowMax(double score) => MaxExclusive ? score < Max : score <= Max;

    public bool AboveMin(double score, ReadOnlySpan<byte> member) => AboveMin(score);

    public bool BelowMax(double score, ReadOnlySpan<byte> member) => BelowMax(score);

    public bool AboveMin(SortedSetNode node) => AboveMin(node.Score);

    public bool BelowMax(SortedSetNode node) => BelowMax(node.Score);
}

/// <summary>
/// A member interval as ZRANGEBYLEX takes it: <c>[x</c> inclusive, <c>(x</c> exclusive, <c>-</c> and
/// <c>+</c> the lowest and highest strings. Members compare bytewise (meaningful when scores are equal).
/// </summary>
internal readonly struct LexRange : ISortedSetRange
{
    private enum BoundKind : byte { Value, Lowest, Highest }

    private readonly byte[] _min;
    private readonly byte[] _max;
    private readonly BoundKind _minKind;
    private readonly BoundKind _maxKind;
    private readonly bool _minExclusive;
    private readonly bool _maxExclusive;

    private LexRange(byte[] min, BoundKind minKind, bool minExclusive, byte[] max, BoundKind maxKind, bool maxExclusive)
    {
        _min = min;
        _max = max;
        _minKind = minKind;
        _maxKind = maxKind;
        _minExclusive = minExclusive;
        _maxExclusive = maxExclusive;
    }

    /// <summary>Parses min and max; false unless each is <c>-</c>, <c>+</c>, or starts with <c>[</c> or <c>(</c>.</summary>
    public static bool TryParse(ReadOnlySpan<byte> min, ReadOnlySpan<byte> max, out LexRange range)
    {
        range = default;
        if (!TryParseBound(min, out var minValue, out var minKind, out bool minExclusive)
            || !TryParseBound(max, out var maxValue, out var maxKind, out bool maxExclusive))
            return false;
        range = new LexRange(minValue, minKind, minExclusive, maxValue, maxKind, maxExclusive);
        return true;
    }

    private static bool TryParseBound(ReadOnlySpan<byte> text, out byte[] value, out BoundKind kind, out bool exclusive)
    {
        value = Array.Empty<byte>();
        kind = BoundKind.Value;
        exclusive = false;
        if (text.Length == 0)
            return false;
        switch (text[0])
        {
            case (byte)'+':
                if (text.Length != 1)
                    return false;
                kind = BoundKind.Highest;
                return true;
            case (byte)'-':
                if (text.Length != 1)
                    return false;
                kind = BoundKind.Lowest;
                return true;
            case (byte)'(':
                exclusive = true;
                value = text.Slice(1).ToArray();
                return true;
            case (byte)'[':
                value = text.Slice(1).ToArray();
                return true;
            default:
                return false;
        }
    }

    /// <summary>Compares a bound with a member: Lowest is below every member, Highest above.</summary>
    private static int CompareBound(BoundKind kind, byte[] bound, ReadOnlySpan<byte> member) => kind switch
    {
        BoundKind.Lowest => -1,
        BoundKind.Highest => 1,
        _ => bound.AsSpan().SequenceCompareTo(member),
    };

    public bool IsEmpty
    {
        get
        {
            if (_minKind == BoundKind.Highest || _maxKind == BoundKind.Lowest)
                return true;
            if (_minKind == BoundKind.Lowest || _maxKind == BoundKind.Highest)
                return false;
            int c = _min.AsSpan().SequenceCompareTo(_max);
            return c > 0 || (c == 0 && (_minExclusive || _maxExclusive));
        }
    }

    public bool AboveMin(ReadOnlySpan<byte> member)
    {
        int c = CompareBound(_minKind, _min, member);
        return _minExclusive ? c < 0 : c <= 0;
    }

    public bool BelowMax(ReadOnlySpan<byte> member)
    {
        int c = CompareBound(_maxKind, _max, member);
        return _maxExclusive ? c > 0 : c >= 0;
    }

    public bool AboveMin(double score, ReadOnlySpan<byte> member) => AboveMin(member);

    public bool BelowMax(double score, ReadOnlySpan<byte> member) => BelowMax(member);

    public bool AboveMin(SortedSetNode node) => AboveMin(node.Member);

    public bool BelowMax(SortedSetNode node) => BelowMax(node.Member);
}
