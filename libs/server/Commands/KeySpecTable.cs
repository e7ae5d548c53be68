using System;
using System.Collections.Generic;
using F = Garnet.server.KeySpecFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

/// <summary>
/// Redis 7.2's key specifications of every command with keys, by command name ("XGROUP|CREATE" for a subcommand).
/// They sit beside the command table, which declares each command once: <see cref="RespCommandInfo"/> attaches its
/// specs when it is built and fails the start-up if they disagree with its key positions (first, last, step and
/// movable keys, derived as Redis derives them) or with its declared key access, or if a command with keys has none.
/// Garnet's own commands (the ETag family) get specs in the same style.
/// </summary>
internal static class KeySpecTable
{
    private const F RoAccess = F.RO | F.Access;
    private const F RwAccessUpdate = F.RW | F.Access | F.Update;
    private const F RwAccessDelete = F.RW | F.Access | F.Delete;
    private const F RwUpdate = F.RW | F.Update;
    private const F RwInsert = F.RW | F.Insert;
    private const F RwDelete = F.RW | F.Delete;
    private const F OwUpdate = F.OW | F.Update;
    private const F OwInsert = F.OW | F.Insert;

    private const string RwNote = "We cannot tell how the keys will be used so we assume the worst, RW and UPDATE";
    private const string RoNote = "We cannot tell how the keys will be used so we assume the worst, RO and ACCESS";

