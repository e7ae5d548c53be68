using System;
using System.Collections.Generic;
using System.Text;
using Garnet.server;
using NUnit.Framework;
using Tsavorite;

namespace Garnet.test.Keyspace;

/// <summary>
/// The engine scan features the keyspace commands rely on: <see cref="ScanFlags"/> and safe starts
/// at arbitrary addresses (client cursors).
/// </summary>
public class ScanEngineTests
{
    private TsavoriteKV _store = null!;
    private ClientSession<StringInput, StringOutput, MainStoreFunctions> _session = null!;

    [SetUp]
    public void CreateStore()
    {
        _store = new TsavoriteKV(new KVSettings { IndexSize = 1L << 16, MemorySize = 1L << 22, PageSizeBits = 16 });
        _session = _store.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(new ObjectTable()));
    }

    [TearDown]
    public void DisposeStore()
    {
        _session.Dispose();
        _store.Dispose();
    }

    private void Put(string key, string value, long expirationUnixMs = 0)
    {
        var input = new StringInput(RespCommand.SET) { ExpirationUnixMs = expirationUnixMs };
        var output = new StringOutput(null);
        Assert.That(_session.Upsert(Encoding.Latin1.GetBytes(key), Encoding.Latin1.GetBytes(value), ref input, ref output).IsOutOfMemory, Is.False);
    }

    private List<string> ScanKeys(ScanFlags flags, long from = 0, Action<string>? onFirst = null)
    {
        var collector = new Collector(onFirst);
        _session.Scan(ref collector, from, -1, flags);
        return collector.Records.ConvertAll(r => r.Key);
    }

    private long BucketOf(string key) => KeyHash.Hash(Encoding.Latin1.GetBytes(key)) & (_store.IndexBucketCount - 1);

    [Test]
    public void IncludeExpiredReportsExpiredRecords()
    {
        Put("live", "v");
        Put("expired", "v", DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 1000);
        Put("later", "v", DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 3_600_000);
        Assert.That(ScanKeys(ScanFlags.None), Is.EqualTo(new[] { "live", "later" }));
        Assert.That(ScanKeys(ScanFlags.IncludeExpired), Is.EqualTo(new[] { "live", "expired", "later" }));
    }

    /// <summary>
    /// A key rewritten during the scan into a record past the scan's end is reported only with
    /// <see cref="ScanFlags.IncludeMovedPastEnd"/>: from its old mutable record (abandoned when the
    /// new one replaced it) or its old read-only record (still in the chain).
    /// </summary>
    [TestCase(false)]
    [TestCase(true)]
    public void KeysMovedPastTheEndAreReportedOnlyWhenAsked(bool readOnly)
    {
        for (int i = 0; i < 20; i++)
            Put("k" + i, "v");
        // The keys to move must not share the bucket of the first key, whose latch the callback holds.
        var movable = new List<string>();
        for (int i = 19; i > 0 && movable.Count < 2; i--)
        {
            if (BucketOf("k" + i) != BucketOf("k0"))
                movable.Add("k" + i);
        }

        foreach (var flags in new[] { ScanFlags.None, ScanFlags.IncludeMovedPastEnd })
        {
            if (readOnly)
                _store.Log.ShiftReadOnlyToTail();
            string moved = movable[(int)flags / (int)ScanFlags.IncludeMovedPastEnd];
            string bigger = new string('x', 300);
            _session.BeginUnsafe();
            List<string> keys;
            try
            {
                keys = ScanKeys(flags, onFirst: _ => Put(moved, bigger));
            }
            finally
            {
                _session.EndUnsafe();
            }
            if (flags == ScanFlags.None)
                Assert.That(keys, Does.Not.Contain(moved), "missed without the flag");
            else
                Assert.That(keys, Has.Exactly(1).EqualTo(moved));
            Assert.That(keys, Has.Count.EqualTo(flags == ScanFlags.None ? 19 : 20));
        }
    }

    [Test]
    public void KeysDeletedDuringTheScanAreNotReportedAsMoved()
    {
        for (int i = 0; i < 20; i++)
            Put("k" + i, "v");
        string victim = BucketOf("k10") != BucketOf("k0") ? "k10" : "k11";
        _session.BeginUnsafe();
        List<string> keys;
        try
        {
            keys = ScanKeys(ScanFlags.IncludeMovedPastEnd, onFirst: _ => _session.Delete(Encoding.Latin1.GetBytes(victim)));
        }
        finally
        {
            _session.EndUnsafe();
        }
        Assert.That(keys, Does.Not.Contain(victim));
        Assert.That(keys, Has.Count.EqualTo(19));
    }

    /// <summary>Without the flag, most keys of this test go missing (moved past the end mid-walk); with it, none.</summary>
    [Test]
    public void ConcurrentRewritesNeverHideAKeyFromAFullScan()
    {
        const int count = 2000;
        for (int i = 0; i < count; i++)
            Put("k" + i, "v");
        using var stop = new System.Threading.CancellationTokenSource();
        var writer = System.Threading.Tasks.Task.Run(() =>
        {
            using var session = _store.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(new ObjectTable()));
            var random = new Random(1);
            while (!stop.IsCancellationRequested)
            {
                // Changing sizes move keys to new records at the tail.
                var input = new StringInput(RespCommand.SET);
                var output = new StringOutput(null);
                session.Upsert(Encoding.ASCII.GetBytes("k" + random.Next(count)), new byte[random.Next(1, 200)], ref input, ref output);
            }
        });
        try
        {
            for (int round = 0; round < 20; round++)
            {
                // The scanner yields now and then so the writer runs in the middle of the walk.
                var collector = new Collector(null, yieldEvery: 64);
                _session.Scan(ref collector, 0, -1, ScanFlags.IncludeMovedPastEnd);
                var keys = new HashSet<string>(collector.Records.ConvertAll(r => r.Key));
                Assert.That(keys, Has.Count.EqualTo(count), $"round {round}");
            }
        }
        finally
        {
            stop.Cancel();
            writer.Wait();
        }
    }

    [Test]
    public void ScanFromAnyAddressReportsOnlyRealRecords()
    {
        // Values that look like record headers with huge or negative lengths, to trip a naive walk.
        var random = new Random(11);
        for (int i = 0; i < 40; i++)
        {
            var value = new StringBuilder();
            for (int j = 0; j < i * 3; j++)
                value.Append((char)(j % 4 == 0 ? 0xFF : random.Next(256)));
            value.Append("\x7f\xff\xff\xff\x00\x00\x00\x80");
            Put("key" + i, value.ToString(), i % 5 == 0 ? DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 3_600_000 : 0);
        }
        _store.Log.ShiftReadOnlyToTail();
        for (int i = 0; i < 40; i += 3)
            Put("key" + i, "rewritten" + i);

        var real = new HashSet<(string, long)>();
        var full = new Collector(null);
        _session.Scan(ref full);
        foreach (var record in full.Records)
            real.Add(record);
        Assert.That(real, Has.Count.EqualTo(40));

        long tail = _store.Log.TailAddress;
        for (long from = 0; from <= tail + 64; from++)
        {
            var collector = new Collector(null);
            long next = _session.Scan(ref collector, from, -1, ScanFlags.IncludeMovedPastEnd | ScanFlags.IncludeExpired);
            Assert.That(next, Is.GreaterThanOrEqualTo(tail), $"from {from}");
            foreach (var record in collector.Records)
                Assert.That(real, Does.Contain(record), $"from {from}");
        }
    }

    private readonly struct Collector : IScanFunctions
    {
        private readonly Action<string>? _onFirst;
        private readonly int _yieldEvery;

        public Collector(Action<string>? onFirst, int yieldEvery = 0)
        {
            _onFirst = onFirst;
            _yieldEvery = yieldEvery;
            Records = new List<(string Key, long Address)>();
        }

        public List<(string Key, long Address)> Records { get; }

        public bool OnRecord(in LogRecord record, long address)
        {
            string key = Encoding.Latin1.GetString(record.Key);
            if (Records.Count == 0)
                _onFirst?.Invoke(key);
            Records.Add((key, address));
            if (_yieldEvery > 0 && Records.Count % _yieldEvery == 0)
                System.Threading.Thread.Sleep(1);
            return true;
        }
    }
}
