using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>
/// One member of a sorted set: its bytes, its score, its skip-list links and its link in the set's
/// member hash index. Three nodes in four have only level 0, so that link is a field and only taller
/// nodes allocate an array for the levels above it.
/// </summary>
internal sealed class SortedSetNode
{
    /// <summary>The member's bytes; never changed once the node exists (clones share them).</summary>
    public readonly byte[] Member;

    /// <summary>The hash of <see cref="Member"/> (<see cref="MemberHash"/>); its low bits choose the index bucket.</summary>
    public readonly int Hash;

    /// <summary>The score; changed in place only while the node keeps its position.</summary>
    public double Score;

    /// <summary>The previous node in (score, member) order; null for the first.</summary>
    public SortedSetNode? Backward;

    /// <summary>The next node in the same bucket of the member index.</summary>
    public SortedSetNode? NextInBucket;

    /// <summary>The level-0 link: the next node and its span (1, or 0 at the end).</summary>
    public SkipLevel Level0;

    /// <summary>Links at levels 1 and up; null for a node of height 1.</summary>
    private readonly SkipLevel[]? _upper;

    public SortedSetNode(byte[] member, int hash, double score, int height)
    {
        Member = member;
        Hash = hash;
        Score = score;
        if (height > 1)
            _upper = new SkipLevel[height - 1];
    }

    /// <summary>How many levels the node is linked at.</summary>
    public int Height => _upper == null ? 1 : _upper.Length + 1;

    /// <summary>The link at <paramref name="level"/> (below <see cref="Height"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref SkipLevel Level(int level)
    {
        if (level == 0)
            return ref Level0;
        return ref _upper![level - 1];
    }

    /// <summary>The next node in (score, member) order.</summary>
    public SortedSetNode? Next => Level0.Forward;
}

/// <summary>A forward link of a skip-list node.</summary>
internal struct SkipLevel
{
    public SortedSetNode? Forward;

    /// <summary>Number of level-0 steps from the node to <see cref="Forward"/> (to the end when null).</summary>
    public long Span;
}

/// <summary>A range of a sorted set walked in skip-list order (by score, or by member for equal scores).</summary>
internal interface ISortedSetRange
{
    /// <summary>Whether no value can be in the range (min above max).</summary>
    bool IsEmpty { get; }

    /// <summary>Whether <paramref name="node"/> is not below the range's lower bound.</summary>
    bool AboveMin(SortedSetNode node);

    /// <summary>Whether <paramref name="node"/> is not above the range's upper bound.</summary>
    bool BelowMax(SortedSetNode node);
}

/// <summary>
/// The order of a sorted set: a skip list by (score, member bytewise) whose links count the nodes they
/// skip, so insert, delete, rank and the node at a rank are O(log n). Ranks are 1-based here. Only
/// write paths use the scratch arrays, and writes run exclusively, so concurrent readers are safe.
/// </summary>
internal sealed class SortedSetSkipList
{
    private const int MaxLevel = 32;

    private readonly SortedSetNode _header = new(Array.Empty<byte>(), 0, 0, MaxLevel);
    private readonly SortedSetNode?[] _update = new SortedSetNode?[MaxLevel];
    private readonly long[] _rank = new long[MaxLevel];
    private SortedSetNode? _tail;
    private int _level = 1;
    private long _length;

    /// <summary>Number of nodes.</summary>
    public long Length => _length;

    /// <summary>The lowest node, or null when empty.</summary>
    public SortedSetNode? First => _header.Level0.Forward;

    /// <summary>The highest node, or null when empty.</summary>
    public SortedSetNode? Last => _tail;

    /// <summary>The state of <see cref="NextHeight"/>'s xorshift generator (never 0); only write paths use it.</summary>
    private ulong _random = (ulong)Random.Shared.NextInt64() | 1;

    /// <summary>A height for a new node of this list: 1, then each further level with probability 1/4.</summary>
    public int NextHeight()
    {
        ulong x = _random;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        _random = x;
        return HeightFor(x * 0x2545F4914F6CDD1DUL);
    }

    /// <summary>A height for a node of a list being built elsewhere (clones, deserialization, new sets).</summary>
    public static int RandomHeight() => HeightFor((ulong)Random.Shared.NextInt64());

    /// <summary>Each pair of low zero bits is one more level: probability 1/4 per level, capped at <see cref="MaxLevel"/>.</summary>
    private static int HeightFor(ulong random) => Math.Min(1 + (BitOperations.TrailingZeroCount(random) >> 1), MaxLevel);

