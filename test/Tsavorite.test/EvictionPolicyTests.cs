using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// Each eviction policy drops only what it may when the head of the log passes live records: volatile policies
/// never a key without an expiration, LRU not a key read since it was written or moved, LFU not a key read far
/// more often than the rest, volatile-ttl the nearer expirations first.
/// </summary>
[TestFixture]
public sealed class EvictionPolicyTests
{
    private const int PageSize = 1 << 12;

    private static readonly long FarFuture = DateTimeOffset.UtcNow.AddDays(30).ToUnixTimeMilliseconds();

    /// <summary>16 pages of 4 KB, three mutable, under a budget with <paramref name="policy"/>.</summary>
    private static TestStore Store(EvictionPolicy policy, out MemoryBudget budget)
    {
        budget = new MemoryBudget { Policy = policy };
        return new TestStore(new StoreOptions { PageSizeBits = 12, MemorySize = 16 * PageSize, MutableFraction = 0.2, Budget = budget });
    }

    /// <summary>Writes distinct keys (far more than fit) and asserts none is refused.</summary>
    private static void Flood(TestSession session, string prefix, int count, long expiration = 0)
    {
        for (int i = 0; i < count; i++)
        {
            var status = session.Upsert(Prefixed(prefix, i), TestData.Value(i, 150), new TestInput { ExpirationUnixMs = expiration });
            Assert.That(status.IsOutOfMemory, Is.False, $"{prefix}{i}");
        }
    }

    private static byte[] Prefixed(string prefix, int i) => System.Text.Encoding.ASCII.GetBytes(prefix + i);

    [Test]
    public void VolatilePoliciesNeverEvictKeysWithoutExpiration(
        [Values(EvictionPolicy.VolatileLru, EvictionPolicy.VolatileLfu, EvictionPolicy.VolatileRandom, EvictionPolicy.VolatileTtl)] EvictionPolicy policy)
    {
        using var ts = Store(policy, out var budget);
        var session = ts.Session;
        for (int i = 0; i < 30; i++)
            Assert.That(session.Upsert(Prefixed("persistent", i), TestData.Value(i, 100), default).IsCreatedRecord, Is.True);
        // Seven times the budget of keys with an expiration.
        Flood(session, "volatile", 3000, FarFuture);

        Assert.That(budget.EvictedRecords, Is.GreaterThan(1000));
        for (int i = 0; i < 30; i++)
            Assert.That(session.Read(Prefixed("persistent", i), out var value).Found && value!.AsSpan().SequenceEqual(TestData.Value(i, 100)), Is.True, $"persistent{i}");
        Assert.That(ts.Store.RecordsCopiedForward, Is.GreaterThan(0), "the persistent keys were copied forward");
    }

    [Test]
    public void VolatilePolicyRefusesWritesWhenOnlyKeysWithoutExpirationFillTheBudget()
    {
        using var ts = Store(EvictionPolicy.VolatileLru, out var budget);
        var session = ts.Session;
        Status status = default;
        int written = 0;
        for (; written < 5000; written++)
        {
            status = session.Upsert(Prefixed("persistent", written), TestData.Value(written, 150), default);
            if (!status.IsCreatedRecord)
                break;
        }
        Assert.That(status.IsOutOfMemory, Is.True, status.ToString());
        Assert.That(budget.EvictedRecords, Is.Zero);
        for (int i = 0; i < written; i++)
            Assert.That(session.Read(Prefixed("persistent", i), out _).Found, Is.True, $"persistent{i}");
    }

    [Test]
    public void AllKeysLruKeepsAKeyReadEveryRound()
    {
        using var ts = Store(EvictionPolicy.AllKeysLru, out var budget);
        var session = ts.Session;
        session.Upsert("hot"u8, "value"u8, default);
        for (int round = 0; round < 150; round++)
        {
            for (int i = 0; i < 20; i++)
                Assert.That(session.Upsert(Prefixed("cold", (round * 20) + i), TestData.Value(i, 150), default).IsOutOfMemory, Is.False);
            Assert.That(session.Read("hot"u8, out _).Found, Is.True, $"round {round}");
        }
        Assert.That(budget.EvictedRecords, Is.GreaterThan(1000), "cold keys were evicted");
        Assert.That(session.Read(Prefixed("cold", 0), out _).NotFound, Is.True, "the oldest cold key went first");
    }

