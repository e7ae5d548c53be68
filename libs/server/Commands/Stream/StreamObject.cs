using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>
/// A stream value: its entries in <see cref="StreamNode"/>s (blocks of up to 100 delta-encoded entries,
/// sorted by ID, found by binary search over their first IDs), the stream's counters as Redis keeps them
/// (length, last ID, first ID, entries ever added, largest deleted ID) and its consumer groups. A stream
/// exists, empty or not, from its first XADD (or XGROUP CREATE ... MKSTREAM) until its key is deleted, so
/// <see cref="Count"/> is never 0 for a created stream.
/// The commands live in the partial files StreamObject.Read.cs, StreamObject.Write.cs, StreamObject.Groups.cs
/// and StreamObject.Info.cs; their arguments are parsed by <see cref="StreamArguments"/>, which the session
/// runs first so argument errors win over WRONGTYPE as in Redis.
/// </summary>
public sealed partial class StreamObject : GarnetObject
{
    /// <summary>Estimated heap bytes of an empty stream (object, node list).</summary>
    private const long BaseHeapSize = 160;

    private readonly List<StreamNode> _nodes = new();

    /// <summary>Whether the stream was created (an absent key's empty object is not, until XADD creates it).</summary>
    private bool _created;

    private long _length;
    private StreamId _lastId;
    private StreamId _firstId;
    private StreamId _maxDeletedId;
    private long _entriesAdded;

    /// <summary>An empty stream, not yet created (see <see cref="Count"/>).</summary>
    public StreamObject() => HeapSize = BaseHeapSize;

    /// <inheritdoc/>
    public override GarnetObjectType Type => GarnetObjectType.Stream;

    /// <summary>Entries plus one for the stream itself: Redis keeps an emptied stream, so only an uncreated one counts 0.</summary>
    public override long Count => _created ? _length + 1 : 0;

    /// <inheritdoc/>
    public override ValueEncoding CurrentEncoding => ValueEncoding.Stream;

    /// <summary>Number of entries (XLEN).</summary>
    public long Length => _length;

    /// <summary>The ID of the last entry ever added (or set by XSETID).</summary>
    public StreamId LastId => _lastId;

    /// <summary>The ID of the last entry not deleted, or 0-0 (Redis's streamLastValidID).</summary>
    private StreamId LastValidId()
    {
        for (int n = _nodes.Count - 1; n >= 0; n--)
        {
            var node = _nodes[n];
            if (node.Live == 0)
                continue;
            StreamId last = default;
            for (int at = node.FirstEntry; at < node.Used;)
            {
                node.ReadHeader(at, out byte flags, out var id, out int body);
                if ((flags & StreamNode.DeletedFlag) == 0)
                    last = id;
                at = node.Skip(flags, body);
            }
            return last;
        }
        return default;
    }

    /// <summary>Appends an entry with an ID above <see cref="LastId"/>; <paramref name="pairs"/> are field, value, field, value...</summary>
    private void Append(StreamId id, ReadOnlySpan<ArgSlice> pairs)
    {
        var tail = _nodes.Count == 0 ? null : _nodes[^1];
        bool same = tail != null && tail.HasMasterFields(pairs);
        int size = tail == null ? 0 : StreamNode.EntrySize(id, tail.First, pairs, same);
        if (tail == null || !tail.HasRoomFor(size))
        {
            if (tail != null)
                HeapSize += tail.Seal();
            size = StreamNode.EntrySize(id, id, pairs, sameFields: true);
            tail = new StreamNode(id, pairs, size);
            _nodes.Add(tail);
            HeapSize += tail.HeapSize;
            same = true;
        }
        HeapSize += tail.Append(id, pairs, same, size);
        _length++;
        _entriesAdded++;
        _lastId = id;
        if (_length == 1)
            _firstId = id;
        _created = true;
    }

