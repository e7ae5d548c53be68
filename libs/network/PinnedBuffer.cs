using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Garnet.networking;

/// <summary>
/// A byte array on the pinned object heap together with its address, or (<see cref="AllocateFromSystem"/>) memory
/// mapped from the system with no array. Managed memory keeps late writers safe: a socket operation or another thread
/// still holding the pointer after the connection closed keeps the array alive instead of touching freed memory.
/// Mapped memory is for the large buffers of transports that receive on their own thread by pointer: it leaves the
/// process as soon as it is freed, where a large managed array would keep the process's memory at its high-water mark.
/// </summary>
internal readonly unsafe struct PinnedBuffer
{
    /// <summary>The array, or null for mapped memory.</summary>
    public readonly byte[]? Array;
    public readonly byte* Pointer;
    private readonly int _mappedLength;

    private PinnedBuffer(byte[] array)
    {
        Array = array;
        Pointer = (byte*)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(array));
        _mappedLength = 0;
    }

    private PinnedBuffer(byte* mapped, int length)
    {
        Array = null;
        Pointer = mapped;
        _mappedLength = length;
    }

    public int Length => Array?.Length ?? _mappedLength;

    /// <summary>Whether the memory is mapped from the system (and must be given back with <see cref="FreeIfMapped"/>).</summary>
    public bool IsMapped => Array is null;

    /// <summary>Maps <paramref name="length"/> bytes from the system; throws <see cref="OutOfMemoryException"/> if it has none.</summary>
    public static PinnedBuffer AllocateFromSystem(int length)
    {
        var mapped = PageMemory.Allocate((nuint)length);
        if (mapped == null)
            throw new OutOfMemoryException("No memory for a connection's receive buffer.");
        return new PinnedBuffer(mapped, length);
    }

    /// <summary>Gives mapped memory back to the system; arrays are left to the GC.</summary>
    public void FreeIfMapped()
    {
        if (Array is null && Pointer != null)
            PageMemory.Free(Pointer, (nuint)_mappedLength);
    }

    public static PinnedBuffer Allocate(int length)
        => new(GC.AllocateUninitializedArray<byte>(length, pinned: true));

    /// <summary>Wraps an array that was allocated pinned by <see cref="Allocate"/>.</summary>
    public static PinnedBuffer Wrap(byte[] pinnedArray) => new(pinnedArray);
}
