using System;
using System.Runtime.InteropServices;
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
    private Batch _return1;
    private Batch[] _threeCalls = null!;
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
            text.Append(Command("EVALSHA", return1, "0"));
        _return1 = new Batch(text.ToString());
        _threeCalls = new Batch[Batches];
        for (int b = 0; b < Batches; b++)
        {
            text.Clear();
            for (int i = 0; i < BatchSize; i++)
                text.Append(Command("EVALSHA", threeCalls, "2", $"k:{random.Next(100_000):D12}", $"j:{random.Next(100_000):D12}", "v"));
            _threeCalls[b] = new Batch(text.ToString());
        }

        Expect(_return1, ":1\r\n");
        Expect(_threeCalls[0], "+OK\r\n");
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
    public int Return1() => _session.TryConsumeMessages(_return1.Pointer, _return1.Length);

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public int ThreeCalls()
    {
        var batch = _threeCalls[_next++ % Batches];
        return _session.TryConsumeMessages(batch.Pointer, batch.Length);
    }

    /// <summary>SCRIPT LOAD through the session; returns the digest.</summary>
    private string Load(string script)
    {
        using var batch = new Batch(Command("SCRIPT", "LOAD", script));
        _session.TryConsumeMessages(batch.Pointer, batch.Length);
        string reply = Encoding.ASCII.GetString(_sender.LastSent);
        if (!reply.StartsWith("$40\r\n", StringComparison.Ordinal))
            throw new InvalidOperationException($"SCRIPT LOAD failed: {reply}");
        return reply.Substring(5, 40);
    }

    private void Expect(Batch batch, string firstReply)
    {
        int consumed = _session.TryConsumeMessages(batch.Pointer, batch.Length);
        string reply = Encoding.ASCII.GetString(_sender.LastSent);
        if (consumed != batch.Length || !reply.StartsWith(firstReply, StringComparison.Ordinal))
            throw new InvalidOperationException($"Unexpected reply: consumed {consumed} of {batch.Length}; reply starts '{reply[..Math.Min(reply.Length, 40)]}'.");
    }

    private static string Command(params string[] parts)
    {
        var text = new StringBuilder();
        text.Append('*').Append(parts.Length).Append("\r\n");
        foreach (string part in parts)
            text.Append('$').Append(Encoding.UTF8.GetByteCount(part)).Append("\r\n").Append(part).Append("\r\n");
        return text.ToString();
    }

    /// <summary>A request batch in native memory, standing in for a pinned receive buffer.</summary>
    private readonly struct Batch : IDisposable
    {
        public Batch(string text)
        {
            byte[] bytes = Encoding.UTF8.GetBytes(text);
            Length = bytes.Length;
            Pointer = (byte*)NativeMemory.Alloc((nuint)bytes.Length);
            bytes.CopyTo(new Span<byte>(Pointer, bytes.Length));
        }

        public byte* Pointer { get; }

        public int Length { get; }

        public void Dispose() => NativeMemory.Free(Pointer);
    }
}
