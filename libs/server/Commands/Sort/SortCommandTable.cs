using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>SORT's BY and GET patterns name keys by the sorted values: Redis cannot describe where they are.</summary>
    private static S ByGetPatterns =>
        S.Unknown(RoAccess, "For the optional BY/GET keyword. It is marked 'unknown' because the key names derive from the content of the key we sort");

    /// <summary>SORT's STORE destination.</summary>
    private static S StoreAnywhere =>
        S.Unknown(OwUpdate, "For the optional STORE keyword. It is marked 'unknown' because the keyword can appear anywhere in the argument array");

    /// <summary>The sort commands' table entries.</summary>
    private static RespCommandInfo[] SortCommands =>
    [
        new(RespCommand.SORT, "SORT", -2, F.Write | F.DenyOom | F.MovableKeys, [S.At(RoAccess, 1), ByGetPatterns, StoreAnywhere], A.Write | A.Set | A.SortedSet | A.List | A.Slow | A.Dangerous, "Sorts the elements in a list, a set, or a sorted set, optionally storing the result.") { StoreEvent = E.List("sortstore") },
        new(RespCommand.SORT_RO, "SORT_RO", -2, F.ReadOnly | F.MovableKeys, [S.At(RoAccess, 1), ByGetPatterns], A.Read | A.Set | A.SortedSet | A.List | A.Slow | A.Dangerous, "Returns the sorted elements of a list, a set, or a sorted set."),
    ];
}
