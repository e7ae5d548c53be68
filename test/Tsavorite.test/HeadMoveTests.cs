using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// The head of the log moving: dead space reclaimed, live records copied forward, frames reused while other
/// threads read and write, scans exact while records move.
/// </summary>
[TestFixture]
public sealed class HeadMoveTests
{
    private const int PageSizeBits = 12;
    private const int PageSize = 1 << PageSizeBits;

    /// <summary>
    /// 16 frames of 4 KB, three of them mutable: most updates copy their record to the tail, so the head must
    /// move every few dozen writes of a few hundred bytes.
    /// </summary>
    private static StoreOptions SmallLog(MemoryBudget? budget = null)
        => new() { PageSizeBits = PageSizeBits, MemorySize = 16 * PageSize, MutableFraction = 0.2, Budget = budget };

    [Test]
    public void ReclamationKeepsExactlyTheLiveSet([Values(1, 7)] int seed)
    {
        using var ts = new TestStore(SmallLog());
        var session = ts.Session;
        var random = new Random(seed);
        var model = new Dictionary<int, byte[]>();
        long written = 0;
        int op = 0;
        // Twenty times the budget in writes over 100 keys of 10-400 bytes (about 24 KB live in 64 KB).
        while (written < 20L * 16 * PageSize)
        {
            int key = random.Next(100);
            int choice = random.Next(10);
            if (choice == 0)
            {
                var status = session.Delete(TestData.Key(key));
                Assert.That(status.Found, Is.EqualTo(model.Remove(key)), $"op {op}: delete {key}");
            }
            else if (choice == 1 && model.TryGetValue(key, out var old))
            {
                var suffix = TestData.Value(op, random.Next(1, 40));
                if (old.Length + suffix.Length > 400)
                    continue;
                var status = session.RMW(TestData.Key(key), TestInput.Append(suffix), out _);
                Assert.That(status.Found, Is.True, $"op {op}: append {key}: {status}");
                model[key] = old.Concat(suffix).ToArray();
                written += suffix.Length;
            }
            else
            {
                var value = TestData.Value(op, random.Next(10, 400));
                var status = session.Upsert(TestData.Key(key), value, default);
                Assert.That(status.IsOutOfMemory || status.IsCanceled, Is.False, $"op {op}: upsert {key}: {status}");
                model[key] = value;
                written += value.Length;
            }
            op++;
        }

        Assert.That(ts.Store.PagesEvicted, Is.GreaterThan(16), "the head passed the memory many times over");
        Assert.That(ts.Log.HeadAddress, Is.GreaterThan(16L * PageSize));
        Assert.That(ts.Log.PagesInMemory, Is.LessThanOrEqualTo(16));
        AssertMatches(session, model);
    }

    [Test]
    public void RecordsKeepExpirationAndValueWhenCopiedForward()
    {
        using var ts = new TestStore(SmallLog() with { EnableRevivification = false });
        var session = ts.Session;
        long expiration = DateTimeOffset.UtcNow.AddDays(1).ToUnixTimeMilliseconds();
        Assert.That(session.Upsert("kept"u8, "value"u8, new TestInput { ExpirationUnixMs = expiration }).IsCreatedRecord, Is.True);
        Assert.That(session.Increment("counter"u8, 41).IsCreatedRecord, Is.True);
        // Values of changing sizes: growing ones do not fit in place and go to the tail.
        for (int i = 0; i < 4000; i++)
            Assert.That(session.Upsert(TestData.Key(i % 100), TestData.Value(i, 100 + (i * 37 % 200)), default).IsOutOfMemory, Is.False);

        Assert.That(ts.Store.PagesEvicted, Is.GreaterThan(16));
        Assert.That(ts.Store.RecordsCopiedForward, Is.GreaterThan(0));
        var output = new TestOutput();
        Assert.That(session.Read("kept"u8, ref output).Found, Is.True);
        Assert.That(output.Value, Is.EqualTo("value"u8.ToArray()));
        Assert.That(output.Expiration, Is.EqualTo(expiration));
        Assert.That(output.Address, Is.GreaterThanOrEqualTo(ts.Log.HeadAddress));
        Assert.That(session.Increment("counter"u8, 1).Found, Is.True);
        Assert.That(session.ReadCounter("counter"u8), Is.EqualTo(42));
    }

