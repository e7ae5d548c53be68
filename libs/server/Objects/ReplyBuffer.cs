using System;
using System.Runtime.InteropServices;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// A growable native buffer that object commands write their replies into while the engine holds the
/// key's latch; the session copies it to the connection afterwards, so a slow client never stalls a
/// latch holder. Flushing only commits the written bytes and grows the buffer.
/// </summary>
public sealed unsafe class ReplyBuffer : IResponseSink, IDisposable
{
    private const int MinimumRoom = 4096;

    private byte* _memory;
    private int _capacity;
    private int _committed;

    /// <remarks>The memory is allocated at the first write: a session that runs no object command holds none.</remarks>
    public ReplyBuffer(int initialCapacity = 16 * 1024) => _capacity = initialCapacity;

    /// <inheritdoc/>
    public byte* BufferStart
    {
        get
        {
            if (_memory == null)
                _memory = (byte*)NativeMemory.Alloc((nuint)_capacity);
            return _memory + _committed;
        }
    }

    /// <inheritdoc/>
    public int BufferLength => _capacity - _committed;

    /// <inheritdoc/>
    public bool Flush(int length)
    {
        _committed += length;
        if (_capacity - _committed < Math.Max(MinimumRoom, _committed))
        {
            // Doubling stops at the largest span; a reply that still does not fit fails its command with an exception.
            int capacity = (int)Math.Min(2L * _capacity, Array.MaxLength);
            if (capacity - _committed < MinimumRoom)
                throw new InvalidOperationException("The reply is larger than the largest reply buffer.");
            _memory = (byte*)NativeMemory.Realloc(_memory, (nuint)capacity);
            _capacity = capacity;
        }
        return true;
    }

    /// <summary>The bytes committed so far.</summary>
    public ReadOnlySpan<byte> Written => new(_memory, _committed);

    /// <summary>Forgets the written bytes (after they were copied out).</summary>
    public void Reset() => _committed = 0;

    public void Dispose()
    {
        if (_memory != null)
        {
            NativeMemory.Free(_memory);
            _memory = null;
        }
    }
}
