using System.Collections.Generic;

namespace Garnet.server;

/// <summary>
/// What COMMAND DOCS reports beyond the table's summary: the Redis version that introduced each
/// command and its documentation group.
/// </summary>
internal static class CommandDocs
{
    private static readonly Dictionary<RespCommand, string> s_since = new()
    {
        [RespCommand.ECHO] = "1.0.0",
        [RespCommand.HELLO] = "6.0.0",
        [RespCommand.SWAPDB] = "4.0.0",
        [RespCommand.RESET] = "6.2.0",
        [RespCommand.CLIENT] = "2.4.0",
        [RespCommand.SETEX] = "2.0.0",
        [RespCommand.PSETEX] = "2.6.0",
        [RespCommand.GETDEL] = "6.2.0",
        [RespCommand.GETEX] = "6.2.0",
        [RespCommand.MSET] = "1.0.1",
        [RespCommand.MSETNX] = "1.0.1",
        [RespCommand.INCRBYFLOAT] = "2.6.0",
        [RespCommand.APPEND] = "2.0.0",
        [RespCommand.STRLEN] = "2.2.0",
        [RespCommand.GETRANGE] = "2.4.0",
        [RespCommand.SETRANGE] = "2.2.0",
        [RespCommand.LCS] = "7.0.0",
        [RespCommand.UNLINK] = "4.0.0",
        [RespCommand.TOUCH] = "3.2.1",
        [RespCommand.PEXPIRE] = "2.6.0",
        [RespCommand.EXPIREAT] = "1.2.0",
        [RespCommand.PEXPIREAT] = "2.6.0",
        [RespCommand.PTTL] = "2.6.0",
        [RespCommand.EXPIRETIME] = "7.0.0",
        [RespCommand.PEXPIRETIME] = "7.0.0",
        [RespCommand.PERSIST] = "2.2.0",
        [RespCommand.COPY] = "6.2.0",
        [RespCommand.SCAN] = "2.8.0",
        [RespCommand.DUMP] = "2.6.0",
        [RespCommand.RESTORE] = "2.6.0",
        [RespCommand.MOVE] = "1.0.0",
        [RespCommand.OBJECT] = "2.2.3",
        [RespCommand.MIGRATE] = "2.6.0",
        [RespCommand.RESTORE_ASKING] = "3.0.0",
        [RespCommand.CONFIG] = "2.0.0",
        [RespCommand.TIME] = "2.6.0",
        [RespCommand.COMMAND] = "2.8.13",
        [RespCommand.MEMORY] = "4.0.0",
        [RespCommand.SLOWLOG] = "2.2.12",
        [RespCommand.LATENCY] = "2.8.13",
        [RespCommand.CLUSTER] = "3.0.0",
        [RespCommand.LOLWUT] = "5.0.0",
        [RespCommand.PFADD] = "2.8.9",
        [RespCommand.PFCOUNT] = "2.8.9",
        [RespCommand.PFMERGE] = "2.8.9",
        [RespCommand.PFDEBUG] = "2.8.9",
        [RespCommand.PFSELFTEST] = "2.8.9",
        [RespCommand.SSUBSCRIBE] = "7.0.0",
        [RespCommand.SUNSUBSCRIBE] = "7.0.0",
        [RespCommand.SPUBLISH] = "7.0.0",
        [RespCommand.XADD] = "5.0.0",
        [RespCommand.XLEN] = "5.0.0",
        [RespCommand.XRANGE] = "5.0.0",
        [RespCommand.XREVRANGE] = "5.0.0",
        [RespCommand.XDEL] = "5.0.0",
        [RespCommand.XTRIM] = "5.0.0",
        [RespCommand.XREAD] = "5.0.0",
        [RespCommand.XSETID] = "5.0.0",
        [RespCommand.XGROUP] = "5.0.0",
        [RespCommand.XREADGROUP] = "5.0.0",
        [RespCommand.XACK] = "5.0.0",
        [RespCommand.XPENDING] = "5.0.0",
        [RespCommand.XCLAIM] = "5.0.0",
        [RespCommand.XAUTOCLAIM] = "6.2.0",
        [RespCommand.XINFO] = "5.0.0",
    };