    [Test]
    public void ExpiredRecordsAreReclaimedWithoutEviction()
    {
        var budget = new MemoryBudget();
        using var ts = new TestStore(SmallLog(budget));
        var session = ts.Session;
        // Rounds of keys that expire at once: twenty times the budget, none of it live for long.
        for (int round = 0; round < 40; round++)
        {
            // Due at once (an expiration at or before now has passed): a round of writes may take less than a millisecond.
            long expiration = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
            for (int i = 0; i < 100; i++)
            {
                var status = session.Upsert(TestData.Key((round * 100) + i), TestData.Value(i, 300), new TestInput { ExpirationUnixMs = expiration });
                Assert.That(status.IsOutOfMemory, Is.False, $"round {round}, key {i}");
            }
        }
        Assert.That(budget.ExpiredRecords, Is.GreaterThan(0));
        Assert.That(budget.EvictedRecords, Is.Zero);
        Assert.That(session.ScanAll(), Is.Empty);
    }

    [Test]
    public void HeadMovesWhileThreadsReadAndWrite([Values(4, 8)] int threadCount)
    {
        using var ts = new TestStore(SmallLog());
        const int KeysPerThread = 12;
        var models = new Dictionary<int, (int Version, int Length)>[threadCount];

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            var random = new Random(t);
            var mine = new Dictionary<int, (int Version, int Length)>();
            for (int op = 0; op < 8000 || (op < 200_000 && ts.Store.PagesEvicted < 64); op++)
            {
                bool write = random.Next(2) == 0;
                int key = write ? (t * KeysPerThread) + random.Next(KeysPerThread) : random.Next(threadCount * KeysPerThread);
                if (write)
                {
                    if (random.Next(8) == 0)
                    {
                        session.Delete(SelfCheckingValue.Key(key));
                        mine.Remove(key);
                    }
                    else
                    {
                        int length = random.Next(16, 300);
                        var status = session.Upsert(SelfCheckingValue.Key(key), SelfCheckingValue.Make(key, op, length), default);
                        Assert.That(status.IsOutOfMemory || status.IsCanceled, Is.False, status.ToString());
                        mine[key] = (op, length);
                    }
                }
                else if (session.Read(SelfCheckingValue.Key(key), out var value).Found)
                {
                    // A torn or recycled record would not check out.
                    SelfCheckingValue.Check(key, value!);
                }
            }
            models[t] = mine;
        });

        Assert.That(ts.Store.PagesEvicted, Is.GreaterThan(0));
        var session = ts.Session;
        int live = 0;
        for (int t = 0; t < threadCount; t++)
        {
            for (int k = t * KeysPerThread; k < (t + 1) * KeysPerThread; k++)
            {
                bool found = session.Read(SelfCheckingValue.Key(k), out var value).Found;
                Assert.That(found, Is.EqualTo(models[t].ContainsKey(k)), $"key {k}");
                if (!found)
                    continue;
                live++;
                Assert.That(value, Is.EqualTo(SelfCheckingValue.Make(k, models[t][k].Version, models[t][k].Length)), $"key {k}");
            }
        }
        Assert.That(session.ScanAll(), Has.Count.EqualTo(live));
    }

    [Test]
    public void ScansMeetEveryStableKeyOnceWhileRecordsMove()
    {
        // Without revivification every overwrite goes to the tail, so the head keeps moving.
        using var ts = new TestStore(SmallLog() with { EnableRevivification = false });
        for (int k = 0; k < 60; k++)
            ts.Session.Upsert(TestData.Key(k), TestData.Value(k, 50), default);
        using var stop = new CancellationTokenSource();
        var writer = new Thread(() =>
        {
            var session = ts.NewSession();
            var random = new Random(3);
            // Only other keys change: the 60 stable ones are copied forward by the head mover, never rewritten.
            for (int i = 0; !stop.IsCancellationRequested && i < 400_000; i++)
                session.Upsert(TestData.Key(1000 + random.Next(40)), TestData.Value(i, random.Next(50, 300)), default);
        });
        writer.Start();
        long evictedBefore = ts.Store.PagesEvicted;
        try
        {
            for (int scan = 0; scan < 200 || (ts.Store.PagesEvicted < evictedBefore + 64 && writer.IsAlive); scan++)
            {
                var stable = ts.Session.ScanAll().Select(r => System.Text.Encoding.ASCII.GetString(r.Key))
                    .Where(k => int.Parse(k.AsSpan(3), System.Globalization.CultureInfo.InvariantCulture) < 1000).ToList();
                Assert.That(stable, Has.Count.EqualTo(60), $"scan {scan}");
                Assert.That(stable.Distinct().Count(), Is.EqualTo(60), $"scan {scan}");
            }
        }
        finally
        {
            stop.Cancel();
            writer.Join();
        }
        Assert.That(ts.Store.PagesEvicted, Is.GreaterThanOrEqualTo(evictedBefore + 64));
        Assert.That(ts.Store.RecordsCopiedForward, Is.GreaterThan(60));
    }

    [Test]
    public void KeyLockHolderWritesWhileTheHeadMoves()
    {
        using var ts = new TestStore(SmallLog() with { EnableRevivification = false });
        using var stop = new CancellationTokenSource();
        var churn = new Thread(() =>
        {
            var session = ts.NewSession();
            for (int i = 0; !stop.IsCancellationRequested && i < 100_000; i++)
                session.Upsert(TestData.Key(i % 120), TestData.Value(i, 50 + (i * 37 % 250)), default);
        });
        churn.Start();
        int rounds;
        try
        {
            rounds = LockAndIncrement(ts, () => churn.IsAlive);
        }
        finally
        {
            stop.Cancel();
            churn.Join();
        }
        Assert.That(ts.Session.ReadCounter("locked"u8), Is.EqualTo(rounds * 5));
        Assert.That(ts.Store.PagesEvicted, Is.GreaterThan(0), $"copied {ts.Store.RecordsCopiedForward}, pages {ts.Log.PagesInMemory}, tail {ts.Log.TailAddress}");
    }

    /// <summary>Rounds of five increments under an exclusive key lock, until the head moved enough; returns the rounds.</summary>
    private static int LockAndIncrement(TestStore ts, Func<bool> churnAlive)
    {
        int rounds = 0;
        var locker = ts.NewSession();
        var keys = new[] { KeyLockRequest.For("locked"u8, exclusive: true) };
        for (int round = 0; round < 200; round++)
        {
            rounds++;
            locker.BeginUnsafe();
            locker.LockKeys(keys);
            try
            {
                // Writes under the lock need pages; the head mover may be waiting for this very latch.
                for (int i = 0; i < 5; i++)
                    Assert.That(locker.Increment("locked"u8, 1).IsOutOfMemory, Is.False);
            }
            finally
            {
                locker.UnlockKeys();
                locker.EndUnsafe();
            }
            // Give the churn time to move the head between rounds: the test waits for states, not durations.
            if (round == 199 && ts.Store.PagesEvicted < 32 && churnAlive())
                round--;
        }
        return rounds;
    }

    [Test]
    public void FramesBeyondAShrunkBudgetGoBackToTheSystem()
    {
        var budget = new MemoryBudget();
        using var ts = new TestStore(SmallLog(budget) with { EnableRevivification = false });
        var session = ts.Session;
        for (int i = 0; i < 4000; i++)
            session.Upsert(TestData.Key(i % 60), TestData.Value(i, 50 + (i * 37 % 300)), default);
        Assert.That(ts.Log.MemoryInUse, Is.GreaterThan(8L * PageSize));

        budget.Limit = ts.Store.IndexBytes + (8L * PageSize);
        for (int i = 0; i < 4000; i++)
            Assert.That(session.Upsert(TestData.Key(i % 60), TestData.Value(i, 50 + (i * 37 % 300)), default).IsOutOfMemory, Is.False);
        Assert.That(ts.Log.PagesInMemory, Is.LessThanOrEqualTo(8));
        Assert.That(ts.Log.MemoryInUse, Is.LessThanOrEqualTo(8L * PageSize), "frames beyond the new budget were freed");
        Assert.That(budget.Used, Is.LessThanOrEqualTo(budget.Limit));
    }

    internal static void AssertMatches(TestSession session, Dictionary<int, byte[]> model)
    {
        for (int k = 0; k < 100; k++)
        {
            bool found = session.Read(TestData.Key(k), out var value).Found;
            Assert.That(found, Is.EqualTo(model.ContainsKey(k)), $"key {k}");
            if (found)
                Assert.That(value, Is.EqualTo(model[k]), $"key {k}");
        }
        var scanned = session.ScanAll();
        Assert.That(scanned, Has.Count.EqualTo(model.Count));
    }
}

/// <summary>Values that carry their key, version and length, and bytes derived from them, so a torn or recycled read shows.</summary>
internal static class SelfCheckingValue
{
    public static byte[] Key(int key) => TestData.FixedKey(key);

    public static byte[] Make(int key, int version, int length)
    {
        var value = new byte[length];
        BitConverter.TryWriteBytes(value.AsSpan(0, 4), key);
        BitConverter.TryWriteBytes(value.AsSpan(4, 4), version);
        BitConverter.TryWriteBytes(value.AsSpan(8, 4), length);
        for (int i = 12; i < length; i++)
            value[i] = (byte)((key * 131) + (version * 17) + i);
        return value;
    }

    public static void Check(int key, byte[] value)
    {
        Assert.That(value.Length, Is.GreaterThanOrEqualTo(12));
        int storedKey = BitConverter.ToInt32(value, 0);
        int version = BitConverter.ToInt32(value, 4);
        int length = BitConverter.ToInt32(value, 8);
        Assert.That((storedKey, length), Is.EqualTo((key, value.Length)));
        Assert.That(value, Is.EqualTo(Make(key, version, length)));
    }
}
