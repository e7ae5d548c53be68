using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Threading;

namespace Resp.benchmark;

/// <summary>
/// Runs benchmarks as a library: preloads the keys once, then measures once per
/// <see cref="BenchmarkOptions.Threads"/> value, offline (throughput) or online (latency).
/// Every measurement follows the same protocol: each client thread connects and encodes all
/// its request batches, then all wait on one start signal; the clock runs from releasing them to
/// the last one finishing.
/// </summary>
public sealed partial class BenchmarkRunner
{
    private readonly BenchmarkOptions _options;
    private readonly TextWriter _log;
    private bool _loaded;

    /// <summary>Creates a runner; progress messages go to <paramref name="log"/> (none if null).</summary>
    public BenchmarkRunner(BenchmarkOptions options, TextWriter? log = null)
    {
        var problems = options.Validate();
        if (problems.Count > 0)
            throw new ArgumentException(string.Join(Environment.NewLine, problems), nameof(options));
        _options = options;
        _log = log ?? TextWriter.Null;
    }

    /// <summary>Preloads (unless --skipload) and runs one measurement per thread count.</summary>
    public List<BenchmarkResult> Run()
    {
        var results = new List<BenchmarkResult>();
        foreach (int threads in _options.Threads)
            results.Add(RunOnce(threads));
        return results;
    }

    /// <summary>Preloads if not done yet and runs one measurement with <paramref name="threads"/> threads.</summary>
    public BenchmarkResult RunOnce(int threads)
    {
        if (!_loaded && !_options.SkipLoad)
            Load();
        _loaded = true;
        // Client-side caching load: broadcasting clients listen while the run writes (after the preload, which they would only slow).
        using var listeners = TrackingListeners.Start(_options);
        var result = _options.Online ? RunOnline(threads) : RunOffline(threads);
        if (listeners != null)
            _log.WriteLine($"{_options.TrackingClients} tracking clients and {(_options.SubscribePattern != null ? 1 : 0)} subscriber received {listeners.Invalidations} pushes.");
        return result;
    }

    /// <summary>Writes the --dbsize keys with the command that suits the operation under test.</summary>
    public void Load()
    {
        OpType op = PrimaryOp();
        LoadKind kind = OpTypes.LoadKindOf(op);
        long keys = _options.DbSize;
        int loaders = (int)Math.Min(4, keys);
        var started = Stopwatch.GetTimestamp();
        var workers = new List<Worker>();
        for (int i = 0; i < loaders; i++)
        {
            long first = keys * i / loaders;
            long end = keys * (i + 1) / loaders;
            workers.Add(new LoadWorker(_options, kind, first, end));
        }
        RunWorkers(workers, runtimeSeconds: 0);
        long errors = 0;
        string? firstError = null;
        foreach (var worker in workers)
        {
            errors += worker.Errors;
            firstError ??= worker.FirstError;
        }
        if (errors > 0)
            throw new InvalidOperationException($"Preloading {keys} keys with {kind} commands got {errors} error replies; the first: {firstError}");
        _log.WriteLine($"Loaded {keys} keys ({kind}) in {Stopwatch.GetElapsedTime(started).TotalSeconds:F2} s.");
        _loaded = true;
    }

    private OpType PrimaryOp()
    {
        if (!_options.Online)
            return Parse(_options.Op);
        foreach (string name in _options.OpWorkload)
            return Parse(name);
        throw new InvalidOperationException("--op-workload is empty.");
    }

    private static OpType Parse(string name) =>
        OpTypes.TryParse(name, out var op) ? op : throw new ArgumentException($"Unknown operation '{name}'.");

    private string Distribution => _options.Zipf > 0
        ? "zipf:" + _options.Zipf.ToString(CultureInfo.InvariantCulture)
        : "uniform";

    /// <summary>
    /// The commands one connection should send: its share of --totalops, or unbounded with --runtime.
    /// </summary>
    private long CommandsPerConnection(int connections) =>
        _options.Runtime > 0 ? long.MaxValue : Math.Max(1, (_options.TotalOps + connections - 1) / connections);

    /// <summary>
    /// Batches of <paramref name="batchSize"/> that <paramref name="commands"/> take. A timed run asks for
    /// <see cref="long.MaxValue"/> commands, which must stay that (rounding it up overflowed to a negative count, and every
    /// connection then cycled through one batch: a timed run at batch 64 touched 64 keys per connection).
    /// </summary>
    internal static long BatchesFor(long commands, int batchSize) =>
        commands == long.MaxValue ? long.MaxValue : (commands + batchSize - 1) / batchSize;