    private static readonly Dictionary<string, string> s_subcommandSince = new()
    {
        ["CLUSTER|ADDSLOTS"] = "3.0.0",
        ["CLUSTER|ADDSLOTSRANGE"] = "7.0.0",
        ["CLUSTER|BUMPEPOCH"] = "3.0.0",
        ["CLUSTER|COUNT-FAILURE-REPORTS"] = "3.0.0",
        ["CLUSTER|COUNTKEYSINSLOT"] = "3.0.0",
        ["CLUSTER|DELSLOTS"] = "3.0.0",
        ["CLUSTER|DELSLOTSRANGE"] = "7.0.0",
        ["CLUSTER|FAILOVER"] = "3.0.0",
        ["CLUSTER|FLUSHSLOTS"] = "3.0.0",
        ["CLUSTER|FORGET"] = "3.0.0",
        ["CLUSTER|GETKEYSINSLOT"] = "3.0.0",
        ["CLUSTER|HELP"] = "5.0.0",
        ["CLUSTER|INFO"] = "3.0.0",
        ["CLUSTER|KEYSLOT"] = "3.0.0",
        ["CLUSTER|LINKS"] = "7.0.0",
        ["CLUSTER|MEET"] = "3.0.0",
        ["CLUSTER|MYID"] = "3.0.0",
        ["CLUSTER|MYSHARDID"] = "7.2.0",
        ["CLUSTER|NODES"] = "3.0.0",
        ["CLUSTER|REPLICAS"] = "5.0.0",
        ["CLUSTER|REPLICATE"] = "3.0.0",
        ["CLUSTER|RESET"] = "3.0.0",
        ["CLUSTER|SAVECONFIG"] = "3.0.0",
        ["CLUSTER|SET-CONFIG-EPOCH"] = "3.0.0",
        ["CLUSTER|SETSLOT"] = "3.0.0",
        ["CLUSTER|SHARDS"] = "7.0.0",
        ["CLUSTER|SLAVES"] = "3.0.0",
        ["CLUSTER|SLOTS"] = "3.0.0",
        ["CLIENT|ID"] = "5.0.0",
        ["CLIENT|INFO"] = "6.2.0",
        ["CLIENT|LIST"] = "2.4.0",
        ["CLIENT|KILL"] = "2.4.0",
        ["CLIENT|GETNAME"] = "2.6.9",
        ["CLIENT|SETNAME"] = "2.6.9",
        ["CLIENT|SETINFO"] = "7.2.0",
        ["CLIENT|NO-EVICT"] = "7.0.0",
        ["CLIENT|NO-TOUCH"] = "7.2.0",
        ["CLIENT|REPLY"] = "3.2.0",
        ["CLIENT|UNBLOCK"] = "5.0.0",
        ["CLIENT|TRACKING"] = "6.0.0",
        ["CLIENT|CACHING"] = "6.0.0",
        ["CLIENT|GETREDIR"] = "6.0.0",
        ["CLIENT|TRACKINGINFO"] = "6.2.0",
        ["CLIENT|HELP"] = "5.0.0",
        ["CLIENT|PAUSE"] = "3.0.0",
        ["CLIENT|UNPAUSE"] = "6.2.0",
        ["CONFIG|GET"] = "2.0.0",
        ["CONFIG|SET"] = "2.0.0",
        ["CONFIG|RESETSTAT"] = "2.0.0",
        ["CONFIG|REWRITE"] = "2.8.0",
        ["CONFIG|HELP"] = "5.0.0",
        ["COMMAND|COUNT"] = "2.8.13",
        ["COMMAND|INFO"] = "2.8.13",
        ["COMMAND|DOCS"] = "7.0.0",
        ["COMMAND|GETKEYS"] = "2.8.13",
        ["COMMAND|GETKEYSANDFLAGS"] = "7.0.0",
        ["COMMAND|LIST"] = "7.0.0",
        ["COMMAND|HELP"] = "5.0.0",
        ["MEMORY|USAGE"] = "4.0.0",
        ["MEMORY|PURGE"] = "4.0.0",
        ["MEMORY|HELP"] = "4.0.0",
        ["OBJECT|ENCODING"] = "2.2.3",
        ["OBJECT|FREQ"] = "4.0.0",
        ["OBJECT|HELP"] = "6.2.0",
        ["OBJECT|IDLETIME"] = "2.2.3",
        ["OBJECT|REFCOUNT"] = "2.2.3",
        ["MEMORY|STATS"] = "4.0.0",
        ["MEMORY|DOCTOR"] = "4.0.0",
        ["MEMORY|MALLOC-STATS"] = "4.0.0",
        ["SLOWLOG|GET"] = "2.2.12",
        ["SLOWLOG|LEN"] = "2.2.12",
        ["SLOWLOG|RESET"] = "2.2.12",
        ["SLOWLOG|HELP"] = "6.2.0",
        ["LATENCY|LATEST"] = "2.8.13",
        ["LATENCY|HISTORY"] = "2.8.13",
        ["LATENCY|RESET"] = "2.8.13",
        ["LATENCY|GRAPH"] = "2.8.13",
        ["LATENCY|DOCTOR"] = "2.8.13",
        ["LATENCY|HISTOGRAM"] = "7.0.0",
        ["LATENCY|HELP"] = "2.8.13",
    };

