using System;
using System.Collections.Generic;
using System.IO;

namespace Garnet.server;

/// <summary>
/// A sorted set: unique members (byte strings) each with a double score, ordered by (score, member
/// bytewise). A B+tree with subtree counts keeps the order (insert, delete, rank, index in O(log n));
/// a hash index threaded through the nodes maps each member to its node (SortedSetObject.Index.cs).
/// Scores are never NaN.
/// The commands themselves are in the partial files by group (Write, Read, Range).
/// </summary>
public sealed partial class SortedSetObject : GarnetObject
{
    /// <summary>Estimated managed bytes per member besides its bytes: node, leaf slots (with slack), bucket, array header.</summary>
    private const int ElementOverhead = 120;

    private readonly SortedSetTree _tree = new();

    /// <summary>An empty sorted set.</summary>
    public SortedSetObject()
        : this(0)
    {
    }

    private SortedSetObject(int capacity)
    {
        if (capacity > 0)
            EnsureBuckets(capacity);
    }

    /// <inheritdoc/>
    public override GarnetObjectType Type => GarnetObjectType.SortedSet;

    /// <inheritdoc/>
    public override long Count => _tree.Length;

    /// <summary>The score of <paramref name="member"/>, if it is in the set.</summary>
    public bool TryGetScore(ReadOnlySpan<byte> member, out double score)
    {
        if (TryGetNode(member, out var node))
        {
            score = node.Score;
            return true;
        }
        score = 0;
        return false;
    }

    /// <summary>Sets the score of <paramref name="member"/>, adding it if needed; true if it was added.</summary>
    public bool AddOrUpdate(byte[] member, double score)
    {
        if (double.IsNaN(score))
            throw new ArgumentOutOfRangeException(nameof(score), "A sorted-set score cannot be NaN.");
        int hash = MemberHash.Compute(member);
        if (FindNode(member, hash) is { } node)
        {
            SetScore(node, score);
            return false;
        }
        AddNew(member, hash, score);
        return true;
    }

    /// <summary>Removes <paramref name="member"/>; true if it was in the set.</summary>
    public bool Remove(ReadOnlySpan<byte> member)
    {
        if (!TryGetNode(member, out var node))
            return false;
        RemoveNode(node);
        return true;
    }

    /// <summary>Appends the members with scores in [<paramref name="min"/>, <paramref name="max"/>] to <paramref name="results"/>, ascending.</summary>
    public void RangeByScore(double min, double max, List<(byte[] Member, double Score)> results)
    {
        var range = new ScoreRange(min, false, max, false);
        for (var node = _tree.FirstInRange(in range, out _); node != null && range.BelowMax(node); node = node.Next)
            results.Add((node.Member, node.Score));
    }

    /// <summary>Appends every member to <paramref name="destination"/> in score order.</summary>
    public void CopyElementsTo(List<byte[]> destination)
    {
        for (var node = _tree.First; node != null; node = node.Next)
            destination.Add(node.Member);
    }

    /// <summary>Appends every (member, score) pair to <paramref name="destination"/> in score order.</summary>
    public void CopyElementsTo(List<(byte[] Member, double Score)> destination)
    {
        for (var node = _tree.First; node != null; node = node.Next)
            destination.Add((node.Member, node.Score));
    }

    /// <summary>A sorted set of <paramref name="elements"/>; a member given twice keeps its last score. Scores must not be NaN.</summary>
    public static SortedSetObject Create(List<(byte[] Member, double Score)> elements)
    {
        var set = new SortedSetObject(elements.Count);
        foreach (var (member, score) in elements)
            set.AddOrUpdate(member, score);
        return set;
    }

    /// <summary>Adds a member known to be absent.</summary>
    private SortedSetNode AddNew(byte[] member, int hash, double score)
    {
        var node = new SortedSetNode(member, hash, score);
        _tree.Insert(node);
        IndexAdd(node);
        HeapSize += member.Length + ElementOverhead;
        return node;
    }

    /// <summary>Changes the score of a member in the set.</summary>
    private void SetScore(SortedSetNode node, double score)
    {
        if (node.Score != score)
            _tree.UpdateScore(node, score);
    }

    /// <summary>Removes a member in the set.</summary>
    private void RemoveNode(SortedSetNode node)
    {
        _tree.Delete(node);
        ForgetNode(node);
    }

    /// <summary>Drops an unlinked node from the dictionary and the size estimate.</summary>
    private void ForgetNode(SortedSetNode node)
    {
        IndexRemove(node);
        HeapSize -= node.Member.Length + ElementOverhead;
    }

    /// <summary>Builds a set from pairs in strictly ascending (score, member) order, in linear time.</summary>
    private sealed class Builder
    {
        private readonly SortedSetObject _set;

        public Builder(int capacity)
        {
            _set = new SortedSetObject(capacity);
        }

        public SortedSetObject Set => _set;

        /// <summary>Appends a pair that sorts after every pair so far (false if it does not, or repeats a member).</summary>
        public bool TryAppend(byte[] member, double score) => TryAppend(member, MemberHash.Compute(member), score);

