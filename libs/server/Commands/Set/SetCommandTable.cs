using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The set commands' table entries.</summary>
    private static RespCommandInfo[] SetCommands =>
    [
        new(RespCommand.SADD, "SADD", -3, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.Set | A.Fast, "Adds one or more members to a set. Creates the key if it doesn't exist.") { WriteEvent = E.Set("sadd") },
        new(RespCommand.SREM, "SREM", -3, F.Write | F.Fast, [S.At(RwDelete, 1)], A.Write | A.Set | A.Fast, "Removes one or more members from a set. Deletes the set if the last member was removed.") { WriteEvent = E.Set("srem") },
        new(RespCommand.SCARD, "SCARD", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.Set | A.Fast, "Returns the number of members in a set."),
        new(RespCommand.SISMEMBER, "SISMEMBER", 3, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.Set | A.Fast, "Determines whether a member belongs to a set."),
        new(RespCommand.SMISMEMBER, "SMISMEMBER", -3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.Set | A.Fast, "Determines whether multiple members belong to a set."),
        new(RespCommand.SMEMBERS, "SMEMBERS", 2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Set | A.Slow, "Returns all members of a set."),
        new(RespCommand.SPOP, "SPOP", -2, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.Set | A.Fast, "Returns one or more random members from a set after removing them. Deletes the set if the last member was popped.") { WriteEvent = E.Set("spop") },
        new(RespCommand.SRANDMEMBER, "SRANDMEMBER", -2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Set | A.Slow, "Get one or multiple random members from a set"),
        new(RespCommand.SMOVE, "SMOVE", 4, F.Write | F.Fast, [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)], A.Write | A.Set | A.Fast, "Moves a member from one set to another.") { WriteEvent = E.SetMove() },
        new(RespCommand.SINTER, "SINTER", -2, F.ReadOnly, [S.At(RoAccess, 1, -1)], A.Read | A.Set | A.Slow, "Returns the intersect of multiple sets."),
        new(RespCommand.SINTERCARD, "SINTERCARD", -3, F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 1)], A.Read | A.Set | A.Slow, "Returns the number of members of the intersect of multiple sets."),
        new(RespCommand.SINTERSTORE, "SINTERSTORE", -3, F.Write | F.DenyOom, [S.At(OwUpdate, 1), S.At(RoAccess, 2, -1)], A.Write | A.Set | A.Slow, "Stores the intersect of multiple sets in a key.") { StoreEvent = E.Set("sinterstore") },
        new(RespCommand.SUNION, "SUNION", -2, F.ReadOnly, [S.At(RoAccess, 1, -1)], A.Read | A.Set | A.Slow, "Returns the union of multiple sets."),
        new(RespCommand.SUNIONSTORE, "SUNIONSTORE", -3, F.Write | F.DenyOom, [S.At(OwUpdate, 1), S.At(RoAccess, 2, -1)], A.Write | A.Set | A.Slow, "Stores the union of multiple sets in a key.") { StoreEvent = E.Set("sunionstore") },
        new(RespCommand.SDIFF, "SDIFF", -2, F.ReadOnly, [S.At(RoAccess, 1, -1)], A.Read | A.Set | A.Slow, "Returns the difference of multiple sets."),
        new(RespCommand.SDIFFSTORE, "SDIFFSTORE", -3, F.Write | F.DenyOom, [S.At(OwUpdate, 1), S.At(RoAccess, 2, -1)], A.Write | A.Set | A.Slow, "Stores the difference of multiple sets in a key.") { StoreEvent = E.Set("sdiffstore") },
        new(RespCommand.SSCAN, "SSCAN", -3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Set | A.Slow, "Iterates over members of a set."),
    ];
}
