using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The sorted sets commands' table entries.</summary>
    private static RespCommandInfo[] SortedSetCommands =>
    [
        new(RespCommand.ZADD, "ZADD", -4, F.Write | F.DenyOom | F.Fast, [S.At(RwUpdate, 1)], A.Write | A.SortedSet | A.Fast, "Adds one or more members to a sorted set, or updates their scores. Creates the key if it doesn't exist.") { WriteEvent = E.SortedSetAdd() },
        new(RespCommand.ZINCRBY, "ZINCRBY", 4, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.SortedSet | A.Fast, "Increments the score of a member in a sorted set.") { WriteEvent = E.SortedSet("zincr", onSuccess: true) },
        new(RespCommand.ZREM, "ZREM", -3, F.Write | F.Fast, [S.At(RwDelete, 1)], A.Write | A.SortedSet | A.Fast, "Removes one or more members from a sorted set. Deletes the sorted set if all members were removed.") { WriteEvent = E.SortedSet("zrem") },
        new(RespCommand.ZCARD, "ZCARD", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.SortedSet | A.Fast, "Returns the number of members in a sorted set."),
        new(RespCommand.ZCOUNT, "ZCOUNT", 4, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Fast, "Returns the count of members in a sorted set that have scores within a range."),
        new(RespCommand.ZLEXCOUNT, "ZLEXCOUNT", 4, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Fast, "Returns the number of members in a sorted set within a lexicographical range."),
        new(RespCommand.ZSCORE, "ZSCORE", 3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Fast, "Returns the score of a member in a sorted set."),
        new(RespCommand.ZMSCORE, "ZMSCORE", -3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Fast, "Returns the score of one or more members in a sorted set."),
        new(RespCommand.ZRANK, "ZRANK", -3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Fast, "Returns the index of a member in a sorted set ordered by ascending scores."),
        new(RespCommand.ZREVRANK, "ZREVRANK", -3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Fast, "Returns the index of a member in a sorted set ordered by descending scores."),
        new(RespCommand.ZRANGE, "ZRANGE", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns members in a sorted set within a range of indexes."),
        new(RespCommand.ZRANGESTORE, "ZRANGESTORE", -5, F.Write | F.DenyOom, [S.At(OwUpdate, 1), S.At(RoAccess, 2)], A.Write | A.SortedSet | A.Slow, "Stores a range of members from sorted set in a key.") { StoreEvent = E.SortedSet("zrangestore") },
        new(RespCommand.ZREVRANGE, "ZREVRANGE", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns members in a sorted set within a range of indexes in reverse order."),
        new(RespCommand.ZRANGEBYSCORE, "ZRANGEBYSCORE", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns members in a sorted set within a range of scores."),
        new(RespCommand.ZREVRANGEBYSCORE, "ZREVRANGEBYSCORE", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns members in a sorted set within a range of scores in reverse order."),
        new(RespCommand.ZRANGEBYLEX, "ZRANGEBYLEX", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns members in a sorted set within a lexicographical range."),
        new(RespCommand.ZREVRANGEBYLEX, "ZREVRANGEBYLEX", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns members in a sorted set within a lexicographical range in reverse order."),
        new(RespCommand.ZREMRANGEBYRANK, "ZREMRANGEBYRANK", 4, F.Write, [S.At(RwDelete, 1)], A.Write | A.SortedSet | A.Slow, "Removes members in a sorted set within a range of indexes. Deletes the sorted set if all members were removed.") { WriteEvent = E.SortedSet("zremrangebyrank") },
        new(RespCommand.ZREMRANGEBYSCORE, "ZREMRANGEBYSCORE", 4, F.Write, [S.At(RwDelete, 1)], A.Write | A.SortedSet | A.Slow, "Removes members in a sorted set within a range of scores. Deletes the sorted set if all members were removed.") { WriteEvent = E.SortedSet("zremrangebyscore") },
        new(RespCommand.ZREMRANGEBYLEX, "ZREMRANGEBYLEX", 4, F.Write, [S.At(RwDelete, 1)], A.Write | A.SortedSet | A.Slow, "Removes members in a sorted set within a lexicographical range. Deletes the sorted set if all members were removed.") { WriteEvent = E.SortedSet("zremrangebylex") },
        new(RespCommand.ZPOPMIN, "ZPOPMIN", -2, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.SortedSet | A.Fast, "Returns the lowest-scoring members from a sorted set after removing them. Deletes the sorted set if the last member was popped.") { WriteEvent = E.SortedSet("zpopmin") },
        new(RespCommand.ZPOPMAX, "ZPOPMAX", -2, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.SortedSet | A.Fast, "Returns the highest-scoring members from a sorted set after removing them. Deletes the sorted set if the last member was popped.") { WriteEvent = E.SortedSet("zpopmax") },
        new(RespCommand.ZMPOP, "ZMPOP", -4, F.Write | F.MovableKeys, [S.NumKeysAt(RwAccessDelete, 1)], A.Write | A.SortedSet | A.Slow, "Returns the highest- or lowest-scoring members from one or more sorted sets after removing them. Deletes the sorted set if the last member was popped.") { WriteEvent = E.SortedSetPop() },
        new(RespCommand.ZRANDMEMBER, "ZRANDMEMBER", -2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns one or more random members from a sorted set."),
        new(RespCommand.ZUNION, "ZUNION", -3, F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns the union of multiple sorted sets."),
        new(RespCommand.ZINTER, "ZINTER", -3, F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns the intersect of multiple sorted sets."),
        new(RespCommand.ZDIFF, "ZDIFF", -3, F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns the difference between multiple sorted sets."),
        new(RespCommand.ZUNIONSTORE, "ZUNIONSTORE", -4, F.Write | F.DenyOom | F.MovableKeys, [S.At(OwUpdate, 1), S.NumKeysAt(RoAccess, 2)], A.Write | A.SortedSet | A.Slow, "Stores the union of multiple sorted sets in a key.") { StoreEvent = E.SortedSet("zunionstore") },
        new(RespCommand.ZINTERSTORE, "ZINTERSTORE", -4, F.Write | F.DenyOom | F.MovableKeys, [S.At(OwUpdate, 1), S.NumKeysAt(RoAccess, 2)], A.Write | A.SortedSet | A.Slow, "Stores the intersect of multiple sorted sets in a key.") { StoreEvent = E.SortedSet("zinterstore") },
        new(RespCommand.ZDIFFSTORE, "ZDIFFSTORE", -4, F.Write | F.DenyOom | F.MovableKeys, [S.At(OwUpdate, 1), S.NumKeysAt(RoAccess, 2)], A.Write | A.SortedSet | A.Slow, "Stores the difference of multiple sorted sets in a key.") { StoreEvent = E.SortedSet("zdiffstore") },
        new(RespCommand.ZINTERCARD, "ZINTERCARD", -3, F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Returns the number of members of the intersect of multiple sorted sets."),
        new(RespCommand.ZSCAN, "ZSCAN", -3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.SortedSet | A.Slow, "Iterates over members and scores of a sorted set."),
    ];
}
