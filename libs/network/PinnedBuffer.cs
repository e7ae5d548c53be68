using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Garnet.networking;

/// <summary>
/// A byte array on the pinned object heap together with its address. Managed (rather than native) memory keeps
/// late writers safe: a socket operation or another thread still holding the pointer after the connection closed
/// keeps the array alive instead of touching freed memory.
/// </summary>
internal readonly unsafe struct PinnedBuffer
{
    public readonly byte[] Array;
    public readonly byte* Pointer;

    private PinnedBuffer(byte[] array)
    {
        Array = array;
        Pointer = (byte*)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(array));
    }

    public int Length => Array.Length;

    public static PinnedBuffer Allocate(int length)
        => new(GC.AllocateUninitializedArray<byte>(length, pinned: true));

    /// <summary>Wraps an array that was allocated pinned by <see cref="Allocate"/>.</summary>
    public static PinnedBuffer Wrap(byte[] pinnedArray) => new(pinnedArray);
}
