using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Resp.benchmark;

public sealed partial class BenchmarkRunner
{
    /// <summary>
    /// Throughput: <paramref name="threads"/> threads, each owning --clients connections with
    /// pre-encoded batches of --batchsize operations (commands, or MULTIINCR4 transactions).
    /// </summary>
    public BenchmarkResult RunOffline(int threads)
    {
        OpType op = Parse(_options.Op);
        int connections = threads * _options.Clients;
        long commandsPerConnection = CommandsPerConnection(connections);
        long batchesPerConnection = (commandsPerConnection + _options.BatchSize - 1) / _options.BatchSize;
        long byteBudget = Math.Max(1, _options.MaxRequestMemory / connections);

        var workers = new List<Worker>();
        for (int t = 0; t < threads; t++)
            workers.Add(new OfflineWorker(_options, op, firstConnection: t * _options.Clients, batchesPerConnection, byteBudget));
        long elapsed = RunWorkers(workers, _options.Runtime);

        long requests = 0, replies = 0, errors = 0;
        string? firstError = null;
        foreach (var worker in workers)
        {
            requests += worker.Requests;
            replies += worker.Replies;
            errors += worker.Errors;
            firstError ??= worker.FirstError;
        }
        return new BenchmarkResult
        {
            Mode = "offline",
            Workload = op.ToString(),
            Threads = threads,
            Clients = _options.Clients,
            BatchSize = _options.BatchSize,
            DbSize = _options.DbSize,
            KeyLength = _options.KeyLength,
            ValueLength = _options.ValueLength,
            Distribution = Distribution,
            CommandsPerOp = OpTypes.CommandsPerOp(op),
            Requests = requests,
            Replies = replies,
            Errors = errors,
            FirstError = firstError,
            ElapsedSeconds = (double)elapsed / Stopwatch.Frequency,
        };
    }

    /// <summary>
    /// The offline hot loop of one thread: write one whole batch on each of its connections, then
    /// read each connection until the scanner counted the batch's replies; repeat.
    /// </summary>
    private sealed class OfflineWorker(BenchmarkOptions options, OpType op, int firstConnection, long batches, long byteBudget) : Worker
    {
        private PreparedBatches[] _batches = [];

        protected override void Prepare()
        {
            RepliesPerOp = OpTypes.CommandsPerOp(op);
            _batches = new PreparedBatches[options.Clients];
            for (int c = 0; c < options.Clients; c++)
            {
                Connect(options, [op]);
                var generator = RequestGenerator.ForConnection(options, firstConnection + c);
                _batches[c] = PreparedBatches.ForOp(generator, op, options.BatchSize, batches, byteBudget);
            }
        }

        [MethodImpl(MethodImplOptions.AggressiveOptimization)]
        protected override void Measure(long deadline)
        {
            var connections = Connections.ToArray();
            var prepared = _batches;
            int batchSize = options.BatchSize;
            int repliesPerBatch = batchSize * RepliesPerOp;
            var next = new int[connections.Length];
            bool timed = deadline != long.MaxValue;
            long rounds = timed ? long.MaxValue : batches;
            long sent = 0;
            try
            {
                for (long round = 0; round < rounds; round++)
                {
                    for (int c = 0; c < connections.Length; c++)
                    {
                        connections[c].Send(prepared[c].Batch(next[c]));
                        if (++next[c] == prepared[c].Count)
                            next[c] = 0;
                    }
                    sent += (long)batchSize * connections.Length;
                    for (int c = 0; c < connections.Length; c++)
                        connections[c].ReceiveReplies(repliesPerBatch);
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
