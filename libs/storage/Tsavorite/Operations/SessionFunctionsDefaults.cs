using System;

namespace Tsavorite;

/// <summary>Helpers for common callback bodies over byte-span values.</summary>
public static class SessionFunctionsDefaults
{
    /// <summary>Field info for a record holding exactly <paramref name="value"/>.</summary>
    public static RecordFieldInfo ForValue(ReadOnlySpan<byte> value) => new(value.Length);

    /// <summary>Overwrites the record's value with <paramref name="value"/> if it fits in place.</summary>
    public static bool TryOverwrite(ref LogRecord record, ReadOnlySpan<byte> value)
    {
        if (!record.TrySetValueLength(value.Length))
            return false;
        value.CopyTo(record.Value);
        return true;
    }
}
