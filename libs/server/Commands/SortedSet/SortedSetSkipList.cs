using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>One member of a sorted set: its bytes, its score and its skip-list links.</summary>
internal sealed class SortedSetNode
{
    /// <summary>The member's bytes; never changed once the node exists (clones share them).</summary>
    public readonly byte[] Member;

    /// <summary>The score; changed in place only while the node keeps its position.</summary>
    public double Score;

    /// <summary>The previous node in (score, member) order; null for the first.</summary>
    public SortedSetNode? Backward;

    /// <summary>Per level: the next node at that level and how many level-0 steps that link spans.</summary>
    public readonly SkipLevel[] Levels;

    public SortedSetNode(byte[] member, double score, int level)
    {
        Member = member;
        Score = score;
        Levels = new SkipLevel[level];
    }

    /// <summary>The next node in (score, member) order.</summary>
    public SortedSetNode? Next => Levels[0].Forward;
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

    private readonly SortedSetNode _header = new(Array.Empty<byte>(), 0, MaxLevel);
    private readonly SortedSetNode?[] _update = new SortedSetNode?[MaxLevel];
    private readonly long[] _rank = new long[MaxLevel];
    private SortedSetNode? _tail;
    private int _level = 1;
    private long _length;

    /// <summary>Number of nodes.</summary>
    public long Length => _length;

    /// <summary>The lowest node, or null when empty.</summary>
    public SortedSetNode? First => _header.Levels[0].Forward;

    /// <summary>The highest node, or null when empty.</summary>
    public SortedSetNode? Last => _tail;

    /// <summary>A level for a new node: 1, then each further level with probability 1/4.</summary>
    public static int RandomLevel()
    {
        int level = 1;
        while (level < MaxLevel && (Random.Shared.Next() & 0xFFFF) < 0xFFFF / 4)
            level++;
        return level;
    }

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
            while (x.Levels[i].Forward is { } next && Compare(next.Score, next.Member, node.Score, node.Member) < 0)
            {
                _rank[i] += x.Levels[i].Span;
                x = next;
            }
            _update[i] = x;
        }
        int level = node.Levels.Length;
        if (level > _level)
        {
            for (int i = _level; i < level; i++)
            {
                _rank[i] = 0;
                _update[i] = _header;
                _header.Levels[i].Span = _length;
            }
            _level = level;
        }
        for (int i = 0; i < level; i++)
        {
            var previous = _update[i]!;
            node.Levels[i].Forward = previous.Levels[i].Forward;
            previous.Levels[i].Forward = node;
            node.Levels[i].Span = previous.Levels[i].Span - (_rank[0] - _rank[i]);
            previous.Levels[i].Span = _rank[0] - _rank[i] + 1;
        }
        for (int i = level; i < _level; i++)
            _update[i]!.Levels[i].Span++;
        node.Backward = _update[0] == _header ? null : _update[0];
        if (node.Levels[0].Forward is { } following)
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
        for (int i = 0; i < node.Levels.Length; i++)
            node.Levels[i] = default;
        Insert(node);
    }

    /// <summary>Fills the scratch path: per level, the last node before (score, member).</summary>
    private void FindPredecessors(double score, ReadOnlySpan<byte> member)
    {
        var x = _header;
        for (int i = _level - 1; i >= 0; i--)
        {
            while (x.Levels[i].Forward is { } next && Compare(next.Score, next.Member, score, member) < 0)
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
            if (previous.Levels[i].Forward == node)
            {
                previous.Levels[i].Span += node.Levels[i].Span - 1;
                previous.Levels[i].Forward = node.Levels[i].Forward;
            }
            else
            {
                previous.Levels[i].Span--;
            }
        }
        if (node.Levels[0].Forward is { } following)
            following.Backward = node.Backward;
        else
            _tail = node.Backward;
        while (_level > 1 && _header.Levels[_level - 1].Forward == null)
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
            while (x.Levels[i].Forward is { } next && Compare(next.Score, next.Member, score, member) <= 0)
            {
                rank += x.Levels[i].Span;
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
            while (x.Levels[i].Forward is { } next && traversed + x.Levels[i].Span <= rank)
            {
                traversed += x.Levels[i].Span;
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
            while (x.Levels[i].Forward is { } next && !range.AboveMin(next))
            {
                traversed += x.Levels[i].Span;
                x = next;
            }
        }
        var first = x.Levels[0].Forward;
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
            while (x.Levels[i].Forward is { } next && range.BelowMax(next))
            {
                traversed += x.Levels[i].Span;
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
            while (x.Levels[i].Forward is { } next && !range.AboveMin(next))
                x = next;
            _update[i] = x;
        }
        var node = x.Levels[0].Forward;
        while (node != null && range.BelowMax(node))
        {
            var following = node.Levels[0].Forward;
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
            while (x.Levels[i].Forward is { } next && traversed + x.Levels[i].Span < start)
            {
                traversed += x.Levels[i].Span;
                x = next;
            }
            _update[i] = x;
        }
        traversed++;
        var node = x.Levels[0].Forward;
        while (node != null && traversed <= end)
        {
            var following = node.Levels[0].Forward;
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
        int level = node.Levels.Length;
        if (level > _level)
            _level = level;
        for (int i = 0; i < level; i++)
        {
            var previous = lastAtLevel[i] ?? _header;
            previous.Levels[i].Forward = node;
            previous.Levels[i].Span = rank - rankAtLevel[i];
            lastAtLevel[i] = node;
            rankAtLevel[i] = rank;
        }
        node.Backward = _tail;
        _tail = node;
        _length = rank;
        // Links to the end span the nodes after their origin, as Insert keeps them.
        for (int i = 0; i < _level; i++)
            (lastAtLevel[i] ?? _header).Levels[i].Span = _length - rankAtLevel[i];
    }

    /// <summary>Scratch arrays for <see cref="Append"/>.</summary>
    public static (SortedSetNode?[] LastAtLevel, long[] RankAtLevel) NewAppendState()
        => (new SortedSetNode?[MaxLevel], new long[MaxLevel]);
}
