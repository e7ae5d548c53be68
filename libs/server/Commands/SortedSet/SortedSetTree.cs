using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>One member of a sorted set: its bytes, its score, its neighbours in order and its link in the member index.</summary>
internal sealed class SortedSetNode
{
    /// <summary>The member's bytes; never changed once the node exists (clones share them).</summary>
    public readonly byte[] Member;

    /// <summary>The hash of <see cref="Member"/> (<see cref="MemberHash"/>); its low bits choose the index bucket.</summary>
    public readonly int Hash;

    /// <summary>The score; changed only while the node is out of the tree, or in place when it keeps its position.</summary>
    public double Score;

    /// <summary>The previous node in (score, member) order; null for the first.</summary>
    public SortedSetNode? Backward;

    /// <summary>The next node in (score, member) order; null for the last.</summary>
    public SortedSetNode? Next;

    /// <summary>The next node in the same bucket of the member index.</summary>
    public SortedSetNode? NextInBucket;

    public SortedSetNode(byte[] member, int hash, double score)
    {
        Member = member;
        Hash = hash;
        Score = score;
    }
}

/// <summary>A range of a sorted set in (score, member) order: by score, or by member for equal scores.</summary>
internal interface ISortedSetRange
{
    /// <summary>Whether no value can be in the range (min above max).</summary>
    bool IsEmpty { get; }

    /// <summary>Whether (<paramref name="score"/>, <paramref name="member"/>) is not below the range's lower bound.</summary>
    bool AboveMin(double score, ReadOnlySpan<byte> member);

    /// <summary>Whether (<paramref name="score"/>, <paramref name="member"/>) is not above the range's upper bound.</summary>
    bool BelowMax(double score, ReadOnlySpan<byte> member);

    /// <summary>Whether <paramref name="node"/> is not below the range's lower bound.</summary>
    bool AboveMin(SortedSetNode node);

    /// <summary>Whether <paramref name="node"/> is not above the range's upper bound.</summary>
    bool BelowMax(SortedSetNode node);
}

/// <summary>
/// The order of a sorted set: a B+tree by (score, member bytewise) whose inner nodes count the members
/// below each child, so insert, delete, rank and the member at a rank are O(log n). Leaves keep their
/// members' scores in a contiguous array, so a search reads a few cache lines per level instead of one
/// node per step as a skip list does; nodes are also chained in order (<see cref="SortedSetNode.Next"/>,
/// <see cref="SortedSetNode.Backward"/>) for walks. Ranks are 1-based here. Only write paths use the
/// scratch path arrays, and writes run exclusively, so concurrent readers are safe.
/// </summary>
internal sealed class SortedSetTree
{
    /// <summary>Most entries of a leaf or an inner node.</summary>
    private const int Capacity = 64;

    /// <summary>A leaf with fewer entries than this after a removal merges with a sibling when they fit in one.</summary>
    private const int MergeBelow = Capacity / 4;

    /// <summary>Depth bound: with at least two children per inner node, far beyond any set's size.</summary>
    private const int MaxDepth = 64;

    private abstract class TreeNode
    {
        public int Count;
    }

    /// <summary>Members in order with a copy of their scores; arrays grow up to <see cref="Capacity"/> (small sets stay small).</summary>
    private sealed class Leaf : TreeNode
    {
        public double[] Scores;
        public SortedSetNode?[] Items;

        public Leaf(int capacity)
        {
            Scores = new double[capacity];
            Items = new SortedSetNode?[capacity];
        }
    }

    /// <summary>
    /// Children with their member counts. Key i (i ≥ 1) separates child i-1 (all below it) from child i
    /// (all at or above it); it is a child's least member when set, and stays a valid separator after
    /// that member leaves.
    /// </summary>
    private sealed class Inner : TreeNode
    {
        public readonly TreeNode?[] Children = new TreeNode?[Capacity];
        public readonly long[] Sizes = new long[Capacity];
        public readonly double[] KeyScores = new double[Capacity];
        public readonly byte[]?[] KeyMembers = new byte[]?[Capacity];
    }