    /// <summary>Orders (score, member) pairs: by score, then by member bytes.</summary>
    public static int Compare(double score1, ReadOnlySpan<byte> member1, double score2, ReadOnlySpan<byte> member2)
    {
        if (score1 < score2)
            return -1;
        if (score1 > score2)
            return 1;
        return member1.SequenceCompareTo(member2);
    }

    /// <summary>Links <paramref name="node"/> (not yet in the list) at its place.</summary>
    public void Insert(SortedSetNode node)
    {
        var x = _header;
        for (int i = _level - 1; i >= 0; i--)
        {
            _rank[i] = i == _level - 1 ? 0 : _rank[i + 1];
            while (x.Level(i).Forward is { } next && Compare(next.Score, next.Member, node.Score, node.Member) < 0)
            {
                _rank[i] += x.Level(i).Span;
                x = next;
            }
            _update[i] = x;
        }
        int level = node.Height;
        if (level > _level)
        {
            for (int i = _level; i < level; i++)
            {
                _rank[i] = 0;
                _update[i] = _header;
                _header.Level(i).Span = _length;
            }
            _level = level;
        }
        for (int i = 0; i < level; i++)
        {
            var previous = _update[i]!;
            node.Level(i).Forward = previous.Level(i).Forward;
            previous.Level(i).Forward = node;
            node.Level(i).Span = previous.Level(i).Span - (_rank[0] - _rank[i]);
            previous.Level(i).Span = _rank[0] - _rank[i] + 1;
        }
        for (int i = level; i < _level; i++)
            _update[i]!.Level(i).Span++;
        node.Backward = _update[0] == _header ? null : _update[0];
        if (node.Level0.Forward is { } following)
            following.Backward = node;
        else
            _tail = node;
        _length++;
        Array.Clear(_update);
    }

    /// <summary>Unlinks <paramref name="node"/>, which is in the list.</summary>
    public void Delete(SortedSetNode node)
    {
        FindPredecessors(node.Score, node.Member);
        Unlink(node);
        Array.Clear(_update);
    }

    /// <summary>Moves <paramref name="node"/> to the place of <paramref name="score"/> (in place when its neighbours allow).</summary>
    public void UpdateScore(SortedSetNode node, double score)
    {
        if ((node.Backward == null || node.Backward.Score < score) && (node.Next == null || node.Next.Score > score))
        {
            node.Score = score;
            return;
        }
        Delete(node);
        node.Score = score;
        for (int i = 0; i < node.Height; i++)
            node.Level(i) = default;
        Insert(node);
    }

