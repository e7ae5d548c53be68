using System;
using BenchmarkDotNet.Attributes;
using Tsavorite;

namespace BDN.benchmark.Storage;

/// <summary>
/// Upsert, Read and RMW of 8-byte keys and values on one thread, in memory, with the epoch held
/// across a batch as the server does per network batch. Each invocation runs <see cref="BatchSize"/>
/// operations over a key space that fits in the mutable region, so updates are in place.
/// </summary>
[MemoryDiagnoser]
public unsafe class StoreOperations
{
    private const int BatchSize = 1 << 16;
    private const int RefreshInterval = 1024;

    private TsavoriteKV _store = null!;
    private ClientSession<long, long, CounterFunctions> _session = null!;
    private long[] _keys = null!;

    /// <summary>Distinct keys touched by each batch.</summary>
    [Params(1 << 16)]
    public int KeyCount { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _store = new TsavoriteKV(new KVSettings { IndexSize = 1L << 24, PageSizeBits = 22, MemorySize = 1L << 28 });
        _session = _store.NewSession<long, long, CounterFunctions>(default);
        _keys = GC.AllocateArray<long>(BatchSize, pinned: true); // pinned: spans are made from element pointers
        var random = new Random(7);
        for (int i = 0; i < BatchSize; i++)
            _keys[i] = random.Next(KeyCount);
        for (long k = 0; k < KeyCount; k++)
            _session.Upsert(AsSpan(ref k), AsSpan(ref k));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _session.Dispose();
        _store.Dispose();
    }

    private static ReadOnlySpan<byte> AsSpan(ref long value) => new(System.Runtime.CompilerServices.Unsafe.AsPointer(ref value), sizeof(long));

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public long Read()
    {
        long sum = 0;
        long input = 0;
        long output = 0;
        _session.BeginUnsafe();
        for (int i = 0; i < BatchSize; i++)
        {
            _session.Read(AsSpan(ref _keys[i]), ref input, ref output);
            sum += output;
            if ((i & (RefreshInterval - 1)) == 0)
                _session.Refresh();
        }
        _session.EndUnsafe();
        return sum;
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public void Upsert()
    {
        long input = 0;
        long output = 0;
        _session.BeginUnsafe();
        for (int i = 0; i < BatchSize; i++)
        {
            _session.Upsert(AsSpan(ref _keys[i]), AsSpan(ref _keys[i]), ref input, ref output);
            if ((i & (RefreshInterval - 1)) == 0)
                _session.Refresh();
        }
        _session.EndUnsafe();
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public long RMW()
    {
        long input = 1;
        long output = 0;
        _session.BeginUnsafe();
        for (int i = 0; i < BatchSize; i++)
        {
            _session.RMW(AsSpan(ref _keys[i]), ref input, ref output);
            if ((i & (RefreshInterval - 1)) == 0)
                _session.Refresh();
        }
        _session.EndUnsafe();
        return output;
    }
}
