using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The blocking commands' table entries.</summary>
    private static RespCommandInfo[] BlockingCommands =>
    [
        new(RespCommand.BLPOP, "BLPOP", -3, F.Write | F.Blocking, [S.At(RwAccessDelete, 1, -2)], A.Write | A.List | A.Slow | A.Blocking, "Removes and returns the first element in a list. Blocks until an element is available otherwise. Deletes the list if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.BRPOP, "BRPOP", -3, F.Write | F.Blocking, [S.At(RwAccessDelete, 1, -2)], A.Write | A.List | A.Slow | A.Blocking, "Removes and returns the last element in a list. Blocks until an element is available otherwise. Deletes the list if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.BLMOVE, "BLMOVE", 6, F.Write | F.DenyOom | F.Blocking, [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)], A.Write | A.List | A.Slow | A.Blocking, "Pops an element from a list, pushes it to another list and returns it. Blocks until an element is available otherwise. Deletes the list if the last element was moved.") { WriteEvent = E.NotHere },
        new(RespCommand.BRPOPLPUSH, "BRPOPLPUSH", 4, F.Write | F.DenyOom | F.Blocking, [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)], A.Write | A.List | A.Slow | A.Blocking, "Pops an element from a list, pushes it to another list and returns it. Block until an element is available otherwise. Deletes the list if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.BLMPOP, "BLMPOP", -5, F.Write | F.Blocking | F.MovableKeys, [S.NumKeysAt(RwAccessDelete, 2)], A.Write | A.List | A.Slow | A.Blocking, "Pops the first element from one of multiple lists. Blocks until an element is available otherwise. Deletes the list if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.BZPOPMIN, "BZPOPMIN", -3, F.Write | F.Fast | F.Blocking, [S.At(RwAccessDelete, 1, -2)], A.Write | A.SortedSet | A.Fast | A.Blocking, "Removes and returns the member with the lowest score from one or more sorted sets. Blocks until a member is available otherwise. Deletes the sorted set if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.BZPOPMAX, "BZPOPMAX", -3, F.Write | F.Fast | F.Blocking, [S.At(RwAccessDelete, 1, -2)], A.Write | A.SortedSet | A.Fast | A.Blocking, "Removes and returns the member with the highest score from one or more sorted sets. Blocks until a member available otherwise.  Deletes the sorted set if the last element was popped.") { WriteEvent = E.NotHere },
        new(RespCommand.BZMPOP, "BZMPOP", -5, F.Write | F.Blocking | F.MovableKeys, [S.NumKeysAt(RwAccessDelete, 2)], A.Write | A.SortedSet | A.Slow | A.Blocking, "Removes and returns a member by score from one or more sorted sets. Blocks until a member is available otherwise. Deletes the sorted set if the last element was popped.") { WriteEvent = E.NotHere },
    ];
}