        /// <inheritdoc cref="TryAppend(byte[], double)"/>
        public bool TryAppend(byte[] member, int hash, double score)
        {
            if (double.IsNaN(score))
                return false;
            var last = _set._tree.Last;
            if (last != null && SortedSetTree.Compare(last.Score, last.Member, score, member) >= 0)
                return false;
            if (_set.FindNode(member, hash) != null)
                return false;
            var node = new SortedSetNode(member, hash, score);
            _set.IndexAdd(node);
            _set._tree.Insert(node);
            _set.HeapSize += member.Length + ElementOverhead;
            return true;
        }
    }

    /// <summary>A new set of the given nodes' members and scores (which are in order).</summary>
    private static SortedSetObject FromOrderedNodes(List<SortedSetNode> nodes, bool reversed)
    {
        var builder = new Builder(nodes.Count);
        for (int i = 0; i < nodes.Count; i++)
        {
            var node = nodes[reversed ? nodes.Count - 1 - i : i];
            builder.TryAppend(node.Member, node.Hash, node.Score);
        }
        return builder.Set;
    }

    /// <inheritdoc/>
    public override GarnetObject Clone()
    {
        // Member arrays are never changed once stored, so the copy shares them.
        var builder = new Builder((int)Count);
        for (var node = _tree.First; node != null; node = node.Next)
            builder.TryAppend(node.Member, node.Hash, node.Score);
        builder.Set._skiplist = _skiplist; // COPY keeps the encoding, as Redis's duplicate does
        return builder.Set;
    }

    /// <summary>Writes the count, then each member (length-prefixed bytes) and score, in order.</summary>
    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(checked((int)Count));
        for (var node = _tree.First; node != null; node = node.Next)
        {
            writer.Write(node.Member.Length);
            writer.Write(node.Member);
            writer.Write(node.Score);
        }
    }

    /// <summary>Reads an object written by <see cref="Serialize"/>.</summary>
    public static SortedSetObject Deserialize(BinaryReader reader)
    {
        int count = reader.ReadInt32();
        if (count < 0)
            throw new InvalidDataException("Negative sorted-set length.");
        var builder = new Builder(Math.Min(count, 1 << 20));
        for (int i = 0; i < count; i++)
        {
            int length = reader.ReadInt32();
            if (length < 0)
                throw new InvalidDataException("Negative sorted-set member length.");
            var member = reader.ReadBytes(length);
            if (member.Length != length)
                throw new EndOfStreamException();
            double score = reader.ReadDouble();
            if (!builder.TryAppend(member, score))
                throw new InvalidDataException("Sorted-set members out of order, repeated, or with a NaN score.");
        }
        return builder.Set;
    }

    /// <inheritdoc/>
    public override void Operate(ref ObjectInput input, ref ObjectOutput output)
    {
        if (input.Command >= RespCommand.GEOADD && input.Command <= RespCommand.GEORADIUSBYMEMBER_RO) { GeoOperations.Operate(this, ref input, ref output); return; }
        switch (input.Command)
        {
            case RespCommand.ZADD: ZAdd(ref input, ref output); break;
            case RespCommand.ZINCRBY: ZIncrBy(ref input, ref output); break;
            case RespCommand.ZREM: ZRem(ref input, ref output); break;
            case RespCommand.ZPOPMIN: ZPop(ref input, ref output, max: false); break;
            case RespCommand.ZPOPMAX: ZPop(ref input, ref output, max: true); break;
            case RespCommand.ZMPOP: ZMPop(ref input, ref output); break;
            case RespCommand.ZREMRANGEBYRANK:
            case RespCommand.ZREMRANGEBYSCORE:
            case RespCommand.ZREMRANGEBYLEX: ZRemRange(ref input, ref output); break;
            case RespCommand.ZCARD: output.Writer.WriteInteger(Count); break;
            case RespCommand.ZSCORE: ZScore(ref input, ref output); break;
            case RespCommand.ZMSCORE: ZMScore(ref input, ref output); break;
            case RespCommand.ZRANK: ZRank(ref input, ref output, reverse: false); break;
            case RespCommand.ZREVRANK: ZRank(ref input, ref output, reverse: true); break;
            case RespCommand.ZCOUNT: ZCount(ref input, ref output); break;
            case RespCommand.ZLEXCOUNT: ZLexCount(ref input, ref output); break;
            case RespCommand.ZRANDMEMBER: ZRandMember(ref input, ref output); break;
            case RespCommand.ZSCAN: ZScan(ref input, ref output); break;
            case RespCommand.ZRANGE:
            case RespCommand.ZREVRANGE:
            case RespCommand.ZRANGEBYSCORE:
            case RespCommand.ZREVRANGEBYSCORE:
            case RespCommand.ZRANGEBYLEX:
            case RespCommand.ZREVRANGEBYLEX:
            case RespCommand.ZRANGESTORE: ZRange(ref input, ref output); break;
            default: throw new InvalidOperationException($"{input.Command} is not a sorted-set command.");
        }
    }
}