    /// <summary>Fills the scratch path: per level, the last node before (score, member).</summary>
    private void FindPredecessors(double score, ReadOnlySpan<byte> member)
    {
        var x = _header;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && Compare(next.Score, next.Member, score, member) < 0)
                x = next;
            _update[i] = x;
        }
    }

    /// <summary>Unlinks <paramref name="node"/> given the scratch path to it.</summary>
    private void Unlink(SortedSetNode node)
    {
        for (int i = 0; i < _level; i++)
        {
            var previous = _update[i]!;
            if (previous.Level(i).Forward == node)
            {
                previous.Level(i).Span += node.Level(i).Span - 1;
                previous.Level(i).Forward = node.Level(i).Forward;
            }
            else
            {
                previous.Level(i).Span--;
            }
        }
        if (node.Level0.Forward is { } following)
            following.Backward = node.Backward;
        else
            _tail = node.Backward;
        while (_level > 1 && _header.Level(_level - 1).Forward == null)
            _level--;
        _length--;
    }

    /// <summary>The 1-based rank of (score, member), or 0 if it is not in the list.</summary>
    public long GetRank(double score, ReadOnlySpan<byte> member)
    {
        var x = _header;
        long rank = 0;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && Compare(next.Score, next.Member, score, member) <= 0)
            {
                rank += x.Level(i).Span;
                x = next;
            }
            if (x != _header && x.Score == score && x.Member.AsSpan().SequenceEqual(member))
                return rank;
        }
        return 0;
    }

    /// <summary>The node at 1-based <paramref name="rank"/>, or null when out of range.</summary>
    public SortedSetNode? GetByRank(long rank)
    {
        if (rank < 1 || rank > _length)
            return null;
        var x = _header;
        long traversed = 0;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && traversed + x.Level(i).Span <= rank)
            {
                traversed += x.Level(i).Span;
                x = next;
            }
            if (traversed == rank)
                return x;
        }
        return null;
    }

    /// <summary>Whether some node may be in <paramref name="range"/> (cheap check of both ends).</summary>
    private bool MayIntersect<TRange>(in TRange range) where TRange : struct, ISortedSetRange
        => !range.IsEmpty && _tail != null && range.AboveMin(_tail) && range.BelowMax(First!);

    /// <summary>The lowest node in <paramref name="range"/> and its 1-based rank, or null.</summary>
    public SortedSetNode? FirstInRange<TRange>(in TRange range, out long rank) where TRange : struct, ISortedSetRange
    {
        rank = 0;
        if (!MayIntersect(in range))
            return null;
        var x = _header;
        long traversed = 0;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && !range.AboveMin(next))
            {
                traversed += x.Level(i).Span;
                x = next;
            }
        }
        var first = x.Level0.Forward;
        if (first == null || !range.BelowMax(first))
            return null;
        rank = traversed + 1;
        return first;
    }

    /// <summary>The highest node in <paramref name="range"/> and its 1-based rank, or null.</summary>
    public SortedSetNode? LastInRange<TRange>(in TRange range, out long rank) where TRange : struct, ISortedSetRange
    {
        rank = 0;
        if (!MayIntersect(in range))
            return null;
        var x = _header;
        long traversed = 0;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && range.BelowMax(next))
            {
                traversed += x.Level(i).Span;
                x = next;
            }
        }
        if (x == _header || !range.AboveMin(x))
            return null;
        rank = traversed;
        return x;
    }

    /// <summary>Unlinks every node in <paramref name="range"/>, adding them to <paramref name="removed"/>.</summary>
    public void DeleteRange<TRange>(in TRange range, List<SortedSetNode> removed) where TRange : struct, ISortedSetRange
    {
        if (!MayIntersect(in range))
            return;
        var x = _header;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && !range.AboveMin(next))
                x = next;
            _update[i] = x;
        }
        var node = x.Level0.Forward;
        while (node != null && range.BelowMax(node))
        {
            var following = node.Level0.Forward;
            Unlink(node);
            removed.Add(node);
            node = following;
        }
        Array.Clear(_update);
    }

    /// <summary>Unlinks the nodes of 1-based ranks <paramref name="start"/>..<paramref name="end"/>, adding them to <paramref name="removed"/>.</summary>
    public void DeleteRangeByRank(long start, long end, List<SortedSetNode> removed)
    {
        var x = _header;
        long traversed = 0;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Level(i).Forward is { } next && traversed + x.Level(i).Span < start)
            {
                traversed += x.Level(i).Span;
                x = next;
            }
            _update[i] = x;
        }
        traversed++;
        var node = x.Level0.Forward;
        while (node != null && traversed <= end)
        {
            var following = node.Level0.Forward;
            Unlink(node);
            removed.Add(node);
            node = following;
            traversed++;
        }
        Array.Clear(_update);
    }

    /// <summary>
    /// Appends <paramref name="node"/>, which must sort after every node, in O(1) amortized given the
    /// last node of each level so far (<paramref name="lastAtLevel"/>, <paramref name="rankAtLevel"/>,
    /// both of <see cref="MaxLevel"/> entries, initially empty): builds clones and deserialized sets.
    /// </summary>
    public void Append(SortedSetNode node, SortedSetNode?[] lastAtLevel, long[] rankAtLevel)
    {
        long rank = _length + 1;
        int level = node.Height;
        if (level > _level)
            _level = level;
        for (int i = 0; i < level; i++)
        {
            var previous = lastAtLevel[i] ?? _header;
            previous.Level(i).Forward = node;
            previous.Level(i).Span = rank - rankAtLevel[i];
            lastAtLevel[i] = node;
            rankAtLevel[i] = rank;
        }
        node.Backward = _tail;
        _tail = node;
        _length = rank;
        // Links to the end span the nodes after their origin, as Insert keeps them.
        for (int i = 0; i < _level; i++)
            (lastAtLevel[i] ?? _header).Level(i).Span = _length - rankAtLevel[i];
    }

    /// <summary>Scratch arrays for <see cref="Append"/>.</summary>
    public static (SortedSetNode?[] LastAtLevel, long[] RankAtLevel) NewAppendState()
        => (new SortedSetNode?[MaxLevel], new long[MaxLevel]);
}
