namespace Garnet.server;

/// <summary>The kinds of heap object a key can hold; stored in the object record so TYPE needs no object access.</summary>
public enum GarnetObjectType : byte
{
    /// <summary>No object: the key holds a string (or a command accepts any type).</summary>
    None = 0,
    List = 1,
    Hash = 2,
    Set = 3,
    SortedSet = 4,
    Stream = 5,
}
