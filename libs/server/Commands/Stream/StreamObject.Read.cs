using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The stream commands that only read: XRANGE, XREVRANGE and one key's part of XREAD. They run under a shared
/// latch (and on the shared empty stream for absent keys), so they change nothing. A reply's array length comes
/// first, so a range is walked twice: once to count, once to write.
/// </summary>
public sealed partial class StreamObject
{
    /// <summary><see cref="ObjectInput.Flags"/> of XREAD: only report the last ID (in <see cref="ObjectOutput.Element"/>), for "$".</summary>
    internal const int ReadReportLastId = 1 << 30;

    /// <summary>XRANGE key start end [COUNT count] / XREVRANGE key end start [COUNT count].</summary>
    private void XRange(ref ObjectInput input, ref ObjectOutput output, bool reverse)
    {
        if (!StreamArguments.TryParseRange(AllArgs(in input), reverse, out var start, out var end, out long count, out var error))
        {
            output.Writer.WriteError(error);
            return;
        }
        if (!_created)
        {
            output.Writer.WriteArrayHeader(0);
            return;
        }
        if (count == 0)
        {
            output.Writer.WriteNullArray();
            return;
        }
        WriteRange(ref output.Writer, start, end, count < 0 ? long.MaxValue : count, reverse);
    }

    /// <summary>
    /// One key of XREAD: the entries after the ID in <see cref="ObjectInput.Number"/> and <see cref="ObjectInput.Number2"/>
    /// (milliseconds and sequence), at most <see cref="ObjectInput.Flags"/> of them (0: all). Writes the entries' array only
    /// when there are some, and their number to <see cref="ObjectOutput.Number"/>.
    /// </summary>
    private void XReadKey(ref ObjectInput input, ref ObjectOutput output)
    {
        if ((input.Flags & ReadReportLastId) != 0)
        {
            Span<byte> text = stackalloc byte[StreamId.MaxTextLength];
            output.Element = text.Slice(0, _lastId.Format(text)).ToArray();
            return;
        }
        var after = new StreamId(unchecked((ulong)input.Number), unchecked((ulong)input.Number2));
        if (!after.TryIncrement(out var start))
            return;
        long limit = input.Flags == 0 ? long.MaxValue : input.Flags;
        long found = VisitRange(ref output.Writer, start, StreamId.Max, limit, reverse: false, write: false);
        output.Number = found;
        if (found > 0)
            WriteRange(ref output.Writer, start, StreamId.Max, limit, reverse: false);
    }

    /// <summary>Writes the array of the live entries between <paramref name="start"/> and <paramref name="end"/>, at most <paramref name="limit"/>.</summary>
    private void WriteRange(ref RespWriter writer, StreamId start, StreamId end, long limit, bool reverse)
    {
        long count = VisitRange(ref writer, start, end, limit, reverse, write: false);
        writer.WriteArrayHeader((int)count);
        VisitRange(ref writer, start, end, count, reverse, write: true);
    }

    /// <summary>
    /// Walks the live entries between <paramref name="start"/> and <paramref name="end"/> (inclusive) in ID order, or
    /// backwards, at most <paramref name="limit"/>, writing each as [id, [field, value...]] when <paramref name="write"/>.
    /// Returns the number walked.
    /// </summary>
    private long VisitRange(ref RespWriter writer, StreamId start, StreamId end, long limit, bool reverse, bool write)
    {
        long visited = 0;
        if (_nodes.Count == 0 || start > end || limit <= 0)
            return 0;
        if (!reverse)
        {
            for (int n = NodeFor(start); n < _nodes.Count; n++)
            {
                var node = _nodes[n];
                if (node.First > end)
                    return visited;
                if (node.Last < start || node.Live == 0)
                    continue;
                for (int at = node.FirstEntry; at < node.Used;)
                {
                    node.ReadHeader(at, out byte flags, out var id, out int body);
                    if (id > end)
                        return visited;
                    if (id < start || (flags & StreamNode.DeletedFlag) != 0)
                    {
                        at = node.Skip(flags, body);
                        continue;
                    }
                    at = write ? WriteEntry(ref writer, node, id, flags, body) : node.Skip(flags, body);
                    if (++visited == limit)
                        return visited;
                }
            }
            return visited;
        }

        Span<int> offsets = stackalloc int[StreamNode.MaxEntries];
        for (int n = NodeFor(end); n >= 0; n--)
        {
            var node = _nodes[n];
            if (node.Last < start)
                return visited;
            if (node.First > end || node.Live == 0)
                continue;
            int entries = 0;
            for (int at = node.FirstEntry; at < node.Used;)
            {
                offsets[entries++] = at;
                node.ReadHeader(at, out byte flags, out _, out int body);
                at = node.Skip(flags, body);
            }
            for (int e = entries - 1; e >= 0; e--)
            {
                node.ReadHeader(offsets[e], out byte flags, out var id, out int body);
                if (id < start)
                    return visited;
                if (id > end || (flags & StreamNode.DeletedFlag) != 0)
                    continue;
                if (write)
                    WriteEntry(ref writer, node, id, flags, body);
                if (++visited == limit)
                    return visited;
            }
        }
        return visited;
    }

    /// <summary>Writes one entry as [id, [field, value...]]; returns the offset after it.</summary>
    private static int WriteEntry(ref RespWriter writer, StreamNode node, StreamId id, byte flags, int body)
    {
        writer.WriteArrayHeader(2);
        WriteId(ref writer, id);
        return node.WriteFields(flags, body, ref writer);
    }

    /// <summary>Writes the live entry <paramref name="id"/> as [id, [field, value...]]; false (nothing written) if there is none.</summary>
    private bool TryWriteEntry(ref RespWriter writer, StreamId id)
    {
        if (!TryFind(id, out int nodeIndex, out int offset))
            return false;
        var node = _nodes[nodeIndex];
        node.ReadHeader(offset, out byte flags, out _, out int body);
        WriteEntry(ref writer, node, id, flags, body);
        return true;
    }
}
