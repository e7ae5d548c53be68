using System;

namespace Garnet.server;

/// <summary>MIGRATE's protocol literals: its replies and errors as Redis 7.2 words them, and what it sends the target.</summary>
internal static class MigrateStrings
{
    public static ReadOnlySpan<byte> NoKey => "NOKEY"u8;

    public static ReadOnlySpan<byte> ErrKeysNeedEmptyKey => "ERR When using MIGRATE KEYS option, the key argument must be set to the empty string"u8;
    public static ReadOnlySpan<byte> ErrSlotsNeedEmptyKey => "ERR When using MIGRATE SLOTS or SLOTSRANGE option, the key argument must be set to the empty string"u8;
    public static ReadOnlySpan<byte> ErrConnecting => "IOERR error or timeout connecting to the client"u8;
    public static ReadOnlySpan<byte> ErrWriting => "IOERR error or timeout writing to target instance"u8;
    public static ReadOnlySpan<byte> ErrReading => "IOERR error or timeout reading to target instance"u8;

    /// <summary>Precedes the target's error text (without its '-').</summary>
    public const string TargetErrorPrefix = "ERR Target instance replied with error: ";

    public static ReadOnlySpan<byte> Auth => "AUTH"u8;
    public static ReadOnlySpan<byte> Select => "SELECT"u8;
    public static ReadOnlySpan<byte> Restore => "RESTORE"u8;

    /// <summary>What a cluster node sends instead, as Redis's does: the target runs it on a slot it is importing.</summary>
    public static ReadOnlySpan<byte> RestoreAsking => "RESTORE-ASKING"u8;
    public static ReadOnlySpan<byte> ReplaceOption => "REPLACE"u8;

    /// <summary>What a slot migration sends: batches of keys in one argument (see SlotKeyBatch).</summary>
    public static ReadOnlySpan<byte> RestoreBatch => "RESTORE-BATCH"u8;
}
