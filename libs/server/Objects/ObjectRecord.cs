using System;
using System.Runtime.CompilerServices;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The value of an object record, marked by <see cref="RecordInfo.ValueIsObject"/>: the object's handle
/// (4 bytes), its type (1 byte), 3 spare bytes, and the address of its serialized copy in the object
/// log (8 bytes, 0 until a flush writes one). Keeping the type in the record lets TYPE, SCAN TYPE and
/// WRONGTYPE checks answer without touching the object. In memory the handle is what counts; in a
/// flushed page the handle means nothing and the object log address leads to the object's bytes.
/// A handle of 0 means the record no longer owns an object (superseded or deleted).
/// </summary>
public static unsafe class ObjectRecord
{
    /// <summary>Length of an object record's value.</summary>
    public const int ValueLength = 16;

    private const int ObjectLogAddressOffset = 8;

    /// <summary>Whether the record holds an object.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsObject(in LogRecord record) => record.Info.ValueIsObject;

    /// <summary>The object handle of an object record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Handle(in LogRecord record) => Volatile.Read(ref *(int*)record.ValuePointer);

    /// <summary>
    /// Makes <paramref name="record"/> stop referring to its object (it was moved to a newer record or
    /// released), so a flush of the record's page does not serialize it. Returns the handle it had.
    /// </summary>
    public static int Detach(in LogRecord record) => Interlocked.Exchange(ref *(int*)record.ValuePointer, 0);

    /// <summary>Makes a copy of an object record read back from the device refer to <paramref name="handle"/> (0: none).</summary>
    public static void SetHandle(ref LogRecord record, int handle) => Volatile.Write(ref *(int*)record.ValuePointer, handle);

    /// <summary>The object log address a flush noted in the record, or 0.</summary>
    public static long ObjectLogAddress(in LogRecord record) => *(long*)(record.ValuePointer + ObjectLogAddressOffset);

    /// <summary>Notes where a flush serialized the record's object (0: nowhere).</summary>
    public static void SetObjectLogAddress(ref LogRecord record, long address) => *(long*)(record.ValuePointer + ObjectLogAddressOffset) = address;

    /// <summary>The object type of a record (<see cref="GarnetObjectType.None"/> for a string).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static GarnetObjectType TypeOf(in LogRecord record)
        => record.Info.ValueIsObject ? (GarnetObjectType)record.ValuePointer[4] : GarnetObjectType.None;

    /// <summary>Makes <paramref name="record"/> (whose value is <see cref="ValueLength"/> bytes) refer to an object.</summary>
    public static void Write(ref LogRecord record, int handle, GarnetObjectType type)
    {
        byte* value = record.ValuePointer;
        *(long*)value = 0;
        *(long*)(value + ObjectLogAddressOffset) = 0;
        *(int*)value = handle;
        value[4] = (byte)type;
        record.Info.ValueIsObject = true;
    }

    /// <summary>The name TYPE reports for <paramref name="type"/>.</summary>
    public static ReadOnlySpan<byte> TypeName(GarnetObjectType type) => type switch
    {
        GarnetObjectType.None => "string"u8,
        GarnetObjectType.List => "list"u8,
        GarnetObjectType.Hash => "hash"u8,
        GarnetObjectType.Set => "set"u8,
        GarnetObjectType.SortedSet => "zset"u8,
        GarnetObjectType.Stream => "stream"u8,
        _ => CustomObjectTypes.TypeName(type), // Extensions: a registered type's name
    };
}
