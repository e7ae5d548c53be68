using System;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// Pages of records that expired or were deleted come back with no memory pressure at all: the idle head mover
/// empties mostly dead head pages, copies the few live records forward and frees the frames.
/// </summary>
[TestFixture]
public sealed class IdleReclaimTests
{
    private const int PageSize = 1 << 12;

    private static byte[] Key(string prefix, int i) => System.Text.Encoding.ASCII.GetBytes(prefix + i);

    private static bool WaitFor(Func<bool> condition, int seconds = 15)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
                return false;
            Thread.Sleep(50);
        }
        return true;
    }

    [Test]
    public void ExpiredAndDeletedKeysGiveTheirPagesBackWithoutPressure()
    {
        // 256 frames and no budget: nothing ever asks the head to move for room.
        using var ts = new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 256 * PageSize });
        var session = ts.Session;
        var log = ts.Log;
        for (int i = 0; i < 20; i++)
            Assert.That(session.Upsert(Key("persistent", i), TestData.Value(i, 150), default).IsCreatedRecord, Is.True);
        long expiration = DateTimeOffset.UtcNow.AddMilliseconds(300).ToUnixTimeMilliseconds();
        for (int i = 0; i < 2000; i++)
            Assert.That(session.Upsert(Key("shortlived", i), TestData.Value(i, 150), new TestInput { ExpirationUnixMs = expiration }).IsCreatedRecord, Is.True);
        for (int i = 0; i < 1000; i++)
            Assert.That(session.Upsert(Key("deleted", i), TestData.Value(i, 150), default).IsCreatedRecord, Is.True);
        for (int i = 0; i < 1000; i++)
            Assert.That(session.Delete(Key("deleted", i)).Found, Is.True);
        long pagesBefore = log.PagesInMemory;
        long memoryBefore = log.MemoryInUse;
        Assert.That(pagesBefore, Is.GreaterThan(100));

        Assert.That(WaitFor(() => log.PagesInMemory <= 4), Is.True, $"pages in memory {log.PagesInMemory} of {pagesBefore}");
        Assert.That(ts.Store.IdlePagesReclaimed, Is.GreaterThan(90));
        Assert.That(log.MemoryInUse, Is.LessThan(memoryBefore / 10), "the frames went back to the system");
        Assert.That(ts.Store.Budget.EvictedRecords, Is.Zero, "nothing live was evicted");
        for (int i = 0; i < 20; i++)
            Assert.That(session.Read(Key("persistent", i), out var value).Found && value!.AsSpan().SequenceEqual(TestData.Value(i, 150)), Is.True, $"persistent{i}");
        for (int i = 0; i < 2000; i += 97)
            Assert.That(session.Read(Key("shortlived", i), out _).NotFound, Is.True);
        Assert.That(session.ScanAll(), Has.Count.EqualTo(20));

        // The log keeps working after giving frames back.
        for (int i = 0; i < 500; i++)
            Assert.That(session.Upsert(Key("again", i), TestData.Value(i, 150), default).IsCreatedRecord, Is.True);
        Assert.That(session.ScanAll(), Has.Count.EqualTo(520));
    }

    [Test]
    public void AskedToReclaimItLooksAgainAfterBackingOff()
    {
        using var ts = new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 256 * PageSize });
        var session = ts.Session;
        for (int i = 0; i < 2000; i++)
            Assert.That(session.Upsert(Key("live", i), TestData.Value(i, 150), default).IsCreatedRecord, Is.True);
        // Mostly live pages make the idle looks back off (1 s, 2 s, 4 s ...).
        Thread.Sleep(2500);
        Assert.That(ts.Store.IdlePagesReclaimed, Is.Zero);
        for (int i = 0; i < 2000; i++)
            Assert.That(session.Delete(Key("live", i)).Found, Is.True);

        ts.Store.ReclaimDeadPagesSoon(); // MEMORY PURGE
        Assert.That(WaitFor(() => ts.Log.PagesInMemory <= 4), Is.True, $"pages in memory {ts.Log.PagesInMemory}");
        Assert.That(ts.Store.IdlePagesReclaimed, Is.GreaterThan(0));
        Assert.That(session.ScanAll(), Is.Empty);
    }

    [Test]
    public void PagesThatAreMostlyLiveStay()
    {
        using var ts = new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 256 * PageSize });
        var session = ts.Session;
        for (int i = 0; i < 2000; i++)
            Assert.That(session.Upsert(Key("live", i), TestData.Value(i, 150), default).IsCreatedRecord, Is.True);
        long pages = ts.Log.PagesInMemory;
        Thread.Sleep(2500);
        Assert.That(ts.Store.IdlePagesReclaimed, Is.Zero);
        Assert.That(ts.Log.PagesInMemory, Is.EqualTo(pages));
        Assert.That(ts.Store.RecordsCopiedForward, Is.Zero);
    }
}
