using System;
using System.Collections.Generic;
using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

/// <summary>
/// The command table, declared once: name, id, arity, flags, key specs (Redis's; the key positions and the access
/// each key needs are derived from them), ACL categories and summary of every command, and the keyspace event of
/// the object writes. Dispatch, arity errors, COMMAND, transactions' key locks, ACL and keyspace notifications all
/// read from it.
/// </summary>
public static partial class CommandTable
{
    private static readonly RespCommandInfo[] s_commands =
    [
        .. CoreCommands,
        .. ListCommands,
        .. HashCommands,
        .. SetCommands,
        .. SortedSetCommands,
        .. StreamCommands,
        .. ETagCommands,
        .. GeoCommands,
        .. BlockingCommands,
        .. SortCommands,
        .. TransactionsCommands,
        .. ScriptingCommands,
        .. PubSubCommands,
        .. ExtensionsCommands,
    ];

    /// <summary>The connection, string, keyspace, server, bitmap and HyperLogLog commands' table entries.</summary>
    private static RespCommandInfo[] CoreCommands =>
    [
        // Connection
        new(RespCommand.PING, "PING", -1, F.Fast, [], A.Fast | A.Connection, "Returns the server's liveliness response."),
        new(RespCommand.ASKING, "ASKING", 1, F.Fast, [], A.Fast | A.Connection, "Signals that a cluster client is following an -ASK redirect."),
        new(RespCommand.READONLY, "READONLY", 1, F.Loading | F.Stale | F.Fast, [], A.Fast | A.Connection, "Enables read-only queries for a connection to a Redis Cluster replica node."),
        new(RespCommand.READWRITE, "READWRITE", 1, F.Loading | F.Stale | F.Fast, [], A.Fast | A.Connection, "Enables read-write queries for a connection to a Redis Cluster replica node."),
        new(RespCommand.ECHO, "ECHO", 2, F.Loading | F.Stale | F.Fast, [], A.Fast | A.Connection, "Returns the given string."),
        new(RespCommand.QUIT, "QUIT", -1, F.NoScript | F.Loading | F.Stale | F.Fast | F.NoAuth | F.AllowBusy, [], A.Fast | A.Connection, "Closes the connection."),
        new(RespCommand.HELLO, "HELLO", -1, F.NoScript | F.Loading | F.Stale | F.Fast | F.NoAuth | F.AllowBusy, [], A.Fast | A.Connection, "Handshakes with the server.") { Secrets = SecretArguments.HelloAuth },
        new(RespCommand.SELECT, "SELECT", 2, F.Loading | F.Stale | F.Fast, [], A.Fast | A.Connection, "Changes the selected database."),
        new(RespCommand.SWAPDB, "SWAPDB", 3, F.Write | F.Fast, [], A.Keyspace | A.Write | A.Fast | A.Dangerous, "Swaps two databases."),
        new(RespCommand.RESET, "RESET", 1, F.NoScript | F.Loading | F.Stale | F.Fast | F.NoAuth | F.AllowBusy, [], A.Fast | A.Connection, "Resets the connection."),
        new(RespCommand.CLIENT, "CLIENT", -2, F.None, [], A.Slow, "A container for client connection commands."),
        new(RespCommand.AUTH, "AUTH", -2, F.NoScript | F.Loading | F.Stale | F.Fast | F.NoAuth | F.AllowBusy, [], A.Fast | A.Connection, "Authenticates the connection.") { Secrets = SecretArguments.All },

        // Strings
        new(RespCommand.GET, "GET", 2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.String | A.Fast, "Returns the string value of a key."),
        new(RespCommand.SET, "SET", -3, F.Write | F.DenyOom, [S.At(RwAccessUpdate | Variable, 1, notes: "RW and ACCESS due to the optional `GET` argument")], A.Write | A.String | A.Slow, "Sets the string value of a key, ignoring its type. The key is created if it doesn't exist."),
        new(RespCommand.SETNX, "SETNX", 3, F.Write | F.DenyOom | F.Fast, [S.At(OwInsert, 1)], A.Write | A.String | A.Fast, "Set the string value of a key only when the key doesn't exist."),
        new(RespCommand.SETEX, "SETEX", 4, F.Write | F.DenyOom, [S.At(OwUpdate, 1)], A.Write | A.String | A.Slow, "Sets the string value and expiration time of a key. Creates the key if it doesn't exist."),
        new(RespCommand.PSETEX, "PSETEX", 4, F.Write | F.DenyOom, [S.At(OwUpdate, 1)], A.Write | A.String | A.Slow, "Sets both string value and expiration time in milliseconds of a key."),
        new(RespCommand.GETSET, "GETSET", 3, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Fast, "Returns the previous string value of a key after setting it to a new value."),
        new(RespCommand.GETDEL, "GETDEL", 2, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.String | A.Fast, "Returns the string value of a key after deleting the key."),
        new(RespCommand.GETEX, "GETEX", -2, F.Write | F.Fast, [S.At(RwAccessUpdate, 1, notes: "RW and UPDATE because it changes the TTL")], A.Write | A.String | A.Fast, "Returns the string value of a key after setting its expiration time."),
        new(RespCommand.MGET, "MGET", -2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1, -1)], A.Read | A.String | A.Fast, "Atomically returns the string values of one or more keys."),
        new(RespCommand.MSET, "MSET", -3, F.Write | F.DenyOom, [S.At(OwUpdate, 1, -1, 2)], A.Write | A.String | A.Slow, "Atomically creates or modifies the string values of one or more keys."),
        new(RespCommand.MSETNX, "MSETNX", -3, F.Write | F.DenyOom, [S.At(OwInsert, 1, -1, 2)], A.Write | A.String | A.Slow, "Atomically modifies the string values of one or more keys only when all keys don't exist."),
        new(RespCommand.INCR, "INCR", 2, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Fast, "Increments the integer value of a key by one. Uses 0 as initial value if the key doesn't exist."),
        new(RespCommand.INCRBY, "INCRBY", 3, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Fast, "Increments the integer value of a key by a number. Uses 0 as initial value if the key doesn't exist."),
        new(RespCommand.DECR, "DECR", 2, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Fast, "Decrements the integer value of a key by one. Uses 0 as initial value if the key doesn't exist."),
        new(RespCommand.DECRBY, "DECRBY", 3, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Fast, "Decrements a number from the integer value of a key. Uses 0 as initial value if the key doesn't exist."),
        new(RespCommand.INCRBYFLOAT, "INCRBYFLOAT", 3, F.Write | F.DenyOom | F.Fast, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Fast, "Increment the floating point value of a key by a number. Uses 0 as initial value if the key doesn't exist."),
        new(RespCommand.APPEND, "APPEND", 3, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.String | A.Fast, "Appends a string to the value of a key. Creates the key if it doesn't exist."),
        new(RespCommand.STRLEN, "STRLEN", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.String | A.Fast, "Returns the length of a string value."),
        new(RespCommand.GETRANGE, "GETRANGE", 4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.String | A.Slow, "Returns a substring of the string stored at a key."),
        new(RespCommand.SUBSTR, "SUBSTR", 4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.String | A.Slow, "Returns a substring from a string value."),
        new(RespCommand.SETRANGE, "SETRANGE", 4, F.Write | F.DenyOom, [S.At(RwUpdate, 1)], A.Write | A.String | A.Slow, "Overwrites a part of a string value with another by an offset. Creates the key if it doesn't exist."),
        new(RespCommand.LCS, "LCS", -3, F.ReadOnly, [S.At(RoAccess, 1, 1)], A.Read | A.String | A.Slow, "Finds the longest common substring."),

        // Keyspace
        new(RespCommand.DEL, "DEL", -2, F.Write, [S.At(RmDelete, 1, -1)], A.Keyspace | A.Write | A.Slow, "Deletes one or more keys."),
        new(RespCommand.UNLINK, "UNLINK", -2, F.Write | F.Fast, [S.At(RmDelete, 1, -1)], A.Keyspace | A.Write | A.Fast, "Asynchronously deletes one or more keys."),
        new(RespCommand.EXISTS, "EXISTS", -2, F.ReadOnly | F.Fast, [S.At(Ro, 1, -1)], A.Keyspace | A.Read | A.Fast, "Determines whether one or more keys exist."),
        new(RespCommand.TYPE, "TYPE", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Keyspace | A.Read | A.Fast, "Determines the type of value stored at a key."),
        new(RespCommand.TOUCH, "TOUCH", -2, F.ReadOnly | F.Fast, [S.At(Ro, 1, -1)], A.Keyspace | A.Read | A.Fast, "Returns the number of existing keys out of those specified after updating the time they were last accessed."),
        new(RespCommand.EXPIRE, "EXPIRE", -3, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Keyspace | A.Write | A.Fast, "Sets the expiration time of a key in seconds."),
        new(RespCommand.PEXPIRE, "PEXPIRE", -3, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Keyspace | A.Write | A.Fast, "Sets the expiration time of a key in milliseconds."),
        new(RespCommand.EXPIREAT, "EXPIREAT", -3, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Keyspace | A.Write | A.Fast, "Sets the expiration time of a key to a Unix timestamp."),
        new(RespCommand.PEXPIREAT, "PEXPIREAT", -3, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Keyspace | A.Write | A.Fast, "Sets the expiration time of a key to a Unix milliseconds timestamp."),
        new(RespCommand.TTL, "TTL", 2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Keyspace | A.Read | A.Fast, "Returns the expiration time in seconds of a key."),
        new(RespCommand.PTTL, "PTTL", 2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Keyspace | A.Read | A.Fast, "Returns the expiration time in milliseconds of a key."),
        new(RespCommand.EXPIRETIME, "EXPIRETIME", 2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Keyspace | A.Read | A.Fast, "Returns the expiration time of a key as a Unix timestamp."),
        new(RespCommand.PEXPIRETIME, "PEXPIRETIME", 2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Keyspace | A.Read | A.Fast, "Returns the expiration time of a key as a Unix milliseconds timestamp."),
        new(RespCommand.PERSIST, "PERSIST", 2, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Keyspace | A.Write | A.Fast, "Removes the expiration time of a key."),
        new(RespCommand.RENAME, "RENAME", 3, F.Write, [S.At(RwAccessDelete, 1), S.At(OwUpdate, 2)], A.Keyspace | A.Write | A.Slow, "Renames a key and overwrites the destination."),
        new(RespCommand.RENAMENX, "RENAMENX", 3, F.Write | F.Fast, [S.At(RwAccessDelete, 1), S.At(OwInsert, 2)], A.Keyspace | A.Write | A.Fast, "Renames a key only when the target key name doesn't exist."),
        new(RespCommand.COPY, "COPY", -3, F.Write | F.DenyOom, [S.At(RoAccess, 1), S.At(OwUpdate, 2)], A.Keyspace | A.Write | A.Slow, "Copies the value of a key to a new key."),
        new(RespCommand.KEYS, "KEYS", 2, F.ReadOnly, [], A.Keyspace | A.Read | A.Slow | A.Dangerous, "Returns all key names that match a pattern."),
        new(RespCommand.SCAN, "SCAN", -2, F.ReadOnly, [], A.Keyspace | A.Read | A.Slow, "Iterates over the key names in the database."),
        new(RespCommand.RANDOMKEY, "RANDOMKEY", 1, F.ReadOnly, [], A.Keyspace | A.Read | A.Slow, "Returns a random key name from the database."),
        new(RespCommand.DBSIZE, "DBSIZE", 1, F.ReadOnly | F.Fast, [], A.Keyspace | A.Read | A.Fast, "Returns the number of keys in the database."),
        new(RespCommand.FLUSHDB, "FLUSHDB", -1, F.Write, [], A.Keyspace | A.Write | A.Slow | A.Dangerous, "Remove all keys from the current database."),
        new(RespCommand.FLUSHALL, "FLUSHALL", -1, F.Write, [], A.Keyspace | A.Write | A.Slow | A.Dangerous, "Removes all keys from all databases."),
        new(RespCommand.DUMP, "DUMP", 2, F.ReadOnly, [S.At(RoAccess, 1)], A.Keyspace | A.Read | A.Slow, "Returns a serialized representation of the value stored at a key."),
        new(RespCommand.MOVE, "MOVE", 3, F.Write | F.Fast, [S.At(RwAccessUpdate, 1)], A.Keyspace | A.Write | A.Fast, "Moves a key to another database."),
        new(RespCommand.OBJECT, "OBJECT", -2, F.None, [], A.Slow, "A container for object introspection commands."),
        new(RespCommand.RESTORE, "RESTORE", -4, F.Write | F.DenyOom, [S.At(OwUpdate, 1)], A.Keyspace | A.Write | A.Slow | A.Dangerous, "Creates a key from the serialized representation of a value."),
        new(RespCommand.RESTORE_ASKING, "RESTORE-ASKING", -4, F.Write | F.DenyOom | F.Asking, [S.At(OwUpdate, 1)], A.Keyspace | A.Write | A.Slow | A.Dangerous, "An internal command for migrating keys in a cluster."),
        new(RespCommand.RESTORE_BATCH, "RESTORE-BATCH", 2, F.Write | F.DenyOom | F.Asking | F.Admin | F.NoScript, [], A.Keyspace | A.Write | A.Slow | A.Dangerous | A.Admin, "An internal command for migrating slots in a cluster: restores a batch of keys."),
        new(RespCommand.MIGRATE, "MIGRATE", -6, F.Write | F.MovableKeys, [S.At(RwAccessDelete, 3), S.AfterKeyword(RwAccessDelete | KeySpecFlags.Incomplete, "KEYS", -2, -1, 1, 0)], A.Keyspace | A.Write | A.Slow | A.Dangerous, "Atomically transfers a key from one Redis instance to another.") { Secrets = SecretArguments.MigrateAuth },

        // Server
        new(RespCommand.INFO, "INFO", -1, F.Loading | F.Stale, [], A.Slow | A.Dangerous, "Returns information and statistics about the server."),
        new(RespCommand.CONFIG, "CONFIG", -2, F.None, [], A.Slow, "A container for server configuration commands."),
        new(RespCommand.TIME, "TIME", 1, F.Loading | F.Stale | F.Fast, [], A.Fast, "Returns the server time."),
        new(RespCommand.DEBUG, "DEBUG", -2, F.Admin | F.NoScript | F.Loading | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "A container for debugging commands."),
        new(RespCommand.SHUTDOWN, "SHUTDOWN", -1, F.Admin | F.NoScript | F.Loading | F.Stale | F.NoMulti | F.AllowBusy, [], A.Admin | A.Slow | A.Dangerous, "Synchronously saves the database(s) to disk and shuts down the server."),
        new(RespCommand.COMMAND, "COMMAND", -1, F.Loading | F.Stale, [], A.Slow | A.Connection, "Returns detailed information about all commands."),
        new(RespCommand.MEMORY, "MEMORY", -2, F.None, [], A.Slow, "A container for memory diagnostics commands."),
        new(RespCommand.LASTSAVE, "LASTSAVE", 1, F.Loading | F.Stale | F.Fast, [], A.Admin | A.Fast | A.Dangerous, "Returns the Unix timestamp of the last successful save to disk."),
        new(RespCommand.ROLE, "ROLE", 1, F.NoScript | F.Loading | F.Stale | F.Fast, [], A.Admin | A.Fast | A.Dangerous, "Returns the replication role."),
        new(RespCommand.SLOWLOG, "SLOWLOG", -2, F.None, [], A.Slow, "A container for slow log commands."),
        new(RespCommand.LATENCY, "LATENCY", -2, F.None, [], A.Slow, "A container for latency diagnostics commands."),
        new(RespCommand.MONITOR, "MONITOR", 1, F.Admin | F.NoScript | F.Loading | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "Listens for all requests received by the server in real-time."),
        new(RespCommand.SAVE, "SAVE", 1, F.Admin | F.NoScript | F.NoMulti, [], A.Admin | A.Slow | A.Dangerous, "Synchronously saves the database(s) to disk."),
        new(RespCommand.BGSAVE, "BGSAVE", -1, F.Admin | F.NoScript, [], A.Admin | A.Slow | A.Dangerous, "Asynchronously saves the database(s) to disk."),
        new(RespCommand.BGREWRITEAOF, "BGREWRITEAOF", 1, F.Admin | F.NoScript, [], A.Admin | A.Slow | A.Dangerous, "Asynchronously rewrites the append-only file to disk."),
        new(RespCommand.WAITAOF, "WAITAOF", 4, F.NoScript, [], A.Slow | A.Connection, "Blocks until all of the preceding write commands sent by the connection are written to the append-only file of the master and/or replicas."),
        new(RespCommand.WAIT, "WAIT", 3, F.None, [], A.Slow | A.Connection, "Blocks until the asynchronous replication of all preceding write commands sent by the connection is completed."),
        new(RespCommand.COMMITAOF, "COMMITAOF", -1, F.Admin | F.NoScript, [], A.Admin | A.Slow | A.Dangerous, "Makes every write logged so far durable (Garnet: a commit of the append-only file)."),
        new(RespCommand.ACL, "ACL", -2, F.None, [], A.Slow, "A container for Access List Control commands."),
        new(RespCommand.LOLWUT, "LOLWUT", -1, F.ReadOnly | F.Fast, [], A.Read | A.Fast, "Displays computer art and the Redis version"),
        new(RespCommand.REPLICAOF, "REPLICAOF", 3, F.Admin | F.NoScript | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "Configures a server as replica of another, or promotes it to a master."),
        new(RespCommand.SLAVEOF, "SLAVEOF", 3, F.Admin | F.NoScript | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "Sets a Redis server as a replica of another, or promotes it to being a master."),
        new(RespCommand.REPLSYNC, "REPLSYNC", 6, F.Admin | F.NoScript | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: a replica asks its primary for the operation log's stream."),
        new(RespCommand.REPLATTACH, "REPLATTACH", 3, F.Admin | F.NoScript | F.Stale | F.NoAuth | F.Loading, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: a primary attaches its stream to a replica with the replica's token."),
        new(RespCommand.REPLFULL, "REPLFULL", -2, F.Admin | F.NoScript | F.Stale | F.NoAuth | F.Loading, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: a checkpoint the replica starts from."),
        new(RespCommand.REPLFAILOVER, "REPLFAILOVER", 2, F.Admin | F.NoScript | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: a replica taking over asks its primary to pause writers and say where its log ends."),
        new(RespCommand.FAILOVER, "FAILOVER", -1, F.Admin | F.NoScript | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "Starts a coordinated failover from a server to one of its replicas."),
        new(RespCommand.REPLPROMOTE, "REPLPROMOTE", 3, F.Admin | F.NoScript | F.Stale | F.NoAuth | F.Loading, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: the primary's FAILOVER has its replica take its place."),
        new(RespCommand.REPLFACK, "REPLFACK", 4, F.Admin | F.NoScript | F.Stale, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: a replica says up to which offset its own log holds the stream durably."),
        new(RespCommand.REPLAPPEND, "REPLAPPEND", 4, F.Admin | F.NoScript | F.Stale | F.NoAuth | F.Loading, [], A.Admin | A.Slow | A.Dangerous, "An internal command of replication: the primary's operation log entries from an offset."),
        new(RespCommand.CLUSTER, "CLUSTER", -2, F.None, [], A.Slow, "A container for Redis Cluster commands."),

        // Bitmaps
        new(RespCommand.SETBIT, "SETBIT", 4, F.Write | F.DenyOom, [S.At(RwAccessUpdate, 1)], A.Write | A.Bitmap | A.Slow, "Sets or clears the bit at offset of the string value. Creates the key if it doesn't exist."),
        new(RespCommand.GETBIT, "GETBIT", 3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.Bitmap | A.Fast, "Returns a bit value by offset."),
        new(RespCommand.BITCOUNT, "BITCOUNT", -2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Bitmap | A.Slow, "Counts the number of set bits (population counting) in a string."),
        new(RespCommand.BITPOS, "BITPOS", -3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Bitmap | A.Slow, "Finds the first set (1) or clear (0) bit in a string."),
        new(RespCommand.BITOP, "BITOP", -4, F.Write | F.DenyOom, [S.At(OwUpdate, 2), S.At(RoAccess, 3, -1)], A.Write | A.Bitmap | A.Slow, "Performs bitwise operations on multiple strings, and stores the result."),
        new(RespCommand.BITFIELD, "BITFIELD", -2, F.Write | F.DenyOom, [S.At(RwUpdate | Access | Variable, 1, notes: "This command allows both access and modification of the key")], A.Write | A.Bitmap | A.Slow, "Performs arbitrary bitfield integer operations on strings."),
        new(RespCommand.BITFIELD_RO, "BITFIELD_RO", -2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.Bitmap | A.Fast, "Performs arbitrary read-only bitfield integer operations on strings."),

        // HyperLogLog
        new(RespCommand.PFADD, "PFADD", -2, F.Write | F.DenyOom | F.Fast, [S.At(RwInsert, 1)], A.Write | A.HyperLogLog | A.Fast, "Adds elements to a HyperLogLog key. Creates the key if it doesn't exist."),
        new(RespCommand.PFCOUNT, "PFCOUNT", -2, F.ReadOnly | F.MayReplicate, [S.At(RwAccess, 1, -1, notes: "RW because it may change the internal representation of the key, and propagate to replicas")], A.Read | A.HyperLogLog | A.Slow, "Returns the approximated cardinality of the set(s) observed by the HyperLogLog key(s)."),
        new(RespCommand.PFMERGE, "PFMERGE", -2, F.Write | F.DenyOom, [S.At(RwAccessInsert, 1), S.At(RoAccess, 2, -1)], A.Write | A.HyperLogLog | A.Slow, "Merges one or more HyperLogLog values into a single key."),
        new(RespCommand.PFDEBUG, "PFDEBUG", 3, F.Write | F.DenyOom | F.Admin, [S.At(RwAccess, 2)], A.Write | A.HyperLogLog | A.Admin | A.Slow | A.Dangerous, "Internal commands for debugging HyperLogLog values."),
        new(RespCommand.PFSELFTEST, "PFSELFTEST", 1, F.Admin, [], A.HyperLogLog | A.Admin | A.Slow | A.Dangerous, "An internal command for testing HyperLogLog values."),
    ];

    private static readonly Dictionary<string, RespCommandInfo> s_byName = BuildNameIndex();
    private static readonly RespCommandInfo?[] s_byId = BuildIdIndex();

    private static Dictionary<string, RespCommandInfo> BuildNameIndex()
    {
        var byName = new Dictionary<string, RespCommandInfo>(StringComparer.Ordinal);
        foreach (var info in s_commands)
            byName.Add(info.Name, info);
        return byName;
    }

    /// <summary>One more than the largest built-in command id: the length of a table indexed by command id.</summary>
    public static int IdCount => s_byId.Length;

    /// <summary>The ACL categories of the object types whose writes publish keyspace events by their row.</summary>
    private const A ObjectTypes = A.List | A.Hash | A.Set | A.SortedSet | A.Stream | A.Geo;

    private static RespCommandInfo?[] BuildIdIndex()
    {
        int max = 0;
        foreach (var info in s_commands)
        {
            max = Math.Max(max, (int)info.Command);
            // A write of an object type declares its keyspace event (or that none is published here): one without
            // fails the server's start-up, not a client's command.
            if ((info.Flags & F.Write) != 0 && (info.AclCategories & ObjectTypes) != 0 && info.WriteEvent == null && info.StoreEvent == null)
                throw new InvalidOperationException($"'{info.Name}': an object write needs a keyspace event (WriteEvent, StoreEvent or ObjectWriteEvent.NotHere) on its row.");
        }
        var byId = new RespCommandInfo?[max + 1];
        foreach (var info in s_commands)
            byId[(int)info.Command] = info;
        return byId;
    }

    /// <summary>The keyspace event of an object write of <paramref name="command"/> (<see cref="RespCommandInfo.WriteEvent"/>), or null.</summary>
    internal static ObjectWriteEvent? WriteEventOf(RespCommand command)
        => (uint)command < (uint)s_byId.Length ? s_byId[(int)command]?.WriteEvent : null;

    /// <summary>Every command, in declaration order.</summary>
    public static IReadOnlyList<RespCommandInfo> All => s_commands;

    /// <summary>The entry of <paramref name="command"/>.</summary>
    public static RespCommandInfo Get(RespCommand command) => s_byId[(int)command] ?? throw new ArgumentOutOfRangeException(nameof(command));

    /// <summary>Looks a command up by name, ignoring ASCII case, without allocating.</summary>
    public static RespCommandInfo? Lookup(ReadOnlySpan<byte> name)
    {
        if (name.Length == 0 || name.Length > 32)
            return null;
        Span<byte> upper = stackalloc byte[name.Length];
        for (int i = 0; i < name.Length; i++)
        {
            byte c = name[i];
            upper[i] = c >= 'a' && c <= 'z' ? (byte)(c - 32) : c;
        }
        return CommandLookup.Find(upper);
    }

    /// <summary>Looks a command up by name (any case).</summary>
    public static RespCommandInfo? Lookup(string name) => s_byName.GetValueOrDefault(name.ToUpperInvariant());

    /// <summary>Open-addressing table from upper-case name bytes to entries, so lookups do not allocate.</summary>
    private static class CommandLookup
    {
        private static readonly RespCommandInfo?[] s_slots = Build();

        private static RespCommandInfo?[] Build()
        {
            var slots = new RespCommandInfo?[(int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)s_commands.Length * 4)];
            foreach (var info in s_commands)
            {
                int slot = Hash(info.NameBytes) & (slots.Length - 1);
                while (slots[slot] != null)
                    slot = (slot + 1) & (slots.Length - 1);
                slots[slot] = info;
            }
            return slots;
        }

        private static int Hash(ReadOnlySpan<byte> name)
        {
            uint hash = 2166136261;
            foreach (byte b in name)
                hash = (hash ^ b) * 16777619;
            return (int)(hash ^ (hash >> 16));
        }

        public static RespCommandInfo? Find(ReadOnlySpan<byte> upperName)
        {
            int slot = Hash(upperName) & (s_slots.Length - 1);
            while (true)
            {
                var candidate = s_slots[slot];
                if (candidate == null)
                    return null;
                if (upperName.SequenceEqual(candidate.NameBytes))
                    return candidate;
                slot = (slot + 1) & (s_slots.Length - 1);
            }
        }
    }
}
