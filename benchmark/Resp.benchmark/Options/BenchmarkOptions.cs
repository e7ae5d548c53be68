using System;
using System.Collections.Generic;
using System.IO;
using CommandLine;

namespace Resp.benchmark;

/// <summary>
/// What to run and against which server. The option names are the command-line contract (they
/// match the long-standing Resp.benchmark names such as <c>--batchsize</c>, <c>--threads</c>,
/// <c>--dbsize</c>, <c>--op-workload</c>); every property documents its default so that tests
/// and scripts can build an instance directly.
/// </summary>
public sealed class BenchmarkOptions
{
    /// <summary>Server host name or address. Default 127.0.0.1.</summary>
    [Option("host", Default = "127.0.0.1", HelpText = "Server host name or address.")]
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>Server port. Default 6379.</summary>
    [Option("port", Default = 6379, HelpText = "Server port.")]
    public int Port { get; set; } = 6379;

    /// <summary>Connect with TLS. Default off.</summary>
    [Option("tls", Default = false, HelpText = "Connect with TLS.")]
    public bool Tls { get; set; }

    /// <summary>Accept any server certificate (self-signed test setups only). Default off.</summary>
    [Option("tls-insecure", Default = false, HelpText = "With --tls, accept any server certificate.")]
    public bool TlsInsecure { get; set; }

    /// <summary>Name the TLS handshake expects in the certificate; null means <see cref="Host"/>.</summary>
    [Option("tls-host", HelpText = "Server name for the TLS handshake (defaults to --host).")]
    public string? TlsHost { get; set; }

    /// <summary>Password sent with AUTH on every connection before it runs; null sends none.</summary>
    [Option("auth", HelpText = "Password to AUTH with on every connection.")]
    public string? Auth { get; set; }

    /// <summary>
    /// Extra RESP3 connections that turn on CLIENT TRACKING BCAST before the run and read (and count) the invalidations
    /// the run's writes cause, so writes are measured with that many broadcasting clients listening. Default 0.
    /// </summary>
    [Option("tracking-clients", Default = 0, HelpText = "RESP3 connections with CLIENT TRACKING ON BCAST listening during the run (client-side caching load).")]
    public int TrackingClients { get; set; }

    /// <summary>With <see cref="TrackingClients"/>, the prefix they listen on (PREFIX); null for every key.</summary>
    [Option("tracking-prefix", HelpText = "With --tracking-clients, the BCAST prefix (default: every key).")]
    public string? TrackingPrefix { get; set; }

    /// <summary>
    /// A pattern one extra RESP3 connection PSUBSCRIBEs to before the run, reading (and counting) the messages the run
    /// causes, e.g. "__key*__:*" to measure writes with a keyspace-notification subscriber; null opens none.
    /// </summary>
    [Option("subscribe", HelpText = "A pattern one extra connection PSUBSCRIBEs to during the run (e.g. '__key*__:*' with keyspace notifications on).")]
    public string? SubscribePattern { get; set; }

    /// <summary>
    /// Client session counts: one measurement per value. Offline, each thread drives
    /// <see cref="Clients"/> connections; online, every client session gets a thread. Default 1.
    /// </summary>
    [Option("threads", Separator = ',', Default = new[] { 1 }, HelpText = "Comma-separated client thread counts; one run per value.")]
    public IEnumerable<int> Threads { get; set; } = new[] { 1 };

    /// <summary>Connections per thread. Default 1.</summary>
    [Option("clients", Default = 1, HelpText = "Connections per thread (offline: pipelined from the same thread; online: one thread each).")]
    public int Clients { get; set; } = 1;

    /// <summary>
    /// Accepted so existing scripts that name a client library (e.g. <c>--client GarnetClientSession</c>)
    /// keep working; this tool always uses its own raw RESP client. Default "raw".
    /// </summary>
    [Option("client", Default = "raw", HelpText = "Accepted for compatibility and ignored: the tool always uses its own raw RESP client.")]
    public string Client { get; set; } = "raw";

    /// <summary>The command of an offline run. Default GET.</summary>
    [Option("op", Default = "GET", HelpText = "Offline operation: GET, SET, SETEX, MGET, MSET, INCR, DEL, PING, ZADD, ZREM, ZCARD, PFADD, PFCOUNT, PFMERGE, SETBIT, GETBIT, BITCOUNT, BITOP, LPUSH, LPOP, HSET, HGET, SADD, SETGET, MULTIINCR4 (MULTI + 4 INCR + EXEC, counted as one op), EVALSHA3 (a 3-call script), XADD (three fields), XRANGE (COUNT 10; the preload gives each stream ten entries).")]
    public string Op { get; set; } = "GET";

