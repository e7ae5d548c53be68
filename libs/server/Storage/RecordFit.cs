using Tsavorite;

namespace Garnet.server;

/// <summary>Checks and writes that keep a record consistent when a change may not fit in place.</summary>
internal static class RecordFit
{
    /// <summary>Whether <paramref name="record"/> can hold a value of <paramref name="valueLength"/> bytes with or without an expiration.</summary>
    public static bool Fits(ref LogRecord record, int valueLength, bool hasExpiration)
    {
        if (!record.Info.ValueIsExternal)
            return RecordLayout.UsedSize(record.KeyLength, valueLength, record.Info.HasETag, hasExpiration) <= record.AllocatedSize;
        // An out-of-line value fits its block; one that would use less than half of it gets a new record, so a
        // small value does not keep a large block (the engine frees the old one).
        long capacity = record.ExternalBytes;
        return valueLength <= capacity && 2L * valueLength > capacity
            && RecordLayout.UsedSize(record.KeyLength, ExternalValue.Size, record.Info.HasETag, hasExpiration) <= record.AllocatedSize;
    }

    /// <summary>
    /// Resizes the value and sets or removes the expiration, if it all fits; otherwise changes
    /// nothing and returns false (the engine then writes a new record).
    /// </summary>
    public static bool TryResize(ref LogRecord record, int valueLength, bool hasExpiration, long expirationUnixMs)
    {
        if (!Fits(ref record, valueLength, hasExpiration))
            return false;
        if (!hasExpiration)
            record.RemoveExpiration();
        record.TrySetValueLength(valueLength);
        if (hasExpiration)
            record.TrySetExpiration(expirationUnixMs);
        return true;
    }

    /// <summary>Field info for a value of <paramref name="valueLength"/> bytes, with an expiration if nonzero.</summary>
    public static RecordFieldInfo Fields(int valueLength, long expirationUnixMs)
        => new(valueLength) { HasExpiration = expirationUnixMs != 0 };

    /// <summary>Sets the expiration of a freshly laid-out record, if it has one.</summary>
    public static void SetExpiration(ref LogRecord record, long expirationUnixMs)
    {
        if (expirationUnixMs != 0)
            record.TrySetExpiration(expirationUnixMs);
    }
}
