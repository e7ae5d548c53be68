using System;
using System.Buffers;

namespace Tsavorite;

/// <summary>
/// Exposes a block of native memory as <see cref="Memory{T}"/>, so that APIs taking
/// <see cref="Memory{T}"/> (such as <see cref="System.IO.RandomAccess"/>) can read and write it
/// without copying through a managed buffer.
/// </summary>
/// <remarks>
/// The manager does not own the memory: the creator keeps it alive and frees it. Pinning is a no-op
/// because native memory never moves.
/// </remarks>
internal sealed unsafe class NativeMemoryManager : MemoryManager<byte>
{
    private readonly byte* _pointer;
    private readonly int _length;

    /// <summary>
    /// Wraps <paramref name="length"/> bytes of native memory starting at <paramref name="pointer"/>.
    /// </summary>
    public NativeMemoryManager(byte* pointer, int length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        if (pointer == null && length != 0)
        {
            throw new ArgumentNullException(nameof(pointer));
        }

        _pointer = pointer;
        _length = length;
    }

    /// <inheritdoc/>
    public override Span<byte> GetSpan() => new(_pointer, _length);

    /// <inheritdoc/>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        if ((uint)elementIndex > (uint)_length)
        {
            throw new ArgumentOutOfRangeException(nameof(elementIndex));
        }

        return new MemoryHandle(_pointer + elementIndex);
    }

    /// <inheritdoc/>
    public override void Unpin()
    {
    }

    /// <inheritdoc/>
    protected override void Dispose(bool disposing)
    {
    }
}
