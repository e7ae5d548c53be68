using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Garnet.server;

/// <summary>How ZUNION/ZINTER combine the scores of a member found in several inputs.</summary>
internal enum SortedSetAggregate : byte
{
    Sum,
    Min,
    Max,
}

/// <summary>Union, intersection and difference of sorted sets (ZUNION, ZINTER, ZDIFF, ZINTERCARD and their STORE forms).</summary>
internal static class SortedSetAlgebra
{
    /// <summary>
    /// A plain set as a ZUNION/ZINTER/ZDIFF input (every member with score 1), or null when
    /// <paramref name="obj"/> cannot be an input (WRONGTYPE). The Set family's SetObject is not yet in
    /// this branch, so for now every non-sorted-set object answers WRONGTYPE.
    /// </summary>
    public static SortedSetObject? FromSetObject(GarnetObject obj)
    {
        _ = obj;
        return null;
    }

    /// <summary>A score times its weight; NaN (0 times infinity) counts as 0, as in Redis.</summary>
    private static double Weighted(double score, double weight)
    {
        double value = score * weight;
        return double.IsNaN(value) ? 0 : value;
    }

    /// <summary>Combines two scores; a sum of opposite infinities is 0, as in Redis.</summary>
    private static double Combine(double current, double value, SortedSetAggregate aggregate)
    {
        switch (aggregate)
        {
            case SortedSetAggregate.Min:
                return value < current ? value : current;
            case SortedSetAggregate.Max:
                return value > current ? value : current;
            default:
                double sum = current + value;
                return double.IsNaN(sum) ? 0 : sum;
        }
    }

    public static SortedSetObject Union(SortedSetObject[] sources, double[] weights, SortedSetAggregate aggregate)
    {
        var scores = new Dictionary<byte[], double>(MemberComparer.Instance);
        var pairs = new List<(byte[] Member, double Score)>();
        for (int i = 0; i < sources.Length; i++)
        {
            pairs.Clear();
            sources[i].CopyElementsTo(pairs);
            foreach (var (member, score) in pairs)
            {
                double value = Weighted(score, weights[i]);
                ref double slot = ref CollectionsMarshal.GetValueRefOrAddDefault(scores, member, out bool exists);
                slot = exists ? Combine(slot, value, aggregate) : value;
            }
        }
        pairs.Clear();
        foreach (var (member, score) in scores)
            pairs.Add((member, score));
        return SortedSetObject.Create(pairs);
    }

    /// <summary>Input indexes from the smallest set to the largest (the intersection walks the smallest).</summary>
    private static int[] BySize(SortedSetObject[] sources)
    {
        var order = new int[sources.Length];
        for (int i = 0; i < order.Length; i++)
            order[i] = i;
        Array.Sort(order, (a, b) => sources[a].Count.CompareTo(sources[b].Count));
        return order;
    }

    public static SortedSetObject Intersection(SortedSetObject[] sources, double[] weights, SortedSetAggregate aggregate)
    {
        var order = BySize(sources);
        var pairs = new List<(byte[] Member, double Score)>();
        sources[order[0]].CopyElementsTo(pairs);
        var result = new List<(byte[] Member, double Score)>();
        foreach (var (member, score) in pairs)
        {
            double value = Weighted(score, weights[order[0]]);
            bool everywhere = true;
            for (int k = 1; k < order.Length && everywhere; k++)
            {
                if (sources[order[k]].TryGetScore(member, out double other))
                    value = Combine(value, Weighted(other, weights[order[k]]), aggregate);
                else
                    everywhere = false;
            }
            if (everywhere)
                result.Add((member, value));
        }
        return SortedSetObject.Create(result);
    }

    /// <summary>How many members are in every input, counting up to <paramref name="limit"/> (0: no limit).</summary>
    public static long IntersectionCount(SortedSetObject[] sources, long limit)
    {
        var order = BySize(sources);
        var members = new List<byte[]>();
        sources[order[0]].CopyElementsTo(members);
        long count = 0;
        foreach (var member in members)
        {
            bool everywhere = true;
            for (int k = 1; k < order.Length && everywhere; k++)
                everywhere = sources[order[k]].TryGetScore(member, out _);
            if (everywhere && ++count == limit)
                break;
        }
        return count;
    }

    /// <summary>The members of the first input that are in no other, with their scores.</summary>
    public static SortedSetObject Difference(SortedSetObject[] sources)
    {
        var pairs = new List<(byte[] Member, double Score)>();
        sources[0].CopyElementsTo(pairs);
        var result = new List<(byte[] Member, double Score)>();
        foreach (var (member, score) in pairs)
        {
            bool elsewhere = false;
            for (int k = 1; k < sources.Length && !elsewhere; k++)
                elsewhere = sources[k].TryGetScore(member, out _);
            if (!elsewhere)
                result.Add((member, score));
        }
        return SortedSetObject.Create(result);
    }
}