    /// <summary>Operations per network write in offline mode (a MULTIINCR4 operation is six commands). Default 4096.</summary>
    [Option('b', "batchsize", Default = 4096, HelpText = "Offline: operations per network write (commands; transactions for MULTIINCR4).")]
    public int BatchSize { get; set; } = 4096;

    /// <summary>Number of distinct keys, preloaded unless <see cref="SkipLoad"/>. Default 1024.</summary>
    [Option("dbsize", Default = 1024L, HelpText = "Number of distinct keys (preloaded unless --skipload).")]
    public long DbSize { get; set; } = 1024;

    /// <summary>Key length in bytes (keys are base-62 numbers padded with '0'). Default 8.</summary>
    [Option("keylength", Default = 8, HelpText = "Key length in bytes.")]
    public int KeyLength { get; set; } = 8;

    /// <summary>Value length in bytes. Default 8.</summary>
    [Option("valuelength", Default = 8, HelpText = "Value length in bytes.")]
    public int ValueLength { get; set; } = 8;

    /// <summary>With a value above <see cref="ValueLength"/>, SET and SETEX values have a random length in between, inclusive. Default 0 (fixed).</summary>
    [Option("valuelength-max", Default = 0, HelpText = "Largest value length: SET and SETEX values get a random length from --valuelength to this (0: fixed length).")]
    public int ValueLengthMax { get; set; }

    /// <summary>Total operations over all sessions when <see cref="Runtime"/> is not set. Default 2^22.</summary>
    [Option("totalops", Default = 1L << 22, HelpText = "Total operations (commands; transactions for MULTIINCR4) over all sessions (ignored when --runtime is set).")]
    public long TotalOps { get; set; } = 1L << 22;

    /// <summary>Run for this many seconds instead of <see cref="TotalOps"/>; zero or less means unset. Default -1.</summary>
    [Option("runtime", Default = -1.0, HelpText = "Seconds to run for; overrides --totalops.")]
    public double Runtime { get; set; } = -1;

    /// <summary>Do not preload the keys. Default off.</summary>
    [Option("skipload", Default = false, HelpText = "Do not preload the keys.")]
    public bool SkipLoad { get; set; }

    /// <summary>Zipf exponent of the key distribution, in (0, 1); zero means uniform. Default 0.</summary>
    [Option("zipf", Default = 0.0, HelpText = "Zipf exponent in (0,1) for skewed keys, e.g. 0.99; 0 means uniform.")]
    public double Zipf { get; set; }

    /// <summary>Expiry in seconds that SETEX sets. Default 3600, long enough to outlast a run.</summary>
    [Option("ttl", Default = 3600, HelpText = "Expiry (seconds) for SETEX.")]
    public int Ttl { get; set; } = 3600;

    /// <summary>Keys per MGET or MSET command. Default 8.</summary>
    [Option("keys-per-command", Default = 8, HelpText = "Keys per MGET / MSET command.")]
    public int KeysPerCommand { get; set; } = 8;

    /// <summary>Operator of BITOP: AND, OR, XOR or NOT. Default AND (with two source keys).</summary>
    [Option("bitop", Default = "AND", HelpText = "BITOP operator: AND, OR, XOR (two sources) or NOT (one).")]
    public string BitOp { get; set; } = "AND";

    /// <summary>Measure latency with closed-loop clients instead of throughput. Default off.</summary>
    [Option("online", Default = false, HelpText = "Latency mode: each client sends --itp commands and waits for their replies.")]
    public bool Online { get; set; }

    /// <summary>Online: the operations to mix. Default GET,SET.</summary>
    [Option("op-workload", Separator = ',', Default = new[] { "GET", "SET" }, HelpText = "Online: comma-separated operations to mix.")]
    public IEnumerable<string> OpWorkload { get; set; } = new[] { "GET", "SET" };

    /// <summary>Online: percentage of each operation of <see cref="OpWorkload"/>; must add up to 100. Default 80,20.</summary>
    [Option("op-percent", Separator = ',', Default = new[] { 80, 20 }, HelpText = "Online: comma-separated percentages of --op-workload, adding up to 100.")]
    public IEnumerable<int> OpPercent { get; set; } = new[] { 80, 20 };

    /// <summary>Online: commands per request batch. Default 1.</summary>
    [Option("itp", Default = 1, HelpText = "Online: commands per request batch.")]
    public int Itp { get; set; } = 1;

    /// <summary>Seed of the key and argument generators, for repeatable request streams. Default 1.</summary>
    [Option("seed", Default = 1L, HelpText = "Seed of the request generators.")]
    public long Seed { get; set; } = 1;

    /// <summary>File to append result rows to as CSV (header written once); null for none.</summary>
    [Option("csv", HelpText = "Append machine-readable result rows to this CSV file.")]
    public string? Csv { get; set; }

