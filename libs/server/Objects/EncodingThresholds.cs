namespace Garnet.server;

/// <summary>
/// Redis's thresholds between the compact and the general encoding of each type (the
/// <c>*-max-listpack-*</c> and <c>set-max-intset-entries</c> parameters, with Redis's defaults). They
/// change at runtime through CONFIG SET and apply to later writes only: an object keeps the encoding it
/// has until a write checks it again, and, as in Redis, only lists ever go back to the compact encoding.
/// Only OBJECT ENCODING reads the result; every encoding here stores values the same way.
/// </summary>
public sealed class EncodingThresholds
{
    /// <summary>The thresholds of objects made outside a server (tests, tools): Redis's defaults.</summary>
    internal static EncodingThresholds Defaults { get; } = new();

    /// <summary>Most fields of a listpack hash (<c>hash-max-listpack-entries</c>). Default 512, Redis's own default.</summary>
    public long HashMaxListpackEntries { get; set; } = 512;

    /// <summary>Longest field or value of a listpack hash, in bytes (<c>hash-max-listpack-value</c>). Default 64.</summary>
    public long HashMaxListpackValue { get; set; } = 64;

    /// <summary>Most members of an intset (<c>set-max-intset-entries</c>). Default 512.</summary>
    public long SetMaxIntsetEntries { get; set; } = 512;

    /// <summary>Most members of a listpack set (<c>set-max-listpack-entries</c>). Default 128.</summary>
    public long SetMaxListpackEntries { get; set; } = 128;

    /// <summary>Longest member of a listpack set, in bytes (<c>set-max-listpack-value</c>). Default 64.</summary>
    public long SetMaxListpackValue { get; set; } = 64;

    /// <summary>Most members of a listpack sorted set (<c>zset-max-listpack-entries</c>). Default 128.</summary>
    public long ZSetMaxListpackEntries { get; set; } = 128;

    /// <summary>Longest member of a listpack sorted set, in bytes (<c>zset-max-listpack-value</c>). Default 64.</summary>
    public long ZSetMaxListpackValue { get; set; } = 64;

    /// <summary>
    /// The size of one list node (<c>list-max-listpack-size</c>): a positive number of elements, or -1 to -5
    /// for 4, 8, 16, 32 or 64 KB of listpack bytes. A list is a listpack while it fits in one node. Default -2.
    /// </summary>
    public int ListMaxListpackSize { get; set; } = -2;
}