    /// <summary>The Redis version that introduced <paramref name="info"/> (a command or "parent|sub").</summary>
    public static string Since(RespCommandInfo info)
    {
        if (info.Name.Contains('|'))
            return s_subcommandSince.GetValueOrDefault(info.Name, "1.0.0");
        return s_since.GetValueOrDefault(info.Command, "1.0.0");
    }

    /// <summary>The documentation group of <paramref name="command"/> ("string", "generic", "server"...).</summary>
    public static string Group(RespCommandInfo command)
    {
        switch (command.Command)
        {
            case RespCommand.SWAPDB:
            case RespCommand.DBSIZE:
            case RespCommand.FLUSHDB:
            case RespCommand.FLUSHALL:
                return "server";
            case RespCommand.OBJECT:
                return "generic";
            case RespCommand.CLUSTER:
            case RespCommand.ASKING:
            case RespCommand.READONLY:
            case RespCommand.READWRITE:
                return "cluster";
            case RespCommand.XGROUP:
            case RespCommand.XINFO:
                return "stream";
        }
        var categories = command.AclCategories;
        if ((categories & AclCategories.String) != 0)
            return "string";
        if ((categories & AclCategories.List) != 0)
            return "list";
        if ((categories & AclCategories.Set) != 0)
            return "set";
        if ((categories & AclCategories.SortedSet) != 0)
            return "sorted-set";
        if ((categories & AclCategories.Hash) != 0)
            return "hash";
        if ((categories & AclCategories.Bitmap) != 0)
            return "bitmap";
        if ((categories & AclCategories.HyperLogLog) != 0)
            return "hyperloglog";
        if ((categories & AclCategories.Geo) != 0)
            return "geo";
        if ((categories & AclCategories.Stream) != 0)
            return "stream";
        if ((categories & AclCategories.PubSub) != 0)
            return "pubsub";
        if ((categories & AclCategories.Transaction) != 0)
            return "transactions";
        if ((categories & AclCategories.Scripting) != 0)
            return "scripting";
        if ((categories & AclCategories.Keyspace) != 0)
            return "generic";
        if ((categories & AclCategories.Connection) != 0 && command.Command != RespCommand.COMMAND)
            return "connection";
        return "server";
    }
}
