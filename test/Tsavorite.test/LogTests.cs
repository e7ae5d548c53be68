using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

[TestFixture]
public sealed class LogTests
{
    private const int PageSizeBits = 12;
    private const int PageSize = 1 << PageSizeBits;

    private string? _directory;

    [TearDown]
    public void TearDown()
    {
        if (_directory != null && Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
        _directory = null;
    }

    /// <summary>Value lengths that mix tiny, medium and nearly-page-sized records.</summary>
    private static int MixedLength(int i) => (i % 7) switch
    {
        0 => 0,
        1 => 1,
        2 => 13,
        3 => 100,
        4 => 700,
        // Up to a quarter of a page: larger values live out of line (see ExternalValueTests).
        5 => 1000,
        _ => 1020,
    };

    [Test]
    public void RecordsOfMixedSizesFillPagesWithoutSpanningThem()
    {
        using var ts = new TestStore(new StoreOptions { PageSizeBits = PageSizeBits, MemorySize = 1L << 22 });
        var session = ts.Session;
        const int recordCount = 1500;
        for (int i = 0; i < recordCount; i++)
            Assert.That(session.Upsert(TestData.Key(i), TestData.Value(i, MixedLength(i)), default).IsCreatedRecord, Is.True, $"record {i}");
        Assert.That(ts.Log.TailAddress >> PageSizeBits, Is.GreaterThan(100), "the records span many pages");

        for (int i = 0; i < recordCount; i++)
        {
            Assert.That(session.Read(TestData.Key(i), out var value).Found, Is.True, $"record {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, MixedLength(i))), $"record {i}");
        }

        var seen = new HashSet<string>();
        long previous = 0;
        foreach (var record in session.ScanAll())
        {
            Assert.That(seen.Add(Convert.ToHexString(record.Key)), Is.True, "each record is reported once");
            Assert.That(record.Address, Is.GreaterThan(previous), "in log order");
            previous = record.Address;
            long last = record.Address + ts.Log.GetRecord(record.Address).AllocatedSize - 1;
            Assert.That(last >> PageSizeBits, Is.EqualTo(record.Address >> PageSizeBits), $"record at {record.Address} stays in its page");
        }
        Assert.That(seen, Has.Count.EqualTo(recordCount));
    }

    [Test]
    public void ReadOnlyAddressFollowsTheTailAtTheMutableLag()
    {
        // 32 frames, a quarter of them mutable; the test stays below the pages at which the head starts moving.
        using var ts = new TestStore(new StoreOptions { PageSizeBits = PageSizeBits, MemorySize = 32 * PageSize, MutableFraction = 0.25 });
        var session = ts.Session;
        var log = ts.Log;
        const int mutablePages = 8;
        Assert.That(log.FrameCount, Is.EqualTo(32));
        Assert.That(log.ReadOnlyAddress, Is.EqualTo(LogAddress.FirstValidAddress));

        long readOnly = log.ReadOnlyAddress;
        int i = 0;
        while (log.TailAddress < 14L * PageSize)
        {
            Assert.That(session.Upsert(TestData.Key(i), TestData.Value(i, 300), default).IsCreatedRecord, Is.True);
            i++;
            long tailPage = (log.TailAddress - 1) >> PageSizeBits;
            long expected = Math.Max(LogAddress.FirstValidAddress, (tailPage - mutablePages) << PageSizeBits);
            Assert.That(log.ReadOnlyAddress, Is.EqualTo(expected), $"tail {log.TailAddress}");
            Assert.That(log.ReadOnlyAddress, Is.GreaterThanOrEqualTo(readOnly), "the boundary never moves back");
            readOnly = log.ReadOnlyAddress;
        }
        Assert.That(readOnly, Is.EqualTo(6L * PageSize));
        Assert.That(log.SafeReadOnlyAddress, Is.EqualTo(readOnly), "no thread is protected, so every thread has seen it");
        Assert.That(log.FlushedUntilAddress, Is.EqualTo(readOnly), "the null device completes writes at once");

        // Records below the boundary are copied on update; those above it are updated in place.
        Assert.That(session.Upsert(TestData.Key(0), TestData.Value(0, 300), default).IsCreatedRecord, Is.True);
        Assert.That(session.Upsert(TestData.Key(i - 1), TestData.Value(0, 300), default).IsInPlaceUpdated, Is.True);

        log.ShiftReadOnlyAddress(readOnly - PageSize);
        Assert.That(log.ReadOnlyAddress, Is.EqualTo(readOnly), "shifting down is ignored");
        log.ShiftReadOnlyAddress(long.MaxValue);
        Assert.That(log.ReadOnlyAddress, Is.EqualTo(log.TailAddress), "shifting is capped at the tail");
    }

    [Test]
    public unsafe void FlushedPagesLandOnTheDeviceAtTheirLogicalAddresses()
    {
        _directory = Path.Combine(Path.GetTempPath(), "tsavorite-log-" + Guid.NewGuid().ToString("N"));
        string basePath = Path.Combine(_directory, "hlog");
        var device = new LocalFileDevice(basePath, segmentSize: 1L << 20);
        var expected = new List<(long Address, byte[] Bytes)>();
        long readOnly;
        using (device)
        {
            using (var ts = new TestStore(new StoreOptions { PageSizeBits = PageSizeBits, MemorySize = 64 * PageSize, LogDevice = device }))
            {
                var session = ts.Session;
                for (int i = 0; i < 200; i++)
                {
                    var input = new TestInput();
                    var output = new TestOutput();
                    session.Upsert(TestData.Key(i), TestData.Value(i, MixedLength(i)), ref input, ref output);
                }
                ts.Log.ShiftReadOnlyToTail();
                readOnly = ts.Log.ReadOnlyAddress;
                Assert.That(readOnly, Is.EqualTo(ts.Log.TailAddress));

                // Completions arrive on I/O threads; wait for them, with a bound.
                device.WaitForPendingWrites();
                var deadline = DateTime.UtcNow + TestThreads.HangGuard;
                while (ts.Log.FlushedUntilAddress < readOnly && DateTime.UtcNow < deadline)
                    Thread.Sleep(1);
                Assert.That(ts.Log.FlushedUntilAddress, Is.EqualTo(readOnly));
                Assert.That(ts.Log.FlushErrors, Is.Zero);

                foreach (var record in session.ScanAll())
                {
                    var logRecord = ts.Log.GetRecord(record.Address);
                    expected.Add((record.Address, new ReadOnlySpan<byte>((void*)logRecord.PhysicalAddress, logRecord.AllocatedSize).ToArray()));
                }
            }
        }

        Assert.That(expected, Has.Count.EqualTo(200));
        byte[] file = File.ReadAllBytes(basePath + ".0");
        Assert.That(file.Length, Is.GreaterThanOrEqualTo(readOnly));
        foreach (var (address, bytes) in expected)
            Assert.That(file.AsSpan((int)address, bytes.Length).SequenceEqual(bytes), Is.True, $"record at {address}");
    }

    [Test]
    public void FullMemoryBudgetReportsOutOfMemoryAndLosesNothing()
    {
        // Eight frames, two of them the head mover's reserve, and no eviction: live data can fill six pages.
        using var ts = new TestStore(new StoreOptions { PageSizeBits = PageSizeBits, MemorySize = 8 * PageSize, MutableFraction = 0.5 });
        var session = ts.Session;
        var log = ts.Log;

        var written = new List<int>();
        Status status = default;
        for (int i = 0; i < 10_000; i++)
        {
            status = session.Increment(TestData.Key(i), i);
            if (!status.IsCreatedRecord)
                break;
            written.Add(i);
        }
        Assert.That(status.IsOutOfMemory, Is.True, status.ToString());
        Assert.That(written, Has.Count.GreaterThan(100));
        Assert.That(log.IsFull, Is.True);
        Assert.That(log.PagesInMemory, Is.LessThanOrEqualTo(8));
        Assert.That(ts.Store.RecordsCopiedForward, Is.GreaterThan(0), "live records were copied forward before giving up");

        // New records cannot be written; nothing else changes. While the log is full the head mover looks again now
        // and then, and a look may gather a page from page-end space and let a few more records in, so the check
        // goes on until an RMW and an upsert are refused back to back. Whatever gets in stays (deleting it would give
        // the head mover garbage to reclaim, and a slow machine could go round that cycle for ever): space only shrinks.
        bool refusedBoth = false;
        var upserted = new List<byte[]>();
        byte[] refusedUpsert = [];
        for (int extra = 0; extra < 500 && !refusedBoth; extra++)
        {
            int k = 200_000 + extra;
            status = session.Increment(TestData.Key(k), k);
            if (status.IsCreatedRecord)
            {
                written.Add(k);
                continue;
            }
            Assert.That(status.IsOutOfMemory, Is.True, status.ToString());
            Assert.That(session.Read(TestData.Key(k), out _).NotFound, Is.True);
            byte[] name = System.Text.Encoding.ASCII.GetBytes("new" + extra);
            var upsert = session.Upsert(name, "value"u8);
            refusedBoth = upsert.IsOutOfMemory;
            if (refusedBoth)
                refusedUpsert = name;
            else
                upserted.Add(name);
        }
        Assert.That(refusedBoth, Is.True, "new records were refused");
        Assert.That(session.Read(refusedUpsert, out _).NotFound, Is.True);

        // Reads and in-place updates keep working. Which records are mutable depends on where the head mover last
        // copied records to, so the update goes to the newest record above the read-only boundary.
        var added = new Dictionary<int, long>();
        bool updatedInPlace = false;
        for (int attempt = 0; attempt < 20 && !updatedInPlace; attempt++)
        {
            long readOnly = log.ReadOnlyAddress;
            var newest = session.ScanAll().Where(r => r.Address >= readOnly && r.Key.AsSpan().StartsWith("key"u8)).OrderByDescending(r => r.Address).FirstOrDefault();
            if (newest == null)
                continue;
            int key = int.Parse(System.Text.Encoding.ASCII.GetString(newest.Key).AsSpan(3), System.Globalization.CultureInfo.InvariantCulture);
            var update = session.Increment(TestData.Key(key), 1000);
            if (update.Found)
                added[key] = added.GetValueOrDefault(key) + 1000;
            updatedInPlace = update.IsInPlaceUpdated;
        }
        Assert.That(updatedInPlace, Is.True, "a mutable record was updated in place");
        foreach (int i in written)
            Assert.That(session.ReadCounter(TestData.Key(i)), Is.EqualTo(i + added.GetValueOrDefault(i)), $"key {i}");
        Assert.That(session.ScanAll(), Has.Count.EqualTo(written.Count + upserted.Count));

        // Deleting works however full memory is (a tombstone uses the reserve page, or becomes the record itself), and
        // the space of the deleted keys comes back: once the head mover looks again, new keys fit.
        var deleted = new HashSet<int>();
        for (int i = 0; i < written.Count; i += 3)
        {
            Assert.That(session.Delete(TestData.Key(written[i])).Found, Is.True, $"key {written[i]}");
            deleted.Add(written[i]);
        }
        // Half as many new keys as were deleted must fit: the rest of the freed space may be lost to page ends and to
        // the head page, which writers count as taken until the head passes it.
        int newKeys = deleted.Count / 2;
        var deadline = DateTime.UtcNow.AddSeconds(30);
        for (int n = 0; n < newKeys; n++)
        {
            var key = TestData.Key(100_000 + n);
            while (!(status = session.Increment(key, n)).IsCreatedRecord && DateTime.UtcNow < deadline)
            {
                Assert.That(status.IsOutOfMemory, Is.True, status.ToString());
                Thread.Sleep(10);
            }
            Assert.That(status.IsCreatedRecord, Is.True, $"new key {n} of {newKeys}: the deleted keys' space came back (pages {log.PagesInMemory}, full {log.IsFull}, evicted {ts.Store.PagesEvicted})");
        }
        for (int n = 0; n < newKeys; n++)
            Assert.That(session.ReadCounter(TestData.Key(100_000 + n)), Is.EqualTo(n));
        foreach (int i in written)
        {
            if (deleted.Contains(i))
                Assert.That(session.Read(TestData.Key(i), out _).NotFound, Is.True, $"key {i}");
            else
                Assert.That(session.ReadCounter(TestData.Key(i)), Is.EqualTo(i + added.GetValueOrDefault(i)), $"key {i}");
        }
        foreach (var name in upserted)
            Assert.That(session.Read(name, out _).Found, Is.True);
        Assert.That(session.ScanAll(), Has.Count.EqualTo(written.Count - deleted.Count + newKeys + upserted.Count));
    }
}
