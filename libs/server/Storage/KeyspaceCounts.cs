using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The live keys of one database, those with an expiration, and their remaining time to live (INFO keyspace and the
/// metrics endpoint), counted by scanning its log. The caller must not be epoch-protected: a thread protected on one
/// store while waiting for another store's epoch could deadlock with a thread doing the opposite.
/// </summary>
internal struct KeyspaceCounts : IScanFunctions
{
    public long NowTicks;
    public long Keys;
    public long Expires;
    public long TtlMillisecondsTotal;

    /// <summary>The average remaining time to live of the keys that expire, in milliseconds (0 when none does).</summary>
    public readonly long AverageTtlMilliseconds => Expires == 0 ? 0 : TtlMillisecondsTotal / Expires;

    /// <summary>Counts database <paramref name="index"/> of <paramref name="server"/> (none if it was never written).</summary>
    public static KeyspaceCounts Count(StoreWrapper server, int index)
    {
        var counter = new KeyspaceCounts { NowTicks = Expiration.NowTicks };
        while (true)
        {
            var database = server.PeekDatabase(index);
            if (database == null || database.NeverWritten)
                return counter;
            using var session = database.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects));
            if (!database.TryEnter(session))
                continue; // flushed meanwhile: count its replacement
            try
            {
                session.Scan(ref counter);
            }
            finally
            {
                session.EndUnsafe();
            }
            return counter;
        }
    }

    public bool OnRecord(in LogRecord record, long address)
    {
        Keys++;
        long expiration = record.Expiration;
        if (expiration != 0)
        {
            Expires++;
            TtlMillisecondsTotal += Math.Max(0, expiration - NowTicks) / TimeSpan.TicksPerMillisecond;
        }
        return true;
    }
}
