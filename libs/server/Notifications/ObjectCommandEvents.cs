using System;
using System.Text;

namespace Garnet.server;

/// <summary>
/// The keyspace event of each object write (list, hash, set, sorted set, geo, stream), after Redis's list of events:
/// its class, its name, and whether it is published whenever the command succeeds on an existing or created key
/// (HSET, LSET, LTRIM...) or only when the command changed the elements (SADD of a new member, LREM that removed...).
/// Commands of several keys whose events the session publishes itself (the *STORE commands) have none here.
/// </summary>
internal static class ObjectCommandEvents
{
    /// <summary>One command's event.</summary>
    public readonly ref struct Event
    {
        public Event(KeyspaceEventClasses type, ReadOnlySpan<byte> name, bool onSuccess)
        {
            Type = type;
            Name = name;
            OnSuccess = onSuccess;
        }

        public KeyspaceEventClasses Type { get; }

        /// <summary>Empty when the command publishes nothing here.</summary>
        public ReadOnlySpan<byte> Name { get; }

        /// <summary>Published when the command succeeded, whether or not the elements changed.</summary>
        public bool OnSuccess { get; }
    }

    private const KeyspaceEventClasses L = KeyspaceEventClasses.List;
    private const KeyspaceEventClasses H = KeyspaceEventClasses.Hash;
    private const KeyspaceEventClasses S = KeyspaceEventClasses.Set;
    private const KeyspaceEventClasses Z = KeyspaceEventClasses.SortedSet;
    private const KeyspaceEventClasses T = KeyspaceEventClasses.Stream;

    /// <summary>The event of the object operation <paramref name="input"/> (by its command, and for a few by its direction).</summary>
    public static Event For(in ObjectInput input) => input.Command switch
    {
        RespCommand.LPUSH or RespCommand.LPUSHX => new(L, "lpush"u8, false),
        RespCommand.RPUSH or RespCommand.RPUSHX => new(L, "rpush"u8, false),
        RespCommand.LPOP => new(L, "lpop"u8, false),
        RespCommand.RPOP => new(L, "rpop"u8, false),
        RespCommand.LMPOP => input.Flags == 0 ? new(L, "lpop"u8, false) : new(L, "rpop"u8, false),
        RespCommand.LINSERT => new(L, "linsert"u8, false),
        RespCommand.LREM => new(L, "lrem"u8, false),
        RespCommand.LSET => new(L, "lset"u8, true),
        RespCommand.LTRIM => new(L, "ltrim"u8, true),

        RespCommand.HSET or RespCommand.HMSET => new(H, "hset"u8, true),
        RespCommand.HSETNX => new(H, "hset"u8, false),
        RespCommand.HDEL => new(H, "hdel"u8, false),
        RespCommand.HINCRBY => new(H, "hincrby"u8, true),
        RespCommand.HINCRBYFLOAT => new(H, "hincrbyfloat"u8, true),

        RespCommand.SADD => new(S, "sadd"u8, false),
        RespCommand.SREM => new(S, "srem"u8, false),
        RespCommand.SPOP => new(S, "spop"u8, false),
        RespCommand.SMOVE => input.Flags == SetObject.MoveRemove ? new(S, "srem"u8, false) : new(S, "sadd"u8, false),

        RespCommand.ZADD => HasIncr(in input) ? new(Z, "zincr"u8, false) : new(Z, "zadd"u8, false),
        RespCommand.GEOADD => new(Z, "zadd"u8, false),
        RespCommand.ZINCRBY => new(Z, "zincr"u8, true),
        RespCommand.ZREM => new(Z, "zrem"u8, false),
        RespCommand.ZPOPMIN => new(Z, "zpopmin"u8, false),
        RespCommand.ZPOPMAX => new(Z, "zpopmax"u8, false),
        RespCommand.ZMPOP => input.Flags == 0 ? new(Z, "zpopmin"u8, false) : new(Z, "zpopmax"u8, false),
        RespCommand.ZREMRANGEBYRANK => new(Z, "zremrangebyrank"u8, false),
        RespCommand.ZREMRANGEBYSCORE => new(Z, "zremrangebyscore"u8, false),
        RespCommand.ZREMRANGEBYLEX => new(Z, "zremrangebylex"u8, false),

        RespCommand.XADD => new(T, "xadd"u8, true),
        RespCommand.XDEL => new(T, "xdel"u8, false),
        RespCommand.XTRIM => new(T, "xtrim"u8, false),
        RespCommand.XSETID => new(T, "xsetid"u8, true),
        RespCommand.XGROUP => new(T, GroupEventName(input.Flags), false),
        RespCommand.XREADGROUP or RespCommand.XCLAIM or RespCommand.XAUTOCLAIM => new(T, "xgroup-createconsumer"u8, false),
        _ => default,
    };

    /// <summary>The event of a command that stores a computed result (<see cref="RespServerSession.StoreObject"/>): SORT ... STORE, the *STORE commands.</summary>
    public static Event ForStore(RespCommand command) => command switch
    {
        RespCommand.SORT => new(L, "sortstore"u8, true),
        RespCommand.SINTERSTORE => new(S, "sinterstore"u8, true),
        RespCommand.SUNIONSTORE => new(S, "sunionstore"u8, true),
        RespCommand.SDIFFSTORE => new(S, "sdiffstore"u8, true),
        RespCommand.ZRANGESTORE => new(Z, "zrangestore"u8, true),
        RespCommand.ZUNIONSTORE => new(Z, "zunionstore"u8, true),
        RespCommand.ZINTERSTORE => new(Z, "zinterstore"u8, true),
        RespCommand.ZDIFFSTORE => new(Z, "zdiffstore"u8, true),
        RespCommand.GEOSEARCHSTORE => new(Z, "geosearchstore"u8, true),
        RespCommand.GEORADIUS or RespCommand.GEORADIUSBYMEMBER => new(Z, "georadiusstore"u8, true),
        _ => default,
    };

    /// <summary>XGROUP's event by subcommand (<see cref="ObjectInput.Flags"/>); the stream marks the ones that changed anything.</summary>
    private static ReadOnlySpan<byte> GroupEventName(int subcommand) => (StreamObject.GroupSubcommand)subcommand switch
    {
        StreamObject.GroupSubcommand.Create => "xgroup-create"u8,
        StreamObject.GroupSubcommand.SetId => "xgroup-setid"u8,
        StreamObject.GroupSubcommand.Destroy => "xgroup-destroy"u8,
        StreamObject.GroupSubcommand.CreateConsumer => "xgroup-createconsumer"u8,
        StreamObject.GroupSubcommand.DelConsumer => "xgroup-delconsumer"u8,
        _ => default,
    };

    /// <summary>ZADD ... INCR publishes "zincr", as ZINCRBY does; the options come before the first score.</summary>
    private static bool HasIncr(in ObjectInput input)
    {
        for (int i = 0; i < input.ArgCount; i++)
        {
            var arg = input.Arg(i);
            if (Ascii.EqualsIgnoreCase(arg, "INCR"u8))
                return true;
            if (!Ascii.EqualsIgnoreCase(arg, "NX"u8) && !Ascii.EqualsIgnoreCase(arg, "XX"u8) && !Ascii.EqualsIgnoreCase(arg, "GT"u8)
                && !Ascii.EqualsIgnoreCase(arg, "LT"u8) && !Ascii.EqualsIgnoreCase(arg, "CH"u8))
                return false;
        }
        return false;
    }
}
