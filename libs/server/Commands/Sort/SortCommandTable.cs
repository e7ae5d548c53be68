using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using K = Garnet.server.KeyAccessSpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The sort commands' table entries.</summary>
    private static RespCommandInfo[] SortCommands =>
    [
        new(RespCommand.SORT, "SORT", -2, F.Write | F.DenyOom | F.MovableKeys, 1, 1, 1, K.ReadThenWrite, A.Write | A.Set | A.SortedSet | A.List | A.Slow | A.Dangerous, "Sorts the elements in a list, a set, or a sorted set, optionally storing the result."),
        new(RespCommand.SORT_RO, "SORT_RO", -2, F.ReadOnly | F.MovableKeys, 1, 1, 1, K.Read, A.Read | A.Set | A.SortedSet | A.List | A.Slow | A.Dangerous, "Returns the sorted elements of a list, a set, or a sorted set."),
    ];
}