    private TreeNode _root = new Leaf(4);
    private SortedSetNode? _first;
    private SortedSetNode? _last;
    private long _length;

    private readonly Inner?[] _pathNodes = new Inner?[MaxDepth];
    private readonly int[] _pathIndexes = new int[MaxDepth];

    /// <summary>Number of members.</summary>
    public long Length => _length;

    /// <summary>The lowest node, or null when empty.</summary>
    public SortedSetNode? First => _first;

    /// <summary>The highest node, or null when empty.</summary>
    public SortedSetNode? Last => _last;

    /// <summary>Orders (score, member) pairs: by score, then by member bytes.</summary>
    public static int Compare(double score1, ReadOnlySpan<byte> member1, double score2, ReadOnlySpan<byte> member2)
    {
        if (score1 < score2)
            return -1;
        if (score1 > score2)
            return 1;
        return member1.SequenceCompareTo(member2);
    }

    /// <summary>The child of <paramref name="inner"/> whose keys include (score, member).</summary>
    private static int ChildFor(Inner inner, double score, ReadOnlySpan<byte> member)
    {
        // The first key above (score, member), less one.
        int low = 1, high = inner.Count;
        var scores = inner.KeyScores;
        while (low < high)
        {
            int middle = (low + high) >> 1;
            double key = scores[middle];
            if (key > score || (key == score && inner.KeyMembers[middle].AsSpan().SequenceCompareTo(member) > 0))
                high = middle;
            else
                low = middle + 1;
        }
        return low - 1;
    }

    /// <summary>The first position in <paramref name="leaf"/> at or above (score, member) (<paramref name="above"/>: strictly above).</summary>
    private static int PositionIn(Leaf leaf, double score, ReadOnlySpan<byte> member, bool above)
    {
        int low = 0, high = leaf.Count;
        var scores = leaf.Scores;
        while (low < high)
        {
            int middle = (low + high) >> 1;
            double key = scores[middle];
            int c = key < score ? -1 : key > score ? 1 : leaf.Items[middle]!.Member.AsSpan().SequenceCompareTo(member);
            if (c > 0 || (c == 0 && !above))
                high = middle;
            else
                low = middle + 1;
        }
        return low;
    }

    /// <summary>Walks down to the leaf for (score, member), recording the path and adding <paramref name="sizeChange"/> to its counts.</summary>
    private Leaf Descend(double score, ReadOnlySpan<byte> member, int sizeChange, out int depth)
    {
        var node = _root;
        depth = 0;
        while (node is Inner inner)
        {
            int child = ChildFor(inner, score, member);
            inner.Sizes[child] += sizeChange;
            _pathNodes[depth] = inner;
            _pathIndexes[depth] = child;
            depth++;
            node = inner.Children[child]!;
        }
        return (Leaf)node;
    }

    /// <summary>Links <paramref name="node"/> (not yet in the tree) at its place.</summary>
    public void Insert(SortedSetNode node)
    {
        double score = node.Score;
        var leaf = Descend(score, node.Member, 1, out int depth);
        int position = PositionIn(leaf, score, node.Member, above: true);

        SortedSetNode? previous, next;
        if (position < leaf.Count)
        {
            next = leaf.Items[position];
            previous = next!.Backward;
        }
        else if (position > 0)
        {
            previous = leaf.Items[position - 1];
            next = previous!.Next;
        }
        else
        {
            previous = next = null;
        }
        node.Backward = previous;
        node.Next = next;
        if (previous != null)
            previous.Next = node;
        else
            _first = node;
        if (next != null)
            next.Backward = node;
        else
            _last = node;
        _length++;

        if (leaf.Count < Capacity)
        {
            InsertInLeaf(leaf, position, node);
        }
        else
        {
            var right = SplitLeaf(leaf, position, node, appending: next == null);
            AddChild(depth - 1, right, right.Scores[0], right.Items[0]!.Member, right.Count, leaf.Count);
        }
        Array.Clear(_pathNodes, 0, depth);
    }

