using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The descriptor a record holds in its value slot when its value lives out of line
/// (<see cref="RecordInfo.ValueIsExternal"/>): the address of a native block, the value's length and the block's
/// capacity. Values larger than a quarter of a page are kept this way, so a record always fits in a page however
/// large its value (Redis allows strings of 512 MB), and moving such a record moves 24 bytes, not the value.
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
    public const int Size = 24;

    /// <summary>The native block holding the value's bytes, or null once the record gave it up.</summary>
    public byte* Pointer;

    /// <summary>Length of the value in bytes.</summary>
    public long Length;

    /// <summary>Bytes the block holds: the value can grow in place up to this length.</summary>
    public long Capacity;

    /// <summary>Allocates a block of <paramref name="capacity"/> bytes for a value of <paramref name="length"/> bytes.</summary>
    internal static ExternalValue Allocate(long length, long capacity)
    {
        // Not zeroed: the writer fills the value, and zeroing 512 MB would cost as much again as writing it.
        var pointer = (byte*)NativeMemory.Alloc((nuint)Math.Max(capacity, 1));
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

    /// <summary>Frees a block taken with <see cref="TakePointer"/>.</summary>
    internal static void Free(byte* pointer) => NativeMemory.Free(pointer);
}
