using System.Globalization;
using System.IO;
using System.Text;

namespace Resp.benchmark;

/// <summary>Turns results into the one-line human summary and CSV rows.</summary>
public static class ResultFormatter
{
    /// <summary>The CSV header; one row per offline run, one per operation (and "ALL") per online run.</summary>
    public const string CsvHeader =
        "mode,workload,threads,clients,batchsize,dbsize,keylength,valuelength,distribution,requests,replies,errors,elapsed_s,ops_per_sec,latency_op,latency_count,p50_us,p90_us,p99_us,p999_us,max_us,mean_us";

    /// <summary>One line with the parameters, ops/s and (online) the latency percentiles per operation.</summary>
    public static string Line(BenchmarkResult result)
    {
        var line = new StringBuilder();
        line.Append(CultureInfo.InvariantCulture,
            $"{result.Mode} {(result.Mode == "online" ? "workload" : "op")}={result.Workload} threads={result.Threads} clients={result.Clients} ");
        line.Append(CultureInfo.InvariantCulture,
            $"{(result.Mode == "online" ? "itp" : "batchsize")}={result.BatchSize} dbsize={result.DbSize} keylength={result.KeyLength} valuelength={result.ValueLength} keys={result.Distribution} ");
        if (result.CommandsPerOp > 1)
            line.Append(CultureInfo.InvariantCulture, $"commands/op={result.CommandsPerOp} ");
        line.Append(CultureInfo.InvariantCulture,
            $"ops={result.Replies} errors={result.Errors} elapsed={result.ElapsedSeconds:F2}s ops/s={result.OpsPerSecond:F0}");
        foreach (var latency in result.Latencies)
        {
            line.Append(CultureInfo.InvariantCulture,
                $" | {latency.Op} p50={latency.P50:F1} p90={latency.P90:F1} p99={latency.P99:F1} p99.9={latency.P999:F1} max={latency.Max:F1}us");
        }
        if (result.FirstError != null)
            line.Append(" first-error=\"").Append(result.FirstError).Append('"');
        return line.ToString();
    }

    /// <summary>Appends the rows of <paramref name="result"/> to <paramref name="path"/>, writing the header if the file is new or empty.</summary>
    public static void AppendCsv(string path, BenchmarkResult result)
    {
        bool needsHeader = !File.Exists(path) || new FileInfo(path).Length == 0;
        using var writer = new StreamWriter(path, append: true);
        if (needsHeader)
            writer.WriteLine(CsvHeader);
        string common = string.Create(CultureInfo.InvariantCulture,
            $"{result.Mode},{Quote(result.Workload)},{result.Threads},{result.Clients},{result.BatchSize},{result.DbSize},{result.KeyLength},{result.ValueLength},{result.Distribution},{result.Requests},{result.Replies},{result.Errors},{result.ElapsedSeconds:F3},{result.OpsPerSecond:F0}");
        if (result.Latencies.Count == 0)
        {
            writer.WriteLine(common + ",,,,,,,,");
            return;
        }
        foreach (var latency in result.Latencies)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{common},{latency.Op},{latency.Count},{latency.P50:F2},{latency.P90:F2},{latency.P99:F2},{latency.P999:F2},{latency.Max:F2},{latency.Mean:F2}"));
        }
    }

    private static string Quote(string text) => text.Contains(',') ? "\"" + text + "\"" : text;
}
