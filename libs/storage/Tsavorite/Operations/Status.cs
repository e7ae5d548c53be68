using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>What an operation found, and what it did to the log.</summary>
public readonly struct Status
{
    private const byte BasicMask = 0x0F;

    internal enum Basic : byte
    {
        Found = 0,
        NotFound = 1,
        Pending = 2,
        Canceled = 3,
        OutOfMemory = 4,
    }

    /// <summary>Flags saying which record the operation wrote.</summary>
    internal enum Record : byte
    {
        None = 0,
        Created = 0x10,
        InPlaceUpdated = 0x20,
        CopyUpdated = 0x40,
        Expired = 0x80,
    }

    private readonly byte _value;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal Status(Basic basic, Record record = Record.None) => _value = (byte)((byte)basic | (byte)record);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Status(byte value) => _value = value;

    /// <summary>The key was found (and, for RMW, existed before the operation).</summary>
    public bool Found => (_value & BasicMask) == (byte)Basic.Found;

    /// <summary>The key was not found (or had expired).</summary>
    public bool NotFound => (_value & BasicMask) == (byte)Basic.NotFound;

    /// <summary>The operation waits for I/O and completes later.</summary>
    public bool IsPending => (_value & BasicMask) == (byte)Basic.Pending;

    /// <summary>A callback canceled the operation; nothing was changed.</summary>
    public bool IsCanceled => (_value & BasicMask) == (byte)Basic.Canceled;

    /// <summary>The log's memory budget is full: nothing was written.</summary>
    public bool IsOutOfMemory => (_value & BasicMask) == (byte)Basic.OutOfMemory;

    /// <summary>A new record was written at the tail (or into reused space).</summary>
    public bool IsCreatedRecord => (_value & (byte)Record.Created) != 0;

    /// <summary>The existing record was updated in place.</summary>
    public bool IsInPlaceUpdated => (_value & (byte)Record.InPlaceUpdated) != 0;

    /// <summary>The existing record was read-only (or too small) and was copied to a new record.</summary>
    public bool IsCopyUpdated => (_value & (byte)Record.CopyUpdated) != 0;

    /// <summary>A record for the key existed but had expired.</summary>
    public bool IsExpired => (_value & (byte)Record.Expired) != 0;

    internal Status WithExpired() => new((byte)(_value | (byte)Record.Expired));

    /// <inheritdoc/>
    public override string ToString()
    {
        string text = ((Basic)(_value & BasicMask)).ToString();
        if (IsCreatedRecord)
            text += ", CreatedRecord";
        if (IsInPlaceUpdated)
            text += ", InPlaceUpdated";
        if (IsCopyUpdated)
            text += ", CopyUpdated";
        if (IsExpired)
            text += ", Expired";
        return text;
    }
}
