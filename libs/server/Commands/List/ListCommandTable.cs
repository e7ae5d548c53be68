using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The list commands' table entries.</summary>
    private static RespCommandInfo[] ListCommands =>
    [
        new(RespCommand.LPUSH, "LPUSH", -3, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.List | A.Fast, "Prepends one or more elements to a list. Creates the key if it doesn't exist.") { WriteEvent = E.List("lpush") },
        new(RespCommand.RPUSH, "RPUSH", -3, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.List | A.Fast, "Appends one or more elements to a list. Creates the key if it doesn't exist.") { WriteEvent = E.List("rpush") },
        new(RespCommand.LPUSHX, "LPUSHX", -3, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.List | A.Fast, "Prepends one or more elements to a list only when the list exists.") { WriteEvent = E.List("lpush") },
        new(RespCommand.RPUSHX, "RPUSHX", -3, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.List | A.Fast, "Appends an element to a list only when the list exists.") { WriteEvent = E.List("rpush") },
        new(RespCommand.LPOP, "LPOP", -2, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.List | A.Fast, "Returns the first elements in a list after removing it. Deletes the list if the last element was popped.") { WriteEvent = E.List("lpop") },
        new(RespCommand.RPOP, "RPOP", -2, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.List | A.Fast, "Returns and removes the last elements of a list. Deletes the list if the last element was popped.") { WriteEvent = E.List("rpop") },
        new(RespCommand.LLEN, "LLEN", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.List | A.Fast, "Returns the length of a list."),
        new(RespCommand.LRANGE, "LRANGE", 4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.List | A.Slow, "Returns a range of elements from a list."),
        new(RespCommand.LINDEX, "LINDEX", 3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.List | A.Slow, "Returns an element from a list by its index."),
        new(RespCommand.LSET, "LSET", 4, F.Write | F.DenyOom, [S.At(RwUpdate, 1)], A.Write | A.List | A.Slow, "Sets the value of an element in a list by its index.") { WriteEvent = E.List("lset", onSuccess: true) },
        new(RespCommand.LINSERT, "LINSERT", 5, F.Write | F.DenyOom, [S.At(RwInsert, 1)], A.Write | A.List | A.Slow, "Inserts an element before or after another element in a list.") { WriteEvent = E.List("linsert") },
        new(RespCommand.LREM, "LREM", 4, F.Write, [S.At(RwDelete, 1)], A.Write | A.List | A.Slow, "Removes elements from a list. Deletes the list if the last element was removed.") { WriteEvent = E.List("lrem") },
        new(RespCommand.LTRIM, "LTRIM", 4, F.Write, [S.At(RwDelete, 1)], A.Write | A.List | A.Slow, "Removes elements from both ends a list. Deletes the list if all elements were trimmed.") { WriteEvent = E.List("ltrim", onSuccess: true) },
        new(RespCommand.LPOS, "LPOS", -3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.List | A.Slow, "Returns the index of matching elements in a list."),
        new(RespCommand.LMOVE, "LMOVE", 5, F.Write | F.DenyOom, [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)], A.Write | A.List | A.Slow, "Returns an element after popping it from one list and pushing it to another. Deletes the list if the last element was moved.") { WriteEvent = E.NotHere },
        new(RespCommand.RPOPLPUSH, "RPOPLPUSH", 3, F.Write | F.DenyOom, [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)], A.Write | A.List | A.Slow, "Returns the last element of a list after removing and pushing it to another list. Deletes the list if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.LMPOP, "LMPOP", -4, F.Write | F.MovableKeys, [S.NumKeysAt(RwAccessDelete, 1)], A.Write | A.List | A.Slow, "Returns multiple elements from a list after removing them. Deletes the list if the last element was popped.") { WriteEvent = E.ListPop() },
    ];
}
