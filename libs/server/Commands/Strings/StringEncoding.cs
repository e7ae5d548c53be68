using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// How a string value was last produced, kept in its record's user bits (<see cref="RecordInfo.UserBits"/>).
/// With the value it gives the encoding Redis would report: Redis re-encodes a value written whole (int,
/// embstr or raw by its text) but edits strings in place as raw buffers, and makes INCRBYFLOAT's result a
/// plain string. Each string command family says which form its writes leave (<c>FormOf</c>); the store
/// callbacks apply it, and copies of a record keep it.
/// </summary>
internal enum StringForm : byte
{
    /// <summary>Written whole (SET and its kin, INCR, RESTORE, APPEND to a new key): int, embstr or raw by the text; 0 to 9999 is a shared integer.</summary>
    Encoded = 0,

    /// <summary>A COPY of an encoded value: the same encoding, but its own object, never a shared integer.</summary>
    EncodedUnshared = 1,

    /// <summary>INCRBYFLOAT's result: embstr up to 44 bytes, else raw, never int.</summary>
    Text = 2,

    /// <summary>Edited in place (APPEND, SETRANGE, SETBIT, BITFIELD) or built as a buffer (BITOP, PFADD, PFMERGE): raw.</summary>
    Raw = 3,
}

/// <summary>The string encodings and reference counts OBJECT reports.</summary>
internal static class StringValueEncoding
{
    /// <summary>Longest string Redis allocates with its header (OBJ_ENCODING_EMBSTR_SIZE_LIMIT).</summary>
    public const int EmbstrLimit = 44;

    /// <summary>Redis shares the integers 0 to 9999 (OBJ_SHARED_INTEGERS) between keys unless an LRU or LFU policy with a memory limit needs each key's own access time.</summary>
    public const int SharedIntegers = 10000;

    /// <summary>The reference count OBJECT REFCOUNT reports for a shared integer (OBJ_SHARED_REFCOUNT).</summary>
    public const long SharedRefCount = int.MaxValue;

    /// <summary>The form of a string record.</summary>
    public static StringForm FormOf(in LogRecord record) => (StringForm)record.Info.UserBits;

    /// <summary>Records how the value of a string record was produced.</summary>
    public static void SetForm(ref LogRecord record, StringForm form) => record.Info.UserBits = (int)form;

    /// <summary>The encoding Redis would report for <paramref name="value"/> produced as <paramref name="form"/> says.</summary>
    public static ValueEncoding Of(ReadOnlySpan<byte> value, StringForm form)
    {
        switch (form)
        {
            case StringForm.Raw:
                return ValueEncoding.Raw;
            case StringForm.Text:
                return value.Length <= EmbstrLimit ? ValueEncoding.Embstr : ValueEncoding.Raw;
            default:
                // tryObjectEncoding: a canonical integer (no sign but '-', no leading zero, fits a long) is int.
                if (value.Length <= 20 && NumberFormat.TryParseLong(value, out _))
                    return ValueEncoding.Int;
                return value.Length <= EmbstrLimit ? ValueEncoding.Embstr : ValueEncoding.Raw;
        }
    }

    /// <summary>Whether Redis would store <paramref name="value"/> as one of its shared integers (when the policy allows sharing).</summary>
    public static bool IsSharedInteger(ReadOnlySpan<byte> value, StringForm form)
        => form == StringForm.Encoded && value.Length <= 4 && NumberFormat.TryParseLong(value, out long number) && number >= 0 && number < SharedIntegers;
}