    /// <summary>
    /// Upper bound, in bytes, on all pre-generated request buffers together; past it the runner
    /// cycles over fewer distinct batches. Default 256 MiB.
    /// </summary>
    [Option("max-request-memory", Default = 256L << 20, HelpText = "Bytes of pre-generated requests over all connections before batches are reused.")]
    public long MaxRequestMemory { get; set; } = 256L << 20;

    /// <summary>Seconds a connection waits for a reply before the run fails. Default 60.</summary>
    [Option("timeout", Default = 60, HelpText = "Seconds to wait for a reply before giving up.")]
    public int Timeout { get; set; } = 60;

    /// <summary>
    /// Parses a command line; returns null (after writing help or the parse errors to
    /// <paramref name="helpWriter"/>) if it asked for help or did not parse.
    /// </summary>
    public static BenchmarkOptions? FromCommandLine(string[] args, TextWriter? helpWriter)
    {
        using var parser = new Parser(settings =>
        {
            settings.HelpWriter = helpWriter;
            settings.CaseInsensitiveEnumValues = true;
        });
        return parser.ParseArguments<BenchmarkOptions>(args) is Parsed<BenchmarkOptions> parsed ? parsed.Value : null;
    }

    /// <summary>Checks the options against each other; returns the problems found (empty if none).</summary>
    public List<string> Validate()
    {
        var problems = new List<string>();
        if (Port <= 0 || Port > 65535)
            problems.Add("--port must be in 1..65535.");
        var threadCounts = new List<int>(Threads);
        if (threadCounts.Count == 0)
            problems.Add("--threads needs at least one value.");
        if (threadCounts.Exists(threads => threads <= 0))
            problems.Add("--threads values must be positive.");
        if (Clients <= 0)
            problems.Add("--clients must be positive.");
        if (BatchSize <= 0)
            problems.Add("--batchsize must be positive.");
        if (Itp <= 0)
            problems.Add("--itp must be positive.");
        if (DbSize <= 0)
            problems.Add("--dbsize must be positive.");
        if (KeyLength <= 0)
            problems.Add("--keylength must be positive.");
        else if (KeyFormat.DigitsNeeded(DbSize) > KeyLength)
            problems.Add($"--keylength {KeyLength} is too short for {DbSize} distinct keys (needs {KeyFormat.DigitsNeeded(DbSize)}).");
        if (ValueLength <= 0)
            problems.Add("--valuelength must be positive.");
        if (ValueLengthMax != 0 && ValueLengthMax < ValueLength)
            problems.Add("--valuelength-max must be 0 or at least --valuelength.");
        if (Runtime <= 0 && TotalOps <= 0)
            problems.Add("--totalops must be positive when --runtime is not set.");
        if (Zipf < 0 || Zipf >= 1)
            problems.Add("--zipf must be in [0, 1) (0 means uniform).");
        if (KeysPerCommand <= 0)
            problems.Add("--keys-per-command must be positive.");
        if (Timeout <= 0)
            problems.Add("--timeout must be positive.");
        if (TrackingClients < 0)
            problems.Add("--tracking-clients must not be negative.");
        if (SubscribePattern != null && Tls)
            problems.Add("--subscribe does not work with --tls.");
        if (TrackingClients > 0 && Tls)
            problems.Add("--tracking-clients does not work with --tls.");
        if (Ttl <= 0)
            problems.Add("--ttl must be positive.");
        if (!Enum.TryParse<BitOperator>(BitOp, ignoreCase: true, out _))
            problems.Add("--bitop must be AND, OR, XOR or NOT.");
        if (Online)
        {
            var ops = new List<string>(OpWorkload);
            var percents = new List<int>(OpPercent);
            if (ops.Count == 0)
                problems.Add("--op-workload needs at least one operation.");
            if (ops.Count != percents.Count)
                problems.Add("--op-workload and --op-percent need the same number of values.");
            int sum = 0;
            foreach (int percent in percents)
            {
                if (percent < 0)
                    problems.Add("--op-percent values must not be negative.");
                sum += percent;
            }
            if (sum != 100)
                problems.Add("--op-percent values must add up to 100.");
            foreach (string op in ops)
            {
                if (!OpTypes.TryParse(op, out var parsed))
                    problems.Add($"Unknown operation '{op}' in --op-workload.");
                else if (parsed == OpType.SETGET)
                    problems.Add("--op-workload takes SET and GET separately, not SETGET.");
                else if (!OpTypes.IsSingleCommand(parsed))
                    problems.Add($"--op-workload takes single commands; {parsed} is offline only.");
            }
        }
        else if (!OpTypes.TryParse(Op, out _))
        {
            problems.Add($"Unknown operation '{Op}' for --op.");
        }
        return problems;
    }
}
