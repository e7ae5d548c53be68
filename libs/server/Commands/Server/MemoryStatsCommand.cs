using System;
using System.Globalization;
using System.Text;

namespace Garnet.server;

/// <summary>
/// MEMORY STATS and MEMORY DOCTOR. STATS replies with Redis 7.2's map (name → value, <c>db.N</c> a nested map with
/// the hash table overheads, for databases holding keys), where "allocated" means what the memory budget counts,
/// followed by this server's own entries: what the heads of the logs gave back or dropped, and per database in use
/// (<c>store.db.N</c>) its log's addresses and regions, its hash index and its objects' heap.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Redis's top-level entries, db.N aside, plus this server's three budget-wide counters.</summary>
    private const int MemoryStatsFixedPairs = 27 + 3;

    /// <summary>Entries of each store.db.N map.</summary>
    private const int StoreFigurePairs = 19;

    private void MemoryStats()
    {
        var report = MemoryReport.Measure(_server);
        var keys = CountKeysOf(report);
        var state = ServerRuntimeState.Of(_server);
        long total = report.Used;
        long peak = state.ObserveMemory(total);
        const long startup = 0; // no database holds anything when the server starts
        long overhead = report.Total.IndexBytes;
        long dataset = total - overhead;
        long keyCount = 0;
        int databasesWithKeys = 0;
        foreach (long count in keys)
        {
            keyCount += count;
            if (count > 0)
                databasesWithKeys++;
        }
        long rss = Environment.WorkingSet;

        _writer.WriteMapHeader(MemoryStatsFixedPairs + databasesWithKeys + report.Databases.Count);
        StatInteger("peak.allocated"u8, peak);
        StatInteger("total.allocated"u8, total);
        StatInteger("startup.allocated"u8, startup);
        StatInteger("replication.backlog"u8, 0);
        StatInteger("clients.slaves"u8, 0);
        StatInteger("clients.normal"u8, 0);
        StatInteger("cluster.links"u8, 0);
        StatInteger("aof.buffer"u8, 0);
        StatInteger("lua.caches"u8, 0);
        StatInteger("functions.caches"u8, 0);
        for (int i = 0; i < report.Databases.Count; i++)
        {
            if (keys[i] == 0)
                continue;
            // The hash index is the main table; expirations live in the records, so there is no second table.
            _writer.WriteBulk(string.Create(CultureInfo.InvariantCulture, $"db.{report.Databases[i].Index}"));
            _writer.WriteMapHeader(2);
            StatInteger("overhead.hashtable.main"u8, report.Databases[i].Figures.IndexBytes);
            StatInteger("overhead.hashtable.expires"u8, 0);
        }
        StatInteger("overhead.total"u8, overhead);
        StatInteger("keys.count"u8, keyCount);
        StatInteger("keys.bytes-per-key"u8, keyCount == 0 ? 0 : (total - startup) / keyCount);
        StatInteger("dataset.bytes"u8, dataset);
        StatDouble("dataset.percentage"u8, Percent(dataset, total - startup));
        StatDouble("peak.percentage"u8, Percent(total, peak));
        // No allocator of its own: the budget's bytes are what is allocated and active, the process's RSS what is resident.
        StatInteger("allocator.allocated"u8, total);
        StatInteger("allocator.active"u8, total);
        StatInteger("allocator.resident"u8, rss);
        StatDouble("allocator-fragmentation.ratio"u8, total == 0 ? 0 : 1);
        StatInteger("allocator-fragmentation.bytes"u8, 0);
        StatDouble("allocator.rss-ratio"u8, Ratio(rss, total));
        StatInteger("allocator.rss-bytes"u8, rss - total);
        StatDouble("rss-overhead.ratio"u8, rss == 0 ? 0 : 1);
        StatInteger("rss-overhead.bytes"u8, 0);
        StatDouble("fragmentation"u8, Ratio(rss, total));
        StatInteger("fragmentation.bytes"u8, rss - total);

        StatInteger("log.bytes-reclaimed"u8, report.ReclaimedBytes);
        StatInteger("log.evicted-records"u8, report.EvictedRecords);
        StatInteger("log.expired-records"u8, report.ExpiredRecords);
        foreach (var (index, figures) in report.Databases)
        {
            _writer.WriteBulk(string.Create(CultureInfo.InvariantCulture, $"store.db.{index}"));
            WriteStoreFigures(in figures);
        }
    }

    private void WriteStoreFigures(in StoreFigures figures)
    {
        _writer.WriteMapHeader(StoreFigurePairs);
        StatInteger("log.begin-address"u8, figures.BeginAddress);
        StatInteger("log.head-address"u8, figures.HeadAddress);
        StatInteger("log.read-only-address"u8, figures.ReadOnlyAddress);
        StatInteger("log.tail-address"u8, figures.TailAddress);
        StatInteger("log.mutable-bytes"u8, figures.MutableBytes);
        StatInteger("log.read-only-bytes"u8, figures.ReadOnlyBytes);
        StatInteger("log.pages-in-memory"u8, figures.PagesInMemory);
        StatInteger("log.bytes"u8, figures.LogBytes);
        StatInteger("log.full"u8, figures.FullLogs);
        StatInteger("log.pages-evicted"u8, figures.PagesEvicted);
        StatInteger("log.records-copied-forward"u8, figures.RecordsCopiedForward);
        StatInteger("index.bytes"u8, figures.IndexBytes);
        StatInteger("index.buckets"u8, figures.Buckets);
        StatInteger("index.overflow-buckets"u8, figures.OverflowBuckets);
        StatInteger("index.entries"u8, figures.Entries);
        StatDouble("index.fill"u8, figures.IndexFill);
        StatInteger("index.resizes"u8, figures.Resizes);
        StatInteger("objects.count"u8, figures.Objects);
        StatInteger("objects.heap-bytes"u8, figures.ObjectBytes);
    }

    /// <summary>MEMORY DOCTOR: a readable report of what looks wrong with memory, or that nothing does (see <see cref="MemoryDiagnosis"/>).</summary>
    private void MemoryDoctor()
    {
        var report = MemoryReport.Measure(_server);
        _writer.WriteVerbatim(Encoding.UTF8.GetBytes(MemoryDiagnosis.Diagnose(report)));
    }

    /// <summary>Keys per database of <paramref name="report"/>: the engine's counts, no scan.</summary>
    private long[] CountKeysOf(MemoryReport report)
    {
        var keys = new long[report.Databases.Count];
        for (int i = 0; i < keys.Length; i++)
            keys[i] = KeyspaceCounts.KeysOf(_server, report.Databases[i].Index);
        return keys;
    }

    private void StatInteger(ReadOnlySpan<byte> name, long value)
    {
        _writer.WriteBulk(name);
        _writer.WriteInteger(value);
    }

    private void StatDouble(ReadOnlySpan<byte> name, double value)
    {
        _writer.WriteBulk(name);
        _writer.WriteDouble(value);
    }

    private static double Percent(long part, long whole) => whole <= 0 ? 0 : part * 100.0 / whole;

    private static double Ratio(long numerator, long denominator) => denominator <= 0 ? 0 : (double)numerator / denominator;
}
