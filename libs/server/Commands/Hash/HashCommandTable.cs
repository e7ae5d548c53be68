using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The hash commands' table entries.</summary>
    private static RespCommandInfo[] HashCommands =>
    [
        new(RespCommand.HSET, "HSET", -4, F.Write | F.DenyOom | F.Fast, [S.At(RwUpdate, 1)], A.Write | A.Hash | A.Fast, "Creates or modifies the value of a field in a hash.") { WriteEvent = E.Hash("hset", onSuccess: true) },
        new(RespCommand.HSETNX, "HSETNX", 4, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.Hash | A.Fast, "Sets the value of a field in a hash only when the field doesn't exist.") { WriteEvent = E.Hash("hset") },
        new(RespCommand.HGET, "HGET", 3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Fast, "Returns the value of a field in a hash."),
        new(RespCommand.HMGET, "HMGET", -3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Fast, "Returns the values of all fields in a hash."),
        new(RespCommand.HMSET, "HMSET", -4, F.Write | F.DenyOom | F.Fast, [S.At(RwUpdate, 1)], A.Write | A.Hash | A.Fast, "Sets the values of multiple fields.") { WriteEvent = E.Hash("hset", onSuccess: true) },
        new(RespCommand.HDEL, "HDEL", -3, F.Write | F.Fast, [S.At(RwDelete, 1)], A.Write | A.Hash | A.Fast, "Deletes one or more fields and their values from a hash. Deletes the hash if no fields remain.") { WriteEvent = E.Hash("hdel") },
        new(RespCommand.HLEN, "HLEN", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.Hash | A.Fast, "Returns the number of fields in a hash."),
        new(RespCommand.HSTRLEN, "HSTRLEN", 3, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.Hash | A.Fast, "Returns the length of the value of a field."),
        new(RespCommand.HEXISTS, "HEXISTS", 3, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.Hash | A.Fast, "Determines whether a field exists in a hash."),
        new(RespCommand.HKEYS, "HKEYS", 2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Slow, "Returns all fields in a hash."),
        new(RespCommand.HVALS, "HVALS", 2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Slow, "Returns all values in a hash."),
        new(RespCommand.HGETALL, "HGETALL", 2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Slow, "Returns all fields and values in a hash."),
        new(RespCommand.HINCRBY, "HINCRBY", 4, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.Hash | A.Fast, "Increments the integer value of a field in a hash by a number. Uses 0 as initial value if the field doesn't exist.") { WriteEvent = E.Hash("hincrby", onSuccess: true) },
        new(RespCommand.HINCRBYFLOAT, "HINCRBYFLOAT", 4, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.Hash | A.Fast, "Increments the floating point value of a field by a number. Uses 0 as initial value if the field doesn't exist.") { WriteEvent = E.Hash("hincrbyfloat", onSuccess: true) },
        new(RespCommand.HRANDFIELD, "HRANDFIELD", -2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Slow, "Returns one or more random fields from a hash."),
        new(RespCommand.HSCAN, "HSCAN", -3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Hash | A.Slow, "Iterates over fields and values of a hash."),
    ];
}
