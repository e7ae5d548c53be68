using System;
using System.IO;

namespace Garnet.server;

/// <summary>Creates objects by type: empty ones for absent keys, and ones read back from a payload (RESTORE).</summary>
public static class GarnetObjectFactory
{
    /// <summary>A new, empty object of <paramref name="type"/>.</summary>
    public static GarnetObject Create(GarnetObjectType type) => type switch
    {
        GarnetObjectType.List => new ListObject(),
        GarnetObjectType.Hash => new HashObject(),
        GarnetObjectType.Set => new SetObject(),
        GarnetObjectType.SortedSet => new SortedSetObject(),
        GarnetObjectType.Stream => new StreamObject(),
        _ => CustomObjectTypes.Create(type), // Extensions: registered custom object types
    };

    /// <summary>Reads an object of <paramref name="type"/> written by <see cref="GarnetObject.Serialize"/>.</summary>
    public static GarnetObject Deserialize(GarnetObjectType type, BinaryReader reader) => type switch
    {
        GarnetObjectType.List => ListObject.Deserialize(reader),
        GarnetObjectType.Hash => HashObject.Deserialize(reader),
        GarnetObjectType.Set => SetObject.Deserialize(reader),
        GarnetObjectType.SortedSet => SortedSetObject.Deserialize(reader),
        GarnetObjectType.Stream => StreamObject.Deserialize(reader),
        _ => CustomObjectTypes.Deserialize(type, reader), // Extensions: registered custom object types
    };

    // Read-only commands on absent keys run on these; read-only operations never change an object,
    // so one shared empty instance per type serves every thread.
    private static readonly GarnetObject s_emptyList = new ListObject();
    private static readonly GarnetObject s_emptyHash = new HashObject();
    private static readonly GarnetObject s_emptySet = new SetObject();
    private static readonly GarnetObject s_emptySortedSet = new SortedSetObject();
    private static readonly GarnetObject s_emptyStream = new StreamObject();

    /// <summary>A shared empty object of <paramref name="type"/> for read-only commands on absent keys.</summary>
    public static GarnetObject Empty(GarnetObjectType type) => type switch
    {
        GarnetObjectType.List => s_emptyList,
        GarnetObjectType.Hash => s_emptyHash,
        GarnetObjectType.Set => s_emptySet,
        GarnetObjectType.SortedSet => s_emptySortedSet,
        GarnetObjectType.Stream => s_emptyStream,
        _ => CustomObjectTypes.Empty(type), // Extensions: registered custom object types
    };
}
