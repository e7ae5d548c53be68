using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text;

namespace Resp.benchmark;

public sealed partial class BenchmarkRunner
{
    /// <summary>
    /// Latency: threads × --clients closed-loop clients, each on its own thread so a reply is
    /// timestamped when it arrives. Each sends --itp commands drawn from the workload mix, waits
    /// for their replies, and records every command's latency under its operation.
    /// </summary>
    public BenchmarkResult RunOnline(int threads)
    {
        var ops = new List<OpType>();
        foreach (string name in _options.OpWorkload)
            ops.Add(Parse(name));
        var mix = new WorkloadMix(ops, new List<int>(_options.OpPercent));
        int clients = threads * _options.Clients;
        long commandsPerClient = CommandsPerConnection(clients);
        long batchesPerClient = BatchesFor(commandsPerClient, _options.Itp);
        long byteBudget = Math.Max(1, _options.MaxRequestMemory / clients);

        var workers = new List<Worker>();
        var onlineWorkers = new List<OnlineWorker>();
        for (int i = 0; i < clients; i++)
        {
            var worker = new OnlineWorker(_options, mix, i, batchesPerClient, byteBudget);
            workers.Add(worker);
            onlineWorkers.Add(worker);
        }
        long elapsed = RunWorkers(workers, _options.Runtime);

        var perOp = new LatencyHistogram[mix.Ops.Length];
        for (int slot = 0; slot < perOp.Length; slot++)
            perOp[slot] = new LatencyHistogram();
        var all = new LatencyHistogram();
        long requests = 0, replies = 0, errors = 0;
        string? firstError = null;
        foreach (var worker in onlineWorkers)
        {
            for (int slot = 0; slot < perOp.Length; slot++)
            {
                perOp[slot].Add(worker.Histograms[slot]);
                all.Add(worker.Histograms[slot]);
            }
            requests += worker.Requests;
            replies += worker.Replies;
            errors += worker.Errors;
            firstError ??= worker.FirstError;
        }

        var latencies = new List<LatencySummary>();
        for (int slot = 0; slot < perOp.Length; slot++)
            latencies.Add(Summarize(mix.Ops[slot].ToString(), perOp[slot]));
        latencies.Add(Summarize("ALL", all));

        var workload = new StringBuilder();
        int index = 0;
        foreach (int percent in _options.OpPercent)
        {
            if (index > 0)
                workload.Append(',');
            workload.Append(mix.Ops[index++]).Append(':').Append(percent);
        }
        return new BenchmarkResult
        {
            Mode = "online",
            Workload = workload.ToString(),
            Threads = threads,
            Clients = _options.Clients,
            BatchSize = _options.Itp,
            DbSize = _options.DbSize,
            KeyLength = _options.KeyLength,
            ValueLength = _options.ValueLength,
            Distribution = Distribution,
            Requests = requests,
            Replies = replies,
            Errors = errors,
            FirstError = firstError,
            ElapsedSeconds = (double)elapsed / Stopwatch.Frequency,
            Latencies = latencies,
        };
    }

    private static LatencySummary Summarize(string op, LatencyHistogram histogram)
    {
        double microsecondsPerTick = 1_000_000.0 / Stopwatch.Frequency;
        return new LatencySummary(
            op,
            histogram.Count,
            histogram.ValueAtPercentile(50) * microsecondsPerTick,
            histogram.ValueAtPercentile(90) * microsecondsPerTick,
            histogram.ValueAtPercentile(99) * microsecondsPerTick,
            histogram.ValueAtPercentile(99.9) * microsecondsPerTick,
            histogram.Max * microsecondsPerTick,
            histogram.Mean * microsecondsPerTick);
    }

    /// <summary>
    /// The online hot loop of one client: take a timestamp, write one batch, then read; after each
    /// read, every reply it completed is recorded with (now - timestamp) under its operation.
    /// </summary>
    private sealed class OnlineWorker(BenchmarkOptions options, WorkloadMix mix, int client, long batches, long byteBudget) : Worker
    {
        private PreparedBatches? _batches;

        public LatencyHistogram[] Histograms { get; } = CreateHistograms(mix.Ops.Length);

        private static LatencyHistogram[] CreateHistograms(int count)
        {
            var histograms = new LatencyHistogram[count];
            for (int i = 0; i < count; i++)
                histograms[i] = new LatencyHistogram();
            return histograms;
        }

        protected override void Prepare()
        {
            Connect(options, mix.Ops);
            var generator = RequestGenerator.ForConnection(options, client);
            var opRandom = new FastRandom(~(options.Seed * 1_000_003 + client));
            _batches = PreparedBatches.ForMix(generator, mix, opRandom, options.Itp, batches, byteBudget);
        }

        [MethodImpl(MethodImplOptions.AggressiveOptimization)]
        protected override void Measure(long deadline)
        {
            var connection = Connections[0];
            var prepared = _batches!;
            var histograms = Histograms;
            int itp = options.Itp;
            bool timed = deadline != long.MaxValue;
            long rounds = timed ? long.MaxValue : batches;
            int batch = 0;
            long sent = 0;
            try
            {
                for (long round = 0; round < rounds; round++)
                {
                    long sentAt = Stopwatch.GetTimestamp();
                    connection.Send(prepared.Batch(batch));
                    sent += itp;
                    int done = 0;
                    while (done < itp)
                    {
                        int completed = connection.ReceiveOnce();
                        if (completed == 0)
                            continue;
                        long now = Stopwatch.GetTimestamp();
                        int upTo = Math.Min(itp, done + completed);
                        for (int i = done; i < upTo; i++)
                            histograms[prepared.OpSlot(batch, i)].Record(now - sentAt);
                        done = upTo;
                    }
                    if (++batch == prepared.Count)
                        batch = 0;
                    if (timed && Stopwatch.GetTimestamp() >= deadline)
                        break;
                }
            }
            finally
            {
                Requests = sent;
            }
        }
    }
}
