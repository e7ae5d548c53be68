using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>Several threads, each with its own session; the checks are invariants, never timings.</summary>
[TestFixture]
public sealed class ConcurrencyTests
{
    private const int CounterCount = 16;

    private static StoreOptions Options => new() { IndexSize = 1L << 8, MemorySize = 1L << 26 };

    [Test]
    public void ConcurrentIncrementsAddUpExactly([Values(2, 8)] int threadCount, [Values] bool batched)
    {
        using var ts = new TestStore(Options);
        const int incrementsPerThread = 20_000;

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            if (batched)
                session.BeginUnsafe();
            for (int i = 0; i < incrementsPerThread; i++)
            {
                session.Increment(TestData.Key(i % CounterCount), t + 1);
                if (batched && i % 64 == 63)
                    session.Refresh();
            }
            if (batched)
                session.EndUnsafe();
        });

        long perCounter = incrementsPerThread / CounterCount * ((long)threadCount * (threadCount + 1) / 2);
        for (int c = 0; c < CounterCount; c++)
            Assert.That(ts.Session.ReadCounter(TestData.Key(c)), Is.EqualTo(perCounter), $"counter {c}");
        Assert.That(ts.Session.ScanAll(), Has.Count.EqualTo(CounterCount));
    }

    [Test]
    public void ConcurrentIncrementsAddUpWhileTheReadOnlyBoundaryMoves([Values(2, 8)] int threadCount)
    {
        using var ts = new TestStore(Options);
        const int incrementsPerThread = 10_000;
        int workersDone = 0;
        long copyUpdates = 0;
        long shifts = 0;

        TestThreads.Run(threadCount + 1, t =>
        {
            if (t == threadCount)
            {
                // Moves every record below the read-only boundary, again and again, so increments copy-update.
                while (Volatile.Read(ref workersDone) < threadCount)
                {
                    ts.Log.ShiftReadOnlyToTail();
                    shifts++;
                    Thread.Yield();
                }
                return;
            }

            var session = ts.NewSession();
            long copies = 0;
            for (int i = 0; i < incrementsPerThread; i++)
            {
                // Workers shift too, so copy-updates happen however the threads are scheduled.
                if (i % 1000 == 999)
                    ts.Log.ShiftReadOnlyToTail();
                var status = session.Increment(TestData.Key(i % CounterCount), 1);
                if (!status.Found && !status.IsCreatedRecord)
                    Assert.Fail($"increment returned {status}");
                if (status.IsCopyUpdated)
                    copies++;
            }
            Interlocked.Add(ref copyUpdates, copies);
            Interlocked.Increment(ref workersDone);
        });

        Assert.That(shifts, Is.GreaterThan(0));
        Assert.That(copyUpdates, Is.GreaterThan(0), "some increments found their record read-only");
        long perCounter = (long)incrementsPerThread / CounterCount * threadCount;
        for (int c = 0; c < CounterCount; c++)
            Assert.That(ts.Session.ReadCounter(TestData.Key(c)), Is.EqualTo(perCounter), $"counter {c}");
        Assert.That(ts.Session.ScanAll(), Has.Count.EqualTo(CounterCount));
        Assert.That(ts.Log.FlushedUntilAddress, Is.EqualTo(ts.Log.ReadOnlyAddress));
    }

    [Test]
    public void ConcurrentAppendsToOneBucketWithAOnePageMutableRegion([Values(2, 8)] int threadCount)
    {
        // One bucket, so every operation waits for the same latch, and a mutable region of one page,
        // so every page the tail opens moves the read-only boundary (an epoch action) while its
        // opener holds that latch. Waiting for the latch must not hold those actions back.
        using var ts = new TestStore(new StoreOptions
        {
            IndexSize = 64,
            MemorySize = 1L << 26,
            MutableFraction = 1.0 / (1 << 14),
            EnableRevivification = false,
        });
        const int incrementsPerThread = 20_000;

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            // Refusing the in-place update makes every increment append a copy at the tail.
            var input = TestInput.Increment(1);
            input.RefuseIn = Callback.InPlaceUpdater;
            for (int i = 0; i < incrementsPerThread; i++)
            {
                session.RMW(TestData.Key(i % CounterCount), ref input);
                if (i % 3 == 0)
                    session.Read(TestData.Key(i % CounterCount), out _);
            }
        });

        Assert.That(ts.Log.TailAddress, Is.GreaterThan(100L * ts.Log.PageSize), "many pages were opened");
        long perCounter = (long)incrementsPerThread / CounterCount * threadCount;
        for (int c = 0; c < CounterCount; c++)
            Assert.That(ts.Session.ReadCounter(TestData.Key(c)), Is.EqualTo(perCounter), $"counter {c}");
        Assert.That(ts.Session.ScanAll(), Has.Count.EqualTo(CounterCount));
    }

    [Test]
    public void ReadsNeverSeeATornValue([Values(2, 8)] int threadCount)
    {
        using var ts = new TestStore(Options);
        const int keyCount = 8;
        const int opsPerThread = 20_000;
        long uniformReads = 0;

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            bool writer = t % 2 == 0;
            long reads = 0;
            for (int i = 0; i < opsPerThread; i++)
            {
                byte[] key = TestData.Key(i % keyCount);
                if (writer)
                {
                    // Lengths vary so writes go in place, to new records and into reused ones.
                    byte b = (byte)(1 + ((t * 37) + i) % 250);
                    session.Upsert(key, TestData.Uniform(b, 8 + ((i * 13) % 200)));
                    if (i % 500 == 0)
                        ts.Log.ShiftReadOnlyToTail();
                }
                else if (session.Read(key, out var value).Found)
                {
                    // Checked by hand: a constraint per read would dominate the test's run time.
                    if (value!.Length < 8 || value.AsSpan().IndexOfAnyExcept(value[0]) >= 0)
                        Assert.Fail($"torn value for key {i % keyCount}: {Convert.ToHexString(value)}");
                    reads++;
                }
            }
            Interlocked.Add(ref uniformReads, reads);
        });

        Assert.That(uniformReads, Is.GreaterThan(0));
        for (int k = 0; k < keyCount; k++)
        {
            Assert.That(ts.Session.Read(TestData.Key(k), out var value).Found, Is.True);
            Assert.That(value, Is.All.EqualTo(value![0]));
        }
    }

    [Test]
    public void InsertDeleteChurnOnDistinctKeysEndsInTheExpectedState([Values(2, 8)] int threadCount, [Values] bool revivification, [Values] bool shifting)
    {
        // A small index: the threads' keys share buckets and chains.
        using var ts = new TestStore(Options with { EnableRevivification = revivification });
        const int keysPerThread = 200;
        const int rounds = 20;
        var finalState = new Dictionary<int, int>[threadCount];

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            var state = new Dictionary<int, int>();
            for (int round = 0; round < rounds; round++)
            {
                for (int k = 0; k < keysPerThread; k++)
                {
                    int key = (t * keysPerThread) + k;
                    // Each round deletes a different subset and rewrites the rest with a new size.
                    if ((k + round) % 3 == 0)
                    {
                        var status = session.Delete(TestData.FixedKey(key));
                        Assert.That(status.Found, Is.EqualTo(state.Remove(key)), $"delete of {key} in round {round}");
                    }
                    else
                    {
                        session.Upsert(TestData.FixedKey(key), TestData.Value(key + round, 8 + (((k + round) % 4) * 16)));
                        state[key] = round;
                    }
                    // Thread 0 also moves the read-only boundary now and then: deletes then append tombstones.
                    if (shifting && t == 0 && k % 50 == 0)
                        ts.Log.ShiftReadOnlyToTail();
                }
            }
            finalState[t] = state;
        });

        int live = 0;
        for (int t = 0; t < threadCount; t++)
        {
            for (int k = 0; k < keysPerThread; k++)
            {
                int key = (t * keysPerThread) + k;
                var status = ts.Session.Read(TestData.FixedKey(key), out var value);
                if (finalState[t].TryGetValue(key, out int round))
                {
                    Assert.That(status.Found, Is.True, $"key {key}");
                    Assert.That(value, Is.EqualTo(TestData.Value(key + round, 8 + (((k + round) % 4) * 16))), $"key {key}");
                    live++;
                }
                else
                {
                    Assert.That(status.NotFound, Is.True, $"key {key}");
                }
            }
        }
        Assert.That(ts.Session.ScanAll(), Has.Count.EqualTo(live));
        // With frequent shifts, freed records turn read-only (and so unusable) before anyone needs
        // them, so reuse is only guaranteed without shifting.
        if (revivification && !shifting)
            Assert.That(ts.Store.RevivifiedRecordCount, Is.GreaterThan(0));
    }

    [Test]
    public void ConcurrentWritersFillingTheMemoryBudgetLoseNothing([Values(2, 8)] int threadCount)
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = 1L << 12, MemorySize = 16 * 4096, MutableFraction = 0.5 });
        var written = new List<int>[threadCount];

        TestThreads.Run(threadCount, t =>
        {
            var session = ts.NewSession();
            var mine = new List<int>();
            int outOfMemory = 0;
            // Keep writing for a while after the first out-of-memory. Space the head mover reclaims (records
            // abandoned by lost races, page ends) may let a later write through; every write that succeeded counts.
            for (int i = 0; outOfMemory < 50; i++)
            {
                int key = (t * 1_000_000) + i;
                var status = session.Upsert(TestData.FixedKey(key), TestData.Value(key, 8 + (i % 5 * 8)), default);
                if (status.IsOutOfMemory)
                    outOfMemory++;
                else if (status.IsCreatedRecord)
                    mine.Add(key);
                else
                    Assert.Fail($"{status} after {outOfMemory} out-of-memory statuses");
            }
            written[t] = mine;
        });

        Assert.That(ts.Log.PagesInMemory, Is.LessThanOrEqualTo(16));
        int total = 0;
        for (int t = 0; t < threadCount; t++)
        {
            for (int i = 0; i < written[t].Count; i++)
            {
                int key = written[t][i];
                Assert.That(ts.Session.Read(TestData.FixedKey(key), out var value).Found, Is.True, $"key {key}");
                Assert.That(value, Is.EqualTo(TestData.Value(key, 8 + (key % 1_000_000 % 5 * 8))), $"key {key}");
            }
            total += written[t].Count;
        }
        Assert.That(ts.Session.ScanAll(), Has.Count.EqualTo(total));
    }
}
