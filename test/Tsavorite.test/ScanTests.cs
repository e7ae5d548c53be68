using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

[TestFixture]
public sealed class ScanTests
{
    private static string Hex(byte[] bytes) => Convert.ToHexString(bytes);

    [Test]
    public void ScanReportsExactlyTheNewestLiveRecords()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = 1L << 10 });
        var session = ts.Session;
        var expected = new SortedDictionary<string, string>(StringComparer.Ordinal);
        void Put(int i, byte[] value)
        {
            session.Upsert(TestData.Key(i), value);
            expected[Hex(TestData.Key(i))] = Hex(value);
        }

        for (int i = 0; i < 300; i++)
            Put(i, TestData.Value(i, 8));
        ts.Log.ShiftReadOnlyToTail();

        // Copy-updates of read-only records leave their old versions in the log.
        for (int i = 0; i < 300; i += 5)
        {
            session.Increment(TestData.Key(i), 1);
            session.Read(TestData.Key(i), out var value);
            expected[Hex(TestData.Key(i))] = Hex(value!);
        }
        // Deletes: tombstones after read-only records, and in place after the copies above.
        for (int i = 0; i < 300; i += 7)
        {
            session.Delete(TestData.Key(i));
            expected.Remove(Hex(TestData.Key(i)));
        }
        // Expirations in the past.
        for (int i = 1; i < 300; i += 11)
        {
            var expire = new TestInput { Op = TestOp.SetExpiration, ExpirationUnixMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 1000 };
            session.RMW(TestData.Key(i), expire, out _);
            expected.Remove(Hex(TestData.Key(i)));
        }
        // Upserts that do not fit supersede mutable records.
        for (int i = 2; i < 300; i += 3)
        {
            if (expected.ContainsKey(Hex(TestData.Key(i))))
                Put(i, TestData.Value(i, 100));
        }
        // New keys, some deleted again while mutable.
        for (int i = 300; i < 400; i++)
            Put(i, TestData.Value(i, 16));
        for (int i = 300; i < 400; i += 2)
        {
            session.Delete(TestData.Key(i));
            expected.Remove(Hex(TestData.Key(i)));
        }

        var scanned = session.ScanAll();
        var seen = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var record in scanned)
            Assert.That(seen.TryAdd(Hex(record.Key), Hex(record.Value)), Is.True, $"{Encoding.ASCII.GetString(record.Key)} reported twice");
        Assert.That(seen, Is.EqualTo(expected));
    }

    [Test]
    public void ScanStoppedEarlyResumesWhereItStopped()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        for (int i = 0; i < 500; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, i % 50));
        for (int i = 0; i < 500; i += 4)
            session.Delete(TestData.Key(i));
        var full = session.ScanAll();
        Assert.That(full, Has.Count.EqualTo(375));

        var pieces = new List<ScannedRecord>();
        long from = 0;
        int scans = 0;
        while (true)
        {
            var collector = new ScanCollector { Limit = 37 };
            long next = session.Scan(ref collector, from);
            pieces.AddRange(collector.Records);
            Assert.That(next, Is.GreaterThan(from));
            scans++;
            if (collector.Records.Count < collector.Limit)
            {
                Assert.That(next, Is.GreaterThanOrEqualTo(ts.Log.TailAddress), "a scan that ran to the end returns the end");
                break;
            }
            Assert.That(next, Is.GreaterThan(collector.Records[^1].Address), "the resume address is past the last record reported");
            from = next;
        }

        Assert.That(scans, Is.EqualTo((375 / 37) + 1));
        Assert.That(pieces.ConvertAll(r => r.Address), Is.EqualTo(full.ConvertAll(r => r.Address)));
    }

    [Test]
    public void ScanOfARangeReportsOnlyRecordsInIt()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        for (int i = 0; i < 300; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 20));
        var full = session.ScanAll();
        long from = full[100].Address;
        long until = full[200].Address;

        var collector = new ScanCollector();
        long next = session.Scan(ref collector, from, until);

        Assert.That(collector.Records.ConvertAll(r => r.Address), Is.EqualTo(full.GetRange(100, 100).ConvertAll(r => r.Address)));
        Assert.That(next, Is.EqualTo(until));
    }

    /// <summary>
    /// The interleaving that hid keys from a full scan with <see cref="ScanFlags.IncludeMovedPastEnd"/>: the
    /// scan passes a key's read-only record while its newer mutable record lies ahead (below the end), so it
    /// leaves the key to that record; before the scan gets there, an update that does not fit moves the key
    /// past the end and abandons the mutable record. At the abandoned record the key's chain still holds the
    /// read-only record below the end, which the scan has already passed.
    /// </summary>
    [Test]
    public void KeyMovedPastTheEndAfterTheScanPassedItsOlderRecordIsReported()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        byte[] moved = TestData.Key(0);
        // The trigger's bucket latch is held while its callback runs, so the moved key must live elsewhere.
        long BucketOf(byte[] key) => KeyHash.Hash(key) & (ts.Store.IndexBucketCount - 1);
        int t = 1;
        while (BucketOf(TestData.Key(t)) == BucketOf(moved))
            t++;
        byte[] trigger = TestData.Key(t);

        session.Upsert(moved, TestData.Value(0, 8));
        session.Upsert(trigger, TestData.Value(1, 8));
        ts.Log.ShiftReadOnlyToTail();
        session.Upsert(moved, TestData.Value(2, 16)); // a copy: the read-only record stays in the chain
        long mutableAddress = ts.ChainHead(moved);

        var collector = new TriggerCollector(trigger, () => session.Upsert(moved, TestData.Value(3, 300)));
        session.BeginUnsafe();
        try
        {
            session.Scan(ref collector, 0, -1, ScanFlags.IncludeMovedPastEnd);
        }
        finally
        {
            session.EndUnsafe();
        }

        Assert.That(ts.ChainHead(moved), Is.Not.EqualTo(mutableAddress), "the update moved the key");
        var keys = collector.Records.ConvertAll(r => Encoding.ASCII.GetString(r.Key));
        Assert.That(keys, Has.Exactly(1).EqualTo(Encoding.ASCII.GetString(moved)));
        Assert.That(keys, Has.Exactly(1).EqualTo(Encoding.ASCII.GetString(trigger)));
        Assert.That(collector.Records.Find(r => r.Key.AsSpan().SequenceEqual(moved))!.Value, Is.EqualTo(TestData.Value(3, 300)));
    }

    [Test]
    public void ScanConcurrentWithWritersSeesEveryStableKey()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = 1L << 12, MemorySize = 1L << 24 });
        const int stableCount = 300;
        for (int i = 0; i < stableCount; i++)
            ts.Session.Upsert(Encoding.ASCII.GetBytes("stable" + i), TestData.Value(i, 12));

        const int writers = 4;
        int writersDone = 0;
        int scans = 0;
        TestThreads.Run(writers + 1, t =>
        {
            if (t == writers)
            {
                // The scanner: scans until every writer is done, and at least a few times.
                while (Volatile.Read(ref writersDone) < writers || scans < 3)
                {
                    var seen = new HashSet<string>();
                    foreach (var record in ts.Session.ScanAll())
                    {
                        string key = Encoding.ASCII.GetString(record.Key);
                        if (key.StartsWith("stable", StringComparison.Ordinal))
                        {
                            Assert.That(seen.Add(key), Is.True, $"{key} reported twice");
                            int i = int.Parse(key.AsSpan(6), provider: System.Globalization.CultureInfo.InvariantCulture);
                            Assert.That(record.Value, Is.EqualTo(TestData.Value(i, 12)), key);
                        }
                        else
                        {
                            Assert.That(key, Does.StartWith("churn"));
                        }
                    }
                    Assert.That(seen, Has.Count.EqualTo(stableCount));
                    scans++;
                }
                return;
            }

            var session = ts.NewSession();
            for (int i = 0; i < 4000; i++)
            {
                byte[] key = Encoding.ASCII.GetBytes($"churn{t}_{i % 64}");
                switch (i % 4)
                {
                    case 0:
                        session.Upsert(key, TestData.Value(i, 8 + (i % 3 * 40)));
                        break;
                    case 1:
                        session.Delete(key);
                        break;
                    case 2:
                        session.RMW(key, TestInput.Append(TestData.Value(i, 5)), out _);
                        break;
                    default:
                        session.Read(key, out _);
                        break;
                }
                if (i % 512 == 0)
                    ts.Log.ShiftReadOnlyToTail();
            }
            Interlocked.Increment(ref writersDone);
        });
        Assert.That(scans, Is.GreaterThanOrEqualTo(3));
    }
}

/// <summary>Collects what a scan reports and runs an action from the callback of one key's record.</summary>
internal readonly struct TriggerCollector : IScanFunctions
{
    private readonly byte[] _trigger;
    private readonly Action _action;

    public TriggerCollector(byte[] trigger, Action action)
    {
        _trigger = trigger;
        _action = action;
    }

    public List<ScannedRecord> Records { get; } = new();

    public bool OnRecord(in LogRecord record, long address)
    {
        Records.Add(new ScannedRecord(record.Key.ToArray(), record.Value.ToArray(), address));
        if (record.Key.SequenceEqual(_trigger))
            _action();
        return true;
    }
}
