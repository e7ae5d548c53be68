namespace Tsavorite;

/// <summary>Constants of the 48-bit logical address space shared by the index and the log.</summary>
public static class LogAddress
{
    /// <summary>Number of bits of a logical address.</summary>
    public const int AddressBits = 48;

    /// <summary>Mask selecting the address bits of a word.</summary>
    public const long AddressMask = (1L << AddressBits) - 1;

    /// <summary>No record: the end of every hash chain.</summary>
    public const long InvalidAddress = 0;

    /// <summary>
    /// The first record's address. The first bytes of page 0 are never allocated so that 0 can mean
    /// "no record" and a log scan can start at a well-defined place.
    /// </summary>
    public const long FirstValidAddress = 64;

    /// <summary>
    /// The bit that marks an address in the read cache (<see cref="ReadCacheLog"/>) rather than the log. Log addresses
    /// stay below it, so "address &gt;= ReadCacheBit" is the one test that tells them apart.
    /// </summary>
    public const long ReadCacheBit = 1L << (AddressBits - 1);
}
