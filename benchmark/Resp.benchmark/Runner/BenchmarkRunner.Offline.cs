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
        long batchesPerConnection = BatchesFor(commandsPerConnection, _options.BatchSize);
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
    /// The offline hot loop of one thread: every connection has one whole batch in flight. The thread
    /// takes the connections in turn, reads one connection's replies until the batch is counted and
    /// sends its next batch at once, so with two or more connections the server always has a batch
    /// waiting while this thread reads (as redis-benchmark's many connections keep it fed).
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
            long batchesPerConnection = timed ? long.MaxValue : batches;
            var sentBatches = new long[connections.Length];
            long completed = 0;
            try
            {
                for (int c = 0; c < connections.Length; c++)
                    SendNext(connections[c], prepared[c], ref next[c], ref sentBatches[c]);

                int inFlight = connections.Length;
                bool stopping = false;
                while (inFlight > 0)
                {
                    for (int c = 0; c < connections.Length; c++)
                    {
                        if (sentBatches[c] == 0)
                            continue;
                        connections[c].ReceiveReplies(repliesPerBatch);
                        completed += batchSize;
                        if (!stopping && timed && Stopwatch.GetTimestamp() >= deadline)
                            stopping = true;
                        if (!stopping && sentBatches[c] < batchesPerConnection)
                        {
                            SendNext(connections[c], prepared[c], ref next[c], ref sentBatches[c]);
                        }
                        else
                        {
                            // Nothing more to send here: this connection's last batch is answered.
                            sentBatches[c] = 0;
                            inFlight--;
                        }
                    }
                }
            }
            finally
            {
                Requests = completed;
            }
        }

        private static void SendNext(RespConnection connection, PreparedBatches batches, ref int next, ref long sentBatches)
        {
            connection.Send(batches.Batch(next));
            if (++next == batches.Count)
                next = 0;
            sentBatches++;
        }
    }
}
