global using TestSession = Tsavorite.ClientSession<Tsavorite.test.TestInput, Tsavorite.test.TestOutput, Tsavorite.test.TestFunctions>;
using System;
using System.Collections.Generic;
using System.Text;

namespace Tsavorite.test;

/// <summary>The settings a test store is created from; the defaults keep stores small.</summary>
internal sealed record StoreOptions
{
    /// <summary>Default 8 KB: 128 buckets.</summary>
    public long IndexSize { get; init; } = 1L << 13;

    /// <summary>Bytes the index may grow to. Default 0: it stays at <see cref="IndexSize"/>, so tests can count on its buckets.</summary>
    public long IndexMaxSize { get; init; }

    /// <summary>Default 12: 4 KB pages, the smallest the log allows.</summary>
    public int PageSizeBits { get; init; } = 12;

    /// <summary>Default 1 MB: 256 pages of 4 KB.</summary>
    public long MemorySize { get; init; } = 1L << 20;

    /// <summary>Default 0.9, as in the engine.</summary>
    public double MutableFraction { get; init; } = 0.9;

    /// <summary>Default on, as in the engine.</summary>
    public bool EnableRevivification { get; init; } = true;

    /// <summary>Default none: the store writes flushed pages to a null device. Owned by the test.</summary>
    public IDevice? LogDevice { get; init; }

    /// <summary>Default none: object records are flushed as they are. Owned by the test.</summary>
    public IDevice? ObjectLogDevice { get; init; }

    /// <summary>Default none: the store's own budget, without limit or eviction.</summary>
    public MemoryBudget? Budget { get; init; }

    /// <summary>Default off: pages that leave memory are gone. On: they stay on <see cref="LogDevice"/> and are read back.</summary>
    public bool StorageTier { get; init; }

    /// <summary>Default off: with the storage tier, reads copy records they find on the device to the tail.</summary>
    public bool CopyReadsToTail { get; init; }

    /// <summary>Default off: with the storage tier, reads copy records they find on the device into the read cache.</summary>
    public bool ReadCache { get; init; }

    /// <summary>Default 64 KB: 16 read cache pages of 4 KB.</summary>
    public long ReadCacheMemorySize { get; init; } = 1L << 16;

    /// <summary>Default 12: 4 KB read cache pages.</summary>
    public int ReadCachePageSizeBits { get; init; } = 12;
}

/// <summary>A store with one session for the test thread; disposing it disposes both.</summary>
internal sealed unsafe class TestStore : IDisposable
{
    public TestStore(StoreOptions? options = null)
    {
        options ??= new StoreOptions();
        Store = new TsavoriteKV(new KVSettings
        {
            IndexSize = options.IndexSize,
            IndexMaxSize = options.IndexMaxSize,
            PageSizeBits = options.PageSizeBits,
            MemorySize = options.MemorySize,
            MutableFraction = options.MutableFraction,
            EnableRevivification = options.EnableRevivification,
            LogDevice = options.LogDevice,
            ObjectLogDevice = options.ObjectLogDevice,
            Budget = options.Budget,
            StorageTier = options.StorageTier,
            CopyReadsToTail = options.CopyReadsToTail,
            ReadCache = options.ReadCache,
            ReadCacheMemorySize = options.ReadCacheMemorySize,
            ReadCachePageSizeBits = options.ReadCachePageSizeBits,
        });
        Counts = new CallbackCounts { ChainHeadOf = ChainHead };
        Session = NewSession(Counts);
    }

    public TsavoriteKV Store { get; }

    public HybridLog Log => Store.Log;

    /// <summary>Callbacks fired through <see cref="Session"/>.</summary>
    public CallbackCounts Counts { get; }

    /// <summary>The test thread's session.</summary>
    public TestSession Session { get; }

    /// <summary>A session for another thread (dispose it on that thread if it used BeginUnsafe).</summary>
    public TestSession NewSession(CallbackCounts? counts = null)
        => Store.NewSession<TestInput, TestOutput, TestFunctions>(new TestFunctions(counts ?? new CallbackCounts { ChainHeadOf = ChainHead }));