    private static void InsertInLeaf(Leaf leaf, int position, SortedSetNode node)
    {
        if (leaf.Count == leaf.Items.Length)
        {
            int capacity = Math.Min(leaf.Items.Length * 2, Capacity);
            Array.Resize(ref leaf.Scores, capacity);
            Array.Resize(ref leaf.Items, capacity);
        }
        int moved = leaf.Count - position;
        if (moved > 0)
        {
            Array.Copy(leaf.Scores, position, leaf.Scores, position + 1, moved);
            Array.Copy(leaf.Items, position, leaf.Items, position + 1, moved);
        }
        leaf.Scores[position] = node.Score;
        leaf.Items[position] = node;
        leaf.Count++;
    }

    /// <summary>
    /// Splits a full leaf while inserting <paramref name="node"/> at <paramref name="position"/>; returns
    /// the new right half. Appending to the last leaf starts a new leaf instead, so ordered loads
    /// (clones, deserialization) fill their leaves.
    /// </summary>
    private static Leaf SplitLeaf(Leaf leaf, int position, SortedSetNode node, bool appending)
    {
        var right = new Leaf(Capacity);
        if (appending && position == Capacity)
        {
            InsertInLeaf(right, 0, node);
            return right;
        }
        int keep = Capacity / 2;
        Array.Copy(leaf.Scores, keep, right.Scores, 0, Capacity - keep);
        Array.Copy(leaf.Items, keep, right.Items, 0, Capacity - keep);
        Array.Clear(leaf.Items, keep, Capacity - keep);
        leaf.Count = keep;
        right.Count = Capacity - keep;
        if (position <= keep)
            InsertInLeaf(leaf, position, node);
        else
            InsertInLeaf(right, position - keep, node);
        return right;
    }

    /// <summary>
    /// Adds <paramref name="right"/> (split off the path's child at <paramref name="level"/>) after that
    /// child, fixing both counts; splits full inner nodes upward, growing a new root when needed.
    /// </summary>
    private void AddChild(int level, TreeNode right, double keyScore, byte[] keyMember, long rightSize, long leftSize)
    {
        while (true)
        {
            if (level < 0)
            {
                var root = new Inner { Count = 2 };
                root.Children[0] = _root;
                root.Sizes[0] = leftSize;
                root.Children[1] = right;
                root.Sizes[1] = rightSize;
                root.KeyScores[1] = keyScore;
                root.KeyMembers[1] = keyMember;
                _root = root;
                return;
            }
            var inner = _pathNodes[level]!;
            int at = _pathIndexes[level] + 1;
            inner.Sizes[at - 1] = leftSize;
            if (inner.Count < Capacity)
            {
                InsertInInner(inner, at, right, rightSize, keyScore, keyMember);
                return;
            }

            // Split the inner node in halves, then insert into the half that takes the position.
            var sibling = new Inner();
            int keep = Capacity / 2;
            int moved = Capacity - keep;
            Array.Copy(inner.Children, keep, sibling.Children, 0, moved);
            Array.Copy(inner.Sizes, keep, sibling.Sizes, 0, moved);
            Array.Copy(inner.KeyScores, keep, sibling.KeyScores, 0, moved);
            Array.Copy(inner.KeyMembers, keep, sibling.KeyMembers, 0, moved);
            Array.Clear(inner.Children, keep, moved);
            Array.Clear(inner.KeyMembers, keep, moved);
            inner.Count = keep;
            sibling.Count = moved;
            double siblingKeyScore = sibling.KeyScores[0];
            byte[] siblingKeyMember = sibling.KeyMembers[0]!;
            sibling.KeyMembers[0] = null;
            if (at <= keep)
                InsertInInner(inner, at, right, rightSize, keyScore, keyMember);
            else
                InsertInInner(sibling, at - keep, right, rightSize, keyScore, keyMember);
            long leftTotal = 0, rightTotal = 0;
            for (int i = 0; i < inner.Count; i++)
                leftTotal += inner.Sizes[i];
            for (int i = 0; i < sibling.Count; i++)
                rightTotal += sibling.Sizes[i];
            right = sibling;
            keyScore = siblingKeyScore;
            keyMember = siblingKeyMember;
            rightSize = rightTotal;
            leftSize = leftTotal;
            level--;
        }
    }

