using System;

namespace Garnet.server;

/// <summary>The names of keyspace events, as Redis publishes them (the message on __keyspace@ channels, the channel's end on __keyevent@ ones).</summary>
internal static class KeyspaceEventNames
{
    public static ReadOnlySpan<byte> Del => "del"u8;
    public static ReadOnlySpan<byte> New => "new"u8;
    public static ReadOnlySpan<byte> Expired => "expired"u8;
    public static ReadOnlySpan<byte> Evicted => "evicted"u8;
    public static ReadOnlySpan<byte> KeyMiss => "keymiss"u8;
    public static ReadOnlySpan<byte> Expire => "expire"u8;
    public static ReadOnlySpan<byte> Persist => "persist"u8;
    public static ReadOnlySpan<byte> RenameFrom => "rename_from"u8;
    public static ReadOnlySpan<byte> RenameTo => "rename_to"u8;
    public static ReadOnlySpan<byte> MoveFrom => "move_from"u8;
    public static ReadOnlySpan<byte> MoveTo => "move_to"u8;
    public static ReadOnlySpan<byte> CopyTo => "copy_to"u8;
    public static ReadOnlySpan<byte> Restore => "restore"u8;
    public static ReadOnlySpan<byte> SortStore => "sortstore"u8;
    public static ReadOnlySpan<byte> Set => "set"u8;
    public static ReadOnlySpan<byte> SetRange => "setrange"u8;
    public static ReadOnlySpan<byte> IncrBy => "incrby"u8;
    public static ReadOnlySpan<byte> IncrByFloat => "incrbyfloat"u8;
    public static ReadOnlySpan<byte> Append => "append"u8;
    public static ReadOnlySpan<byte> SetBit => "setbit"u8;
    public static ReadOnlySpan<byte> PfAdd => "pfadd"u8;
}
