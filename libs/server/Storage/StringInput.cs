using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>Options of a string-store operation, parsed from the command's arguments.</summary>
[Flags]
public enum StringInputFlags : ushort
{
    None = 0,
    /// <summary>Write only if the key does not exist (SET NX, SETNX, MSETNX).</summary>
    IfNotExists = 1 << 0,
    /// <summary>Write only if the key exists (SET XX).</summary>
    IfExists = 1 << 1,
    /// <summary>Return the old value (SET GET, GETSET).</summary>
    ReturnOld = 1 << 2,
    /// <summary>Keep the current expiration (SET KEEPTTL).</summary>
    KeepTtl = 1 << 3,
    /// <summary>EXPIRE NX: only when the key has no expiration.</summary>
    ExpireNx = 1 << 4,
    /// <summary>EXPIRE XX: only when the key has an expiration.</summary>
    ExpireXx = 1 << 5,
    /// <summary>EXPIRE GT: only when the new expiration is greater.</summary>
    ExpireGt = 1 << 6,
    /// <summary>EXPIRE LT: only when the new expiration is less.</summary>
    ExpireLt = 1 << 7,
    /// <summary>GETEX PERSIST: remove the expiration.</summary>
    Persist = 1 << 8,
    /// <summary>SET ... WITHETAG: the record keeps (or gets) an ETag, advanced by one (Commands/ETag).</summary>
    WithETag = 1 << 9,
    /// <summary>With <see cref="WithETag"/>: the ETag becomes <see cref="StringInput.Number"/> exactly (a checkpoint's record loaded).</summary>
    ExactETag = 1 << 10,
    /// <summary>SETIFMATCH/SETIFGREATER NOGET: an unmet condition does not return the current value.</summary>
    NoGet = 1 << 11,
}

/// <summary>The input of a string-store operation: the command and its parsed arguments.</summary>
public unsafe struct StringInput
{
    /// <summary>The command being run.</summary>
    public RespCommand Command;

    /// <summary>Parsed options.</summary>
    public StringInputFlags Flags;

    /// <summary>Absolute expiration in Unix milliseconds, 0 for none.</summary>
    public long ExpirationUnixMs;

    /// <summary>An integer argument (increment, offset, the ETag an ETag command compares with).</summary>
    public long Number;

    /// <summary>A second integer argument (GETRANGE end).</summary>
    public long Number2;

    /// <summary>A floating-point argument (INCRBYFLOAT), in Redis's long double precision.</summary>
    public LongDouble Float;

    /// <summary>A value argument (SET value, APPEND data, SETRANGE data).</summary>
    public ArgSlice Value;

    /// <summary>How a SET-like write produced its value (StringEncoding.cs): a copy keeps its source's, BITOP's is raw.</summary>
    internal StringForm Form;

    /// <summary>The access word RESTORE ... IDLETIME or FREQ gives the written record; negative for the engine's own.</summary>
    internal long AccessWord;

    public StringInput(RespCommand command)
    {
        Command = command;
        Flags = StringInputFlags.None;
        ExpirationUnixMs = 0;
        Number = 0;
        Number2 = 0;
        Float = LongDouble.Zero;
        Value = default;
        Form = StringForm.Encoded;
        AccessWord = -1;
    }
}
