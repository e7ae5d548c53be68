using System;
using System.Runtime.CompilerServices;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The value of an object record: the object's handle (4 bytes) and type (1 byte) in an 8-byte value,
/// marked by <see cref="RecordInfo.ValueIsObject"/>. Keeping the type in the record lets TYPE, SCAN
/// TYPE and WRONGTYPE checks answer without touching the object.
/// </summary>
public static unsafe class ObjectRecord
{
    /// <summary>Length of an object record's value.</summary>
    public const int ValueLength = 8;

    /// <summary>Whether the record holds an object.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsObject(in LogRecord record) => record.Info.ValueIsObject;

    /// <summary>The object handle of an object record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Handle(in LogRecord record) => *(int*)record.ValuePointer;

    /// <summary>The object type of a record (<see cref="GarnetObjectType.None"/> for a string).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static GarnetObjectType TypeOf(in LogRecord record)
        => record.Info.ValueIsObject ? (GarnetObjectType)record.ValuePointer[4] : GarnetObjectType.None;

    /// <summary>Makes <paramref name="record"/> (whose value is <see cref="ValueLength"/> bytes) refer to an object.</summary>
    public static void Write(ref LogRecord record, int handle, GarnetObjectType type)
    {
        byte* value = record.ValuePointer;
        *(long*)value = 0;
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
        _ => CustomObjectTypes.TypeName(type), // Extensions: a registered type's name
    };
}