    private static void InsertInInner(Inner inner, int at, TreeNode child, long size, double keyScore, byte[] keyMember)
    {
        int moved = inner.Count - at;
        if (moved > 0)
        {
            Array.Copy(inner.Children, at, inner.Children, at + 1, moved);
            Array.Copy(inner.Sizes, at, inner.Sizes, at + 1, moved);
            Array.Copy(inner.KeyScores, at, inner.KeyScores, at + 1, moved);
            Array.Copy(inner.KeyMembers, at, inner.KeyMembers, at + 1, moved);
        }
        inner.Children[at] = child;
        inner.Sizes[at] = size;
        inner.KeyScores[at] = keyScore;
        inner.KeyMembers[at] = keyMember;
        inner.Count++;
    }

    /// <summary>Unlinks <paramref name="node"/>, which is in the tree.</summary>
    public void Delete(SortedSetNode node)
    {
        var leaf = Descend(node.Score, node.Member, -1, out int depth);
        int position = PositionIn(leaf, node.Score, node.Member, above: false);
        if (position >= leaf.Count || leaf.Items[position] != node)
            throw new InvalidOperationException("Sorted-set node not found where its score puts it.");

        int moved = leaf.Count - position - 1;
        if (moved > 0)
        {
            Array.Copy(leaf.Scores, position + 1, leaf.Scores, position, moved);
            Array.Copy(leaf.Items, position + 1, leaf.Items, position, moved);
        }
        leaf.Count--;
        leaf.Items[leaf.Count] = null;

        if (node.Backward != null)
            node.Backward.Next = node.Next;
        else
            _first = node.Next;
        if (node.Next != null)
            node.Next.Backward = node.Backward;
        else
            _last = node.Backward;
        node.Backward = node.Next = null;
        _length--;

        if (depth > 0)
        {
            if (leaf.Count == 0)
                RemoveChild(depth - 1);
            else if (leaf.Count < MergeBelow)
                MergeLeaf(depth - 1, leaf);
        }
        Array.Clear(_pathNodes, 0, depth);
    }

    /// <summary>Merges the path's leaf (child of the inner node at <paramref name="level"/>) with a sibling it fits with.</summary>
    private void MergeLeaf(int level, Leaf leaf)
    {
        var parent = _pathNodes[level]!;
        int at = _pathIndexes[level];
        int left = at + 1 < parent.Count ? at : at - 1;
        if (left < 0)
            return;
        var into = (Leaf)parent.Children[left]!;
        var from = (Leaf)parent.Children[left + 1]!;
        if (into.Count + from.Count > Capacity * 3 / 4)
            return;
        if (into.Items.Length < into.Count + from.Count)
        {
            Array.Resize(ref into.Scores, Capacity);
            Array.Resize(ref into.Items, Capacity);
        }
        Array.Copy(from.Scores, 0, into.Scores, into.Count, from.Count);
        Array.Copy(from.Items, 0, into.Items, into.Count, from.Count);
        into.Count += from.Count;
        parent.Sizes[left] += parent.Sizes[left + 1];
        _pathIndexes[level] = left + 1;
        RemoveChild(level);
    }

    /// <summary>Removes the path's child of the inner node at <paramref name="level"/> (its count moved or zero); empties cascade up.</summary>
    private void RemoveChild(int level)
    {
        while (true)
        {
            var inner = _pathNodes[level]!;
            int at = _pathIndexes[level];
            int moved = inner.Count - at - 1;
            if (moved > 0)
            {
                Array.Copy(inner.Children, at + 1, inner.Children, at, moved);
                Array.Copy(inner.Sizes, at + 1, inner.Sizes, at, moved);
                Array.Copy(inner.KeyScores, at + 1, inner.KeyScores, at, moved);
                Array.Copy(inner.KeyMembers, at + 1, inner.KeyMembers, at, moved);
            }
            inner.Count--;
            inner.Children[inner.Count] = null;
            inner.KeyMembers[inner.Count] = null;
            inner.KeyMembers[0] = null;
            if (inner.Count > 0 || level == 0)
                break;
            level--;
        }
        // A root with one child gives way to it.
        while (_root is Inner { Count: <= 1 } root)
            _root = root.Count == 1 ? root.Children[0]! : new Leaf(4);
    }

