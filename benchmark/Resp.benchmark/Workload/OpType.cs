using System;

namespace Resp.benchmark;

/// <summary>The operations the load generator can issue.</summary>
public enum OpType : byte
{
    GET,
    SET,
    SETEX,
    MGET,
    MSET,
    INCR,
    DEL,
    PING,
    ZADD,
    ZREM,
    ZCARD,
    PFADD,
    PFCOUNT,
    PFMERGE,
    SETBIT,
    GETBIT,
    BITCOUNT,
    BITOP,
    LPUSH,
    LPOP,
    HSET,
    HGET,
    SADD,

    /// <summary>A mix of one SET to nine GETs (every tenth command of a batch is the SET).</summary>
    SETGET,

    /// <summary>
    /// One transaction: MULTI, INCR of four sampled keys, EXEC. Six commands and six replies
    /// (+OK, four +QUEUED, EXEC's array of four integers) make one operation.
    /// </summary>
    MULTIINCR4,

    /// <summary>
    /// EVALSHA of <see cref="Scripts.ThreeCalls"/> (loaded before the clock starts) on two sampled
    /// keys: three redis.call's (INCR, SET, GET) per command.
    /// </summary>
    EVALSHA3,

    /// <summary>XADD key * f1 value f2 value f3 value: one entry of three fields appended to a stream.</summary>
    XADD,

    /// <summary>XRANGE key - + COUNT 10: a stream's first ten entries (the preload gives each stream ten).</summary>
    XRANGE,
}

/// <summary>Operator of the BITOP operation.</summary>
public enum BitOperator
{
    AND,
    OR,
    XOR,
    NOT,
}

/// <summary>What the preload writes so that an operation finds keys of the right type.</summary>
public enum LoadKind
{
    /// <summary>SET key value.</summary>
    String,

    /// <summary>SET key 0, so INCR finds integers.</summary>
    Counter,

    /// <summary>ZADD key 0 member.</summary>
    SortedSet,

    /// <summary>PFADD key element.</summary>
    HyperLogLog,

    /// <summary>LPUSH key value.</summary>
    List,

    /// <summary>HSET key field value.</summary>
    Hash,

    /// <summary>SADD key member.</summary>
    Set,

    /// <summary>Ten XADDs of three fields per key, so XRANGE ... COUNT 10 finds ten entries.</summary>
    Stream,
}

/// <summary>Names and properties of <see cref="OpType"/>.</summary>
public static class OpTypes
{
    /// <summary>Parses an operation name, ignoring case.</summary>
    public static bool TryParse(string name, out OpType op) =>
        Enum.TryParse(name.Trim(), ignoreCase: true, out op) && Enum.IsDefined(op);

    /// <summary>The command name as it goes on the wire.</summary>
    public static ReadOnlySpan<byte> CommandName(OpType op) => op switch
    {
        OpType.GET => "GET"u8,
        OpType.SET => "SET"u8,
        OpType.SETEX => "SETEX"u8,
        OpType.MGET => "MGET"u8,
        OpType.MSET => "MSET"u8,
        OpType.INCR => "INCR"u8,
        OpType.DEL => "DEL"u8,
        OpType.PING => "PING"u8,
        OpType.ZADD => "ZADD"u8,
        OpType.ZREM => "ZREM"u8,
        OpType.ZCARD => "ZCARD"u8,
        OpType.PFADD => "PFADD"u8,
        OpType.PFCOUNT => "PFCOUNT"u8,
        OpType.PFMERGE => "PFMERGE"u8,
        OpType.SETBIT => "SETBIT"u8,
        OpType.GETBIT => "GETBIT"u8,
        OpType.BITCOUNT => "BITCOUNT"u8,
        OpType.BITOP => "BITOP"u8,
        OpType.LPUSH => "LPUSH"u8,
        OpType.LPOP => "LPOP"u8,
        OpType.HSET => "HSET"u8,
        OpType.HGET => "HGET"u8,
        OpType.SADD => "SADD"u8,
        OpType.EVALSHA3 => "EVALSHA"u8,
        OpType.XADD => "XADD"u8,
        OpType.XRANGE => "XRANGE"u8,
        _ => throw new ArgumentOutOfRangeException(nameof(op), op, "SETGET and MULTIINCR4 are sequences, not one command."),
    };

    /// <summary>
    /// Commands (and so replies) that make one operation of <paramref name="op"/>: 6 for a
    /// MULTIINCR4 transaction, 1 otherwise. Batch sizes, --totalops and ops/s count operations.
    /// </summary>
    public static int CommandsPerOp(OpType op) => op == OpType.MULTIINCR4 ? 6 : 1;

    /// <summary>Whether <paramref name="op"/> can be drawn in an online mix (one command, one reply, one latency).</summary>
    public static bool IsSingleCommand(OpType op) => op is not (OpType.SETGET or OpType.MULTIINCR4);

    /// <summary>What the preload writes for <paramref name="op"/>.</summary>
    public static LoadKind LoadKindOf(OpType op) => op switch
    {
        OpType.GET or OpType.SET or OpType.SETEX or OpType.MGET or OpType.MSET or OpType.DEL or OpType.PING
            or OpType.SETBIT or OpType.GETBIT or OpType.BITCOUNT or OpType.BITOP or OpType.SETGET => LoadKind.String,
        OpType.INCR or OpType.MULTIINCR4 or OpType.EVALSHA3 => LoadKind.Counter,
        OpType.ZADD or OpType.ZREM or OpType.ZCARD => LoadKind.SortedSet,
        OpType.PFADD or OpType.PFCOUNT or OpType.PFMERGE => LoadKind.HyperLogLog,
        OpType.LPUSH or OpType.LPOP => LoadKind.List,
        OpType.HSET or OpType.HGET => LoadKind.Hash,
        OpType.SADD => LoadKind.Set,
        OpType.XADD or OpType.XRANGE => LoadKind.Stream,
        _ => throw new ArgumentOutOfRangeException(nameof(op), op, null),
    };
}
