using System;
using System.Runtime.InteropServices;
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
    private Batch _get;
    private Batch _set;
    private Batch _incr;
    private Batch _multiIncr4;

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
            get.Append(Command("GET", key));
            set.Append(Command("SET", key, "value678"));
            incr.Append(Command("INCR", counter));
        }

        var multi = new StringBuilder();
        for (int t = 0; t < Transactions; t++)
        {
            multi.Append(Command("MULTI"));
            for (int i = 0; i < 4; i++)
                multi.Append(Command("INCR", $"ctr:{((4 * t) + i) % KeyCount:D4}"));
            multi.Append(Command("EXEC"));
        }

        _get = new Batch(get.ToString());
        _set = new Batch(set.ToString());
        _incr = new Batch(incr.ToString());
        _multiIncr4 = new Batch(multi.ToString());

        // Load the keys GET reads, and check that each batch is consumed whole and answered as expected.
        Expect(_set, "+OK\r\n");
        Expect(_get, "$8\r\nvalue678\r\n");
        Expect(_incr, ":1\r\n");
        Expect(_multiIncr4, "+OK\r\n+QUEUED\r\n");
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
    public int Get() => _session.TryConsumeMessages(_get.Pointer, _get.Length);

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int Set() => _session.TryConsumeMessages(_set.Pointer, _set.Length);

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int Incr() => _session.TryConsumeMessages(_incr.Pointer, _incr.Length);

    [Benchmark(OperationsPerInvoke = Transactions)]
    public int MultiIncr4() => _session.TryConsumeMessages(_multiIncr4.Pointer, _multiIncr4.Length);

    private void Expect(Batch batch, string firstReply)
    {
        int consumed = _session.TryConsumeMessages(batch.Pointer, batch.Length);
        string reply = Encoding.ASCII.GetString(_sender.LastSent);
        if (consumed != batch.Length || !reply.StartsWith(firstReply, StringComparison.Ordinal))
            throw new InvalidOperationException($"Unexpected reply: consumed {consumed} of {batch.Length}; reply starts '{reply[..Math.Min(reply.Length, 40)]}'.");
    }

    private static string Command(params string[] parts)
    {
        var sb = new StringBuilder();
        sb.Append('*').Append(parts.Length).Append("\r\n");
        foreach (string p in parts)
            sb.Append('$').Append(p.Length).Append("\r\n").Append(p).Append("\r\n");
        return sb.ToString();
    }

    /// <summary>A request batch in native memory, standing in for a pinned receive buffer.</summary>
    private readonly struct Batch : IDisposable
    {
        public Batch(string text)
        {
            byte[] bytes = Encoding.ASCII.GetBytes(text);
            Length = bytes.Length;
            Pointer = (byte*)NativeMemory.Alloc((nuint)bytes.Length);
            bytes.CopyTo(new Span<byte>(Pointer, bytes.Length));
        }

        public byte* Pointer { get; }

        public int Length { get; }

        public void Dispose() => NativeMemory.Free(Pointer);
    }
}
