using System;
using System.Collections.Generic;
using System.Numerics;

namespace Garnet.server;

/// <summary>
/// The member index: a chained hash table threaded through the nodes themselves
/// (<see cref="SortedSetNode.NextInBucket"/>), so it costs one reference per bucket and nothing per
/// member, and a lookup by span copies nothing. The bucket count is a power of two and a member always
/// sits in bucket <c>hash &amp; mask</c>, which lets ZSCAN walk buckets in reverse-binary order: a
/// member present for the whole iteration is returned even if the table grows or shrinks between calls.
/// </summary>
public sealed partial class SortedSetObject
{
    private const int MinimumBuckets = 4;

    /// <summary>The buckets: heads of node chains; null until the first member arrives.</summary>
    private SortedSetNode?[]? _buckets;

    /// <summary>Nodes in the index (it lags the tree while a range removal forgets its nodes).</summary>
    private int _indexed;

    /// <summary>The node of <paramref name="member"/>, or null.</summary>
    private SortedSetNode? FindNode(ReadOnlySpan<byte> member, int hash)
    {
        var buckets = _buckets;
        if (buckets == null)
            return null;
        for (var node = buckets[hash & (buckets.Length - 1)]; node != null; node = node.NextInBucket)
        {
            if (node.Hash == hash && node.Member.AsSpan().SequenceEqual(member))
                return node;
        }
        return null;
    }

    /// <summary>The node of <paramref name="member"/>, looked up without allocating.</summary>
    private bool TryGetNode(ReadOnlySpan<byte> member, out SortedSetNode node)
    {
        node = FindNode(member, MemberHash.Compute(member))!;
        return node != null;
    }

    /// <summary>Makes room for <paramref name="count"/> members at a load of at most one per bucket.</summary>
    private void EnsureBuckets(int count)
    {
        if (_buckets == null || count > _buckets.Length)
            Rehash((int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(count, MinimumBuckets)));
    }

    /// <summary>Adds a node whose member is not in the index.</summary>
    private void IndexAdd(SortedSetNode node)
    {
        EnsureBuckets(_indexed + 1);
        ref var head = ref _buckets![node.Hash & (_buckets.Length - 1)];
        node.NextInBucket = head;
        head = node;
        _indexed++;
    }

    /// <summary>Removes a node that is in the index; shrinks the table when it is mostly empty.</summary>
    private void IndexRemove(SortedSetNode node)
    {
        var buckets = _buckets!;
        ref var link = ref buckets[node.Hash & (buckets.Length - 1)];
        while (link != node)
            link = ref link!.NextInBucket;
        link = node.NextInBucket;
        node.NextInBucket = null;
        _indexed--;
        if (_indexed == 0)
            _buckets = null;
        else if (buckets.Length > MinimumBuckets && _indexed < buckets.Length / 8)
            Rehash((int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(_indexed * 2, MinimumBuckets)));
    }

    /// <summary>Moves every node into a table of <paramref name="size"/> buckets.</summary>
    private void Rehash(int size)
    {
        var buckets = new SortedSetNode?[size];
        int mask = size - 1;
        if (_buckets != null)
        {
            foreach (var head in _buckets)
            {
                for (var node = head; node != null;)
                {
                    var next = node.NextInBucket;
                    ref var target = ref buckets[node.Hash & mask];
                    node.NextInBucket = target;
                    target = node;
                    node = next;
                }
            }
        }
        _buckets = buckets;
    }

    /// <summary>
    /// Collects the nodes of whole buckets from <paramref name="cursor"/> on, in reverse-binary bucket
    /// order, until at least <paramref name="count"/> were found, ten times that many buckets were
    /// visited, or the walk wrapped around; returns the next cursor (0 when done).
    /// </summary>
    private ulong ScanBuckets(ulong cursor, long count, List<SortedSetNode> found)
    {
        var buckets = _buckets;
        if (buckets == null)
            return 0;
        ulong mask = (ulong)buckets.Length - 1;
        long visits = count > long.MaxValue / 10 ? long.MaxValue : count * 10;
        do
        {
            for (var node = buckets[(int)(cursor & mask)]; node != null; node = node.NextInBucket)
                found.Add(node);

            // Increment the bucket bits counting from the top, so that the buckets of a grown or
            // shrunk table holding already visited members come before the cursor.
            cursor |= ~mask;
            cursor = ReverseBits(ReverseBits(cursor) + 1);
        }
        while (cursor != 0 && --visits > 0 && found.Count < count);
        return cursor;
    }

    private static ulong ReverseBits(ulong v)
    {
        v = ((v >> 1) & 0x5555555555555555UL) | ((v & 0x5555555555555555UL) << 1);
        v = ((v >> 2) & 0x3333333333333333UL) | ((v & 0x3333333333333333UL) << 2);
        v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FUL) | ((v & 0x0F0F0F0F0F0F0F0FUL) << 4);
        return System.Buffers.Binary.BinaryPrimitives.ReverseEndianness(v);
    }
}