    /// <summary>Moves <paramref name="node"/> to the place of <paramref name="score"/>.</summary>
    public void UpdateScore(SortedSetNode node, double score)
    {
        if ((node.Backward == null || node.Backward.Score < score) && (node.Next == null || node.Next.Score > score) && TryUpdateInPlace(node, score))
            return;
        Delete(node);
        node.Score = score;
        Insert(node);
    }

    /// <summary>
    /// Changes the score of a node that keeps its place among its neighbours, if the keys on its path
    /// allow: a key that is this member moves with it (the member is then its child's least), and any
    /// other key (possibly left by a removed member) must still bound the new score.
    /// </summary>
    private bool TryUpdateInPlace(SortedSetNode node, double score)
    {
        double old = node.Score;
        var member = node.Member;
        var tree = _root;
        int depth = 0;
        bool fits = true;
        while (tree is Inner inner)
        {
            int child = ChildFor(inner, old, member);
            bool isKey = child > 0 && inner.KeyScores[child] == old && inner.KeyMembers[child].AsSpan().SequenceEqual(member);
            if ((child > 0 && !isKey && Compare(inner.KeyScores[child], inner.KeyMembers[child], score, member) > 0) ||
                (child + 1 < inner.Count && Compare(inner.KeyScores[child + 1], inner.KeyMembers[child + 1], score, member) <= 0))
            {
                fits = false;
                break;
            }
            _pathNodes[depth] = inner;
            _pathIndexes[depth] = isKey ? child : -1;
            depth++;
            tree = inner.Children[child]!;
        }
        if (fits)
        {
            for (int level = 0; level < depth; level++)
            {
                if (_pathIndexes[level] > 0)
                    _pathNodes[level]!.KeyScores[_pathIndexes[level]] = score;
            }
            var leaf = (Leaf)tree;
            leaf.Scores[PositionIn(leaf, old, member, above: false)] = score;
            node.Score = score;
        }
        Array.Clear(_pathNodes, 0, depth);
        return fits;
    }

    /// <summary>The 1-based rank of (score, member), or 0 if it is not in the tree.</summary>
    public long GetRank(double score, ReadOnlySpan<byte> member)
    {
        var node = _root;
        long rank = 0;
        while (node is Inner inner)
        {
            int child = ChildFor(inner, score, member);
            for (int i = 0; i < child; i++)
                rank += inner.Sizes[i];
            node = inner.Children[child]!;
        }
        var leaf = (Leaf)node;
        int position = PositionIn(leaf, score, member, above: false);
        if (position < leaf.Count && leaf.Scores[position] == score && leaf.Items[position]!.Member.AsSpan().SequenceEqual(member))
            return rank + position + 1;
        return 0;
    }

    /// <summary>The node at 1-based <paramref name="rank"/>, or null when out of range.</summary>
    public SortedSetNode? GetByRank(long rank)
    {
        if (rank < 1 || rank > _length)
            return null;
        var node = _root;
        while (node is Inner inner)
        {
            int child = 0;
            while (child < inner.Count - 1 && rank > inner.Sizes[child])
                rank -= inner.Sizes[child++];
            node = inner.Children[child]!;
        }
        return ((Leaf)node).Items[rank - 1];
    }

    /// <summary>Whether some node may be in <paramref name="range"/> (cheap check of both ends).</summary>
    private bool MayIntersect<TRange>(in TRange range) where TRange : struct, ISortedSetRange
        => !range.IsEmpty && _last != null && range.AboveMin(_last) && range.BelowMax(_first!);

