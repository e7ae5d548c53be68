using System;

namespace Garnet.server;

/// <summary>Command flags as COMMAND INFO reports them.</summary>
[Flags]
public enum CommandFlags : uint
{
    None = 0,
    Write = 1 << 0,
    ReadOnly = 1 << 1,
    DenyOom = 1 << 2,
    Admin = 1 << 3,
    PubSub = 1 << 4,
    NoScript = 1 << 5,
    Blocking = 1 << 6,
    Loading = 1 << 7,
    Stale = 1 << 8,
    SkipMonitor = 1 << 9,
    SkipSlowlog = 1 << 10,
    Fast = 1 << 11,
    NoAuth = 1 << 12,
    MayReplicate = 1 << 13,
    NoMandatoryKeys = 1 << 14,
    NoMulti = 1 << 15,
    MovableKeys = 1 << 16,
    AllowBusy = 1 << 17,

    /// <summary>Runs on a slot being imported as if ASKING preceded it (RESTORE-ASKING).</summary>
    Asking = 1 << 18,
}

/// <summary>ACL categories of a command.</summary>
[Flags]
public enum AclCategories : uint
{
    None = 0,
    Keyspace = 1 << 0,
    Read = 1 << 1,
    Write = 1 << 2,
    Set = 1 << 3,
    SortedSet = 1 << 4,
    List = 1 << 5,
    Hash = 1 << 6,
    String = 1 << 7,
    Bitmap = 1 << 8,
    HyperLogLog = 1 << 9,
    Geo = 1 << 10,
    Stream = 1 << 11,
    PubSub = 1 << 12,
    Admin = 1 << 13,
    Fast = 1 << 14,
    Slow = 1 << 15,
    Blocking = 1 << 16,
    Dangerous = 1 << 17,
    Connection = 1 << 18,
    Transaction = 1 << 19,
    Scripting = 1 << 20,
}
