using System;
using System.Globalization;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The encoding OBJECT ENCODING reports for a list, by Redis's rules. A list is a listpack while it fits one
/// node of <c>list-max-listpack-size</c> (-1 to -5: 4 to 64 KB of listpack bytes; a positive number: that
/// many elements, within 8 KB). Before a push, LINSERT or LSET, Redis adds the raw length of the new
/// elements to the listpack's bytes and converts to a quicklist when the node would overflow. After a
/// removal (pops, LREM, LTRIM, LSET) a quicklist goes back to a listpack once it is within half a node:
/// Redis also requires it to be down to a single node, and this list has no nodes, so it converts when
/// everything would fit in half of one. Lists built whole (SORT ... STORE, RESTORE) are a listpack when they
/// fit one node as Redis fills it. The listpack's size is kept as Redis's listpack would have it: 7 bytes
/// of header and end, and per element its encoding (a small integer takes 1 to 9 bytes) and back-length.
/// </summary>
public sealed partial class ListObject
{
    private const int ListpackHeaderBytes = 7;

    /// <summary>Redis's node sizes for list-max-listpack-size -1 to -5.</summary>
    private static readonly long[] s_nodeBytes = [4096, 8192, 16384, 32768, 65536];

    /// <summary>The most bytes of a node limited by elements (Redis's SIZE_SAFETY_LIMIT).</summary>
    private const long SizeSafetyLimit = 8192;

    /// <summary>What Redis adds to an element's length when it checks that the element fits a node (SIZE_ESTIMATE_OVERHEAD).</summary>
    private const int SizeEstimateOverhead = 8;

    private bool _quicklist;

    /// <summary>The bytes the elements would take in one listpack.</summary>
    private long _listpackBytes = ListpackHeaderBytes;

    /// <inheritdoc/>
    public override ValueEncoding CurrentEncoding => _quicklist ? ValueEncoding.Quicklist : ValueEncoding.Listpack;

    /// <summary>Before adding <paramref name="count"/> elements of <paramref name="bytes"/> raw bytes in all (or replacing one, for LSET).</summary>
    private void ConvertForGrowth(long bytes, long count, EncodingThresholds limits)
    {
        if (!_quicklist && ExceedsNode(limits.ListMaxListpackSize, _listpackBytes + bytes, _count + count))
            _quicklist = true;
    }

    /// <summary>After elements were removed from a list that is not empty.</summary>
    private void ConvertForShrinking(EncodingThresholds limits)
    {
        if (!_quicklist || _count == 0)
            return;
        NodeLimits(limits.ListMaxListpackSize, out long sizeLimit, out long countLimit);
        // Half the limits, so that a list at the boundary does not convert back and forth.
        if (_listpackBytes <= sizeLimit / 2 && _count <= countLimit / 2)
            _quicklist = false;
    }

    /// <inheritdoc/>
    public override void DecideEncoding(EncodingThresholds thresholds)
    {
        // Pushing each element at the tail of a new quicklist: does a second node start?
        int fill = thresholds.ListMaxListpackSize;
        long bytes = ListpackHeaderBytes;
        _quicklist = false;
        for (int i = 0; i < _count && !_quicklist; i++)
        {
            var element = At(i);
            if (ExceedsNode(fill, bytes + element.Length + SizeEstimateOverhead, i + 1))
                _quicklist = true;
            bytes += EntryBytes(element);
        }
    }

    /// <summary>DEBUG OBJECT's quicklist fields, for the nodes Redis would have if it filled each node in turn.</summary>
    internal string DescribeQuicklist(EncodingThresholds thresholds)
    {
        int fill = thresholds.ListMaxListpackSize;
        long nodes = 1;
        long bytes = ListpackHeaderBytes;
        long inNode = 0;
        for (int i = 0; i < _count; i++)
        {
            var element = At(i);
            if (inNode > 0 && ExceedsNode(fill, bytes + element.Length + SizeEstimateOverhead, inNode + 1))
            {
                nodes++;
                bytes = ListpackHeaderBytes;
                inNode = 0;
            }
            bytes += EntryBytes(element);
            inNode++;
        }
        return string.Create(CultureInfo.InvariantCulture,
            $" ql_nodes:{nodes} ql_avg_node:{(double)_count / nodes:F2} ql_listpack_max:{fill} ql_compressed:0 ql_uncompressed_size:{_listpackBytes + ((nodes - 1) * ListpackHeaderBytes)}");
    }

    /// <summary>Whether a node of <paramref name="bytes"/> and <paramref name="count"/> elements is over the limit (Redis's quicklistNodeExceedsLimit).</summary>
    private static bool ExceedsNode(int fill, long bytes, long count)
    {
        NodeLimits(fill, out long sizeLimit, out long countLimit);
        if (sizeLimit != long.MaxValue)
            return bytes > sizeLimit;
        return bytes > SizeSafetyLimit || count > countLimit;
    }

    private static void NodeLimits(int fill, out long sizeLimit, out long countLimit)
    {
        if (fill >= 0)
        {
            sizeLimit = long.MaxValue;
            countLimit = fill == 0 ? 1 : fill;
            return;
        }
        sizeLimit = s_nodeBytes[(int)Math.Min(-(long)fill - 1, s_nodeBytes.Length - 1)];
        countLimit = uint.MaxValue;
    }

    /// <summary>The bytes <paramref name="element"/> takes in a listpack: its encoding (integers compactly) and its back-length.</summary>
    private static int EntryBytes(ReadOnlySpan<byte> element)
    {
        int encoded;
        if (element.Length <= 20 && NumberFormat.TryParseLong(element, out long value))
        {
            encoded = value is >= 0 and <= 127 ? 1
                : value is >= -4096 and <= 4095 ? 2
                : value is >= short.MinValue and <= short.MaxValue ? 3
                : value is >= -(1 << 23) and < 1 << 23 ? 4
                : value is >= int.MinValue and <= int.MaxValue ? 5
                : 9;
        }
        else
        {
            encoded = element.Length < 64 ? 1 + element.Length
                : element.Length < 4096 ? 2 + element.Length
                : 5 + element.Length;
        }
        int backLength = encoded <= 127 ? 1 : encoded < 16383 ? 2 : encoded < 2097151 ? 3 : encoded < 268435455 ? 4 : 5;
        return encoded + backLength;
    }
}
