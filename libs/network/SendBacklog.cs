using System;
using System.Buffers;
using System.Collections.Generic;

namespace Garnet.networking;

/// <summary>
/// Reply bytes the kernel would not take yet (the client is not reading fast enough), kept in order until the socket
/// is writable again. Only the slow path allocates: a connection whose sends complete never creates a segment.
/// </summary>
internal sealed unsafe class SendBacklog
{
    private readonly Queue<Segment> _segments = new();

    /// <summary>How much of the oldest segment has been sent already.</summary>
    private int _headOffset;

    /// <summary>Gets the number of bytes waiting.</summary>
    public long Length { get; private set; }

    public bool IsEmpty => Length == 0;

    /// <summary>Gets the number of separately kept blocks of waiting bytes.</summary>
    public int Segments => _segments.Count;

    /// <summary>Copies <paramref name="count"/> bytes at <paramref name="source"/> to the end of the backlog.</summary>
    public void Append(byte* source, int count)
    {
        var array = ArrayPool<byte>.Shared.Rent(count);
        new ReadOnlySpan<byte>(source, count).CopyTo(array);
        _segments.Enqueue(new Segment(array, count));
        Length += count;
    }

    /// <summary>
    /// Offers the waiting bytes, oldest first, to <paramref name="send"/> until it takes fewer than offered.
    /// <paramref name="send"/> returns how many bytes it took (0 when it would block) or throws.
    /// Returns <see langword="true"/> once nothing is left.
    /// </summary>
    public bool TryDrain<TSend>(ref TSend send) where TSend : struct, ISendBytes
    {
        while (_segments.TryPeek(out var segment))
        {
            var remaining = segment.Count - _headOffset;
            int taken;
            fixed (byte* p = &segment.Array[_headOffset])
                taken = send.Send(p, remaining);
            Length -= taken;
            if (taken < remaining)
            {
                _headOffset += taken;
                return false;
            }
            _segments.Dequeue();
            _headOffset = 0;
            ArrayPool<byte>.Shared.Return(segment.Array);
        }
        return true;
    }

    /// <summary>Drops everything (the connection is closing).</summary>
    public void Clear()
    {
        while (_segments.TryDequeue(out var segment))
            ArrayPool<byte>.Shared.Return(segment.Array);
        _headOffset = 0;
        Length = 0;
    }

    private readonly record struct Segment(byte[] Array, int Count);

    /// <summary>Hands bytes to the transport without blocking.</summary>
    public interface ISendBytes
    {
        /// <summary>Returns how many of the <paramref name="count"/> bytes at <paramref name="bytes"/> were taken; 0 if none could be.</summary>
        int Send(byte* bytes, int count);
    }
}