    /// <summary>
    /// Runs <paramref name="workers"/> on a thread each: all prepare, then all start together.
    /// Returns the measured Stopwatch ticks. Rethrows the first failure.
    /// </summary>
    private static long RunWorkers(IReadOnlyList<Worker> workers, double runtimeSeconds)
    {
        var start = new StartSignal(workers.Count);
        var threads = new Thread[workers.Count];
        for (int i = 0; i < workers.Count; i++)
        {
            var worker = workers[i];
            threads[i] = new Thread(() => worker.Execute(start)) { IsBackground = true, Name = "resp-bench-" + i };
            threads[i].Start();
        }
        long elapsed = 0;
        try
        {
            start.Ready.Wait();
            bool failedEarly = false;
            foreach (var worker in workers)
                failedEarly |= worker.Failure != null;
            long startTicks = Stopwatch.GetTimestamp();
            start.Abort = failedEarly;
            start.Deadline = runtimeSeconds > 0 ? startTicks + (long)(runtimeSeconds * Stopwatch.Frequency) : long.MaxValue;
            start.Go.Set();
            foreach (var thread in threads)
                thread.Join();
            elapsed = Stopwatch.GetTimestamp() - startTicks;
        }
        finally
        {
            start.Go.Set();
            foreach (var worker in workers)
                worker.Dispose();
            start.Dispose();
        }
        foreach (var worker in workers)
        {
            if (worker.Failure != null)
                throw new InvalidOperationException("A benchmark client failed: " + worker.Failure.Message, worker.Failure);
        }
        return elapsed;
    }

    /// <summary>How the main thread releases the prepared workers.</summary>
    private sealed class StartSignal(int workers) : IDisposable
    {
        public CountdownEvent Ready { get; } = new(workers);
        public ManualResetEventSlim Go { get; } = new(false);

        /// <summary>Stopwatch timestamp at which --runtime ends (long.MaxValue without it); read after <see cref="Go"/>.</summary>
        public long Deadline;

        /// <summary>Set when a worker failed to prepare: nobody runs.</summary>
        public bool Abort;

        public void Dispose()
        {
            Ready.Dispose();
            Go.Dispose();
        }
    }

    /// <summary>One client thread: prepares (connects, encodes) untimed, then runs its measured loop.</summary>
    private abstract class Worker : IDisposable
    {
        protected readonly List<RespConnection> Connections = new();

        public Exception? Failure { get; private set; }

        /// <summary>Operations sent.</summary>
        public long Requests { get; protected set; }

        /// <summary>Replies that make one operation (six for a MULTIINCR4 transaction).</summary>
        protected int RepliesPerOp { get; set; } = 1;

        /// <summary>Operations whose replies all arrived.</summary>
        public long Replies
        {
            get
            {
                long replies = 0;
                foreach (var connection in Connections)
                    replies += connection.Scanner.Replies;
                return replies / RepliesPerOp;
            }
        }

        /// <summary>Error replies, and error elements inside replies (a command that failed inside EXEC).</summary>
        public long Errors
        {
            get
            {
                long errors = 0;
                foreach (var connection in Connections)
                    errors += connection.Scanner.Errors + connection.Scanner.ErrorElements;
                return errors;
            }
        }

        public string? FirstError
        {
            get
            {
                foreach (var connection in Connections)
                {
                    if (connection.Scanner.FirstError is { } error)
                        return error;
                }
                return null;
            }
        }

        public void Execute(StartSignal start)
        {
            try
            {
                Prepare();
            }
            catch (Exception e)
            {
                Failure = e;
            }
            start.Ready.Signal();
            start.Go.Wait();
            if (Failure != null || start.Abort)
                return;
            try
            {
                Measure(start.Deadline);
            }
            catch (Exception e)
            {
                Failure = e;
            }
        }

        protected abstract void Prepare();

        /// <summary>Opens a connection and sends what <paramref name="ops"/> need first (SCRIPT LOAD for EVALSHA3).</summary>
        protected RespConnection Connect(BenchmarkOptions options, ReadOnlySpan<OpType> ops)
        {
            var connection = RespConnection.Open(options);
            Connections.Add(connection);
            var setup = new RequestBuffer();
            int commands = 0;
            for (int i = 0; i < ops.Length; i++)
            {
                bool repeated = false;
                for (int j = 0; j < i; j++)
                    repeated |= ops[j] == ops[i];
                if (!repeated)
                    commands += RequestGenerator.WriteSetup(setup, ops[i]);
            }
            if (commands > 0)
                connection.RunSetup(setup.Written, commands, "Setup (SCRIPT LOAD)");
            return connection;
        }

        protected abstract void Measure(long deadline);

        public void Dispose()
        {
            foreach (var connection in Connections)
                connection.Dispose();
        }
    }

    /// <summary>Preloads keys [first, end) on one connection in writes of up to about 1 MiB.</summary>
    private sealed class LoadWorker(BenchmarkOptions options, LoadKind kind, long first, long end) : Worker
    {
        private const int TargetWriteBytes = 1 << 20;

        protected override void Prepare() => Connections.Add(RespConnection.Open(options));

        protected override void Measure(long deadline)
        {
            var connection = Connections[0];
            var generator = RequestGenerator.ForConnection(options, first);
            var buffer = new RequestBuffer(TargetWriteBytes);
            long key = first;
            while (key < end)
            {
                buffer.Clear();
                int commands = 0;
                while (key < end && buffer.Length < TargetWriteBytes && commands < 4096)
                {
                    commands += generator.WriteLoad(buffer, kind, key++);
                }
                connection.Send(buffer.Written);
                connection.ReceiveReplies(commands);
                Requests += commands;
            }
        }
    }
}