    /// <summary>
    /// The address the hash entry of <paramref name="key"/> holds (the newest record of its chain), or
    /// 0 when there is no entry. Reads one word without a latch, so callbacks may call it.
    /// </summary>
    public long ChainHead(byte[] key)
    {
        long hash = KeyHash.Hash(key);
        long* entry = Store.Index.FindTag(Store.Index.BucketOf(hash), HashBucketEntry.TagOf(hash));
        return entry == null ? 0 : new HashBucketEntry(*entry).Address;
    }

    public void Dispose()
    {
        Session.Dispose();
        Store.Dispose();
    }
}

/// <summary>Keys, values and one-line operations for tests.</summary>
internal static class TestData
{
    public static byte[] Key(int i) => Encoding.ASCII.GetBytes("key" + i);

    /// <summary>A key of the same length for every <paramref name="i"/> below a million, so records of equal values have equal sizes.</summary>
    public static byte[] FixedKey(int i) => Encoding.ASCII.GetBytes("k" + i.ToString("D6", System.Globalization.CultureInfo.InvariantCulture));

    /// <summary>A value of <paramref name="length"/> bytes that differs per <paramref name="seed"/> and position.</summary>
    public static byte[] Value(int seed, int length)
    {
        var value = new byte[length];
        for (int i = 0; i < length; i++)
            value[i] = (byte)((seed * 31) + (i * 7) + 1);
        return value;
    }

    /// <summary>A value whose bytes all equal <paramref name="b"/>.</summary>
    public static byte[] Uniform(byte b, int length)
    {
        var value = new byte[length];
        Array.Fill(value, b);
        return value;
    }

    public static Status Upsert(this TestSession session, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, TestInput input)
    {
        var output = new TestOutput();
        return session.Upsert(key, value, ref input, ref output);
    }

    /// <summary>Reads <paramref name="key"/>; <paramref name="value"/> is null unless it was found.</summary>
    public static Status Read(this TestSession session, ReadOnlySpan<byte> key, out byte[]? value)
    {
        var output = new TestOutput();
        var status = session.Read(key, ref output);
        value = output.Value;
        return status;
    }

    public static Status RMW(this TestSession session, ReadOnlySpan<byte> key, TestInput input, out TestOutput output)
    {
        output = new TestOutput();
        return session.RMW(key, ref input, ref output);
    }

    public static Status Increment(this TestSession session, ReadOnlySpan<byte> key, long delta)
    {
        var input = TestInput.Increment(delta);
        return session.RMW(key, ref input);
    }

    /// <summary>The counter at <paramref name="key"/>, or null when the key is absent.</summary>
    public static long? ReadCounter(this TestSession session, ReadOnlySpan<byte> key)
    {
        var output = new TestOutput();
        return session.Read(key, ref output).Found ? output.AsLong : null;
    }

    /// <summary>Scans the whole log: the live records it reported, in log order.</summary>
    public static List<ScannedRecord> ScanAll(this TestSession session)
    {
        var collector = new ScanCollector();
        session.Scan(ref collector);
        return collector.Records;
    }

    /// <summary>The live contents of the store according to a scan: hex key to hex value.</summary>
    public static SortedDictionary<string, string> Snapshot(this TestSession session)
    {
        var snapshot = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var record in session.ScanAll())
            snapshot.Add(Convert.ToHexString(record.Key), Convert.ToHexString(record.Value));
        return snapshot;
    }
}

/// <summary>A record reported by a scan.</summary>
internal sealed record ScannedRecord(byte[] Key, byte[] Value, long Address);

/// <summary>Collects what a scan reports, stopping after <see cref="Limit"/> records when it is set.</summary>
internal struct ScanCollector : IScanFunctions
{
    public ScanCollector()
    {
    }

    public List<ScannedRecord> Records { get; } = new();

    public int Limit { get; init; } = int.MaxValue;

    public readonly bool OnRecord(in LogRecord record, long address)
    {
        Records.Add(new ScannedRecord(record.Key.ToArray(), record.Value.ToArray(), address));
        return Records.Count < Limit;
    }
}
