using Garnet.common;

namespace Garnet.server;

/// <summary>How a string-store callback ended, beyond found/not-found.</summary>
public enum StringResult : byte
{
    /// <summary>Done as asked.</summary>
    Ok,
    /// <summary>A condition (NX, XX, GT...) was not met; nothing changed.</summary>
    ConditionNotMet,
    /// <summary>The stored value is not an integer.</summary>
    NotInteger,
    /// <summary>The stored value is not a float.</summary>
    NotFloat,
    /// <summary>The increment would overflow.</summary>
    Overflow,
    /// <summary>The result would be NaN or infinite.</summary>
    NaNOrInfinity,
    /// <summary>The resulting string would be larger than allowed.</summary>
    TooLarge,
    /// <summary>The key holds an object (list, hash, set, sorted set), not a string.</summary>
    WrongType,
}

/// <summary>The output of a string-store operation.</summary>
public unsafe struct StringOutput
{
    /// <summary>Where callbacks copy values the reply needs (null when the command needs none).</summary>
    public OutputBuffer? Buffer;

    /// <summary>Whether a value was copied into <see cref="Buffer"/>.</summary>
    public bool HasValue;

    /// <summary>A numeric result (new counter value, length, TTL...).</summary>
    public long Number;

    /// <summary>How the callback ended.</summary>
    public StringResult Result;

    /// <summary>The type of object the key holds, for keyspace commands that found an object record (None for a string).</summary>
    public GarnetObjectType ObjectType;

    /// <summary>How a string copied out for RENAME, COPY or MOVE was produced, so its copy reports the same encoding.</summary>
    internal StringForm Form;

    /// <summary>
    /// For GET: free space in the connection's send buffer where the Reader writes the bulk reply itself, saving a
    /// copy through <see cref="Buffer"/> (see <see cref="RespWriter.FreeSpace"/>); null when the reply goes through
    /// <see cref="Buffer"/>.
    /// </summary>
    internal byte* Reply;

    /// <summary>Bytes free at <see cref="Reply"/>.</summary>
    internal int ReplyRoom;

    /// <summary>Bytes the Reader wrote at <see cref="Reply"/> (0 when it copied into <see cref="Buffer"/> instead).</summary>
    internal int ReplyWritten;

    public StringOutput(OutputBuffer? buffer)
    {
        Buffer = buffer;
        HasValue = false;
        Number = 0;
        Result = StringResult.Ok;
        ObjectType = GarnetObjectType.None;
        Form = StringForm.Encoded;
        Reply = null;
        ReplyRoom = 0;
        ReplyWritten = 0;
    }
}
