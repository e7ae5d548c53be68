using System;
using System.Runtime.InteropServices;

namespace Garnet.server;

/// <summary>
/// A session-owned native buffer that engine callbacks copy values into, so a reply can be written
/// after the bucket latch is released. It grows to the largest value seen and is reused.
/// </summary>
public sealed unsafe class OutputBuffer : IDisposable
{
    private byte* _memory;
    private int _capacity;

    private readonly int _initialCapacity;

    /// <remarks>Nothing is allocated until the first value is copied in: a session that reads nothing holds no buffer.</remarks>
    public OutputBuffer(int initialCapacity = 4096) => _initialCapacity = initialCapacity;

    /// <summary>Bytes copied in by the last callback.</summary>
    public int Length { get; private set; }

    /// <summary>The copied bytes.</summary>
    public ReadOnlySpan<byte> Span => new(_memory, Length);

    /// <summary>Copies <paramref name="value"/> in, replacing what was there.</summary>
    public void Set(ReadOnlySpan<byte> value)
    {
        Ensure(value.Length);
        value.CopyTo(new Span<byte>(_memory, value.Length));
        Length = value.Length;
    }

    /// <summary>Makes room for <paramref name="length"/> bytes and returns them for the caller to fill.</summary>
    public Span<byte> GetWritable(int length)
    {
        Ensure(length);
        Length = length;
        return new Span<byte>(_memory, length);
    }

    private void Ensure(int length)
    {
        if (length <= _capacity && _memory != null)
            return;
        int capacity = Math.Max(Math.Max(length, _initialCapacity), _capacity * 2);
        _memory = (byte*)NativeMemory.Realloc(_memory, (nuint)capacity);
        _capacity = capacity;
    }

    public void Dispose()
    {
        if (_memory != null)
        {
            NativeMemory.Free(_memory);
            _memory = null;
        }
    }
}
