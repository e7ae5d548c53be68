using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The keys of one database, those with an expiration, and their remaining time to live (INFO keyspace and the
/// metrics endpoint). The key count is the engine's (<see cref="TsavoriteKV.KeyCount"/>, expired keys not reclaimed
/// yet included, as Redis counts them); the expirations are counted by scanning the log, skipped when no record
/// carries one. The caller must not be epoch-protected: a thread protected on one store while waiting for another
/// store's epoch could deadlock with a thread doing the opposite.
/// </summary>
internal struct KeyspaceCounts : IScanFunctions
{
    public long NowUnixMs;
    public long Keys;
    public long Expires;
    // 128 bits: expirations reach long.MaxValue ms, so two far-future keys would overflow a 64-bit sum.
    public Int128 TtlMillisecondsTotal;

    /// <summary>The average remaining time to live of the keys that expire, in milliseconds (0 when none does).</summary>
    public readonly long AverageTtlMilliseconds => Expires == 0 ? 0 : (long)(TtlMillisecondsTotal / Expires);

    /// <summary>The key count of database <paramref name="index"/> (0 if it was never written): O(1), no scan.</summary>
    public static long KeysOf(StoreWrapper server, int index)
    {
        var database = server.PeekDatabase(index);
        return database == null ? 0 : database.MainStore.KeyCount;
    }

    /// <summary>Counts database <paramref name="index"/> of <paramref name="server"/> (none if it was never written).</summary>
    public static KeyspaceCounts Count(StoreWrapper server, int index)
    {
        while (true)
        {
            var counter = new KeyspaceCounts { NowUnixMs = Expiration.NowUnixMs };
            var database = server.PeekDatabase(index);
            if (database == null || database.NeverWritten)
                return counter;
            counter.Keys = database.MainStore.KeyCount;
            if (counter.Keys == 0 || !database.MainStore.MayHoldExpirations)
                return counter;
            using var session = database.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects));
            if (!database.TryEnter(session))
                continue; // flushed meanwhile: count its replacement
            try
            {
                // Expired keys not reclaimed yet are in keys=, so they are in expires= too (as in Redis).
                session.Scan(ref counter, flags: ScanFlags.IncludeExpired);
            }
            finally
            {
                session.EndUnsafe();
            }
            return counter;
        }
    }

    /// <summary>A live key the scan reports: counted if it has an expiration (the key count is the engine's).</summary>
    public bool OnRecord(in LogRecord record, long address)
    {
        long expiration = record.Expiration;
        if (expiration != 0)
        {
            Expires++;
            TtlMillisecondsTotal += Math.Max(0, expiration - NowUnixMs);
        }
        return true;
    }
}