    [Test]
    public void AllKeysLfuKeepsAFrequentlyReadKey()
    {
        using var ts = Store(EvictionPolicy.AllKeysLfu, out var budget);
        var session = ts.Session;
        session.Upsert("hot"u8, "value"u8, default);
        for (int round = 0; round < 150; round++)
        {
            for (int i = 0; i < 20; i++)
                Assert.That(session.Upsert(Prefixed("cold", (round * 20) + i), TestData.Value(i, 150), default).IsOutOfMemory, Is.False);
            for (int r = 0; r < 20; r++)
                Assert.That(session.Read("hot"u8, out _).Found, Is.True, $"round {round}");
        }
        Assert.That(budget.EvictedRecords, Is.GreaterThan(1000));
    }

    [Test]
    public void AllKeysRandomEvictsWhateverReachesTheHead()
    {
        using var ts = Store(EvictionPolicy.AllKeysRandom, out var budget);
        Flood(ts.Session, "key", 3000);
        Assert.That(budget.EvictedRecords, Is.GreaterThan(1000));
        // Until the head has seen how full its pages are, it copies; after that nothing earns a second chance.
        Assert.That(ts.Store.RecordsCopiedForward, Is.LessThan(budget.EvictedRecords / 5));
        Assert.That(ts.Session.ScanAll().Count + budget.EvictedRecords, Is.EqualTo(3000), "every key is either there or counted as evicted");
    }

    [Test]
    public void VolatileTtlEvictsNearerExpirationsFirst([Values(EvictionPolicy.VolatileTtl, EvictionPolicy.VolatileRandom)] EvictionPolicy policy)
    {
        using var ts = Store(policy, out var budget);
        var session = ts.Session;
        long late = DateTimeOffset.UtcNow.AddDays(10).ToUnixTimeMilliseconds();
        for (int i = 0; i < 100; i++)
            Assert.That(session.Upsert(Prefixed("late", i), TestData.Value(i, 150), new TestInput { ExpirationUnixMs = late }).IsCreatedRecord, Is.True);
        // Seven times the budget of keys that expire sooner.
        Flood(session, "soon", 3000, DateTimeOffset.UtcNow.AddHours(1).ToUnixTimeMilliseconds());

        int lateLeft = 0;
        for (int i = 0; i < 100; i++)
            lateLeft += session.Read(Prefixed("late", i), out _).Found ? 1 : 0;
        Assert.That(budget.EvictedRecords, Is.GreaterThan(2000));
        // volatile-random makes no difference between them, so the late keys go as they reach the head.
        if (policy == EvictionPolicy.VolatileTtl)
            Assert.That(lateLeft, Is.EqualTo(100), $"the later expirations outlive 3000 nearer ones (copied {ts.Store.RecordsCopiedForward}, evicted {budget.EvictedRecords}, pages {ts.Store.PagesEvicted})");
        else
            Assert.That(lateLeft, Is.Zero);
    }

    [Test]
    public void DroppedObjectRecordsAreReportedToTheObserver()
    {
        using var ts = Store(EvictionPolicy.AllKeysRandom, out var budget);
        var observer = new RecordingObserver();
        ts.Store.EvictionObserver = observer;
        var session = ts.Session;
        long expired = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(); // due at once
        for (int i = 0; i < 3000; i++)
        {
            var input = new TestInput { MarkObject = i % 2 == 0, ExpirationUnixMs = i % 3 == 0 ? expired : 0 };
            Assert.That(session.Upsert(Prefixed("key", i), TestData.Value(i, 150), input).IsOutOfMemory, Is.False);
        }
        Assert.That(observer.Evicted, Is.EqualTo(budget.EvictedRecords));
        Assert.That(observer.Expired, Is.EqualTo(budget.ExpiredRecords));
        Assert.That(observer.Expired, Is.GreaterThan(0));
        Assert.That(observer.ObjectRecords, Is.GreaterThan(0), "object records are reported, so their objects can be released");
    }

    private sealed class RecordingObserver : IEvictionObserver
    {
        private long _evicted;
        private long _expired;
        private long _objects;

        public long Evicted => Volatile.Read(ref _evicted);
        public long Expired => Volatile.Read(ref _expired);
        public long ObjectRecords => Volatile.Read(ref _objects);

        public void OnDropped(ref LogRecord record, DisposeReason reason)
        {
            Assert.That(record.Info.Tombstone, Is.False, "told before the record reads as deleted");
            if (record.Info.ValueIsObject)
                Interlocked.Increment(ref _objects);
            if (reason == DisposeReason.Evicted)
                Interlocked.Increment(ref _evicted);
            else if (reason == DisposeReason.Expired)
                Interlocked.Increment(ref _expired);
            else
                Assert.Fail($"unexpected reason {reason}");
        }
    }
}
