using System;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The versions that WATCH compares: a server-wide table of counters indexed by key hash (keys that
/// share a slot share a version: a write to one aborts watchers of the other, never the reverse
/// mistake), plus a generation per database for FLUSHDB, FLUSHALL and SWAPDB.
/// </summary>
/// <remarks>
/// Each counter holds a version (high bits) and a count of writes in flight (low bits). A write
/// enters before it changes the key and leaves, bumping the version, after. A watch is still valid
/// only if the version is the one it saw and no write is in flight: a write that changed the key
/// but has not left yet is thereby seen too. EXEC checks this while it holds the locks of the keys
/// it runs on, so a write that enters after the check waits for those locks and lands after the
/// transaction.
/// </remarks>
public sealed class WatchVersionTable
{
    private const int SlotBits = 18;
    private const long VersionUnit = 1L << 24;
    private const long InFlightMask = VersionUnit - 1;

    private readonly long[] _slots = new long[1 << SlotBits];
    private readonly long[] _generations;

    /// <summary>A table for <paramref name="databaseCount"/> databases.</summary>
    public WatchVersionTable(int databaseCount) => _generations = new long[databaseCount];

    /// <summary>The slot of a key (high hash bits: the engine's buckets use the low ones).</summary>
    public static int SlotOf(ReadOnlySpan<byte> key) => SlotOfHash(KeyHash.Hash(key));

    /// <summary>The slot of a key whose <see cref="KeyHash.Hash"/> is <paramref name="hash"/>.</summary>
    public static int SlotOfHash(long hash) => (int)((ulong)hash >> (64 - SlotBits));

    /// <summary>A write to a key of <paramref name="slot"/> starts.</summary>
    public void BeginWrite(int slot) => Interlocked.Increment(ref _slots[slot]);

    /// <summary>A write to a key of <paramref name="slot"/> is done: its version moves.</summary>
    public void EndWrite(int slot) => Interlocked.Add(ref _slots[slot], VersionUnit - 1);

    /// <summary>The counter of <paramref name="slot"/>, as WATCH records it.</summary>
    public long Read(int slot) => Volatile.Read(ref _slots[slot]);

    /// <summary>Database <paramref name="database"/> starts being flushed or swapped.</summary>
    public void BeginDatabaseChange(int database) => Interlocked.Increment(ref _generations[database]);

    /// <summary>The flush or swap of database <paramref name="database"/> is done.</summary>
    public void EndDatabaseChange(int database) => Interlocked.Add(ref _generations[database], VersionUnit - 1);

    /// <summary>The generation of database <paramref name="database"/>, as WATCH records it.</summary>
    public long ReadGeneration(int database) => Volatile.Read(ref _generations[database]);

    /// <summary>Whether a counter read now still matches the one a watch recorded, with no write in flight.</summary>
    public static bool Unchanged(long watched, long current) => watched == current && (current & InFlightMask) == 0;
}
