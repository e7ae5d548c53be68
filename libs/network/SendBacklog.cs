using System;
using System.Collections.Generic;

namespace Garnet.networking;

/// <summary>
/// Reply bytes the kernel would not take yet (the client is not reading fast enough), kept in order until the socket
/// is writable again. Only the slow path allocates: a connection whose sends complete never creates a block.
/// </summary>
/// <remarks>
/// Bytes are packed into blocks of <see cref="BlockSize"/> taken from the operating system (<see cref="PageMemory"/>)
/// and each block is given back as soon as it has been sent, or when the connection closes, so memory a slow reader
/// made the server hold leaves the process with it.
/// </remarks>
internal sealed unsafe class SendBacklog
{
    /// <summary>Size of one block: large enough that a big backlog takes few, small enough that a short one costs only the pages it fills.</summary>
    internal const int BlockSize = 1 << 20;

    private readonly Queue<nint> _blocks = new();

    /// <summary>The server's count of bytes held in backlog blocks, across its connections.</summary>
    private readonly HeldMemory _held;

    public SendBacklog(HeldMemory held) => _held = held;

    /// <summary>How much of the oldest block has been sent already.</summary>
    private int _headOffset;

    /// <summary>The newest block (the one appended to).</summary>
    private nint _tail;

    /// <summary>How much of the newest block is filled.</summary>
    private int _tailFill = BlockSize;

    /// <summary>Gets the number of bytes waiting.</summary>
    public long Length { get; private set; }

    public bool IsEmpty => Length == 0;

    /// <summary>Gets the number of separately kept blocks of waiting bytes.</summary>
    public int Segments => _blocks.Count;

    /// <summary>Copies <paramref name="count"/> bytes at <paramref name="source"/> to the end of the backlog.</summary>
    /// <exception cref="OutOfMemoryException">The system has no memory for another block.</exception>
    public void Append(byte* source, int count)
    {
        while (count > 0)
        {
            if (_tailFill == BlockSize)
            {
                var block = PageMemory.Allocate(BlockSize);
                if (block == null)
                    throw new OutOfMemoryException("No memory for a connection's unsent replies.");
                _held.Add(BlockSize);
                _blocks.Enqueue((nint)block);
                _tail = (nint)block;
                _tailFill = 0;
            }
            int chunk = Math.Min(count, BlockSize - _tailFill);
            Buffer.MemoryCopy(source, (byte*)_tail + _tailFill, chunk, chunk);
            _tailFill += chunk;
            source += chunk;
            count -= chunk;
            Length += chunk;
        }
    }

    /// <summary>
    /// Offers the waiting bytes, oldest first, to <paramref name="send"/> until it takes fewer than offered.
    /// <paramref name="send"/> returns how many bytes it took (0 when it would block) or throws.
    /// Returns <see langword="true"/> once nothing is left.
    /// </summary>
    public bool TryDrain<TSend>(ref TSend send) where TSend : struct, ISendBytes
    {
        while (_blocks.TryPeek(out var block))
        {
            int end = _blocks.Count == 1 ? _tailFill : BlockSize;
            int remaining = end - _headOffset;
            int taken = remaining == 0 ? 0 : send.Send((byte*)block + _headOffset, remaining);
            Length -= taken;
            if (taken < remaining)
            {
                _headOffset += taken;
                return false;
            }
            _blocks.Dequeue();
            PageMemory.Free((byte*)block, BlockSize);
            _held.Add(-BlockSize);
            _headOffset = 0;
            if (_blocks.Count == 0)
                _tailFill = BlockSize;
        }
        return true;
    }

    /// <summary>Drops everything (the connection is closing, or passed its output limit).</summary>
    public void Clear()
    {
        while (_blocks.TryDequeue(out var block))
        {
            PageMemory.Free((byte*)block, BlockSize);
            _held.Add(-BlockSize);
        }
        _headOffset = 0;
        _tailFill = BlockSize;
        Length = 0;
    }

    /// <summary>Hands bytes to the transport without blocking.</summary>
    public interface ISendBytes
    {
        /// <summary>Returns how many of the <paramref name="count"/> bytes at <paramref name="bytes"/> were taken; 0 if none could be.</summary>
        int Send(byte* bytes, int count);
    }
}