    private static readonly Dictionary<string, S[]> s_specs = new(StringComparer.Ordinal)
    {
        // Strings
        ["GET"] = [S.At(RoAccess, 1)],
        ["SET"] = [S.At(RwAccessUpdate | F.VariableFlags, 1, notes: "RW and ACCESS due to the optional `GET` argument")],
        ["SETNX"] = [S.At(OwInsert, 1)],
        ["SETEX"] = [S.At(OwUpdate, 1)],
        ["PSETEX"] = [S.At(OwUpdate, 1)],
        ["GETSET"] = [S.At(RwAccessUpdate, 1)],
        ["GETDEL"] = [S.At(RwAccessDelete, 1)],
        ["GETEX"] = [S.At(RwAccessUpdate, 1, notes: "RW and UPDATE because it changes the TTL")],
        ["MGET"] = [S.At(RoAccess, 1, -1)],
        ["MSET"] = [S.At(OwUpdate, 1, -1, 2)],
        ["MSETNX"] = [S.At(OwInsert, 1, -1, 2)],
        ["INCR"] = [S.At(RwAccessUpdate, 1)],
        ["INCRBY"] = [S.At(RwAccessUpdate, 1)],
        ["DECR"] = [S.At(RwAccessUpdate, 1)],
        ["DECRBY"] = [S.At(RwAccessUpdate, 1)],
        ["INCRBYFLOAT"] = [S.At(RwAccessUpdate, 1)],
        ["APPEND"] = [S.At(RwInsert, 1)],
        ["STRLEN"] = [S.At(F.RO, 1)],
        ["GETRANGE"] = [S.At(RoAccess, 1)],
        ["SUBSTR"] = [S.At(RoAccess, 1)],
        ["SETRANGE"] = [S.At(RwUpdate, 1)],
        ["LCS"] = [S.At(RoAccess, 1, 1)],

        // Keyspace
        ["DEL"] = [S.At(F.RM | F.Delete, 1, -1)],
        ["UNLINK"] = [S.At(F.RM | F.Delete, 1, -1)],
        ["EXISTS"] = [S.At(F.RO, 1, -1)],
        ["TYPE"] = [S.At(F.RO, 1)],
        ["TOUCH"] = [S.At(F.RO, 1, -1)],
        ["EXPIRE"] = [S.At(RwUpdate, 1)],
        ["PEXPIRE"] = [S.At(RwUpdate, 1)],
        ["EXPIREAT"] = [S.At(RwUpdate, 1)],
        ["PEXPIREAT"] = [S.At(RwUpdate, 1)],
        ["TTL"] = [S.At(RoAccess, 1)],
        ["PTTL"] = [S.At(RoAccess, 1)],
        ["EXPIRETIME"] = [S.At(RoAccess, 1)],
        ["PEXPIRETIME"] = [S.At(RoAccess, 1)],
        ["PERSIST"] = [S.At(RwUpdate, 1)],
        ["RENAME"] = [S.At(RwAccessDelete, 1), S.At(OwUpdate, 2)],
        ["RENAMENX"] = [S.At(RwAccessDelete, 1), S.At(OwInsert, 2)],
        ["COPY"] = [S.At(RoAccess, 1), S.At(OwUpdate, 2)],
        ["DUMP"] = [S.At(RoAccess, 1)],
        ["MOVE"] = [S.At(RwAccessUpdate, 1)],
        ["RESTORE"] = [S.At(OwUpdate, 1)],
        ["MIGRATE"] = [S.At(RwAccessDelete, 3), S.AfterKeyword(RwAccessDelete | F.Incomplete, "KEYS", -2, -1, 1, 0)],
        ["OBJECT|ENCODING"] = [S.At(F.RO, 2)],
        ["OBJECT|FREQ"] = [S.At(F.RO, 2)],
        ["OBJECT|IDLETIME"] = [S.At(F.RO, 2)],
        ["OBJECT|REFCOUNT"] = [S.At(F.RO, 2)],
        ["MEMORY|USAGE"] = [S.At(F.RO, 2)],
        ["SORT"] =
        [
            S.At(RoAccess, 1),
            S.Unknown(RoAccess, "For the optional BY/GET keyword. It is marked 'unknown' because the key names derive from the content of the key we sort"),
            S.Unknown(OwUpdate, "For the optional STORE keyword. It is marked 'unknown' because the keyword can appear anywhere in the argument array"),
        ],
        ["SORT_RO"] =
        [
            S.At(RoAccess, 1),
            S.Unknown(RoAccess, "For the optional BY/GET keyword. It is marked 'unknown' because the key names derive from the content of the key we sort"),
        ],

        // Bitmaps
        ["SETBIT"] = [S.At(RwAccessUpdate, 1)],
        ["GETBIT"] = [S.At(RoAccess, 1)],
        ["BITCOUNT"] = [S.At(RoAccess, 1)],
        ["BITPOS"] = [S.At(RoAccess, 1)],
        ["BITOP"] = [S.At(OwUpdate, 2), S.At(RoAccess, 3, -1)],
        ["BITFIELD"] = [S.At(RwUpdate | F.Access | F.VariableFlags, 1, notes: "This command allows both access and modification of the key")],
        ["BITFIELD_RO"] = [S.At(RoAccess, 1)],

        // HyperLogLog
        ["PFADD"] = [S.At(RwInsert, 1)],
        ["PFCOUNT"] = [S.At(F.RW | F.Access, 1, -1, notes: "RW because it may change the internal representation of the key, and propagate to replicas")],
        ["PFMERGE"] = [S.At(F.RW | F.Access | F.Insert, 1), S.At(RoAccess, 2, -1)],

        // Lists
        ["LPUSH"] = [S.At(RwInsert, 1)],
        ["RPUSH"] = [S.At(RwInsert, 1)],
        ["LPUSHX"] = [S.At(RwInsert, 1)],
        ["RPUSHX"] = [S.At(RwInsert, 1)],
        ["LPOP"] = [S.At(RwAccessDelete, 1)],
        ["RPOP"] = [S.At(RwAccessDelete, 1)],
        ["LLEN"] = [S.At(F.RO, 1)],
        ["LRANGE"] = [S.At(RoAccess, 1)],
        ["LINDEX"] = [S.At(RoAccess, 1)],
        ["LSET"] = [S.At(RwUpdate, 1)],
        ["LINSERT"] = [S.At(RwInsert, 1)],
        ["LREM"] = [S.At(RwDelete, 1)],
        ["LTRIM"] = [S.At(RwDelete, 1)],
        ["LPOS"] = [S.At(RoAccess, 1)],
        ["LMOVE"] = [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)],
        ["RPOPLPUSH"] = [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)],
        ["LMPOP"] = [S.NumKeysAt(RwAccessDelete, 1)],
        ["BLPOP"] = [S.At(RwAccessDelete, 1, -2)],
        ["BRPOP"] = [S.At(RwAccessDelete, 1, -2)],
        ["BLMOVE"] = [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)],
        ["BRPOPLPUSH"] = [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)],
        ["BLMPOP"] = [S.NumKeysAt(RwAccessDelete, 2)],

        // Hashes
        ["HSET"] = [S.At(RwUpdate, 1)],
        ["HSETNX"] = [S.At(RwInsert, 1)],
        ["HGET"] = [S.At(RoAccess, 1)],
        ["HMGET"] = [S.At(RoAccess, 1)],
        ["HMSET"] = [S.At(RwUpdate, 1)],
        ["HDEL"] = [S.At(RwDelete, 1)],
        ["HLEN"] = [S.At(F.RO, 1)],
        ["HSTRLEN"] = [S.At(F.RO, 1)],
        ["HEXISTS"] = [S.At(F.RO, 1)],
        ["HKEYS"] = [S.At(RoAccess, 1)],
        ["HVALS"] = [S.At(RoAccess, 1)],
        ["HGETALL"] = [S.At(RoAccess, 1)],
        ["HINCRBY"] = [S.At(RwAccessUpdate, 1)],
        ["HINCRBYFLOAT"] = [S.At(RwAccessUpdate, 1)],
        ["HRANDFIELD"] = [S.At(RoAccess, 1)],
        ["HSCAN"] = [S.At(RoAccess, 1)],

        // Sets
        ["SADD"] = [S.At(RwInsert, 1)],
        ["SREM"] = [S.At(RwDelete, 1)],
        ["SCARD"] = [S.At(F.RO, 1)],
        ["SISMEMBER"] = [S.At(F.RO, 1)],
        ["SMISMEMBER"] = [S.At(RoAccess, 1)],
        ["SMEMBERS"] = [S.At(RoAccess, 1)],
        ["SPOP"] = [S.At(RwAccessDelete, 1)],
        ["SRANDMEMBER"] = [S.At(RoAccess, 1)],
        ["SMOVE"] = [S.At(RwAccessDelete, 1), S.At(RwInsert, 2)],
        ["SINTER"] = [S.At(RoAccess, 1, -1)],
        ["SUNION"] = [S.At(RoAccess, 1, -1)],
        ["SDIFF"] = [S.At(RoAccess, 1, -1)],
        ["SINTERCARD"] = [S.NumKeysAt(RoAccess, 1)],
        ["SINTERSTORE"] = [S.At(OwUpdate, 1), S.At(RoAccess, 2, -1)],
        ["SUNIONSTORE"] = [S.At(OwUpdate, 1), S.At(RoAccess, 2, -1)],
        ["SDIFFSTORE"] = [S.At(OwUpdate, 1), S.At(RoAccess, 2, -1)],
        ["SSCAN"] = [S.At(RoAccess, 1)],

        // Sorted sets
        ["ZADD"] = [S.At(RwUpdate, 1)],
        ["ZINCRBY"] = [S.At(RwAccessUpdate, 1)],
        ["ZREM"] = [S.At(RwDelete, 1)],
        ["ZCARD"] = [S.At(F.RO, 1)],
        ["ZCOUNT"] = [S.At(RoAccess, 1)],
        ["ZLEXCOUNT"] = [S.At(RoAccess, 1)],
        ["ZSCORE"] = [S.At(RoAccess, 1)],
        ["ZMSCORE"] = [S.At(RoAccess, 1)],
        ["ZRANK"] = [S.At(RoAccess, 1)],
        ["ZREVRANK"] = [S.At(RoAccess, 1)],
        ["ZRANGE"] = [S.At(RoAccess, 1)],
        ["ZRANGESTORE"] = [S.At(OwUpdate, 1), S.At(RoAccess, 2)],
        ["ZREVRANGE"] = [S.At(RoAccess, 1)],
        ["ZRANGEBYSCORE"] = [S.At(RoAccess, 1)],
        ["ZREVRANGEBYSCORE"] = [S.At(RoAccess, 1)],
        ["ZRANGEBYLEX"] = [S.At(RoAccess, 1)],
        ["ZREVRANGEBYLEX"] = [S.At(RoAccess, 1)],
        ["ZREMRANGEBYRANK"] = [S.At(RwDelete, 1)],
        ["ZREMRANGEBYSCORE"] = [S.At(RwDelete, 1)],
        ["ZREMRANGEBYLEX"] = [S.At(RwDelete, 1)],
        ["ZPOPMIN"] = [S.At(RwAccessDelete, 1)],
        ["ZPOPMAX"] = [S.At(RwAccessDelete, 1)],
        ["ZMPOP"] = [S.NumKeysAt(RwAccessDelete, 1)],
        ["ZRANDMEMBER"] = [S.At(RoAccess, 1)],
        ["ZUNION"] = [S.NumKeysAt(RoAccess, 1)],
        ["ZINTER"] = [S.NumKeysAt(RoAccess, 1)],
        ["ZDIFF"] = [S.NumKeysAt(RoAccess, 1)],
        ["ZINTERCARD"] = [S.NumKeysAt(RoAccess, 1)],
        ["ZUNIONSTORE"] = [S.At(OwUpdate, 1), S.NumKeysAt(RoAccess, 2)],
        ["ZINTERSTORE"] = [S.At(OwUpdate, 1), S.NumKeysAt(RoAccess, 2)],
        ["ZDIFFSTORE"] = [S.At(OwUpdate, 1), S.NumKeysAt(RoAccess, 2)],
        ["ZSCAN"] = [S.At(RoAccess, 1)],
        ["BZPOPMIN"] = [S.At(RwAccessDelete, 1, -2)],
        ["BZPOPMAX"] = [S.At(RwAccessDelete, 1, -2)],
        ["BZMPOP"] = [S.NumKeysAt(RwAccessDelete, 2)],

        // Streams
        ["XADD"] = [S.At(RwUpdate, 1, notes: "UPDATE instead of INSERT because of the optional trimming feature")],
        ["XLEN"] = [S.At(F.RO, 1)],
        ["XRANGE"] = [S.At(RoAccess, 1)],
        ["XREVRANGE"] = [S.At(RoAccess, 1)],
        ["XDEL"] = [S.At(RwDelete, 1)],
        ["XTRIM"] = [S.At(RwDelete, 1)],
        ["XREAD"] = [S.AfterKeyword(RoAccess, "STREAMS", 1, -1, 1, 2)],
        ["XREADGROUP"] = [S.AfterKeyword(RoAccess, "STREAMS", 4, -1, 1, 2)],
        ["XACK"] = [S.At(RwUpdate, 1)],
        ["XPENDING"] = [S.At(RoAccess, 1)],
        ["XCLAIM"] = [S.At(RwUpdate, 1)],
        ["XAUTOCLAIM"] = [S.At(RwDelete, 1)],
        ["XSETID"] = [S.At(RwUpdate, 1)],
        ["XGROUP|CREATE"] = [S.At(RwInsert, 2)],
        ["XGROUP|CREATECONSUMER"] = [S.At(RwInsert, 2)],
        ["XGROUP|DELCONSUMER"] = [S.At(RwDelete, 2)],
        ["XGROUP|DESTROY"] = [S.At(RwDelete, 2)],
        ["XGROUP|SETID"] = [S.At(RwUpdate, 2)],
        ["XINFO|CONSUMERS"] = [S.At(RoAccess, 2)],
        ["XINFO|GROUPS"] = [S.At(RoAccess, 2)],
        ["XINFO|STREAM"] = [S.At(RoAccess, 2)],

        // Geo
        ["GEOADD"] = [S.At(RwUpdate, 1)],
        ["GEODIST"] = [S.At(RoAccess, 1)],
        ["GEOHASH"] = [S.At(RoAccess, 1)],
        ["GEOPOS"] = [S.At(RoAccess, 1)],
        ["GEOSEARCH"] = [S.At(RoAccess, 1)],
        ["GEOSEARCHSTORE"] = [S.At(OwUpdate, 1), S.At(RoAccess, 2)],
        ["GEORADIUS"] = [S.At(RoAccess, 1), S.AfterKeyword(OwUpdate, "STORE", 6, 0, 1, 0), S.AfterKeyword(OwUpdate, "STOREDIST", 6, 0, 1, 0)],
        ["GEORADIUS_RO"] = [S.At(RoAccess, 1)],
        ["GEORADIUSBYMEMBER"] = [S.At(RoAccess, 1), S.AfterKeyword(OwUpdate, "STORE", 5, 0, 1, 0), S.AfterKeyword(OwUpdate, "STOREDIST", 5, 0, 1, 0)],
        ["GEORADIUSBYMEMBER_RO"] = [S.At(RoAccess, 1)],

        // Transactions, scripting, sharded pub/sub (channels routed like keys, not keys)
        ["WATCH"] = [S.At(F.RO, 1, -1)],
        ["EVAL"] = [S.NumKeysAt(RwAccessUpdate, 2, RwNote)],
        ["EVALSHA"] = [S.NumKeysAt(RwAccessUpdate, 2)],
        ["EVAL_RO"] = [S.NumKeysAt(RoAccess, 2, RoNote)],
        ["EVALSHA_RO"] = [S.NumKeysAt(RoAccess, 2)],
        ["FCALL"] = [S.NumKeysAt(RwAccessUpdate, 2, RwNote)],
        ["FCALL_RO"] = [S.NumKeysAt(RoAccess, 2, RoNote)],
        ["SPUBLISH"] = [S.At(F.NotKey, 1)],
        ["SSUBSCRIBE"] = [S.At(F.NotKey, 1, -1)],
        ["SUNSUBSCRIBE"] = [S.At(F.NotKey, 1, -1)],

        // Garnet's ETag commands: Redis has none; specs in Redis's terms
        ["GETWITHETAG"] = [S.At(RoAccess, 1)],
        ["GETIFNOTMATCH"] = [S.At(RoAccess, 1)],
        ["SETIFMATCH"] = [S.At(RwAccessUpdate, 1)],
        ["SETIFGREATER"] = [S.At(RwAccessUpdate, 1)],
        ["DELIFGREATER"] = [S.At(RwAccessDelete, 1)],
    };

    /// <summary>The declared specs of command <paramref name="name"/>, or null.</summary>
    public static S[]? Find(string name) => s_specs.GetValueOrDefault(name);

    /// <summary>
    /// Checks <paramref name="specs"/> against a table entry: the first key, last key and step Redis derives from them
    /// (specs that are not a plain index range make the keys movable), and the access of the first and the last spec
    /// against the declared access. Specs of arguments that are not keys (sharded channels) are left out, as ACL and
    /// locking leave those arguments alone. Returns what disagrees, or null.
    /// </summary>
    public static string? Disagreement(S[] specs, int firstKey, int lastKey, int step, bool movable, KeyAccessSpec access)
    {
        bool derivedMovable = false;
        int first = int.MaxValue;
        int last = 0, derivedStep = 1, previousLast = 0;
        int keySpecs = 0;
        S? firstSpec = null, lastSpec = null;
        bool variable = false;
        foreach (var spec in specs)
        {
            if ((spec.Flags & F.NotKey) != 0)
                continue;
            keySpecs++;
            firstSpec ??= spec;
            lastSpec = spec;
            variable |= (spec.Flags & F.VariableFlags) != 0;
            if (spec.Begin != BeginSearch.Index || spec.Find != FindKeys.Range)
            {
                derivedMovable = true;
                continue;
            }
            if (specs.Length == 1)
            {
                first = spec.Index;
                last = spec.A < 0 ? spec.A : spec.Index + spec.A;
                derivedStep = spec.B;
                derivedMovable |= (spec.Flags & F.Incomplete) != 0;
                break;
            }
            if (spec.B != 1 || (previousLast != 0 && previousLast != spec.Index - 1))
            {
                derivedMovable = true;
                continue;
            }
            derivedMovable |= (spec.Flags & F.Incomplete) != 0;
            first = Math.Min(first, spec.Index);
            int absoluteLast = spec.A >= 0 ? spec.A + spec.Index : spec.A;
            // Redis compares unsigned: a last key counted from the end (negative) wins over any index.
            last = (uint)absoluteLast > (uint)last ? absoluteLast : last;
            previousLast = last;
        }
        if (keySpecs == 0)
            return firstKey == 0 && !movable && !access.HasKeys ? null : "only non-key specs for a command with keys";
        if (first == int.MaxValue)
            (first, last, derivedStep, derivedMovable) = (0, 0, 0, true);
        if (first != firstKey || last != lastKey || (first != 0 && derivedStep != step) || derivedMovable != movable)
            return $"specs give keys {first},{last},{derivedStep} movable={derivedMovable}; the table {firstKey},{lastKey},{step} movable={movable}";
        if (!access.HasKeys || firstSpec!.Access != access.First || lastSpec!.Access != access.Rest || variable != access.VariesWithArguments)
            return $"specs give access {firstSpec!.Access}/{lastSpec!.Access} variable={variable}; the table {access.First}/{access.Rest} variable={access.VariesWithArguments}";
        return null;
    }

    /// <summary>
    /// Specs for a command registered at run time (a custom command), from its key positions and access: an index and
    /// a range (two specs when the first key's access differs), or for movable keys one unknown spec flagged incomplete.
    /// </summary>
    public static S[] Derive(int firstKey, int lastKey, int step, bool movable, KeyAccessSpec access)
    {
        if (movable)
            return [S.Unknown(FlagsOf(access.First, access.VariesWithArguments) | F.Incomplete, null)];
        if (firstKey <= 0)
            return [];
        step = Math.Max(1, step);
        int relativeLast = lastKey < 0 ? lastKey : lastKey - firstKey;
        if (access.First == access.Rest || relativeLast == 0)
            return [S.At(FlagsOf(access.First, access.VariesWithArguments), firstKey, relativeLast, step)];
        return
        [
            S.At(FlagsOf(access.First, access.VariesWithArguments), firstKey, 0, step),
            S.At(FlagsOf(access.Rest, access.VariesWithArguments), firstKey + step, lastKey < 0 ? lastKey : relativeLast - step, step),
        ];
    }

    /// <summary>Redis's flags for a key of <paramref name="access"/>: RO access, RW update, RW access update, or RO.</summary>
    public static F FlagsOf(KeyAccess access, bool variable)
    {
        var flags = access switch
        {
            KeyAccess.Read => RoAccess,
            KeyAccess.Write => RwUpdate,
            KeyAccess.ReadWrite => RwAccessUpdate,
            _ => F.RO,
        };
        return variable ? flags | F.VariableFlags : flags;
    }
}
