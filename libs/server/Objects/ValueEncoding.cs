using System;

namespace Garnet.server;

/// <summary>
/// The encodings OBJECT ENCODING names. Values here have one representation each; the name is the one
/// Redis would use for a value with the same history of commands, decided by the same thresholds
/// (<see cref="EncodingThresholds"/>), so tools and tests that inspect encodings see what they expect.
/// </summary>
public enum ValueEncoding : byte
{
    /// <summary>A string Redis keeps in a separately allocated buffer (longer than 44 bytes, or changed by APPEND, SETRANGE, SETBIT...).</summary>
    Raw,

    /// <summary>A string that is a 64-bit integer in canonical form.</summary>
    Int,

    /// <summary>A string of at most 44 bytes allocated with its header.</summary>
    Embstr,

    /// <summary>A small list, hash, set or sorted set in one compact buffer.</summary>
    Listpack,

    /// <summary>A list of listpack nodes.</summary>
    Quicklist,

    /// <summary>A hash or set in a hash table.</summary>
    Hashtable,

    /// <summary>A small set of integers.</summary>
    Intset,

    /// <summary>A sorted set in a skip list and hash table.</summary>
    Skiplist,

    /// <summary>A stream (Redis has one encoding for streams).</summary>
    Stream,
}

/// <summary>Names of <see cref="ValueEncoding"/> values.</summary>
public static class ValueEncodings
{
    /// <summary>The name OBJECT ENCODING replies with.</summary>
    public static ReadOnlySpan<byte> Name(this ValueEncoding encoding) => encoding switch
    {
        ValueEncoding.Raw => "raw"u8,
        ValueEncoding.Int => "int"u8,
        ValueEncoding.Embstr => "embstr"u8,
        ValueEncoding.Listpack => "listpack"u8,
        ValueEncoding.Quicklist => "quicklist"u8,
        ValueEncoding.Hashtable => "hashtable"u8,
        ValueEncoding.Intset => "intset"u8,
        ValueEncoding.Skiplist => "skiplist"u8,
        ValueEncoding.Stream => "stream"u8,
        _ => throw new ArgumentOutOfRangeException(nameof(encoding)),
    };
}
