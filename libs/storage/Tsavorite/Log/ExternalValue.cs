using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The descriptor a record holds in its value slot when its value lives out of line
/// (<see cref="RecordInfo.ValueIsExternal"/>): the address of a native block, the value's length, the block's
/// capacity and, once its page was flushed with the storage tier, where the bytes are in the object log. Values larger than a quarter of a page are kept this way, so a record always fits in a page however
/// large its value (Redis allows strings of 512 MB), and moving such a record moves 32 bytes, not the value.
/// </summary>
/// <remarks>
/// Ownership: the record whose descriptor has a non-null <see cref="Pointer"/> owns the block. Whoever drops the
/// record (supersedes, deletes, revives, evicts it, or frees its page) takes the pointer with an atomic exchange
/// (<see cref="TakePointer"/>), so a block is freed once even when two paths race to drop the same record.
/// </remarks>
[StructLayout(LayoutKind.Sequential, Size = Size)]
public unsafe struct ExternalValue
{
    /// <summary>Bytes the descriptor takes in the record's value slot.</summary>
    public const int Size = 32;

    /// <summary>The native block holding the value's bytes, or null once the record gave it up.</summary>
    public byte* Pointer;

    /// <summary>Length of the value in bytes.</summary>
    public long Length;

    /// <summary>Bytes the block holds: the value can grow in place up to this length.</summary>
    public long Capacity;

    /// <summary>
    /// The object log entry holding the value's bytes, written when the record's page was flushed (the storage tier);
    /// 0 before. In a record read back from the device, <see cref="Pointer"/> is stale and this is where the value is.
    /// </summary>
    public long DeviceAddress;

    /// <summary>Allocates a block of <paramref name="capacity"/> bytes for a value of <paramref name="length"/> bytes.</summary>
    internal static ExternalValue Allocate(long length, long capacity)
    {
        // Not zeroed: the writer fills the value, and zeroing 512 MB would cost as much again as writing it.
        var pointer = (byte*)NativeMemory.Alloc((nuint)Math.Max(capacity, 1));
        if (pointer == null)
            throw new OutOfMemoryException($"A block of {capacity} bytes for a large value could not be allocated.");
        return new ExternalValue { Pointer = pointer, Length = length, Capacity = capacity };
    }

    /// <summary>Takes the block from the descriptor at <paramref name="descriptor"/>, leaving an empty value; null if it had none.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static byte* TakePointer(ExternalValue* descriptor, out long capacity)
    {
        var pointer = (byte*)Interlocked.Exchange(ref *(nint*)&descriptor->Pointer, 0);
        capacity = pointer == null ? 0 : descriptor->Capacity;
        if (pointer != null)
        {
            descriptor->Length = 0;
            descriptor->Capacity = 0;
        }
        return pointer;
    }

    /// <summary>
    /// Makes the descriptor of a record copy read back from the device hold no block: its pointer was the in-memory
    /// block's when the page was written. The value then reads as empty until it is loaded from the object log.
    /// </summary>
    internal static void ForgetStalePointer(ExternalValue* descriptor)
    {
        descriptor->Pointer = null;
        descriptor->Length = 0;
        descriptor->Capacity = 0;
    }

    /// <summary>Frees a block taken with <see cref="TakePointer"/>.</summary>
    internal static void Free(byte* pointer) => NativeMemory.Free(pointer);
}
