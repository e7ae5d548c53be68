using System;
using System.Text;
using BenchmarkDotNet.Attributes;
using Garnet.networking;
using Garnet.server;

namespace BDN.benchmark.Resp;

/// <summary>
/// RESP parsing and execution without the network: a pipelined batch of <see cref="BatchSize"/>
/// GET, SET or INCR commands is handed to a real <see cref="RespServerSession"/> through
/// <see cref="IMessageConsumer.TryConsumeMessages"/>, exactly as a socket receive would, and the
/// replies go to a sender that discards them. Results are per command (OperationsPerInvoke),
/// except <see cref="MultiIncr4"/>: per transaction of MULTI, four INCRs and EXEC (six commands).
/// </summary>
[MemoryDiagnoser]
public unsafe class RespSessionBenchmarks
{
    private const int BatchSize = 128;
    private const int KeyCount = 128;
    private const int Transactions = 32;

    private StoreWrapper _store = null!;
    private NullNetworkSender _sender = null!;
    private IMessageConsumer _session = null!;
    private RequestBatch _get;
    private RequestBatch _set;
    private RequestBatch _incr;
    private RequestBatch _multiIncr4;

    [GlobalSetup]
    public void Setup()
    {
        _store = new StoreWrapper(new ServerOptions
        {
            IndexSize = 1L << 20,
            MemorySize = 1L << 26,
            PageSize = 1L << 22,
            Databases = 1,
            ExpiredKeyDeletionScanFrequencySecs = 0,
        });
        _sender = new NullNetworkSender(1 << 17);
        _session = new RespSessionProvider(_store).CreateConsumer(_sender);

        var get = new StringBuilder();
        var set = new StringBuilder();
        var incr = new StringBuilder();
        for (int i = 0; i < BatchSize; i++)
        {
            string key = $"key:{i % KeyCount:D4}";
            string counter = $"ctr:{i % KeyCount:D4}";
            get.Append(RequestBatch.Command("GET", key));
            set.Append(RequestBatch.Command("SET", key, "value678"));
            incr.Append(RequestBatch.Command("INCR", counter));
        }

        var multi = new StringBuilder();
        for (int t = 0; t < Transactions; t++)
        {
            multi.Append(RequestBatch.Command("MULTI"));
            for (int i = 0; i < 4; i++)
                multi.Append(RequestBatch.Command("INCR", $"ctr:{((4 * t) + i) % KeyCount:D4}"));
            multi.Append(RequestBatch.Command("EXEC"));
        }

        _get = new RequestBatch(get.ToString());
        _set = new RequestBatch(set.ToString());
        _incr = new RequestBatch(incr.ToString());
        _multiIncr4 = new RequestBatch(multi.ToString());

        // Load the keys GET reads, and check that each batch is consumed whole and answered as expected.
        _set.Expect(_session, _sender, "+OK\r\n");
        _get.Expect(_session, _sender, "$8\r\nvalue678\r\n");
        _incr.Expect(_session, _sender, ":1\r\n");
        _multiIncr4.Expect(_session, _sender, "+OK\r\n+QUEUED\r\n");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _session.Dispose();
        _sender.Dispose();
        _store.Dispose();
        _get.Dispose();
        _set.Dispose();
        _incr.Dispose();
        _multiIncr4.Dispose();
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int Get() => _get.RunOn(_session);

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int Set() => _set.RunOn(_session);

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int Incr() => _incr.RunOn(_session);

    [Benchmark(OperationsPerInvoke = Transactions)]
    public int MultiIncr4() => _multiIncr4.RunOn(_session);
}
