using System;
using System.Text;
using BenchmarkDotNet.Attributes;
using Garnet.networking;
using Garnet.server;

namespace BDN.benchmark.Resp;

/// <summary>
/// Lua scripts without the network: pipelined batches of <see cref="BatchSize"/> EVALSHA go to a real
/// <see cref="RespServerSession"/> as a socket receive would hand them over. <c>Return1</c> is a
/// script's fixed cost; <c>ThreeCalls</c> runs INCR, GET and SET through redis.call on two random keys
/// out of 100,000 (batches rotate so the keys do not stay in cache). Results are per script.
/// </summary>
[MemoryDiagnoser]
public unsafe class ScriptBenchmarks
{
    private const int BatchSize = 128;
    private const int Batches = 256;
    private const string ThreeCallScript = "redis.call('INCR', KEYS[1]); redis.call('GET', KEYS[1]); return redis.call('SET', KEYS[2], ARGV[1])";

    private StoreWrapper _store = null!;
    private NullNetworkSender _sender = null!;
    private IMessageConsumer _session = null!;
    private RequestBatch _return1;
    private RequestBatch[] _threeCalls = null!;
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _store = new StoreWrapper(new ServerOptions { Databases = 1, ExpiredKeyDeletionScanFrequencySecs = 0 });
        _sender = new NullNetworkSender(1 << 17);
        _session = new RespSessionProvider(_store).CreateConsumer(_sender);

        string return1 = Load("return 1");
        string threeCalls = Load(ThreeCallScript);
        var random = new Random(1);
        var text = new StringBuilder();
        for (int i = 0; i < BatchSize; i++)
            text.Append(RequestBatch.Command("EVALSHA", return1, "0"));
        _return1 = new RequestBatch(text.ToString());
        _threeCalls = new RequestBatch[Batches];
        for (int b = 0; b < Batches; b++)
        {
            text.Clear();
            for (int i = 0; i < BatchSize; i++)
                text.Append(RequestBatch.Command("EVALSHA", threeCalls, "2", $"k:{random.Next(100_000):D12}", $"j:{random.Next(100_000):D12}", "v"));
            _threeCalls[b] = new RequestBatch(text.ToString());
        }

        _return1.Expect(_session, _sender, ":1\r\n");
        _threeCalls[0].Expect(_session, _sender, "+OK\r\n");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _session.Dispose();
        _sender.Dispose();
        _store.Dispose();
        _return1.Dispose();
        foreach (var batch in _threeCalls)
            batch.Dispose();
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int Return1() => _return1.RunOn(_session);

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int ThreeCalls()
    {
        var batch = _threeCalls[_next++ % Batches];
        return batch.RunOn(_session);
    }

    /// <summary>SCRIPT LOAD through the session; returns the digest.</summary>
    private string Load(string script)
    {
        using var batch = new RequestBatch(RequestBatch.Command("SCRIPT", "LOAD", script));
        batch.RunOn(_session);
        string reply = Encoding.ASCII.GetString(_sender.LastSent);
        if (!reply.StartsWith("$40\r\n", StringComparison.Ordinal))
            throw new InvalidOperationException($"SCRIPT LOAD failed: {reply}");
        return reply.Substring(5, 40);
    }
}
