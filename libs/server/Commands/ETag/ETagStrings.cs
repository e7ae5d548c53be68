using System;

namespace Garnet.server;

/// <summary>Protocol literals of the ETag commands, as Garnet spells them.</summary>
internal static class ETagStrings
{
    /// <summary>An ETag argument that is not a non-negative integer (Garnet's reply has no ERR prefix).</summary>
    public static ReadOnlySpan<byte> ErrInvalidETag => "ETAG must be a numerical value greater than or equal to 0"u8;

    /// <summary>SET with both GET and WITHETAG: SET WITHETAG already replies with the ETag.</summary>
    public static ReadOnlySpan<byte> ErrWithETagAndGet => "ERR WITHETAG option not allowed with GET inside of SET"u8;

    public static ReadOnlySpan<byte> WithETag => "WITHETAG"u8;

    public static ReadOnlySpan<byte> NoGet => "NOGET"u8;
}