    /// <summary>The index of the node that may hold <paramref name="id"/>: the last whose first ID is at most it (0 if none).</summary>
    private int NodeFor(StreamId id)
    {
        int low = 0, high = _nodes.Count - 1, found = 0;
        while (low <= high)
        {
            int middle = (low + high) >> 1;
            if (_nodes[middle].First <= id)
            {
                found = middle;
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }
        return found;
    }

    /// <summary>Finds the live entry <paramref name="id"/>: its node index and offset.</summary>
    private bool TryFind(StreamId id, out int nodeIndex, out int offset)
    {
        nodeIndex = 0;
        offset = 0;
        if (_nodes.Count == 0)
            return false;
        nodeIndex = NodeFor(id);
        var node = _nodes[nodeIndex];
        if (id < node.First || id > node.Last)
            return false;
        for (int at = node.FirstEntry; at < node.Used;)
        {
            node.ReadHeader(at, out byte flags, out var current, out int body);
            if (current == id)
            {
                offset = at;
                return (flags & StreamNode.DeletedFlag) == 0;
            }
            if (current > id)
                return false;
            at = node.Skip(flags, body);
        }
        return false;
    }

    /// <summary>Deletes the live entry <paramref name="id"/>; false if there is none.</summary>
    private bool Delete(StreamId id)
    {
        if (!TryFind(id, out int nodeIndex, out int offset))
            return false;
        var node = _nodes[nodeIndex];
        node.MarkDeleted(offset);
        _length--;
        if (node.Live == 0)
            RemoveNode(nodeIndex);
        return true;
    }

    private void RemoveNode(int index)
    {
        HeapSize -= _nodes[index].HeapSize;
        _nodes.RemoveAt(index);
    }

    /// <summary>Sets <see cref="_firstId"/> to the first live entry's ID (0-0 when empty).</summary>
    private void UpdateFirstId()
    {
        _firstId = default;
        foreach (var node in _nodes)
        {
            if (node.Live == 0)
                continue;
            for (int at = node.FirstEntry; at < node.Used;)
            {
                node.ReadHeader(at, out byte flags, out var id, out int body);
                if ((flags & StreamNode.DeletedFlag) == 0)
                {
                    _firstId = id;
                    return;
                }
                at = node.Skip(flags, body);
            }
        }
    }

    /// <summary>
    /// Removes the oldest entries as XADD's and XTRIM's trimming options ask (Redis's algorithm): whole nodes while
    /// they can go within <paramref name="trim"/>'s limit, then, unless approximate, single entries of the next node.
    /// Returns the number of entries removed.
    /// </summary>
    private long Trim(in StreamTrimOptions trim)
    {
        if (trim.Strategy == StreamTrimStrategy.None)
            return 0;
        long deleted = 0;
        while (_nodes.Count > 0)
        {
            if (trim.Strategy == StreamTrimStrategy.MaxLen && _length <= trim.MaxLen)
                break;
            var node = _nodes[0];
            int entries = node.Live;
            if (trim.Limit != 0 && deleted + entries > trim.Limit)
                break;
            bool removeNode = trim.Strategy == StreamTrimStrategy.MaxLen ? _length - entries >= trim.MaxLen : node.Last < trim.MinId;
            if (removeNode)
            {
                RemoveNode(0);
                _length -= entries;
                deleted += entries;
                continue;
            }
            if (trim.Approximate)
                break;
            for (int at = node.FirstEntry; at < node.Used;)
            {
                node.ReadHeader(at, out byte flags, out var id, out int body);
                if (trim.Strategy == StreamTrimStrategy.MaxLen ? _length <= trim.MaxLen : id >= trim.MinId)
                    break;
                if ((flags & StreamNode.DeletedFlag) == 0)
                {
                    node.MarkDeleted(at);
                    _length--;
                    deleted++;
                }
                at = node.Skip(flags, body);
            }
            if (node.Live == 0)
                RemoveNode(0);
            break;
        }
        UpdateFirstId();
        return deleted;
    }

    /// <inheritdoc/>
    public override GarnetObject Clone()
    {
        var clone = new StreamObject();
        clone.CopyStateFrom(this);
        return clone;
    }

    private void CopyStateFrom(StreamObject source)
    {
        foreach (var node in source._nodes)
        {
            var data = node.Data.AsSpan(0, node.Used).ToArray();
            var copy = new StreamNode(node.First, node.Last, data, node.Count, node.Live, node.MasterLength);
            _nodes.Add(copy);
            HeapSize += copy.HeapSize;
        }
        _created = source._created;
        _length = source._length;
        _lastId = source._lastId;
        _firstId = source._firstId;
        _maxDeletedId = source._maxDeletedId;
        _entriesAdded = source._entriesAdded;
        CloneGroupsFrom(source);
    }

    /// <inheritdoc/>
    public override void Operate(ref ObjectInput input, ref ObjectOutput output)
    {
        switch (input.Command)
        {
            case RespCommand.XADD: XAdd(ref input, ref output); break;
            case RespCommand.XDEL: XDel(ref input, ref output); break;
            case RespCommand.XTRIM: XTrim(ref input, ref output); break;
            case RespCommand.XLEN: output.Writer.WriteInteger(_length); break;
            case RespCommand.XRANGE: XRange(ref input, ref output, reverse: false); break;
            case RespCommand.XREVRANGE: XRange(ref input, ref output, reverse: true); break;
            case RespCommand.XREAD: XReadKey(ref input, ref output); break;
            case RespCommand.XSETID: XSetId(ref input, ref output); break;
            default: OperateGroups(ref input, ref output); break;
        }
    }
}