    /// <summary>The lowest node in <paramref name="range"/> and its 1-based rank, or null.</summary>
    public SortedSetNode? FirstInRange<TRange>(in TRange range, out long rank) where TRange : struct, ISortedSetRange
    {
        rank = 0;
        if (!MayIntersect(in range))
            return null;
        var leaf = Locate(new AtOrAboveMin<TRange>(range), out long before, out int position);
        var first = position < leaf.Count ? leaf.Items[position] : leaf.Items[leaf.Count - 1]!.Next;
        if (first == null || !range.BelowMax(first))
            return null;
        rank = before + position + 1;
        return first;
    }

    /// <summary>The highest node in <paramref name="range"/> and its 1-based rank, or null.</summary>
    public SortedSetNode? LastInRange<TRange>(in TRange range, out long rank) where TRange : struct, ISortedSetRange
    {
        rank = 0;
        if (!MayIntersect(in range))
            return null;
        var leaf = Locate(new AboveMax<TRange>(range), out long before, out int position);
        var last = position > 0 ? leaf.Items[position - 1] : leaf.Count > 0 ? leaf.Items[0]!.Backward : null;
        if (last == null || !range.AboveMin(last))
            return null;
        rank = before + position;
        return last;
    }

    /// <summary>
    /// Finds where a boundary falls: the leaf where the nodes past <paramref name="boundary"/> start (the order is
    /// never past it, then always past it), the number of nodes in the leaves before that one, and the position in the
    /// leaf of its first node past the boundary (its count if none is).
    /// </summary>
    private Leaf Locate<TBoundary>(TBoundary boundary, out long before, out int position) where TBoundary : struct, IBoundary
    {
        var node = _root;
        before = 0;
        while (node is Inner inner)
        {
            // The child before the first key past the boundary.
            int low = 1, high = inner.Count;
            while (low < high)
            {
                int middle = (low + high) >> 1;
                if (boundary.IsPast(inner.KeyScores[middle], inner.KeyMembers[middle]))
                    high = middle;
                else
                    low = middle + 1;
            }
            int child = low - 1;
            for (int i = 0; i < child; i++)
                before += inner.Sizes[i];
            node = inner.Children[child]!;
        }
        var leaf = (Leaf)node;
        int start = 0, end = leaf.Count;
        while (start < end)
        {
            int middle = (start + end) >> 1;
            if (boundary.IsPast(leaf.Scores[middle], leaf.Items[middle]!.Member))
                end = middle;
            else
                start = middle + 1;
        }
        position = start;
        return leaf;
    }

    /// <summary>A point in the order: entries before it are not past it, entries after it are.</summary>
    private interface IBoundary
    {
        bool IsPast(double score, ReadOnlySpan<byte> member);
    }

    /// <summary>The start of a range: its members are past it.</summary>
    private struct AtOrAboveMin<TRange>(TRange range) : IBoundary where TRange : struct, ISortedSetRange
    {
        public bool IsPast(double score, ReadOnlySpan<byte> member) => range.AboveMin(score, member);
    }

    /// <summary>The end of a range: its members are not past it.</summary>
    private struct AboveMax<TRange>(TRange range) : IBoundary where TRange : struct, ISortedSetRange
    {
        public bool IsPast(double score, ReadOnlySpan<byte> member) => !range.BelowMax(score, member);
    }

    /// <summary>Unlinks every node in <paramref name="range"/>, adding them to <paramref name="removed"/>.</summary>
    public void DeleteRange<TRange>(in TRange range, List<SortedSetNode> removed) where TRange : struct, ISortedSetRange
    {
        int from = removed.Count;
        for (var node = FirstInRange(in range, out _); node != null && range.BelowMax(node); node = node.Next)
            removed.Add(node);
        for (int i = from; i < removed.Count; i++)
            Delete(removed[i]);
    }

    /// <summary>Unlinks the nodes of 1-based ranks <paramref name="start"/>..<paramref name="end"/>, adding them to <paramref name="removed"/>.</summary>
    public void DeleteRangeByRank(long start, long end, List<SortedSetNode> removed)
    {
        int from = removed.Count;
        var node = GetByRank(start);
        for (long rank = start; rank <= end && node != null; rank++, node = node.Next)
            removed.Add(node);
        for (int i = from; i < removed.Count; i++)
            Delete(removed[i]);
    }
}
