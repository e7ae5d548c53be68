using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// MEMORY DOCTOR's reading of a <see cref="MemoryReport"/>: in the manner of Redis, a greeting for Sam when nothing
/// looks wrong, otherwise one paragraph per issue found: a full log, used memory near maxmemory with noeviction, a
/// hash index full at its largest size, heads that mostly copy live data forward, and engine errors.
/// </summary>
internal static class MemoryDiagnosis
{
    /// <summary>Share of maxmemory past which noeviction is worth a warning.</summary>
    private const double NearLimit = 0.9;

    /// <summary>Pages a head must have moved past before the share copied forward means anything.</summary>
    private const long PagesBeforeCopyJudgement = 4;

    public static string Diagnose(MemoryReport report)
    {
        var issues = new List<string>();
        foreach (var (index, database) in report.Databases)
        {
            if (database.FullLogs != 0)
            {
                issues.Add(Inv($"The log of database {index} is full: commands that need new records get -OOM until its head can move ") +
                    "again, because live data fills the memory budget and the eviction policy may not drop it. Raise maxmemory, " +
                    "delete keys, or choose an evicting maxmemory-policy.");
            }
            if (database.IndexFill > TsavoriteKV.IndexGrowthFill && database.Buckets >= database.MaxBuckets)
            {
                issues.Add(Inv($"The hash index of database {index} is {database.IndexFill * 100:F0}% full at its largest size ") +
                    Inv($"({database.Buckets} buckets, {database.OverflowBuckets} overflow buckets): lookups follow overflow buckets, one ") +
                    "more cache line each. Raise --index-max-size.");
            }
        }

        var budget = report.Budget;
        long used = report.Used;
        if (budget.Limit > 0 && budget.Policy == EvictionPolicy.NoEviction && used >= budget.Limit * NearLimit)
        {
            issues.Add(Inv($"Used memory ({InfoBytes(used)}) is {used * 100.0 / budget.Limit:F0}% of maxmemory ({InfoBytes(budget.Limit)}) ") +
                "and maxmemory-policy is noeviction: once it is reached, writes get -OOM. Raise maxmemory or choose an evicting policy.");
        }

        var total = report.Total;
        if (total.PagesEvicted >= PagesBeforeCopyJudgement && report.ReclaimedBytes * 2 < total.PageBytesEvicted)
        {
            double copied = 100.0 * (total.PageBytesEvicted - report.ReclaimedBytes) / total.PageBytesEvicted;
            issues.Add(Inv($"The heads of the logs copy most of what they move past forward to the tail ({copied:F0}% of ") +
                Inv($"{total.PagesEvicted} pages, {total.RecordsCopiedForward} records): the data in use hardly fits the memory budget, ") +
                "so writes pay for copying. Raise maxmemory, or let an eviction policy drop cold keys.");
        }

        if (total.HeadMoverErrors != 0)
            issues.Add(Inv($"The head mover failed {total.HeadMoverErrors} times; the logs it served were marked full. This is a bug worth reporting."));
        if (total.FlushErrors != 0)
            issues.Add(Inv($"{total.FlushErrors} writes of log pages to the log device failed. Check the disk of --logdir."));

        if (issues.Count == 0)
        {
            return Inv($"Hi Sam, I can't find any memory issue in this instance ({InfoBytes(used)} in use). I can only vouch for ") +
                "what the memory budget counts: log pages, hash indexes and objects.\n";
        }
        var text = new StringBuilder("Sam, I found ");
        text.Append(issues.Count == 1 ? "one memory issue" : Inv($"{issues.Count} memory issues")).Append(" in this instance:\n\n");
        foreach (string issue in issues)
            text.Append(" * ").Append(issue).Append("\n\n");
        text.Append("Ask me again once you have looked into ").Append(issues.Count == 1 ? "it" : "them").Append(", Sam.\n");
        return text.ToString();
    }

    private static string InfoBytes(long bytes) => RespServerSession.HumanBytes(bytes);

    private static string Inv(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
